"""The players' net worth for the cash history's points (the game-over chart), input by input (issue 43).

A ruleset that counts worth (its ``worths``: cash, deeds at their price, buildings at cost) counts each player's cash
and, beside it, what the board holds for them: each owner's deeds, one by one (the ruleset's ``deed_worth``, a deed's
part of its ``worths``), on the game's options. The engine writes a new spaces dict only when an input writes a
space, and in it a new record only for each space written (a published state is never changed): so while an input
leaves the spaces and the options the very objects they were (a roll, a move, a rent paid, a card: most inputs), the
board's part is the one worked out before; when it wrote a space or two (a deed bought, mortgaged, built on), only
the records that are new objects are counted again, their old part taken off their old owner's; only new options or
another set of spaces count the board whole. No copy of the state and no walk over the board's prices at an input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.engine import State, find_ruleset
from companion.engine.draft import Draft

DeedWorth = Callable[[Draft, str, Mapping[str, Any]], int]


class Worths:
    """Each player's worth in a state, the board's part kept (each owner's deeds counted) while its board is the
    same, and counted again for the records an input wrote."""

    def __init__(self) -> None:
        self._ruleset: str | None = None
        self._deed: DeedWorth | None = None  # the ruleset's ``deed_worth``
        # the spaces and options the board's part was counted on (by identity), a draft of a state with those options
        # (a deed's worth reads the options alone), and each owner's part
        self._spaces: Any = None
        self._options: Any = None
        self._draft: Draft | None = None
        self._board: dict[str, int] = {}

    def __call__(self, state: State) -> dict[str, int]:
        """``{name: worth}`` for each player with cash who is not bankrupt; empty for a ruleset that counts none
        (its cash is its worth)."""
        if "queue" not in state:
            return {}
        if state["ruleset"] != self._ruleset:
            self._ruleset, self._spaces = state["ruleset"], None
            ruleset = find_ruleset(state["ruleset"])
            self._deed = getattr(ruleset, "deed_worth", None) if getattr(ruleset, "worths", None) else None
        if self._deed is None:
            return {}
        spaces, options = state["spaces"], state.get("options")
        if spaces is not self._spaces or options is not self._options:
            if options is not self._options or not self._written(spaces):
                self._count(state)
            self._spaces, self._options = spaces, options
        board = self._board
        return {p["name"]: p["cash"] + board.get(p["name"], 0) for p in state["players"]
                if "cash" in p and not p.get("bankrupt")}

    def _written(self, spaces: dict[str, Any]) -> bool:
        """Count again the records of ``spaces`` that are not those counted (the spaces an input wrote); False
        (nothing changed) if ``spaces`` are not the same spaces as those counted."""
        before, board, deed, draft = self._spaces, self._board, self._deed, self._draft
        if before is None or draft is None or deed is None or len(spaces) != len(before):
            return False
        seen = before.get
        written = [(sid, rec, old) for sid, rec in spaces.items() if rec is not (old := seen(sid))]
        if any(old is None for _, _, old in written):
            return False
        for sid, rec, old in written:
            if old["owner"] is not None:
                board[old["owner"]] -= deed(draft, sid, old)
            if rec["owner"] is not None:
                board[rec["owner"]] = board.get(rec["owner"], 0) + deed(draft, sid, rec)
        return True

    def _count(self, state: State) -> None:
        """Count each owner's deeds in ``state`` whole."""
        deed = self._deed
        assert deed is not None
        self._draft = draft = Draft(state)
        board: dict[str, int] = {}
        for sid, rec in state["spaces"].items():
            if rec["owner"] is not None:
                board[rec["owner"]] = board.get(rec["owner"], 0) + deed(draft, sid, rec)
        self._board = board
