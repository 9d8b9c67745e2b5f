"""An install that is not editable, as ``firmware/install.sh`` and pipx make one, plays the bundled demo.

The project is copied as a clone has it (``git ls-files``), installed with ``pip install "DIR[table]"`` into a
fresh venv (``COMPANION_PURE=1``: the engine from its sources, as install.sh does; pip's cache and
``PIP_FIND_LINKS`` make the dependencies quick), and its ``companion`` command plays the bundled demo from a
directory outside the project: what it reads must be in the package, not in the repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def clone_of_project(target: Path) -> Path:
    """The project's files as a clone of it holds them (tracked, and new ones not ignored), copied to ``target``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode()
    archive = target.with_suffix(".tar")
    with tarfile.open(archive, "w") as tar:
        for name in filter(None, listed.split("\0")):
            if (ROOT / name).is_file():  # a file deleted but not yet committed is listed and gone
                tar.add(ROOT / name, arcname=name)
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh venv holding the project installed from a copy, not editable."""
    where = tmp_path_factory.mktemp("install")
    source = clone_of_project(where / "companion")
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-input", f"{source}[table]"],
                         env={**os.environ, "COMPANION_PURE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return venv / "bin"


def test_the_bundled_demo_plays_from_another_directory(installed: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(installed / "companion"), "demo", "--headless"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Winner: Ann" in result.stdout


def test_the_package_carries_the_pin_map_of_the_repository(installed: Path, tmp_path: Path) -> None:
    """The bundled pin map is hardware/pins.toml as it is now: built from it, not a second copy kept in git."""
    probe = subprocess.run([str(installed / "python"), "-c", "from companion.drivers import pins; "
                            "print(pins.PACKAGED_PINS); print(pins.SOURCE_PINS.is_file())"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True)
    packaged, source_there = probe.stdout.splitlines()
    assert Path(packaged).read_bytes() == (ROOT / "hardware" / "pins.toml").read_bytes()
    assert source_there == "False", "the installed package should not find a source tree beside it"
    assert not (ROOT / "companion" / "drivers" / "pins.toml").exists(), "the build left a copy in the source tree"

