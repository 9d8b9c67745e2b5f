"""The Pi's shell scripts: shellcheck over firmware/*.sh and firmware/box/*.sh (Debian's package; .ci/run installs
it), and what firmware/bundle.sh asks pip for (a stand-in pip records it: no download here)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "firmware").rglob("*.sh"))


def test_shellcheck_finds_nothing_in_the_firmware_scripts() -> None:
    if shutil.which("shellcheck") is None:
        if os.environ.get("CI"):
            pytest.fail("shellcheck is missing (apt-get install shellcheck; .ci/run does)")
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    assert {p.name for p in SCRIPTS} >= {"install.sh", "bundle.sh", "check-arm.sh", "check-box.sh", "agent.sh"}
    result = subprocess.run(["shellcheck", "--shell=bash", *map(str, SCRIPTS)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_bundle_downloads_wheels_only_for_the_pis_python_and_architecture(tmp_path: Path) -> None:
    recorder = tmp_path / "pip"
    recorder.write_text(f"#!{sys.executable}\nimport json, sys\n"
                        f"open({str(tmp_path / 'args.json')!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    recorder.chmod(0o755)
    result = subprocess.run(["bash", str(ROOT / "firmware" / "bundle.sh"), str(tmp_path / "wheels")],
                            env={**os.environ, "PIP": str(recorder), "PYTHON": sys.executable},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    import json

    args = json.loads((tmp_path / "args.json").read_text())
    assert args[:3] == ["download", "--dest", str(tmp_path / "wheels")]
    assert "--only-binary=:all:" in args and "--no-binary" not in " ".join(args)
    options = list(zip(args, args[1:]))
    platforms = {b for a, b in options if a == "--platform"}
    assert {"manylinux_2_17_aarch64", "manylinux_2_34_aarch64", "manylinux_2_36_aarch64"} <= platforms  # lgpio: 2_34
    assert "manylinux_2_37_aarch64" not in platforms and ("--python-version", "3.11") in options
    assert ("--implementation", "cp") in options and ("--abi", "cp311") in options
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    wanted = {r.split(";")[0].strip() for extra in ("pi", "table", "web") for r in extras[extra]
              if not r.startswith("companion[")} | set(project["build-system"]["requires"])
    assert wanted <= set(args) and "lgpio>=0.2" in args  # the Pi's own, whatever this computer is
    assert not any(a.startswith("companion") for a in args)
    for arch, platform in (("armv7l", "manylinux_2_36_armv7l"), ("x86_64", "manylinux_2_36_x86_64"), ("x86", None)):
        again = subprocess.run(["bash", str(ROOT / "firmware" / "bundle.sh"), str(tmp_path / "w2")],
                               env={**os.environ, "PIP": str(recorder), "PYTHON": sys.executable, "PI_ARCH": arch},
                               capture_output=True, text=True, timeout=60)
        if platform is None:
            assert again.returncode == 2 and "PI_ARCH must be aarch64" in again.stderr and "x86_64" in again.stderr
        else:
            assert again.returncode == 0 and platform in (tmp_path / "args.json").read_text()


def test_bundle_for_trixie_takes_lgpios_source_where_pypi_has_no_wheel(tmp_path: Path) -> None:
    """Python 3.13 (Raspberry Pi OS on Trixie): glibc 2.41's wheels, and lgpio's source when no wheel is found."""
    calls = tmp_path / "calls.jsonl"
    recorder = tmp_path / "pip"
    recorder.write_text(f"#!{sys.executable}\nimport json, sys\n"
                        f"open({str(calls)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
                        "no_wheel = '--only-binary=:all:' in sys.argv and sys.argv[-1].startswith('lgpio')\n"
                        "sys.exit(1 if no_wheel else 0)\n")
    recorder.chmod(0o755)
    result = subprocess.run(["bash", str(ROOT / "firmware" / "bundle.sh"), str(tmp_path / "wheels")],
                            env={**os.environ, "PIP": str(recorder), "PYTHON": sys.executable,
                                 "PI_PYTHON": "3.13", "PI_GLIBC": "2.41"}, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    import json

    wheel, source, rest = (json.loads(line) for line in calls.read_text().splitlines())
    assert wheel[-1] == "lgpio>=0.2" and "manylinux_2_41_aarch64" in wheel and ("--abi", "cp313") in zip(wheel, wheel[1:])
    assert source[-1] == "lgpio>=0.2" and "--no-binary=:all:" in source and "--platform" not in source
    assert "lgpio>=0.2" not in rest and "wheel" in rest and "manylinux_2_42_aarch64" not in rest
    assert "no lgpio wheel for Python 3.13" in result.stdout
    bad = subprocess.run(["bash", str(ROOT / "firmware" / "bundle.sh"), str(tmp_path / "w2")],
                         env={**os.environ, "PIP": str(recorder), "PYTHON": sys.executable, "PI_GLIBC": "2.x"},
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "PI_GLIBC must read 2.N" in bad.stderr


def test_install_takes_the_bundle_without_an_index() -> None:
    script = (ROOT / "firmware" / "install.sh").read_text()
    assert "firmware/wheels" in script and "--no-index --find-links" in script
