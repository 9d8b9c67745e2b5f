"""`companion run` as systemd starts it, on gpiozero's mock pins and luma's dummy OLED (no Pi here).

The config chooses the mock pin factory and no display; everything else is the Pi's path: the
config file, the pin map, the journal, the table, the tick loop, SIGTERM to stop, and resuming the
last game (or the one asked for) after a restart.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from companion.journal import Journal

ROOT = Path(__file__).resolve().parents[2]


def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'display = "none"\ndice = "software"\nweb_port = 0\npin_factory = "mock"\n'
                    f'journal = "{tmp_path / "games.sqlite3"}"\n', encoding="utf-8")
    return path


def run_until_started(*args: str, errors: list[str] | None = None) -> str:
    """Start `companion run`, wait for the line saying which game it plays, stop it with SIGTERM (``errors``: gets
    what it wrote on stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    if errors is not None:
        errors.append(err)
    return first


def test_run_on_a_fresh_journal_asks_for_a_game_then_resumes_the_one_started(tmp_path: Path) -> None:
    """A fresh journal used to start a two-player addon game nobody asked for: now the OLED opens the set-up."""
    cfg = config(tmp_path)
    first = run_until_started("--config", str(cfg))
    assert first.startswith("companion: no game yet: the OLED asks for its ruleset and players")
    assert str(cfg) in first and "pins.toml" in first
    with Journal(tmp_path / "games.sqlite3") as journal:
        assert journal.games() == []  # nothing was started
        journal.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})  # as the set-up does
    assert run_until_started("--config", str(cfg)).startswith("companion: resumed game 1")


def test_run_on_mock_pins_says_nothing_of_a_card_reader(tmp_path: Path) -> None:
    """Mock pins have no I2C bus: `run` printed "NFC reader: [Errno 2] No such file or directory: '/dev/i2c-1'", an
    error for a reader nobody had fitted."""
    errors: list[str] = []
    run_until_started("--config", str(config(tmp_path)), errors=errors)
    assert "NFC" not in errors[0] and "i2c" not in errors[0], errors[0]


def test_run_goes_on_with_the_game_asked_for(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with Journal(tmp_path / "games.sqlite3") as journal:
        for seed in (1, 2):
            journal.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": seed})
    assert run_until_started("--config", str(cfg)).startswith("companion: resumed game 2")  # the last one
    assert run_until_started("--config", str(cfg), "--game", "1").startswith("companion: resumed game 1")


def test_run_with_an_unknown_game_says_so(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "companion.cli", "run", "--config", str(config(tmp_path)),
                             "--game", "7"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "7" in result.stderr and "Traceback" not in result.stderr


class _Probe:
    """A UDP socket whose route leaves from ``address`` (or that has no route: ``None``)."""

    def __init__(self, address: str | None) -> None:
        self.address = address

    def __call__(self, *args: object) -> "_Probe":
        return self

    def __enter__(self) -> "_Probe":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def connect(self, where: tuple[str, int]) -> None:
        if self.address is None:
            raise OSError(101, "Network is unreachable")

    def getsockname(self) -> tuple[str, int]:
        return (self.address or "0.0.0.0", 40000)


def test_the_page_address_is_the_lan_address_not_the_host_names(monkeypatch) -> None:
    """Raspberry Pi OS maps the host name to 127.0.1.1: the address phones were shown was "http://companion:8080",
    which most phones cannot resolve."""
    import socket

    from companion.startup import phone_page as launch

    monkeypatch.setattr(socket, "gethostname", lambda: "companion")
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 0, 0, "", ("127.0.1.1", 0))])
    monkeypatch.setattr(socket, "socket", _Probe("192.168.1.20"))
    assert launch.page_url("0.0.0.0", 8080) == "http://192.168.1.20:8080"
    monkeypatch.setattr(socket, "socket", _Probe(None))  # no network yet: the name on mDNS
    assert launch.page_url("0.0.0.0", 8080) == "http://companion.local:8080"
    assert launch.page_url("10.0.0.5", 8080) == "http://10.0.0.5:8080"  # a host given in the config is kept
