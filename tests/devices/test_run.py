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


def run_until_started(*args: str) -> str:
    """Start `companion run`, wait for the line saying which game it plays, stop it with SIGTERM."""
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
    return first


def test_run_starts_a_game_then_resumes_it_after_a_restart(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    first = run_until_started("--config", str(cfg))
    assert first.startswith("companion: started game 1") and str(cfg) in first and "pins.toml" in first
    assert run_until_started("--config", str(cfg)).startswith("companion: resumed game 1")


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
