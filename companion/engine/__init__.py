"""The pure game engine: ``apply(state, input) -> (state, events)``.

No I/O, clock, threads or randomness of its own: dice enter as inputs, shuffles derive from
the seed kept in the state, so replaying a game's inputs rebuilds it exactly.

>>> state, events = new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 7})
>>> state, events = apply(state, {"roll": [4, 3]})
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.compiled import choose

#: Which engine this process runs: compiled by Cython from these sources, or the sources (see companion.compiled).
BUILD = choose(__name__, Path(__file__).parent)

from .core import Throw, reject  # noqa: E402 - after the choice of the compiled modules or the sources
from .draft import Event, State, sentence  # noqa: E402
from companion.errors import BoardError, CompanionError, IllegalInput  # noqa: E402
from .rules import find_ruleset, ruleset_ids  # noqa: E402

__all__ = [
    "BUILD", "BoardError", "CompanionError", "Event", "IllegalInput", "State", "Throw",
    "apply", "find_ruleset", "new_game", "public_state", "ruleset_ids", "sentence",
]


def new_game(setup: Mapping[str, Any], *, table: bool = True) -> tuple[State, list[Event]]:
    """Start a game from the ``setup`` object of a game file's first line (``table=False``: the simulation path)."""
    if not isinstance(setup, Mapping):
        raise reject("setup must be an object")
    ruleset = setup.get("ruleset")
    if ruleset not in ruleset_ids():
        raise reject("unknown ruleset {value} (known: {known})", value=ruleset, known=", ".join(ruleset_ids()))
    return find_ruleset(ruleset).new_game(setup, table=table)


def apply(state: State | None, line: Mapping[str, Any], *, table: bool = True) -> tuple[State, list[Event]]:
    """Apply one input line (``{"setup": ...}`` when ``state`` is None); ``table=False``: the simulation path
    (:meth:`Ruleset.apply <companion.engine.core.Ruleset.apply>`: no undo record, no log)."""
    if state is None:
        if not isinstance(line, Mapping) or set(line) != {"setup"}:
            raise reject('a game starts with a {{"setup": {{...}}}} line')
        return new_game(line["setup"])
    return find_ruleset(state["ruleset"]).apply(state, line, table=table)


def public_state(state: State, *, hide_secrets: bool = False, viewer: str | None = None) -> State:
    """The state object of DESIGN.md (what ``/api/state`` and ``replay --json`` show).

    ``hide_secrets``: as a phone sees it, face-down cards of players other than ``viewer`` hidden.
    """
    return find_ruleset(state["ruleset"]).public(state, hide_secrets=hide_secrets, viewer=viewer)
