"""The table: the one writer over a real journal — order, staleness, listeners, waiting for changes."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from companion.engine import IllegalInput
from companion.journal import Journal
from companion.table import StaleInput, Table, Update

SETUP = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1}


@pytest.fixture
def table(tmp_path: Path):
    with Journal(tmp_path / "games.sqlite3") as journal:
        yield Table(journal)


def test_no_input_before_a_game(table: Table) -> None:
    with pytest.raises(IllegalInput, match="no game is running"):
        table.submit({"roll": [1, 2]}, source="roller")


def test_inputs_are_journaled_with_their_source_and_published(table: Table, tmp_path: Path) -> None:
    seen: list[Update] = []
    table.subscribe(seen.append)
    table.new_game(SETUP)
    update = table.submit({"roll": [1, 2]}, source="roller")
    assert update.state["seq"] == 1 and update.source == "roller"
    assert [u.source for u in seen] == ["host", "roller"]
    rows = sqlite3.connect(tmp_path / "games.sqlite3").execute("SELECT source FROM records ORDER BY id").fetchall()
    assert rows[-1] == ("roller",)
    assert table.public() is not None and "seed" not in table.public()


def test_a_refused_input_changes_nothing_and_is_not_published(table: Table) -> None:
    table.new_game(SETUP)
    seen: list[Update] = []
    table.subscribe(seen.append)
    before = table.state
    with pytest.raises(IllegalInput):
        table.submit({"answer": "yes"}, source="button")
    assert table.state is before and seen == []


def test_an_input_made_on_an_older_state_is_stale(table: Table) -> None:
    table.new_game(SETUP)
    table.submit({"roll": [1, 2]}, source="web:Ann", expect_seq=0)
    with pytest.raises(StaleInput):
        table.submit({"answer": "yes"}, source="web:Ann", expect_seq=0)
    assert table.state["seq"] == 1


def test_a_broken_listener_never_stops_the_game(table: Table) -> None:
    def broken(update: Update) -> None:
        raise OSError("display unplugged")

    table.subscribe(broken)
    table.new_game(SETUP)
    assert table.submit({"roll": [1, 2]}, source="roller").state["seq"] == 1


def test_unsubscribe(table: Table) -> None:
    seen: list[Update] = []
    unsubscribe = table.subscribe(seen.append)
    unsubscribe()
    table.new_game(SETUP)
    assert seen == []


def test_a_waker_is_told_after_the_other_listeners_and_inside_answering_when_the_block_ends(table: Table) -> None:
    """A waker (the OLED's loop) is told of an input after the ordinary listeners; inside ``answering`` (a phone's
    message until its reply is written) when the block ends, raised out of or not, each nested block its own; an
    input of another thread meanwhile (a button on the OLED's) at once; a broken waker stops nothing."""
    told: list[str] = []
    table.subscribe(lambda u: told.append(f"listener {u.state['seq']}"))
    table.subscribe(lambda u: told.append(f"waker {u.state['seq']}"), waker=True)
    table.subscribe(lambda u: (_ for _ in ()).throw(OSError("unplugged")), waker=True)
    table.new_game(SETUP)
    assert told == ["listener 0", "waker 0"]
    told.clear()
    with table.answering():
        table.submit({"roll": [1, 2]}, source="web:Ann")
        assert told == ["listener 1"]
        other = threading.Thread(target=lambda: table.submit({"answer": "yes"}, source="button"))
        other.start()
        other.join(timeout=30)
        assert told == ["listener 1", "listener 2", "waker 2"]  # not held: another thread's input
        told.append("the reply written")
    assert told == ["listener 1", "listener 2", "waker 2", "the reply written", "waker 1"]
    told.clear()
    with pytest.raises(IllegalInput), table.answering():
        with table.answering():
            table.submit({"roll": [1, 3]}, source="web:Bob")
        assert told == ["listener 3", "waker 3"]  # the inner block's, at its end
        table.submit({"answer": "flat"}, source="web:Bob")
        raise IllegalInput("the reply could not be written")
    assert told == ["listener 3", "waker 3", "listener 4", "waker 4"]
    table.submit({"roll": [2, 4]}, source="roller")
    assert told[-2:] == ["listener 5", "waker 5"]  # no block left open on this thread


def test_waiting_wakes_on_an_input_and_on_a_new_game_at_the_same_seq(table: Table) -> None:
    table.new_game(SETUP)
    assert table.wait_for_change(0, timeout=0.01)["seq"] == 0  # nothing changed: times out
    woke: list[int] = []
    waiter = threading.Thread(target=lambda: woke.append(table.wait_for_change(0, timeout=30)["seq"]))
    waiter.start()
    table.new_game(SETUP)  # a different game, also at seq 0
    waiter.join(timeout=30)
    assert woke == [0] and not waiter.is_alive()


def test_resume_opens_the_game_played_last(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Journal(path) as journal:
        first = Table(journal)
        first.new_game(SETUP)
        first.submit({"roll": [1, 2]}, source="roller")
    with Journal(path) as journal:
        again = Table(journal)
        state = again.resume()
        assert state is not None and state["seq"] == 1 and state["prompt"]["kind"] == "buy"
