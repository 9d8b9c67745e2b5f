"""The integrity check on open, and a full disk."""

from __future__ import annotations

import contextlib
import logging
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.engine import CompanionError, IllegalInput
from companion.journal import GameDamaged, Journal, JournalFull

from . import small_disk
from .inputs import SETUP, play, replay_all


def raw(path: Path, sql: str, *parameters: object) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute(sql, parameters).fetchall()


def played(path: Path, count: int, seed: int, *, snapshot_every: int = 5, games: int = 1) -> list[list[dict]]:
    """Journal ``games`` games of ``count`` random inputs; the lines sent to each (setup excluded)."""
    sent = []
    with Journal(path, snapshot_every=snapshot_every) as journal:
        for i in range(games):
            game = journal.new_game({**SETUP, "seed": seed + i})
            sent.append(play(game, count, random.Random(seed + i)))
    return sent


DAMAGES = {
    "bit flip": "UPDATE records SET line = replace(line, ']', ',1]') WHERE id = ?",
    "half written": "UPDATE records SET line = substr(line, 1, length(line) / 2) WHERE id = ?",
    "checksum": "UPDATE records SET crc = crc + 1 WHERE id = ?",
    "not text": "UPDATE records SET line = CAST(line AS BLOB) WHERE id = ?",
}


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("snapshot_every", [1, 50])
def test_a_damaged_last_record_is_reported_and_dropped(
    path: Path, damage: str, snapshot_every: int, caplog: pytest.LogCaptureFixture
) -> None:
    (sent,) = played(path, 30, 1, snapshot_every=snapshot_every)
    sent.append({"roll": [1, 2]})  # a last input with a "]" to damage
    with Journal(path) as journal:
        game = journal.open_game(1)
        with contextlib.suppress(IllegalInput):
            game.submit(sent[-1])
    (last,) = raw(path, "SELECT max(id) FROM records")[0]
    raw(path, DAMAGES[damage], last)
    with caplog.at_level(logging.WARNING, logger="companion.journal"):
        journal = Journal(path, snapshot_every=snapshot_every)
    with journal:
        assert len(journal.problems) == 1
        assert f"record {last}" in journal.problems[0] and "dropped" in journal.problems[0]
        assert any(r.levelno == logging.WARNING and f"record {last}" in r.getMessage() for r in caplog.records)
        game = journal.open_game(1)
        assert game.state == replay_all({**SETUP, "seed": 1}, sent[:-1])  # never applied
        assert game.record < last
        play(game, 5, random.Random(9))  # the game goes on
        state = game.state
    ((kept, reason),) = raw(path, "SELECT id, reason FROM damaged")  # set aside, not lost
    assert kept == last and f"({reason})" in journal.problems[0]
    with Journal(path) as journal:
        assert journal.problems == []
        assert journal.open_game(1).state == state


@pytest.mark.parametrize("damage", DAMAGES)
def test_damage_before_the_last_record_is_an_error_and_other_games_still_load(
    path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    sent = played(path, 25, 2, games=3)
    (record,) = raw(path, "SELECT id FROM records WHERE game = 2 AND line LIKE '%]%' ORDER BY id LIMIT 1 OFFSET 3")[0]
    raw(path, DAMAGES[damage], record)
    with caplog.at_level(logging.ERROR, logger="companion.journal"):
        journal = Journal(path)
    with journal:
        assert len(journal.problems) == 1
        assert "game 2" in journal.problems[0] and f"record {record}" in journal.problems[0]
        assert any(r.levelno == logging.ERROR for r in caplog.records)
        with pytest.raises(GameDamaged, match=f"record {record}") as caught:
            journal.open_game(2)
        assert isinstance(caught.value, CompanionError)
        info = {g.id: g for g in journal.games()}
        assert info[2].problem is not None and info[1].problem is info[3].problem is None
        for game_id in (1, 3):
            assert journal.open_game(game_id).state == replay_all({**SETUP, "seed": 1 + game_id}, sent[game_id - 1])
        last = journal.latest_game(unfinished=True)
        assert last is not None and last.id == 3
    assert raw(path, "SELECT count(*) FROM damaged") == [(0,)]  # nothing was dropped


def test_a_damaged_setup_is_an_error(path: Path) -> None:
    played(path, 0, 3, games=2)  # two games of a setup only
    raw(path, DAMAGES["bit flip"], 1)
    with Journal(path) as journal:
        assert len(journal.problems) == 1 and "setup" in journal.problems[0]
        with pytest.raises(GameDamaged):
            journal.open_game(1)
        assert journal.open_game(2).state["seq"] == 0


def test_sqlite_damage_is_reported(path: Path) -> None:
    played(path, 40, 4)
    # Corrupt the index of records: integrity_check finds it; the table itself is sound.
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_schema SET sql = replace(sql, '(game, id)', '(id, game)')"
                   " WHERE name = 'records_by_game'")
    with Journal(path) as journal:
        assert journal.problems and all("SQLite integrity check" in p for p in journal.problems)


