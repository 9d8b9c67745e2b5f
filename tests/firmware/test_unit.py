"""The service's confinement (issue 39): ``systemd-analyze security --offline=true`` scores firmware/companion.service
4.0 at most, every exposure it still finds is said in a comment of the unit, and nothing of the table needs what the
unit takes away (sudo for powering off: polkit instead)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.poweroff import POWER_OFF, power_off

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "firmware" / "companion.service"
RULES = ROOT / "firmware" / "polkit-companion.rules"
MOST = 4.0


def analyzed() -> str:
    if shutil.which("systemd-analyze") is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing (apt-get install systemd; .ci/run does)")
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(UNIT)],
                          capture_output=True, text=True, timeout=120)
    assert "Overall exposure level" in done.stdout, done.stdout + done.stderr
    return done.stdout


def test_the_unit_scores_4_or_less() -> None:
    score = float(re.search(r"Overall exposure level for companion\.service: ([0-9.]+)", analyzed()).group(1))  # type: ignore[union-attr]
    assert score <= MOST, analyzed()


def test_every_exposure_left_is_said_in_a_comment_of_the_unit() -> None:
    comments = "\n".join(line for line in UNIT.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
    left = [line.split()[1] for line in analyzed().splitlines() if line.startswith("✗")]
    assert left, "no exposure at all: then say so here"
    unsaid = [name for name in left if re.split(r"[=~]", name)[0] + "=" not in comments]
    assert not unsaid, unsaid


def test_the_unit_keeps_what_the_issue_asks() -> None:
    lines = set(UNIT.read_text(encoding="utf-8").splitlines())
    for wanted in ("NoNewPrivileges=yes", "ProtectSystem=strict", "StateDirectory=companion",
                   "CapabilityBoundingSet=CAP_NET_BIND_SERVICE", "UMask=0077", "SystemCallFilter=@system-service",
                   "DevicePolicy=closed", "DeviceAllow=char-gpiochip rw", "DeviceAllow=char-i2c rw",
                   "DeviceAllow=char-spi rw", "DeviceAllow=char-alsa rw"):
        assert wanted in lines, wanted
    assert any(line.startswith("MemoryMax=") for line in lines) and any(line.startswith("TasksMax=") for line in lines)
    assert any(line.startswith("RestrictAddressFamilies=") for line in lines)


def test_powering_off_asks_logind_through_polkit_never_sudo() -> None:
    runs_sudo = re.compile(r"""(["'])sudo(\1|\s+-)""")  # a command run with sudo (not a sentence telling to)
    assert not [p for p in (ROOT / "companion").rglob("*.py") if runs_sudo.search(p.read_text(encoding="utf-8"))]
    install = (ROOT / "firmware" / "install.sh").read_text(encoding="utf-8")
    assert "NOPASSWD" not in install and "rm -f /etc/sudoers.d/companion" in install  # an earlier install's goes
    rules = RULES.read_text(encoding="utf-8")
    assert '"org.freedesktop.login1.power-off"' in rules and 'subject.user !== "companion"' in rules
    asked: list[list[str]] = []

    class Done:
        returncode, stdout, stderr = 0, "", ""

    assert power_off(lambda args, **_: asked.append(args) or Done())
    assert asked == [list(POWER_OFF)] and "sudo" not in POWER_OFF


def test_a_refused_power_off_is_said_not_raised() -> None:
    class Refused:
        returncode, stdout, stderr = 1, "", "Access denied"

    assert not power_off(lambda args, **_: Refused())
    assert not power_off(command=["/nowhere/systemctl", "poweroff"])
