"""What changed between two states (companion/web/delta.py), applied as a phone applies it (tests/web/sse.py)."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import apply, new_game, public_state
from companion.web.delta import diff, same

from .sse import patched

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b", "Ann", "é"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.sampled_from("abcde"), inner, max_size=4)),
                      max_leaves=20)


def edited(value: Any, data: st.DataObject) -> Any:
    """``value`` with some parts changed, others shared (as the engine's copy-on-write states are)."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: edited(value[key], data)}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        drop = data.draw(st.integers(0, len(value)))
        return [*value[drop:], *data.draw(st.lists(values, max_size=3))]
    return data.draw(values)


@settings(max_examples=400, deadline=None)
@given(values, st.data())
def test_applying_the_operations_gives_the_new_value_and_leaves_the_old_one(old: Any, data: st.DataObject) -> None:
    new = edited(old, data)
    kept = copy.deepcopy(old)
    ops = json.loads(json.dumps(diff(old, new)))  # as sent
    assert json.dumps(patched(old, ops), sort_keys=True) == json.dumps(new, sort_keys=True)
    assert json.dumps(old, sort_keys=True) == json.dumps(kept, sort_keys=True)
    assert (ops == []) == same(old, new)


def test_booleans_are_not_numbers() -> None:
    assert diff({"a": 1}, {"a": True}) == [["/a", True]]
    assert diff([0, 1], [False, 1]) == [["/0", False]]


def test_keys_are_json_pointers() -> None:
    assert diff({"a/b": {"~": 1}}, {"a/b": {"~": 2}}) == [["/a~1b/~0", 2]]
    assert patched({"a/b": {"~": 1}}, [["/a~1b/~0", 2]]) == {"a/b": {"~": 2}}
    assert diff(1, [1]) == [["", [1]]] and patched(1, [["", [1]]]) == [1]


def test_a_window_that_moved_on_costs_its_new_lines() -> None:
    log = [f"line {n}" for n in range(20)]
    assert diff({"log": log}, {"log": [*log[2:], "line 20", "line 21"]}) == [["/log", ["line 20", "line 21"], 2]]
    assert diff({"log": log[:3]}, {"log": [*log[:3], "x"]}) == [["/log", ["x"], 0]]


def test_a_money_action_is_a_few_small_operations() -> None:
    state, _ = new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "start": {
        "players": {"Ann": {"cash": 1500, "space": "go", "cards": [], "in_jail": False},
                    "Bob": {"cash": 1500, "space": "go", "cards": [], "in_jail": False}},
        "spaces": {"baltic-avenue": {"owner": "Ann", "houses": 0, "hotel": False, "mortgaged": False}},
        "pools": {}, "turn": "Ann"}})
    for _ in range(25):  # the log's window full
        state, _ = apply(state, {"act": {"player": "Ann", "do": "mortgage", "space": "baltic-avenue"}})
        state, _ = apply(state, {"act": {"player": "Ann", "do": "unmortgage", "space": "baltic-avenue"}})
    after, _ = apply(state, {"act": {"player": "Ann", "do": "mortgage", "space": "baltic-avenue"}})
    ops = diff(public_state(state), public_state(after))
    assert sorted(op[0] for op in ops) == ["/log", "/players/0/cash", "/seq", "/spaces/baltic-avenue/mortgaged"]
    assert len(json.dumps(ops, separators=(",", ":"))) < 200  # two lines of the log are most of it