# ---------------------------------------------------------------------- a full disk
def fill_then_free(path: Path, fill: Callable[[Journal], object], free: Callable[[Journal], object], *,
                   seed: int = 5, warm: int = 0) -> None:
    """Two games, ``warm`` inputs, then ``fill`` the disk: inputs go on until one is refused for want of space.
    Then nothing of it is applied, neither a new game nor an import can be stored, and once ``free`` made room the
    same input is recorded and the game reopens as it was played."""
    rnd = random.Random(seed)

    def next_line() -> dict:
        return {"answer": "x" * 200} if rnd.random() < 0.5 else {"roll": [rnd.randint(1, 6), rnd.randint(1, 6)]}

    with Journal(path, snapshot_every=4) as journal:
        game = journal.new_game(SETUP)
        other = journal.new_game({**SETUP, "seed": 5})
        sent = [next_line() for _ in range(warm)]
        for line in sent:
            with contextlib.suppress(IllegalInput):
                game.submit(line)
        fill(journal)
        for _ in range(100_000):
            before, record = game.state, game.record
            line = next_line()
            try:
                game.submit(line)
            except IllegalInput:
                pass
            except JournalFull as error:
                assert isinstance(error, CompanionError)
                assert "disk is full" in str(error) and "not recorded" in str(error)
                break
            sent.append(line)
        else:
            pytest.fail("the disk never filled")
        assert game.state is before and game.record == record
        assert raw(path, "SELECT count(*) FROM records WHERE game = ?", game.id) == [(len(sent) + 1,)]
        with pytest.raises(JournalFull):
            journal.new_game(SETUP)
        with pytest.raises(JournalFull):
            journal.import_game(other.export())
        assert len(journal.games()) == 2
        free(journal)  # space freed
        with contextlib.suppress(IllegalInput):
            game.submit(line)  # the same input, again: now it is recorded
        sent.append(line)
        state = game.state
    assert state == replay_all(SETUP, sent)
    with Journal(path) as journal:
        assert journal.problems == []
        assert journal.open_game(game.id).state == state


def test_a_full_disk_is_a_clear_error_and_nothing_is_applied(path: Path) -> None:
    """The disk modelled by SQLite's ``max_page_count``: the file may not grow by one more page."""
    fill_then_free(
        path,
        lambda journal: journal._db.execute(
            f"PRAGMA max_page_count = {journal._db.execute('PRAGMA page_count').fetchone()[0]}"),
        lambda journal: journal._db.execute("PRAGMA max_page_count = 1000000"),
    )


@pytest.mark.parametrize("kind", ["tmpfs", "ext4"])
@pytest.mark.parametrize(("seed", "warm"), [(5, 0), (6, 120), (67, 317), (95, 383)])
def test_a_really_full_disk_is_a_clear_error_and_nothing_is_applied(
    tmp_path: Path, kind: str, seed: int, warm: int
) -> None:
    """The same on a filesystem that really fills (a 16 MiB tmpfs or ext4 of its own, its last byte taken by
    another file): a write fails for want of space wherever the file must grow (the WAL past its end, the database
    at a checkpoint), not page by page as in the model above, and one commit per input must refuse what that test
    refuses. ``warm`` inputs first: with none the WAL is fresh (its room written when the journal opened: the
    inputs fill it until the checkpoint cannot grow the database, then the WAL must grow past it); after a checkpoint
    (~250 inputs) it starts again inside its file, and a few hundred inputs go on before the full disk is met (at 317
    and 383, on either filesystem, one input whose commit with the input before's bookkeeping did not fit was recorded
    alone)."""
    with small_disk.mounted(kind, tmp_path) as disk:
        fill_then_free(disk / "games.sqlite3", lambda _: small_disk.fill(disk), lambda _: small_disk.free(disk),
                       seed=seed, warm=warm)


