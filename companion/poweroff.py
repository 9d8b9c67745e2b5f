"""The host menu's "Shut down": logind powers the Pi off, asked by ``systemctl poweroff`` as the service's own user
and allowed by polkit (firmware/polkit-companion.rules: ``org.freedesktop.login1.power-off``), never through sudo,
which the unit's ``NoNewPrivileges=yes`` rules out."""

from __future__ import annotations

import logging
import subprocess
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger(__name__)

POWER_OFF = ("/usr/bin/systemctl", "poweroff", "--no-ask-password")


def power_off(run: Callable[..., Any] = subprocess.run, command: Sequence[str] = POWER_OFF) -> bool:
    """Ask logind to power the Pi off; False (logged) if it refused or could not be asked."""
    try:
        done = run(list(command), capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        log.error("power-off not asked: %s", error)
        return False
    if done.returncode != 0:
        log.error("power-off refused: %s", (done.stderr or done.stdout or "").strip() or done.returncode)
        return False
    return True
