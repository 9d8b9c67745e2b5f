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
        # the state the worths were last worked out whole on: its spaces and options (by identity), its players (their
        # cash then, read when first needed), and the worths: a player's board part is their worth less that cash
        self._spaces: Any = None
        self._options: Any = None
        self._players: list[dict[str, Any]] = []
        self._then: dict[str, int] | None = None
        self._found: dict[str, int] = {}

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
        spaces, options, players = state["spaces"], state.get("options"), state["players"]
        if spaces is self._spaces and options is self._options:
            now = _cash(players)
            if self._then is None:
                self._then = _cash(self._players)
            then, found = self._then, self._found
            if now.keys() == then.keys():
                return {name: money + found[name] - then[name] for name, money in now.items()}
        # as the feed always did: the ruleset's count on a draft of the state (an input that wrote a space)
        found = self._count(Draft(state), [p["name"] for p in players if "cash" in p and not p.get("bankrupt")])
        self._spaces, self._options, self._players, self._then, self._found = spaces, options, players, None, found
        return found


def _cash(players: list[dict[str, Any]]) -> dict[str, int]:
    """The cash of each player who has some and is not bankrupt (those whose worth is counted)."""
    return {p["name"]: p["cash"] for p in players if "cash" in p and not p.get("bankrupt")}
