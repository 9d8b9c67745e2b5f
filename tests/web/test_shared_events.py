"""What the feed works out once per input and shares (the fan-out's event, the reply's delta, the views, the diff's
shortcuts) equals what each phone's view would give alone, over bot games of every ruleset (issue 43)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import IllegalInput, find_ruleset, ruleset_ids
from companion.journal import Journal
from companion.sim.registry import strategy_for
from companion.table import Table
from companion.web.api import seen_as
from companion.web.delta import diff, pointer, same
from companion.web.feed import Feed, Frame, Viewer, sse

from .sse import patched

INPUTS = 80  # of each ruleset's bot game (fewer if it ends before)
PLAYERS = ["Ann", "Bob", "Cy"]
#: Whom the phones are: the host, each seat, an anonymous viewer, in English and German (issue 41's words).
VIEWERS = [Viewer(host, player, language) for language in ("en", "de")
           for host, player in [(True, None), (False, None), *((False, name) for name in PLAYERS)]]


# ---------------------------------------------------------------------- the diff without its shortcuts
def plain_diff(old: Any, new: Any, path: str = "") -> list[list[Any]]:
    """The delta's operations worked out the plain way, looking at every item (the reference the fast one must match
    operation for operation: identity and C-level looks are shortcuts, never another answer)."""
    if type(new) is not type(old):
        return [[path, new]]
    if isinstance(new, dict):
        ops: list[list[Any]] = []
        for key, value in new.items():
            if key not in old:
                ops.append([pointer(path, key), value])
            elif not plain_same(old[key], value):
                ops.extend(plain_diff(old[key], value, pointer(path, key)))
        ops.extend([pointer(path, key)] for key in old if key not in new)
        return ops
    if isinstance(new, list):
        return plain_diff_list(old, new, path)
    return [] if old == new else [[path, new]]


def plain_diff_list(old: list[Any], new: list[Any], path: str) -> list[list[Any]]:
    window = plain_window(old, new, path)
    if len(old) == len(new):
        changed = [i for i, (a, b) in enumerate(zip(old, new)) if not plain_same(a, b)]
        if not changed:
            return []
        if len(changed) > 1 and window is not None:
            return window
        if 2 * len(changed) > len(new):
            return [[path, new]]
        return [op for i in changed for op in plain_diff(old[i], new[i], f"{path}/{i}")]
    return window if window is not None else [[path, new]]


def plain_window(old: list[Any], new: list[Any], path: str) -> list[list[Any]] | None:
    for drop in range(len(old)):
        kept = len(old) - drop
        if kept <= len(new) and all(plain_same(a, b) for a, b in zip(old[drop:], new)):
            return [[path, new[kept:], drop]] if drop or kept < len(new) else []
    return None


def plain_same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(plain_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(plain_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


scalars = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from([0.0, 1.0, "a", "é"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.sampled_from("abcde"), inner, max_size=4)),
                      max_leaves=20)


def twin(value: Any, data: st.DataObject) -> Any:
    """A copy of ``value`` that shares some parts (the same objects), has others equal but new, keys in another order,
    a ``True`` for a ``1`` or a ``1.0`` for a ``1`` (equal in Python, not in JSON), or a window moved on."""
    how = data.draw(st.sampled_from(["same", "copy", "reordered", "swapped", "edited", "window"]))
    if how == "same":
        return value
    if isinstance(value, dict):
        items = [(k, twin(v, data)) for k, v in value.items()]
        if how == "reordered":
            items = items[::-1]
        if how == "edited" and items:
            key = data.draw(st.sampled_from(sorted(value)))
            items = [(k, data.draw(values) if k == key else v) for k, v in items]
        return dict(items)
    if isinstance(value, list):
        if how == "window":
            return [*value[data.draw(st.integers(0, len(value))):], *data.draw(st.lists(values, max_size=3))]
        return [twin(v, data) for v in value]
    if how == "swapped" and type(value) in (bool, int, float) and value in (0, 1):
        return data.draw(st.sampled_from([v for v in (0, 1, False, True, 0.0, 1.0) if v == value]))
    return data.draw(values) if how == "edited" else value


@settings(max_examples=1000, deadline=None)
@given(values, st.data())
def test_the_diff_s_shortcuts_give_the_plain_diff_s_operations(old: Any, data: st.DataObject) -> None:
    new = twin(old, data)
    assert diff(old, new) == plain_diff(old, new)
    assert same(old, new) == plain_same(old, new)
    assert plain_same(patched(old, json.loads(json.dumps(diff(old, new)))), new)  # what a phone applies


def test_python_s_equal_values_of_other_json_types_are_told_apart_in_copies() -> None:
    ones = {"a": 1, "b": True}
    assert same(ones, {"a": 1, "b": True}) and not same(ones, {"b": 1, "a": True})  # a == b in Python
    assert diff(ones, {"b": 1, "a": True}) == [["/b", 1], ["/a", True]]  # in the new object's order
    assert diff([1, 2, 3], [True, 2, 3]) == [["/0", True]]
    assert diff({"log": [1, 2]}, {"log": [True, 2, 4]}) == [["/log", [True, 2, 4]]]  # no window: True is not 1
    assert diff({"log": [1, 2]}, {"log": [2, 4]}) == [["/log", [4], 1]]


# ---------------------------------------------------------------------- the feed's shared event over bot games
def bot_game(table: Table, ruleset: str, step: Callable[[], None], *, seed: int = 11, bot_seed: int = 3,
             inputs: int = INPUTS, first: Callable[[], list[dict[str, Any]]] = list) -> None:
    """Play ``ruleset``'s bots on ``table`` (the host's inputs), calling ``step`` after each accepted input;
    ``first``: lines tried before the bot's at each input (an undo)."""
    table.new_game({"ruleset": ruleset, "players": PLAYERS, "seed": seed})
    bot = strategy_for(ruleset)(find_ruleset(ruleset), random.Random(bot_seed))
    step()
    for _ in range(inputs):
        state = table.state
        assert state is not None
        if state.get("winner") is not None or state.get("prompt") is None:
            return
        for line in [*first(), bot.next_input(state), *bot.fallback(state)]:
            try:
                table.submit(line, source="host")
            except IllegalInput:
                continue
            break
        else:
            raise AssertionError(f"no input taken at {state['prompt']}")
        step()


