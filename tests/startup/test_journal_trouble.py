"""The table and a journal it cannot use: one writer at a time, what the check found on the OLED, and a
journal that cannot be opened set aside with YES (gpiozero MockFactory pins, luma's dummy OLED)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.drivers.clock import SimClock
from companion.drivers.pins import load_pins
from companion.journal import Journal, JournalError
from companion.startup.journal_trouble import ask_to_set_aside
from companion.startup.mock import mock_station

from .test_run import ROOT, config
from tests.face.test_table import start, table

SETUP = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}


def test_a_second_table_on_the_same_journal_is_refused_at_the_start(tmp_path: Path) -> None:
    """Two tables on one journal used to both resume the game; the second then failed at every input
    ("changed by another writer") until it was restarted."""
    sim = SimClock()
    path = tmp_path / "games.sqlite3"
    with mock_station(journal_path=path, dice="software", clock=sim, sleep=sim.sleep, setup=SETUP, new_seed=lambda: 1):
        with pytest.raises(JournalError, match="another companion is using"):
            with mock_station(journal_path=path, dice="software", clock=sim, sleep=sim.sleep, setup=SETUP,
                              new_seed=lambda: 1):
                pass  # pragma: no cover - refused before
    with mock_station(journal_path=path, dice="software", clock=sim, sleep=sim.sleep, setup=SETUP,
                      new_seed=lambda: 1) as (station, _, _):
        assert station.resumed  # the first one closed: the journal is free again


def test_what_the_journal_check_found_is_on_the_oled_until_the_next_question(tmp_path: Path) -> None:
    """A damaged last input is dropped on opening: the board shows a move the game no longer has. It was only
    logged; the OLED said "resumed where it stopped"."""
    path = tmp_path / "games.sqlite3"
    with table(tmp_path, start(), journal=path) as t:
        t.play("ROLL", "DICE 1 2")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE records SET crc = crc + 1 WHERE id = (SELECT max(id) FROM records)")
    with table(tmp_path, journal=path) as t:
        shown = " ".join(row.text for row in t.station.controller.screen().rows)
        assert "resumed where it" in shown and "Journal:" in shown
        notice, _ = t.station.controller.notices.shown(0)
        assert notice is not None and "was damaged" in notice and "dropped" in notice
        t.play("WAIT 10000")
        assert t.station.controller.notices.shown(0)[0] == notice  # it stays until the next question
        t.play("ROLL", "DICE 1 2")
        assert t.station.controller.notices.shown(0)[0] != notice


def press_yes_when_asked(factory: MockFactory, pin: int, clock: SimClock,
                         stop: threading.Event) -> tuple[list[int], object]:
    """A ``sleep`` for the trouble screen's loop that presses YES on its third turn, and stops the loop after 1000
    turns (a YES never taken then fails the test instead of spinning for ever on simulated time)."""
    turns = [0]

    def sleep(seconds: float) -> None:
        clock.sleep(seconds)
        turns[0] += 1
        if turns[0] == 3:
            factory.pin(pin).drive_low()
        if turns[0] == 8:
            factory.pin(pin).drive_high()
        if turns[0] == 1000:
            stop.set()

    return turns, sleep


def test_a_journal_that_cannot_be_opened_is_set_aside_with_yes(tmp_path: Path) -> None:
    """`companion run` ended with a log line, and systemd restarted a blank table every 2 s."""
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    pins, factory, clock = load_pins(), MockFactory(), SimClock()
    frames: list[object] = []
    stop = threading.Event()
    _, sleep = press_yes_when_asked(factory, pins.buttons["YES"], clock, stop)
    try:
        with pytest.raises(JournalError) as error:
            Journal(path)
        assert ask_to_set_aside(error.value, path, pins=pins, pin_factory=factory,
                                open_device=lambda: dummy(width=128, height=64, mode="1"), clock=clock, sleep=sleep,
                                stop=stop, now=lambda: datetime(2026, 11, 23, 20, 15),
                                on_frame=frames.append)
    finally:
        factory.reset()
    assert frames  # the OLED said why
    kept = tmp_path / "games.sqlite3.damaged-20261123-201500"
    assert kept.read_bytes().startswith(b"this is not a database") and not path.exists()
    with Journal(path) as journal:  # a new journal
        assert journal.games() == []


def read_lines(proc: subprocess.Popen[str], count: int, within: float) -> str:
    """``count`` lines of the process's output, or a failure after ``within`` seconds (never a hang)."""
    assert proc.stdout is not None
    out = proc.stdout
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(out.readline() for _ in range(count)), daemon=True)
    reader.start()
    reader.join(within)
    assert not reader.is_alive(), f"not {count} lines within {within} s"
    return "".join(said)


def test_run_waits_on_the_oled_instead_of_exiting_into_a_restart_loop(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    (tmp_path / "games.sqlite3").write_bytes(b"not a database" * 200)
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(cfg)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        said = read_lines(proc, 2, within=30)
        assert "not a database" in said and "the OLED asks" in said
        assert proc.poll() is None  # still there, showing it
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1 and "Traceback" not in err
    assert (tmp_path / "games.sqlite3").exists()  # nothing was set aside without a YES
