"""The journal's pages (issue 43): a new journal's are 1 KB, so that an input's commit writes a quarter of the bytes;
a journal made with SQLite's default 4 KB pages (every journal before) opens and goes on as it was; and the file stays
readable by another process while the table holds it open (why the journal does not lock it for itself)."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import companion.journal.store as store
from companion.journal import Journal
from companion.journal.schema import PAGE_SIZE

from .inputs import SETUP, play, replay_all

ROOT = Path(__file__).resolve().parents[2]


def page_size(path: Path) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return int(db.execute("PRAGMA page_size").fetchone()[0])


def test_a_new_journal_has_small_pages(path: Path) -> None:
    with Journal(path) as journal:
        assert journal._db.execute("PRAGMA page_size").fetchone() == (PAGE_SIZE,) == (1024,)
        assert journal._db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert journal._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL: every input's commit synced
        journal.new_game(SETUP)
    assert page_size(path) == 1024


def wal_frames(path: Path) -> int:
    """The frames SQLite wrote to the WAL of the journal at ``path`` since it last started it again: those that carry
    its header's salts (the file's size says nothing since the journal writes the WAL's room when it opens)."""
    data = Path(f"{path}-wal").read_bytes()
    page = int.from_bytes(data[8:12], "big")
    frames = 0
    while data[32 + frames * (24 + page) + 8:][:8] == data[16:24]:
        frames += 1
    return frames


def test_an_input_writes_a_few_kilobytes_to_the_wal(path: Path) -> None:
    """About four pages an input (the record's, the index's, the game's row, the records' sequence), each a 1 KB
    page and its frame's header: with SQLite's 4 KB pages it was ~17 KB."""
    with Journal(path, snapshot_every=0) as journal:
        game = journal.new_game(SETUP)
        play(game, 5, random.Random(3))
        before = wal_frames(path)
        play(game, 40, random.Random(4))
        written = (wal_frames(path) - before) * (24 + PAGE_SIZE)  # far from a checkpoint: the WAL not started again
    assert 0 < written / 40 < 6 * 1024


def test_a_journal_with_4_kb_pages_opens_and_goes_on_with_them(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every journal written before had SQLite's default pages: its games open, replay and take new inputs, and the
    file keeps its pages (changing them would rewrite the whole file)."""
    with monkeypatch.context() as old_code:
        old_code.setattr(store, "PAGE_SIZE", 4096)  # as the journal was made before: SQLite's default
        with Journal(path, snapshot_every=7) as journal:
            game = journal.new_game(SETUP)
            sent = play(game, 40, random.Random(1))
            journal.new_game(SETUP)  # a second game, listed too
    assert page_size(path) == 4096
    with Journal(path, snapshot_every=7) as journal:
        assert journal.problems == []
        assert [(g.id, g.inputs) for g in journal.games()] == [(2, 0), (game.id, game.state["seq"])]
        again = journal.open_game(game.id)
        assert again.state == replay_all(SETUP, sent)
        sent += play(again, 20, random.Random(2))
        text = again.export()
    assert page_size(path) == 4096
    with Journal(path, snapshot_every=7) as journal:
        assert journal.problems == []
        assert journal.open_game(game.id).state == replay_all(SETUP, sent)
        assert journal.open_game(game.id).export() == text
        assert journal._db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_another_process_reads_the_journal_while_the_table_holds_it(path: Path) -> None:
    """`companion games` and a read-only look at the file while the table runs: the journal does not take the file
    for itself (``PRAGMA locking_mode = EXCLUSIVE`` would, docs/journal.md)."""
    with Journal(path, check_all=False) as journal:
        game = journal.new_game(SETUP)
        game.submit({"roll": [1, 2]})
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0) as db:
            (line,) = db.execute("SELECT line FROM records ORDER BY id DESC LIMIT 1").fetchone()
        assert json.loads(line) == {"roll": [1, 2]}
        listed = subprocess.run([sys.executable, "-m", "companion.cli", "games", "--journal", str(path), "list"],
                                cwd=ROOT, capture_output=True, text=True, timeout=120,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert listed.returncode == 0, listed.stderr
        assert "Ann, Bob" in listed.stdout
        game.submit({"answer": "no"})  # the table goes on writing after it
    with Journal(path) as journal:
        assert journal.problems == []
        assert journal.open_game(game.id).state == game.state
