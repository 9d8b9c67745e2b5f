"""A game with a time limit (option ``end_at_minutes``) is ended by the table's clock, through the journal."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.table import Table
from companion.timelimit import TimeLimit

START = datetime(2026, 11, 20, 20, 0, tzinfo=timezone.utc)


class Clock:
    """The Pi's wall clock, moved by the test."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def rig(tmp_path: Path):
    clock = Clock()
    journal = Journal(tmp_path / "games.sqlite3", clock=clock)
    table = Table(journal)
    said: list[str] = []
    limit = TimeLimit(table, lambda gid: next(g.created for g in journal.games() if g.id == gid), now=clock,
                      warn=said.append)
    yield table, clock, limit, said, tmp_path / "games.sqlite3"
    journal.close()


def game(table: Table, minutes: int, ruleset: str = "classic") -> None:
    table.new_game({"ruleset": ruleset, "players": ["Ann", "Bob"], "seed": 1,
                    "options": {"end_at_minutes": minutes},
                    "start": {"players": {"Ann": {"cash": 900}, "Bob": {"cash": 1200}}}}, source="host")


def test_the_game_ends_when_its_time_is_up_and_the_richest_wins(rig) -> None:
    table, clock, limit, said, path = rig
    game(table, 30)
    table.submit({"roll": [1, 2]}, source="roller")
    for minutes, warned in ((10, []), (24.9, []), (25.5, ["5 minutes left in this game"]), (29.9, None)):
        clock.at = START + timedelta(minutes=minutes)
        limit.check()
        if warned is not None:
            assert said == warned
        assert table.state["winner"] is None
    assert said == ["5 minutes left in this game"]  # said once
    clock.at = START + timedelta(minutes=30)
    limit.check()
    assert table.state["winner"] == "Bob"  # the highest total worth
    limit.check()  # over: nothing more is sent
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT line, source FROM records ORDER BY id").fetchall()
    assert rows[-1] == ('{"act":{"player":"host","do":"end-game"}}', "timer")
    assert [source for _, source in rows].count("timer") == 1


def test_a_power_cut_does_not_give_extra_time(rig, tmp_path: Path) -> None:
    """The time counts from the game's creation in the journal, not from the table's start."""
    table, clock, _, _, path = rig
    game(table, 30)
    clock.at = START + timedelta(minutes=40)  # the table was off from minute 20 to minute 40
    with Journal(path, clock=clock) as journal:
        again = Table(journal)
        again.resume()
        TimeLimit(again, lambda gid: next(g.created for g in journal.games() if g.id == gid), now=clock).check()
        assert again.state["winner"] == "Bob"


def test_games_without_a_limit_or_a_clock_to_end_them_are_left_alone(rig) -> None:
    table, clock, limit, said, _ = rig
    game(table, 0)
    clock.at = START + timedelta(days=3)
    limit.check()
    assert table.state["winner"] is None and limit.remaining() is None
    table.new_game({"ruleset": "chambers", "players": ["Ann", "Bob"], "seed": 1}, source="host")
    limit.check()
    assert table.state["winner"] is None and said == []


def test_the_addon_board_has_the_limit_too(rig) -> None:
    table, clock, limit, _, _ = rig
    game(table, 60, "addon")
    assert limit.remaining() == pytest.approx(3600)
    clock.at = START + timedelta(hours=1)
    limit.check()
    assert table.state["winner"] is not None
