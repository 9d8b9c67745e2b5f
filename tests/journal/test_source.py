"""Each input is journaled with who sent it, beside the line; snapshots follow the engine's code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.journal import Journal
from companion.journal.schema import engine_fingerprint

SETUP = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1}


def test_the_source_of_each_input_is_kept_beside_the_line(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Journal(path) as journal:
        game = journal.new_game(SETUP)
        game.submit({"roll": [1, 2]}, source="roller")
        game.submit({"answer": "no"}, source="web:Ann")
        exported = game.export()
    rows = sqlite3.connect(path).execute("SELECT line, source FROM records ORDER BY id").fetchall()
    assert rows[1:] == [('{"roll":[1,2]}', "roller"), ('{"answer":"no"}', "web:Ann")]
    assert "roller" not in exported and "web" not in exported


def test_the_engine_fingerprint_is_stable_and_names_the_code() -> None:
    first = engine_fingerprint()
    assert first == engine_fingerprint()
    assert len(first) == 16 and int(first, 16) >= 0


def test_every_input_is_still_committed_with_full_sync_after_the_bookkeeping(tmp_path: Path) -> None:
    with Journal(tmp_path / "games.sqlite3") as journal:
        game = journal.new_game(SETUP)
        game.submit({"roll": [1, 2]})
        assert journal._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL for the next append
