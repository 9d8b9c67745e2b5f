"""The WAL's room (issue 43): written with zeros when a journal opens, so that no input's synced commit grows the file;
SQLite never takes the zeros for frames, a WAL left with frames by a power cut keeps them, and a full disk only means
going on without the room."""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal import Journal, wal

from . import small_disk
from .inputs import SETUP, play, replay_all
from .test_pages import wal_frames

ROOT = Path(__file__).resolve().parents[2]


def wal_size(path: Path) -> int:
    return Path(f"{path}-wal").stat().st_size


def test_the_wal_has_its_room_when_the_journal_opens_and_inputs_do_not_grow_it(path: Path) -> None:
    """Past the automatic checkpoint too: SQLite starts the WAL again at its beginning, inside the room."""
    with Journal(path, snapshot_every=50) as journal:
        room = wal.room(journal._db)
        assert wal_size(path) == room
        game = journal.new_game(SETUP)
        sent = play(game, 20, random.Random(5))
        assert wal_size(path) == room and wal_frames(path) > 20
        started = wal_frames(path)
        sent += play(game, 400, random.Random(6))
        assert wal_size(path) == room  # ~4 frames an input: the checkpoint at 1,000 frames came and went
        assert wal_frames(path) < started + 4 * 400
    with Journal(path) as journal:
        assert journal.problems == []
        assert journal.open_game(game.id).state == replay_all(SETUP, sent)
        assert journal._db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


CUT = """
import json, os, random, sys
from companion.journal import Journal, wal
from tests.journal.inputs import SETUP, play
wal.room = lambda db: 0  # as a journal written before: the WAL only as long as its frames
journal = Journal(sys.argv[1], snapshot_every=0)
game = journal.new_game(SETUP)
print(json.dumps(play(game, 30, random.Random(7))), flush=True)
os._exit(0)  # the power cut: never closed, never checkpointed
"""


def test_a_wal_left_with_frames_keeps_them(path: Path) -> None:
    """The room is written after SQLite's last frame, never over it: a journal cut off (its inputs in the WAL only)
    opens with every input, its WAL given its room, and goes on."""
    cut = subprocess.run([sys.executable, "-c", CUT, str(path)], cwd=ROOT, check=True, timeout=120,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    sent = json.loads(cut.stdout)
    frames, written = wal_frames(path), Path(f"{path}-wal").read_bytes()
    assert frames > 30 and len(written) == 32 + frames * (24 + 1024)  # the frames alone
    with Journal(path, snapshot_every=0) as journal:
        assert journal.problems == []
        assert wal_size(path) == wal.room(journal._db) > len(written)
        assert Path(f"{path}-wal").read_bytes()[: len(written)] == written  # untouched (the check's repair after it)
        game = journal.open_game(1)
        assert game.state == replay_all(SETUP, sent)
        sent += play(game, 30, random.Random(8))
    with Journal(path) as journal:
        assert journal.problems == []
        assert journal.open_game(1).state == replay_all(SETUP, sent)
        assert journal._db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


@pytest.mark.parametrize("kind", ["tmpfs", "ext4"])
def test_a_full_disk_at_opening_leaves_the_wal_without_its_room(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A disk nearly full. Said in the log, and the journal works as SQLite does by itself: inputs grow the WAL, and are refused as long
    as the disk is full."""
    with small_disk.mounted(kind, tmp_path) as disk:
        path = disk / "games.sqlite3"
        with Journal(path, snapshot_every=0) as journal:
            game = journal.new_game(SETUP)
            sent = play(game, 10, random.Random(9))
        spare = disk / "spare"
        spare.write_bytes(bytes(128 * 1024))
        small_disk.fill(disk)
        spare.unlink()  # room for SQLite's files as it opens (its -shm's 32 KB), not for the WAL's room
        with caplog.at_level(logging.WARNING), Journal(path, snapshot_every=0) as journal:
            assert "the WAL's room was not written" in caplog.text
            game = journal.open_game(game.id)
            small_disk.free(disk)
            sent += play(game, 10, random.Random(10))
        with Journal(path) as journal:
            assert journal.problems == []
            assert journal.open_game(game.id).state == replay_all(SETUP, sent)
