"""Test presses on a table's mock pins through the ``mock_presses`` FIFO (companion.startup.presses): the booted
box's host switches the Wi-Fi from the host menu with them (firmware/box/wifi-switch.presses)."""

from __future__ import annotations

import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.config import ConfigError, parse_config
from companion.journal import Journal
from companion.network import CONNECTION

from ..network.fakes import install

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # seconds a step may take at most (a bound for a stuck table, never a measure of speed)


def until(done, what: str, proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    deadline = time.monotonic() + WAIT
    while not done():
        if proc.poll() is not None:
            raise AssertionError(f"the table ended ({proc.returncode}) before {what}: {proc.stderr.read()}")  # type: ignore[union-attr]
        assert time.monotonic() < deadline, f"no {what} within {WAIT:.0f} s"
        time.sleep(0.1)


def test_mock_presses_are_refused_on_real_pins_and_must_name_a_file() -> None:
    with pytest.raises(ConfigError, match="mock_presses is for a table on mock pins"):
        parse_config({"mock_presses": "/var/lib/companion/presses", "pin_factory": "lgpio"}, "config.toml")
    with pytest.raises(ConfigError, match="mock_presses must be a file name"):
        parse_config({"mock_presses": 1, "pin_factory": "mock"}, "config.toml")
    assert parse_config({"mock_presses": "/x/presses", "pin_factory": "mock"}).mock_presses == "/x/presses"
    assert parse_config({}).mock_presses == ""


def test_the_box_hosts_presses_switch_the_wifi_home_and_back_from_the_host_menu(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion run` on mock pins with its hotspot up (a fake nmcli): the lines of firmware/box/wifi-switch.presses
    written into the FIFO hold MENU, go to "Wi-Fi: table's own" and confirm; the table takes the hotspot down. The
    same lines again open it ("Wi-Fi: home network")."""
    nm = install(tmp_path / "nm", monkeypatch)
    fifo = tmp_path / "presses"
    config = tmp_path / "config.toml"
    config.write_text(f'display = "none"\ndice = "software"\nweb_port = 0\npin_factory = "mock"\n'
                      f'network = "hotspot"\njournal = "{tmp_path / "games.sqlite3"}"\nmock_presses = "{fifo}"\n',
                      encoding="utf-8")
    with Journal(tmp_path / "games.sqlite3") as journal:
        journal.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(config)], cwd=ROOT,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        until(lambda: nm.read()["active"] == [CONNECTION], "hotspot", proc)
        until(lambda: fifo.exists() and stat.S_ISFIFO(fifo.stat().st_mode), "FIFO", proc)
        assert stat.S_IMODE(fifo.stat().st_mode) == 0o600
        switch = (ROOT / "firmware/box/wifi-switch.presses").read_text(encoding="utf-8")
        with fifo.open("w", encoding="utf-8") as presses:
            presses.write("NOT A BUTTON\n")  # skipped with a warning; the next lines still play
            presses.write(switch)
        until(lambda: nm.read()["active"] == [], "hotspot taken down", proc)
        assert ["connection", "down", CONNECTION] in nm.calls()
        ups = nm.calls().count(["connection", "up", CONNECTION])
        with fifo.open("w", encoding="utf-8") as presses:  # a second writer: the FIFO stays the table's
            presses.write(switch)
        until(lambda: nm.read()["active"] == [CONNECTION], "hotspot opened again", proc)
        assert nm.calls().count(["connection", "up", CONNECTION]) == ups + 1
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "NOT A BUTTON" in err and "skipped" in err
    assert not fifo.exists()  # removed when the table stops
