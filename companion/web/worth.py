"""The players' net worth for the cash history's points (the game-over chart), worked out when the history is read
(issue 43).

A ruleset that counts worth (its ``worths``: cash, deeds at their price, buildings at cost) counts each player's cash
and, beside it, what the board holds for them: each owner's deeds, one by one (the ruleset's ``deed_worth``, a deed's
part of its ``worths``), on the game's options. At an input the feed keeps only what a point's worth is counted from
(:meth:`Worths.owed`: the state's spaces, a draft for its options, the cash), and counts it when the history is read
(:meth:`Worths.count`: the page asks for it when it opens and at the game's end), in the order of the inputs, each
point once; a point the history dropped (past its bound) before anyone read it is never counted.

The engine writes a new spaces dict only when an input writes a space, and in it a new record only for each space
written (a published state is never changed): so while the spaces are the very object counted before, the board's
part is the one worked out then; when an input wrote a space or two (a deed bought, mortgaged, built on), only the
records that are new objects are counted again, their old part taken off their old owner's; only new options (a new
game) or another set of spaces count the board whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from companion.engine import State, find_ruleset
from companion.engine.draft import Draft

DeedWorth = Callable[[Draft, str, Mapping[str, Any]], int]


class Owed(NamedTuple):
    """What one state's worths are counted from: its spaces, a draft of a state with its options (a deed's worth reads
    the options alone; one draft for all the inputs of a game), the cash of its players who are not bankrupt, and the
    ruleset's ``deed_worth``."""

    spaces: Mapping[str, Any]
    draft: Draft
    cash: dict[str, int]
    deed: DeedWorth


class Worths:
    """Each player's worth, counted from :class:`Owed` in the order of the inputs: the board's part kept (each owner's
    deeds) while the spaces are the same, and counted again for the records an input wrote."""

    def __init__(self) -> None:
        self._ruleset: str | None = None
        self._deed: DeedWorth | None = None  # the ruleset's ``deed_worth``
        self._draft: Draft | None = None  # a draft for the options of the newest state owed
        # the spaces and the draft the board's part was counted on (by identity), and each owner's part
        self._spaces: Any = None
        self._counted: Draft | None = None
        self._board: dict[str, int] = {}

    def __call__(self, state: State) -> dict[str, int]:
        """``{name: worth}`` for each player of ``state`` with cash who is not bankrupt, at once; empty for a ruleset
        that counts none (its cash is its worth)."""
        owed = self.owed(state, {p["name"]: p["cash"] for p in state["players"] if "cash" in p})
        return self.count(owed) if owed is not None else {}

    def owed(self, state: State, cash: dict[str, int]) -> Owed | None:
        """What ``state``'s worths are to be counted from (``cash``: each player's with cash, as the history's point
        has it); None for a ruleset that counts none."""
        if "queue" not in state:
            return None
        if state["ruleset"] != self._ruleset:
            self._ruleset, self._draft = state["ruleset"], None
            ruleset = find_ruleset(state["ruleset"])
            self._deed = getattr(ruleset, "deed_worth", None) if getattr(ruleset, "worths", None) else None
        if self._deed is None:
            return None
        draft = self._draft
        if draft is None or draft.state.get("options") is not state.get("options"):
            self._draft = draft = Draft(state)
        players = state["players"]
        if any(p.get("bankrupt") for p in players):
            cash = {p["name"]: p["cash"] for p in players if "cash" in p and not p.get("bankrupt")}
        return Owed(state["spaces"], draft, cash, self._deed)

    def count(self, owed: Owed) -> dict[str, int]:
        """``{name: worth}`` of the state ``owed`` was taken from."""
        if owed.spaces is not self._spaces or owed.draft is not self._counted:
            if owed.draft is not self._counted or not self._written(owed.spaces, owed.deed):
                self._count(owed)
            self._spaces, self._counted = owed.spaces, owed.draft
        board = self._board
        return {name: money + board.get(name, 0) for name, money in owed.cash.items()}

    def _written(self, spaces: Mapping[str, Any], deed: DeedWorth) -> bool:
        """Count again the records of ``spaces`` that are not those counted (the spaces an input wrote); False
        (nothing changed) if ``spaces`` are not the same spaces as those counted."""
        before, board, draft = self._spaces, self._board, self._counted
        if before is None or draft is None or len(spaces) != len(before):
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

    def _count(self, owed: Owed) -> None:
        """Count each owner's deeds whole."""
        board: dict[str, int] = {}
        for sid, rec in owed.spaces.items():
            if rec["owner"] is not None:
                board[rec["owner"]] = board.get(rec["owner"], 0) + owed.deed(owed.draft, sid, rec)
        self._board = board
