"""Crash safety: a writer killed (SIGKILL) at random moments never loses an acknowledged input."""

from __future__ import annotations

import json
import logging
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.gamefile import replay
from companion.journal import Journal

from .crash_writer import SNAPSHOT_EVERY

ROOT = Path(__file__).resolve().parents[2]
Ack = tuple[int, int, int | None, dict]  # game, record, seq (None: refused), line
KILLS = 32


class Writer:
    """The writer process, with its stdout collected by a thread."""

    def __init__(self, path: Path, seed: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.journal.crash_writer", str(path), str(seed)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.lines: list[str] = []
        self.started = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            self.started.set()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self._reader.join()
        assert self.process.stderr is not None
        errors = self.process.stderr.read()
        assert self.process.returncode == -signal.SIGKILL, errors  # it did not die on its own

    def acknowledged(self) -> list[Ack]:
        """(game, record, seq or None if refused, line) of every complete acknowledgement."""
        acks: list[Ack] = []
        for text in self.lines:
            if not text.endswith("\n"):
                continue  # cut by the kill: not an acknowledgement
            kind, game, record, rest = text.split(" ", 3)
            if kind == "ack":
                seq, line = rest.split(" ", 1)
                acks.append((int(game), int(record), int(seq), json.loads(line)))
            else:
                acks.append((int(game), int(record), None, json.loads(rest)))
        return acks


def check(path: Path, acknowledged: list[Ack]) -> None:
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        stored = {r: (g, json.loads(line)) for r, g, line in db.execute("SELECT id, game, line FROM records")}
    for game_id, record, _, line in acknowledged:
        assert stored[record] == (game_id, line), f"acknowledged record {record} lost"
    with Journal(path, snapshot_every=SNAPSHOT_EVERY) as journal:
        assert journal.problems == []  # a killed process cannot tear a committed record
        for game_id in {game for game, *_ in acknowledged} | {g.id for g in journal.games()[:1]}:
            game = journal.open_game(game_id)  # from its latest snapshot
            exported = game.export()
            assert game.state == replay(exported.splitlines()).state  # a fresh full replay
            lines = [json.loads(text) for text in exported.splitlines()]
            for g, _, seq, line in acknowledged:
                if g == game_id and seq is not None:
                    assert lines[seq] == line and game.state["seq"] >= seq


def test_a_killed_writer_loses_nothing_acknowledged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "crash.sqlite3"
    rnd = random.Random(20240601)  # the kill moments, the same every run
    acknowledged: list[Ack] = []
    for kill in range(KILLS):
        writer = Writer(path, seed=kill)
        if kill % 2:  # at any moment, opening and repairing included
            time.sleep(rnd.uniform(0.0, 0.5))
        else:  # while it writes
            writer.started.wait(timeout=20)
            time.sleep(rnd.uniform(0.0, 0.15))
        writer.kill()
        acknowledged += writer.acknowledged()
        check(path, acknowledged)
    assert len(acknowledged) > KILLS  # it did write, and was killed while writing
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # snapshots agreed with replays
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM snapshots").fetchone()[0] > 0
        # The engine's rejections were journaled too.
        assert db.execute("SELECT count(*) FROM records WHERE outcome = 'refused'").fetchone()[0] > 0


if not hasattr(signal, "SIGKILL"):  # pragma: no cover - Windows
    pytestmark = pytest.mark.skip("needs SIGKILL")
