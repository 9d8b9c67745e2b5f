"""A run of inputs without a roll or a card (a phone offering a trade and withdrawing it, for ever) costs O(n): the
undo record keeps at most ``UNDO_DEPTH`` inputs, so each input copies a bounded record and the state (kept whole in
every 100th snapshot of the journal) stays the same size. Work is counted, never timed (figures:
``bench/roll_free_bench.py``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from companion.engine import IllegalInput, apply, new_game, public_state
from companion.engine.core import UNDO_DEPTH
from companion.gamefile import replay

SETUP = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1,
         "start": {"spaces": {"baltic-avenue": {"owner": "Ann"}, "reading-railroad": {"owner": "Bob"}}}}
OFFER = {"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cash": 10},
                 "get": {"spaces": ["reading-railroad"]}}}
WITHDRAW = {"act": {"player": "Ann", "do": "reject"}}
RUN = 100_000


def roll_free(count: int) -> Iterator[dict[str, Any]]:
    for n in range(count):
        yield OFFER if n % 2 == 0 else WITHDRAW


def test_a_run_of_100k_inputs_without_a_roll_copies_a_bounded_record_each() -> None:
    """The record was copied whole at every input: 100,000 inputs copied 5 billion of them (n²/2)."""
    state, _ = new_game(SETUP)
    copied = 0  # the inputs each new state's undo record holds: what building it copied
    sizes = []
    for n, line in enumerate(roll_free(RUN), start=1):
        state, _ = apply(state, line)
        copied += len(state["undo"]["inputs"])
        if n in (1_000, RUN):
            sizes.append(len(json.dumps(state)))
    assert copied <= UNDO_DEPTH * RUN  # linear: a bounded amount of work per input
    assert sizes[1] <= sizes[0] + 1_000  # the state (and so each snapshot) does not grow with the run
    assert state["seq"] == RUN and public_state(state)["players"][0]["cash"] == 1500


def test_undo_takes_back_the_last_inputs_of_a_long_run_and_says_when_it_can_go_no_further() -> None:
    state, _ = new_game(SETUP)
    seen = []
    for line in roll_free(UNDO_DEPTH + 51):  # the record starts again at input 201: 51 inputs in it
        state, _ = apply(state, line)
        seen.append(public_state(state))
    for back in range(1, 52):
        state, events = apply(state, {"undo": 1})
        assert events[0]["text"].startswith("Undone: Ann")
        assert without_story(public_state(state)) == without_story(seen[-1 - back])
    with pytest.raises(IllegalInput, match=f"nothing more to undo: only the last {UNDO_DEPTH} inputs"):
        apply(state, {"undo": 1})


def without_story(state: dict[str, Any]) -> dict[str, Any]:
    """A public state without what an undo changes on purpose (its number and story)."""
    return {k: v for k, v in state.items() if k not in ("seq", "log")}


def test_a_long_run_replays_to_the_state_it_was_played_to() -> None:
    lines = [json.dumps({"setup": SETUP})] + [json.dumps(line) for line in roll_free(2 * UNDO_DEPTH + 7)]
    played, _ = new_game(SETUP)
    for line in roll_free(2 * UNDO_DEPTH + 7):
        played, _ = apply(played, line)
    assert replay(lines).state == played
