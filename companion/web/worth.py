"""The players' net worth for the cash history's points (the game-over chart), input by input (issue 43).

A ruleset that counts worth (its ``worths``: cash, deeds at their price, buildings at cost) counts each player's cash
and, beside it, what the board holds for them: the board's part depends on the spaces and the options alone. The
engine writes a new spaces dict only when an input writes a space (a published state is never changed), so while an
input leaves the spaces and the options the very objects they were (a roll, a move, a rent paid, a card: most
inputs), the board's part is the one worked out before, and only the cash is read again: no copy of the state and no
walk over the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.engine import State, find_ruleset
from companion.engine.draft import Draft


class Worths:
    """Each player's worth in a state, the board's part kept from the state before while its board is the same."""

    def __init__(self) -> None:
        self._ruleset: str | None = None
        self._count: Callable[[Draft, list[str]], dict[str, int]] | None = None  # the ruleset's ``worths``
        # the board the worths were worked out whole on (its spaces and options, by identity), the worths and the
        # cash then: a player's board part is the one less the other
        self._spaces: Any = None
        self._options: Any = None
        self._found: dict[str, int] = {}
        self._cash: dict[str, int] = {}

    def __call__(self, state: State) -> dict[str, int]:
        """``{name: worth}`` for each player with cash who is not bankrupt; empty for a ruleset that counts none
        (its cash is its worth)."""
        if "queue" not in state:
            return {}
        if state["ruleset"] != self._ruleset:
            self._ruleset, self._spaces = state["ruleset"], None
            self._count = getattr(find_ruleset(state["ruleset"]), "worths", None)
        if self._count is None:
            return {}
        cash = {p["name"]: p["cash"] for p in state["players"] if "cash" in p and not p.get("bankrupt")}
        spaces, options = state["spaces"], state.get("options")
        if spaces is self._spaces and options is self._options and cash.keys() == self._cash.keys():
            found, then = self._found, self._cash
            return {name: money + found[name] - then[name] for name, money in cash.items()}
        found = self._count(Draft(state), list(cash))
        self._spaces, self._options, self._found, self._cash = spaces, options, found, cash
        return found