def alone(frame: Frame, before: Frame, viewer: Viewer, feed: Feed) -> tuple[Any, Any]:
    """The views of ``before`` and ``frame`` as ``viewer`` sees them, built afresh (nothing shared or kept)."""
    return (seen_as(before.state, before.events, viewer, feed.story),
            seen_as(frame.state, frame.events, viewer, feed.story))


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_the_shared_event_is_what_each_view_gives_alone(tmp_path: Path, ruleset: str) -> None:
    with Journal(tmp_path / "games.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": PLAYERS, "seed": 1})
        feed = Feed(table)
        order = random.Random(ruleset)
        held: list[Frame] = []  # this game's frames so far
        checked = [0]

        def step() -> None:
            latest = feed.latest()
            assert latest is not None
            if latest.before is None:
                held.clear()  # a game begun: every phone gets the whole state
            held.append(latest)
            if len(held) < 2:
                return
            before = held[-2]
            for behind in (2, 3):  # a phone some inputs behind (a burst): each input's delta in turn
                if len(held) > behind:
                    viewer = order.choice(VIEWERS)
                    build = partial(seen_as, viewer=viewer, story=feed.story)
                    views = [seen_as(f.state, f.events, viewer, feed.story) for f in held[-1 - behind:]]
                    assert feed.changes_since(held[-1 - behind], latest, viewer, build) == "".join(
                        sse(f.event_id, "delta", json.dumps(plain_diff(a, b), separators=(",", ":")))
                        for f, a, b in zip(held[-behind:], views, views[1:]))
            for viewer in order.sample(VIEWERS, len(VIEWERS)):  # who asks first builds what the others share
                build = partial(seen_as, viewer=viewer, story=feed.story)
                shared = feed.changes_since(before, latest, viewer, build)
                old, new = alone(latest, before, viewer, feed)
                ops = plain_diff(old, new)
                assert shared == sse(latest.event_id, "delta", json.dumps(ops, separators=(",", ":")))
                assert latest.changes(before.view(viewer, build), latest.view(viewer, build)) == json.dumps(
                    ops, separators=(",", ":"))  # the reply's delta: the same text, worked out once
                assert patched(json.loads(json.dumps(old)), ops) == json.loads(json.dumps(new))
                assert json.loads(latest.view(viewer, build).text()) == json.loads(json.dumps(new))
                checked[0] += 1

        bot_game(table, ruleset, step)
        feed.close()
    assert checked[0] >= 10 * len(VIEWERS)
