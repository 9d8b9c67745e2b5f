"""The cash history's net worth, its board part kept while an input leaves the board as it was (``web/worth.py``),
is each player's worth worked out whole, at every input of bot games of every ruleset, undos among them (issue 43);
and the feed's history points are those it made when it worked every worth out whole."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import State, find_ruleset, ruleset_ids
from companion.engine.draft import Draft
from companion.journal import Journal
from companion.table import Table
from companion.web.feed import Feed
from companion.web.worth import Worths

from .test_shared_events import bot_game


def whole(state: State) -> dict[str, int]:
    """The worth as the feed worked it out before: the ruleset's ``worths`` on a draft of the state, every time."""
    worths = getattr(find_ruleset(state["ruleset"]), "worths", None)
    if worths is None or "queue" not in state:
        return {}
    return worths(Draft(state), [p["name"] for p in state["players"] if "cash" in p and not p.get("bankrupt")])


def point(state: State) -> dict[str, Any]:
    """A history point as the feed made it before."""
    made = {"seq": state["seq"], "cash": {p["name"]: p["cash"] for p in state["players"] if "cash" in p}}
    if worth := whole(state):
        made["worth"] = worth
    return made


@pytest.mark.parametrize("ruleset", ruleset_ids())
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), undos=st.floats(0, 0.3))
def test_kept_worth_is_the_whole_one_at_every_input(tmp_path: Path, ruleset: str, seed: int, undos: float) -> None:
    order = random.Random(seed)
    with Journal(tmp_path / f"games-{seed}-{undos}.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
        feed, kept = Feed(table), Worths()
        points: list[dict[str, Any]] = []

        def step() -> None:
            state = table.state
            assert state is not None
            assert kept(state) == whole(state)
            made = point(state)
            if points and made["seq"] < points[-1]["seq"]:
                points.clear()  # an undo: the history starts again from there, as the feed's does
            if not points or points[-1] != made:
                points.append(made)

        bot_game(table, ruleset, step, seed=seed, bot_seed=seed, inputs=120,
                 first=lambda: [{"undo": 1}] if order.random() < undos else [])
        assert feed.history()["points"] == points
        feed.close()


@pytest.mark.parametrize("ruleset", ruleset_ids())
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), undos=st.floats(0, 0.3), reads=st.floats(0, 0.5), bound=st.sampled_from([5, 400]))
def test_the_history_read_at_any_moment_is_the_one_made_whole_at_every_input(
        tmp_path: Path, ruleset: str, seed: int, undos: float, reads: float, bound: int) -> None:
    """The worths counted when the history is read (issue 43: not at every input) give the very history, byte for byte
    as JSON, that the feed made when it counted every point's worth whole at its input: read after any input (none,
    some, every one), across undos and a new game, with the history's bound reached or not."""
    order = random.Random(seed)
    with Journal(tmp_path / f"games-{seed}-{undos}-{reads}-{bound}.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
        feed = Feed(table, history_points=bound)
        points: list[dict[str, Any]] = []

        def step() -> None:
            state = table.state
            assert state is not None
            made = point(state)
            if points and made["seq"] < points[-1]["seq"]:
                points.clear()
            if not points or points[-1] != made:
                points.append(made)
                del points[:-bound]
            if order.random() < reads:
                assert json.dumps(feed.history()["points"]) == json.dumps(points)

        bot_game(table, ruleset, step, seed=seed, bot_seed=seed, inputs=90,
                 first=lambda: [{"undo": 1}] if order.random() < undos else [])
        assert json.dumps(feed.history()["points"]) == json.dumps(points)
        feed.close()
