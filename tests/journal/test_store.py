"""The journal's everyday work: store, list, resume, export, import, undo, snapshots."""

from __future__ import annotations

import io
import json
import logging
import random
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import companion.journal.store as store
from companion.engine import CompanionError, IllegalInput, apply, public_state
from companion.gamefile import game_file_lines, replay
from companion.journal import EngineFailure, GameFileError, Journal, JournalError

from .inputs import SETUP, play, replay_all

TWO = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1}


def records(path: Path, game_id: int) -> list[tuple[str, str | None]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT line, outcome FROM records WHERE game = ? ORDER BY id", (game_id,)).fetchall()


# ---------------------------------------------------------------------- round trips
def test_append_reopen_gives_the_same_state(path: Path) -> None:
    with Journal(path, snapshot_every=7) as journal:
        game = journal.new_game(SETUP)
        sent = play(game, 80, random.Random(1))
        state = game.state
    assert state == replay_all(SETUP, sent)
    with Journal(path, snapshot_every=7) as journal:
        assert journal.problems == []
        again = journal.open_game(game.id)
        assert again.state == state
        assert again.setup == SETUP
        assert again.record == game.record


@pytest.mark.parametrize("snapshot_every", [1, 2, 100])
def test_a_reopened_game_keeps_the_last_inputs_events(path: Path, snapshot_every: int) -> None:
    """The phones' "Just now" tells the last input after a restart too, even where a snapshot covers that input."""
    with Journal(path, snapshot_every=snapshot_every) as journal:
        game = journal.new_game(SETUP)
        game.submit({"roll": [1, 2]})
        _, events = game.submit({"answer": "yes"})
        assert [e["kind"] for e in events] == ["pay", "deed"]
        with pytest.raises(IllegalInput):
            game.submit({"answer": "maybe"})  # a refusal after it changes nothing
    with Journal(path, snapshot_every=snapshot_every) as journal:
        assert journal.open_game(game.id).events == events


def test_every_input_is_committed_before_the_engine_sees_it(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def spying_apply(state, line):  # type: ignore[no-untyped-def]
        # Another connection (another process, after a power cut) already sees the input.
        with sqlite3.connect(path) as other:
            (last,) = other.execute("SELECT line FROM records ORDER BY id DESC LIMIT 1").fetchone()
        assert json.loads(last) == line
        seen.append(1)
        return apply(state, line)

    with Journal(path) as journal:
        game = journal.new_game(TWO)
        monkeypatch.setattr(store, "apply", spying_apply)
        game.submit({"roll": [1, 2]})
        with pytest.raises(IllegalInput):
            game.submit({"roll": [1, 2]})
    assert len(seen) == 2


def test_a_refused_input_stays_in_the_journal_and_is_refused_again(path: Path) -> None:
    with Journal(path) as journal:
        game = journal.new_game(TWO)
        game.submit({"roll": [1, 2]})
        with pytest.raises(IllegalInput, match="not an answer"):
            game.submit({"answer": "maybe"})
        state = game.state
    assert records(path, game.id)[-1] == ('{"answer":"maybe"}', "refused")
    # The outcome column is information only: a wrong mark changes nothing on replay.
    with sqlite3.connect(path) as db:
        db.execute("UPDATE records SET outcome = 'ok' WHERE line = '{\"answer\":\"maybe\"}'")
    with Journal(path) as journal:
        assert journal.open_game(game.id).state == state
        assert any("was ok when played but is refused on replay" in p for p in journal.problems)
    assert records(path, game.id)[-1][1] == "refused"


def test_an_input_is_given_to_the_engine_as_stored(journal: Journal) -> None:
    game = journal.new_game(TWO)
    state, _ = game.submit({"roll": (1, 2)})  # a tuple is stored, and applied, as a list
    assert state["seq"] == 1
    for line in ({"roll": [1, float("nan")]}, {"roll": object()}, {1: "one"}, ["roll"]):
        with pytest.raises(IllegalInput, match="JSON"):
            game.submit(line)  # type: ignore[arg-type]
    assert len(records(Path(journal.path), game.id)) == 2  # nothing journaled for those


def test_a_refused_setup_stores_nothing(journal: Journal) -> None:
    with pytest.raises(IllegalInput, match="players"):
        journal.new_game({"ruleset": "classic", "players": ["Ann"]})
    with pytest.raises(IllegalInput, match="ruleset"):
        journal.new_game({"ruleset": "parcheesi", "players": ["Ann", "Bob"]})
    assert journal.games() == []
    assert journal.latest_game(unfinished=True) is None


def test_sqlite_runs_in_wal_mode_with_full_sync(journal: Journal, path: Path) -> None:
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert journal._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


# ---------------------------------------------------------------------- several games
def test_several_games_are_listed_and_any_can_be_resumed(path: Path) -> None:
    clock = iter(datetime(2024, 5, 1, 20, 0, tzinfo=UTC) + timedelta(minutes=i) for i in range(1000))
    with Journal(path, clock=lambda: next(clock)) as journal:
        first = journal.new_game(TWO)
        second = journal.new_game({**SETUP, "seed": 9})
        third = journal.new_game({**TWO, "seed": 3})
        play(second, 30, random.Random(2))
        first.submit({"roll": [1, 2]})
        third.submit({"act": {"player": "host", "do": "end-game"}})
        states = {g.id: g.state for g in (first, second, third)}
        listed = journal.games()
    assert [g.id for g in listed] == [third.id, first.id, second.id]  # the most recently played first
    info = {g.id: g for g in listed}
    assert info[second.id].players == ("Ann", "Bob", "Cy")
    assert info[second.id].ruleset == "classic"
    assert info[second.id].inputs == states[second.id]["seq"] > 0
    assert info[first.id].inputs == 1
    assert info[first.id].created == datetime(2024, 5, 1, 20, 0, tzinfo=UTC)
    assert info[first.id].updated > info[third.id].created
    assert info[third.id].finished and info[third.id].winner == states[third.id]["winner"] is not None
    assert not info[first.id].finished and info[first.id].winner is None
    with Journal(path) as journal:
        for game_id, state in states.items():
            assert journal.open_game(game_id).state == state
        last = journal.latest_game(unfinished=True)  # the finished game is skipped
        assert last is not None and last.id == first.id
        latest = journal.latest_game()  # where the table stopped: the finished game's result
        assert latest is not None and latest.id == third.id and latest.state == states[third.id]
        with pytest.raises(JournalError, match="no game 99"):
            journal.open_game(99)


# ---------------------------------------------------------------------- game files
def test_export_then_import_gives_the_same_game(path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with Journal(path, snapshot_every=7) as journal:
        game = journal.new_game(SETUP)
        sent = play(game, 60, random.Random(3))
    journal = Journal(path, snapshot_every=7)
    game = journal.open_game(game.id)  # from a snapshot
    text = game.export()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # replay and snapshot agree
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0] == {"setup": SETUP}
    assert len(lines) == game.state["seq"] + 1  # the accepted inputs only
    assert all(line in sent for line in lines[1:])
    assert replay(text.splitlines()).state == game.state
    copy = journal.import_game(text)
    assert copy.id != game.id
    assert copy.state == game.state
    assert copy.export() == text
    assert journal.open_game(copy.id).state == game.state
    journal.close()


def test_a_bad_import_line_is_named_and_nothing_is_imported(journal: Journal) -> None:
    good = [json.dumps({"setup": TWO}), json.dumps({"roll": [1, 2]})]
    cases = {
        "\n".join([*good, '{"answer": "maybe"}', '{"answer": "no"}']): (3, "not an answer"),
        "\n".join([*good, "", '{"answer": "no"']): (4, "not valid JSON"),
        "\n".join([*good, "[1, 2]"]): (3, "JSON object"),
        '{"roll": [1, 2]}\n': (1, "setup"),
        '{"setup": {"ruleset": "classic", "players": ["Ann"]}}\n': (1, "players"),
        "\n\n": (1, "empty"),
    }
    for text, (number, reason) in cases.items():
        with pytest.raises(GameFileError, match=reason) as caught:
            journal.import_game(text)
        assert caught.value.line_number == number
        assert str(caught.value).startswith(f"line {number}: ")
        assert isinstance(caught.value, CompanionError)
    assert journal.games() == []


# ---------------------------------------------------------------------- undo
@pytest.mark.parametrize("snapshot_every", [1, 100])
def test_undo_works_across_a_reopen(path: Path, snapshot_every: int) -> None:
    with Journal(path, snapshot_every=snapshot_every) as journal:
        game = journal.new_game(TWO)
        game.submit({"roll": [1, 2]})  # Ann on Baltic Avenue: buy?
        game.submit({"answer": "no"})  # an auction
        before = game.state
        game.submit({"act": {"player": "Ann", "do": "bid", "amount": 10}})
    with Journal(path, snapshot_every=snapshot_every) as journal:
        game = journal.open_game(game.id)
        state, events = game.submit({"undo": 1})
        assert events and events[0]["kind"] == "undo"
    assert state["seq"] == before["seq"] + 2
    keep = ("players", "spaces", "prompt", "auction", "turn")
    assert {k: state[k] for k in keep} == {k: before[k] for k in keep}
    with Journal(path, snapshot_every=snapshot_every) as journal:
        again = journal.open_game(game.id)
        assert again.state == state
        assert [json.loads(x) for x in again.export().splitlines()][-1] == {"undo": 1}
        state, _ = again.submit({"undo": 1})  # takes back the "no"
        assert state["prompt"]["kind"] == "buy"
    with Journal(path, snapshot_every=snapshot_every) as journal:
        again = journal.open_game(game.id)
        assert again.state == state
        with pytest.raises(IllegalInput, match="nothing to undo"):
            again.submit({"undo": 1})  # the roll revealed chance
    assert public_state(state)["log"][-1].startswith("Undone")


# ---------------------------------------------------------------------- snapshots
def count_applies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def counting(state, line):  # type: ignore[no-untyped-def]
        calls.append(1)
        return apply(state, line)

    monkeypatch.setattr(store, "apply", counting)
    return calls


def test_reopening_replays_from_the_latest_snapshot(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Journal(path, snapshot_every=10) as journal:
        game = journal.new_game(SETUP)
        play(game, 95, random.Random(4))
        state = game.state
    with sqlite3.connect(path) as db:
        covered = [row[0] for row in db.execute("SELECT record FROM snapshots ORDER BY record")]
        (total,) = db.execute("SELECT count(*) FROM records").fetchone()
    assert len(covered) == 2  # the latest and one to fall back on
    calls = count_applies(monkeypatch)
    with Journal(path, snapshot_every=10) as journal:
        assert journal.open_game(game.id).state == state
    assert len(calls) == total - covered[-1]  # only the records after the snapshot


def test_a_damaged_snapshot_is_reported_and_ignored(path: Path) -> None:
    with Journal(path, snapshot_every=3) as journal:
        game = journal.new_game(SETUP)
        play(game, 40, random.Random(5))
        state = game.state
    with sqlite3.connect(path) as db:
        db.execute("UPDATE snapshots SET state = replace(state, '\"cash\":', '\"cash\":1') WHERE record = "
                   "(SELECT max(record) FROM snapshots)")
    with Journal(path, snapshot_every=3) as journal:
        assert journal.open_game(game.id).state == state
        assert len(journal.problems) == 1 and "snapshot" in journal.problems[0]


def test_a_snapshot_of_another_companion_version_is_not_used(path: Path) -> None:
    with Journal(path, snapshot_every=3) as journal:
        game = journal.new_game(SETUP)
        play(game, 20, random.Random(6))
        state = game.state
    with sqlite3.connect(path) as db:
        db.execute("UPDATE snapshots SET version = '0.0.0-old', state = '{}'")
    with Journal(path, snapshot_every=3) as journal:
        assert journal.open_game(game.id).state == state
        assert journal.problems == []


def test_import_stores_a_snapshot_of_a_long_game(journal: Journal, path: Path) -> None:
    game = journal.new_game(SETUP)
    play(game, 30, random.Random(7))
    copy = journal.import_game(game.export())
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM snapshots WHERE game = ?", (copy.id,)).fetchone() == (1,)


# ---------------------------------------------------------------------- writers
def test_a_second_writer_is_caught(path: Path) -> None:
    with Journal(path) as one, Journal(path) as two:
        a = one.new_game(TWO)
        b = two.open_game(a.id)
        a.submit({"roll": [1, 2]})
        with pytest.raises(JournalError, match="another writer"):
            b.submit({"roll": [1, 2]})
        assert two.open_game(a.id).state == a.state


def test_a_journal_may_be_called_from_another_thread(journal: Journal) -> None:
    game = journal.new_game(TWO)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            game.submit({"roll": [1, 2]})
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert errors == [] and game.state["seq"] == 1


def test_an_engine_crash_counts_as_a_refusal(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def buggy(state, line):  # type: ignore[no-untyped-def]
        if line == {"answer": "no"}:
            raise KeyError("bug")
        return apply(state, line)

    monkeypatch.setattr(store, "apply", buggy)
    with Journal(path) as journal:
        game = journal.new_game(TWO)
        game.submit({"roll": [1, 2]})
        with pytest.raises(EngineFailure):
            game.submit({"answer": "no"})
        game.submit({"answer": "yes"})  # the game goes on
        state = game.state
    assert [outcome for _, outcome in records(path, game.id)] == ["ok", "ok", "failed", "ok"]
    with Journal(path) as journal:  # and reopens: the crash is a refusal on replay too
        assert journal.open_game(game.id).state == state


def test_a_journal_of_a_newer_format_is_refused(path: Path) -> None:
    Journal(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(JournalError, match="newer"):
        Journal(path)


@pytest.mark.parametrize("control", ["\u0085", "\x1c", "\x1b", "\x07"])
def test_a_name_with_a_control_character_is_refused_before_anything_is_stored(journal: Journal, control: str) -> None:
    """Names are shown on the OLED, the phones and terminals: control characters (which str.splitlines also cuts
    at, and a terminal obeys) are refused with the reason."""
    with pytest.raises(IllegalInput, match="cannot be a player's name"):
        journal.new_game({"ruleset": "classic", "players": [f"A{control}n", "Bob"], "seed": 1})
    assert journal.games() == []


def test_a_file_that_is_not_a_database_is_refused(path: Path) -> None:
    path.write_bytes(b"this is not SQLite at all" * 100)
    with pytest.raises(JournalError, match="opening the journal"):
        Journal(path)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_game_file_with_a_line_separator_in_a_name_is_read_line_by_line(
        journal: Journal, tmp_path: Path, separator: str, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON Lines ends lines at "\\n" only: a name holding a character that str.splitlines would cut at stays in its
    line (with CRLF line ends too), and is refused for what it is (names hold no line or paragraph separator since
    issue 39: tests/test_player_names.py), not as a line cut in two."""
    from companion.cli import main

    with pytest.raises(IllegalInput, match="cannot be a player's name"):
        journal.new_game({"ruleset": "classic", "players": [f"A{separator}n", "Bob"], "seed": 1})
    text = json.dumps({"setup": {"ruleset": "classic", "players": [f"A{separator}n", "Bob"], "seed": 1}},
                      ensure_ascii=False) + '\n{"roll": [1, 2]}\n'
    assert [json.loads(line)["setup"]["players"][0] for line in game_file_lines(text)[:1]] == [f"A{separator}n"]
    with pytest.raises(GameFileError, match="cannot be a player's name"):
        journal.import_game(text)
    path = tmp_path / "game.jsonl"
    path.write_bytes(("\ufeff" + text.replace("\n", "\r\n")).encode())
    assert main(["replay", str(path), "--json"], io.StringIO()) == 1
    err = capsys.readouterr().err
    assert "line 1" in err and "cannot be a player's name" in err


class FailingPragma:
    """The journal's SQLite connection, but ``PRAGMA synchronous = FULL`` fails ``times`` times (a disk error)."""

    def __init__(self, db: sqlite3.Connection, times: int) -> None:
        self._db, self.times = db, times

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql == "PRAGMA synchronous = FULL" and self.times:
            self.times -= 1
            raise sqlite3.OperationalError("disk I/O error")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self._db, name)


def test_a_failure_after_the_input_is_committed_keeps_it_applied(path: Path) -> None:
    """Restoring synced commits after an input's outcome failed: the input is on disk, so it stays applied (the
    table said "nothing was changed" while the journal held it, and live play and the journal parted ways).
    The outcome waits for the next commit (one per input); a listing writes it at once, in a quick commit."""
    with Journal(path) as journal:
        game = journal.new_game(TWO)
        journal._db = FailingPragma(journal._db, times=1)  # type: ignore[assignment]
        state, _ = game.submit({"roll": [2, 3]})
        assert [g.inputs for g in journal.games()] == [1]  # the outcome's quick commit, then the failure
        assert game.state is state and state["seq"] == 1
        game.submit({"answer": "no"})  # synced commits are restored first, then it is recorded
        live = game.state
    with Journal(path) as journal:
        assert journal.problems == []
        assert journal.open_game(game.id).state == live


def test_synced_commits_that_cannot_be_restored_refuse_the_next_input_before_recording_it(path: Path) -> None:
    with Journal(path) as journal:
        game = journal.new_game(TWO)
        journal._db = FailingPragma(journal._db, times=2)  # type: ignore[assignment]
        game.submit({"roll": [2, 3]})
        journal.games()  # the outcome's quick commit (one commit per input: else it waits for the next input's)
        with pytest.raises(JournalError, match="restoring synced commits"):
            game.submit({"answer": "no"})
        assert game.state["seq"] == 1
        game.submit({"answer": "no"})  # the disk is back
    assert [json.loads(line) for line, _ in records(path, game.id)] == [
        {"setup": TWO}, {"roll": [2, 3]}, {"answer": "no"}]  # the refused attempt left no record


# ---------------------------------------------------------------------- one commit per input
def test_one_synced_commit_per_input_carries_the_outcome_of_the_input_before(path: Path) -> None:
    """Issue 43: an input's outcome, the listing's cache and a snapshot are written with the next input's commit,
    not in a commit of their own (which also switched the sync off and on again around it)."""
    with Journal(path, snapshot_every=2) as journal:
        game = journal.new_game(TWO)
        statements: list[str] = []
        journal._db.set_trace_callback(statements.append)
        game.submit({"roll": [1, 2]})
        with pytest.raises(IllegalInput):
            game.submit({"answer": "maybe"})
        game.submit({"answer": "no"})
        assert [s for s in statements if s in ("BEGIN IMMEDIATE", "COMMIT")] == ["BEGIN IMMEDIATE", "COMMIT"] * 3
        assert not [s for s in statements if s.startswith("PRAGMA")]
        assert [o for _, o in records(path, game.id)] == ["ok", "ok", "refused", None]  # the last: at the next
        assert [g.inputs for g in journal.games()] == [2]  # a listing writes it at once
        assert [o for _, o in records(path, game.id)] == ["ok", "ok", "refused", "ok"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT record FROM snapshots").fetchall() == [(4,)]  # record 4: the input at seq 2


def test_no_room_for_the_input_befores_bookkeeping_records_the_input_alone(
    path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A nearly full disk with room for the input but not for the outcome of the one before beside it: the input is
    recorded (and applied), that outcome left to the replay that opens the game next."""
    from companion.journal.bookkeeping import Bookkeeping

    with Journal(path) as journal:
        game = journal.new_game(TWO)
        game.submit({"roll": [1, 2]})
        write, full = Bookkeeping.write, [True]

        def no_room(self: Bookkeeping, db: sqlite3.Connection, engine: str) -> None:
            if full and full.pop():
                raise sqlite3.OperationalError("database or disk is full")
            write(self, db, engine)

        monkeypatch.setattr(Bookkeeping, "write", no_room)
        with caplog.at_level(logging.WARNING, logger="companion.journal"):
            state, _ = game.submit({"answer": "no"})
        assert game.state is state and state["seq"] == 2
        assert any("record 2 is left to a replay" in r.getMessage() for r in caplog.records)
        assert [o for _, o in records(path, game.id)] == ["ok", None, None]
    assert [o for _, o in records(path, game.id)] == ["ok", None, "ok"]  # the last written on closing
    with Journal(path) as journal:  # the whole check replays the game whose outcome is missing
        assert journal.problems == []
        assert journal.open_game(game.id).state == state
    assert [o for _, o in records(path, game.id)] == ["ok", "ok", "ok"]
