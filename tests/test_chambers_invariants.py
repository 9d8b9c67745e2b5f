"""Invariants of ``chambers`` over random games (hypothesis picks the dice, the answers and bad inputs).

After every input: every skill card is in exactly one deck or hand; tokens stand only on path spaces and never
rest on a snare; a hand holds only safe cards of its holder's chamber; ``seq`` goes up by one; a refused input
changes nothing; earlier states are never changed; replaying the accepted inputs rebuilds the game exactly.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.engine import apply, find_ruleset, new_game, public_state

from .applying import apply_unchanged

RULES = find_ruleset("chambers")
BOARD = RULES.board
ALL_CARDS = Counter(list(BOARD.cards))
NAMES = ["Ann", "Bob", "Cy", "Dee"]
BAD_INPUTS: list[dict[str, Any]] = [
    {"roll": [0]}, {"roll": [7]}, {"roll": [2, 3]}, {"roll": "4"}, {"roll": [True]},
    {"answer": "maybe"}, {"answer": 6},
    {"act": {"player": "Ann", "do": "build", "space": "keys-2"}},
    {"act": {"player": "Zed", "do": "pass"}},
    {"setup": {"ruleset": "chambers", "players": ["Ann", "Bob"]}},
    {"roll": [3], "cube": 15},
    {},
]

setups = st.builds(
    lambda n, seed: {"ruleset": "chambers", "players": NAMES[:n], "seed": seed},
    st.integers(2, 4), st.integers(0, 2**64 - 1),
)


def check(state: dict[str, Any]) -> None:
    """Every invariant a chambers state keeps between inputs."""
    assert json.loads(json.dumps(state)) == state, "state is plain JSON data"
    assert state["spaces"] == {} and state["pools"] == {} and state["bank"] == {}
    held = [c for p in state["players"] for c in p["cards"]]
    stacked = [c for deck in state["decks"].values() for c in deck]
    assert Counter(held + stacked) == ALL_CARDS, "every card is in exactly one deck or hand"
    for deck, cards in state["decks"].items():
        assert all(BOARD.cards[c].deck == deck for c in cards), f"a card is in the wrong deck: {deck} {cards}"
    for p in state["players"]:
        assert "cash" not in p and p["bankrupt"] is False
        space = BOARD.by_id[p["space"]]  # KeyError: a token off the path
        assert space.kind != "snare", f"{p['name']} rests on the snare {space.id}"
        assert p["chamber"] == RULES.path.chamber[space.id]
        for card in p["cards"]:
            assert BOARD.cards[card].kept and BOARD.cards[card].deck == p["chamber"], f"{p['name']} holds {card}"
        at_door = space.kind == "door"
        assert at_door == (state["winner"] == p["name"]), "the winner, and only the winner, is at the final door"
    if state["winner"] is None:
        prompt = state["prompt"]
        assert prompt is not None and prompt["player"] == state["turn"]["player"]
        assert prompt["kind"] in ("roll", "star", "exchange")
    else:
        assert state["prompt"] is None


def legal_input(state: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    prompt = state["prompt"]
    if data.draw(st.integers(0, 9)) == 0:
        return {"undo": 1}
    if prompt["kind"] == "roll":
        return {"roll": [data.draw(st.integers(1, 6))]}
    return {"answer": data.draw(st.sampled_from(prompt["options"]))}


def play(setup: dict[str, Any], data: st.DataObject, steps: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play up to ``steps`` inputs, checking every invariant; returns the last state and the accepted lines."""
    state, _ = new_game(setup)
    check(state)
    accepted: list[dict[str, Any]] = []
    history: list[tuple[dict[str, Any], dict[str, Any]]] = [(state, copy.deepcopy(state))]
    for _ in range(steps):
        if state["winner"] is not None:
            break
        if data.draw(st.integers(0, 7)) == 0:
            line = data.draw(st.sampled_from(BAD_INPUTS))
        else:
            line = legal_input(state, data)
        taken = apply_unchanged(state, line)
        if taken is None:
            continue
        after, events = taken
        assert after["seq"] == state["seq"] + 1
        assert all(isinstance(e["text"], str) and e["text"] for e in events)
        check(after)
        for e in events:
            event(f"event: {e['kind']}")
        accepted.append(line)
        state = after
        history.append((state, copy.deepcopy(state)))
    for kept, snapshot in history:
        assert kept == snapshot, "an earlier state was changed in place"
    return state, accepted


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups, st.data())
def test_invariants_hold_in_random_games(setup: dict[str, Any], data: st.DataObject) -> None:
    play(setup, data, steps=120)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups, st.data())
def test_replay_rebuilds_the_same_game(setup: dict[str, Any], data: st.DataObject) -> None:
    final, accepted = play(setup, data, steps=80)
    state, _ = new_game(setup)
    for line in accepted:
        state, _ = apply(state, line)
    assert state == final
    assert public_state(state) == public_state(final)


@settings(max_examples=60, deadline=None)
@given(setups, st.lists(st.integers(2, 5), min_size=1, max_size=40))
def test_moves_only_go_forward_along_the_path(setup: dict[str, Any], faces: list[int]) -> None:
    """With move faces only, a token ends each turn ahead of where it started or back at its chamber's start."""
    path = RULES.path
    state, _ = new_game(setup)
    for face in faces:
        if state["winner"] is not None:
            break
        name = state["turn"]["player"]
        here = next(p for p in state["players"] if p["name"] == name)
        state, _ = apply(state, {"roll": [face]})
        there = next(p for p in state["players"] if p["name"] == name)
        ahead = path.index[there["space"]] - path.index[here["space"]]
        if there["space"] == path.door:
            assert 1 <= ahead <= face
        elif ahead != face:
            assert there["space"] == path.starts[there["chamber"]], "short of the count only back at a start"