# ---------------------------------------------------------------------- damaged pages of the file
def zero_pages(path: Path, table: str, kind: str) -> int:
    """Overwrite with zeros every page of ``table`` of the given kind (SQLite's dbstat: leaf, overflow...),
    as a power cut on an SD card can leave them; the number of pages zeroed."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.execute("PRAGMA page_size").fetchone()[0]
        pages = [p for (p,) in db.execute("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ?", (table, kind))]
    with open(path, "r+b") as file:
        for page in pages:
            file.seek((page - 1) * size)
            file.write(bytes(size))
    return len(pages)


def test_an_unreadable_snapshot_only_means_replaying_from_the_setup(path: Path) -> None:
    """Snapshots are a cache: a damaged page of them used to stop the table from starting ("database disk image
    is malformed"), every input intact."""
    (sent,) = played(path, 150, 6, snapshot_every=40)
    assert zero_pages(path, "snapshots", "overflow") > 0
    with Journal(path) as journal:
        game = journal.open_game(1)
        assert game.state == replay_all({**SETUP, "seed": 6}, sent)
        assert any("snapshots cannot be read" in p for p in journal.problems)


def test_unreadable_records_leave_the_games_listed_and_the_others_loadable(path: Path) -> None:
    """A damaged page of records used to make every game unlistable (the listing joins the records)."""
    played(path, 60, 7, games=2)
    assert zero_pages(path, "records", "leaf") > 0
    with Journal(path) as journal:
        listed = journal.games()
        assert sorted(g.id for g in listed) == [1, 2]
        assert journal.problems  # what was found is said


def test_a_read_only_journal_is_refused_at_once(path: Path) -> None:
    """It was accepted, and every press then failed with "attempt to write a readonly database". Run in a process
    without the capability to override file permissions (tests may run as root)."""
    played(path, 5, 8)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path.chmod(0o444)
    opening = f"from companion.journal import Journal; Journal({str(path)!r})"
    command = [sys.executable, "-c", opening]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root without setpriv: a read-only file stays writable")
        command = ["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", *command]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                                cwd=Path(__file__).resolve().parents[2])
    finally:
        path.chmod(0o644)
    assert result.returncode != 0 and "is read-only: no input could be saved" in result.stderr


# ---------------------------------------------------------------------- a table's start: one game checked
@pytest.mark.parametrize("damage", DAMAGES)
def test_a_table_checks_the_game_it_resumes_at_start_and_the_others_when_opened(path: Path, damage: str) -> None:
    """A table's start-up must not grow with its history (every record of 40 games: 61 ms here, ~1.5 s on a Pi):
    with ``check_all`` off the journal checks a game's records when it is first opened; the damage is found and said
    the same way, and the latest sound game is resumed past a damaged newer one."""
    sent = played(path, 25, 2, games=3)
    (first,) = raw(path, "SELECT id FROM records WHERE game = 1 AND line LIKE '%]%' ORDER BY id LIMIT 1 OFFSET 3")[0]
    (newest,) = raw(path, "SELECT id FROM records WHERE game = 3 AND line LIKE '%]%' ORDER BY id LIMIT 1 OFFSET 3")[0]
    raw(path, DAMAGES[damage], first)
    raw(path, DAMAGES[damage], newest)
    with Journal(path, check_all=False) as journal:
        assert journal.problems == []  # nothing read yet
        resumed = journal.latest_game()
        assert resumed is not None and resumed.id == 2  # game 3 is damaged: found now, and passed over
        assert resumed.state == replay_all({**SETUP, "seed": 3}, sent[1])
        assert len(journal.problems) == 1 and "game 3" in journal.problems[0]
        with pytest.raises(GameDamaged, match=f"record {first}"):
            journal.open_game(1)
        assert {g.id: g.problem is not None for g in journal.games()} == {1: True, 2: False, 3: True}
    with Journal(path) as journal:  # checked whole, as `companion games` opens it: the same two found
        assert len(journal.problems) == 2
