"""The table's clock for a game with a time limit (option ``end_at_minutes`` of ``classic`` and ``addon``).

The engine has no clock: a game with a time limit is ended by the table, which sends the host's
``end-game`` when the time is up (the highest total worth wins), journaled with the source ``timer``
like any other input, so the end replays exactly. The time counts from the game's creation in the
journal, on the Pi's wall clock, so a power cut does not give the players extra time. Five minutes
before the end the table says so.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import datetime, timezone

from companion.engine import CompanionError, find_ruleset
from companion.table import Table

log = logging.getLogger(__name__)

END_GAME = {"act": {"player": "host", "do": "end-game"}}
WARN_BEFORE = 5 * 60  # seconds: "5 minutes left"


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class TimeLimit:
    """Call :meth:`check` often (the table's tick); it ends the current game when its time is up."""

    def __init__(self, table: Table, started_at: Callable[[int], datetime | None], *,
                 now: Callable[[], datetime] = utc_now, warn: Callable[[str], None] | None = None) -> None:
        """``started_at(game_id)``: when the journal created that game; ``warn``: shows a sentence on the table."""
        self.table, self.started_at, self.now, self.warn = table, started_at, now, warn
        self._game_id: int | None = None
        self._limit: float | None = None  # seconds the current game may last (None: no limit)
        self._started: datetime | None = None
        self._warned = False
        self._refused_at: int | None = None  # the seq at which end-game was refused: not again before the next input

    def remaining(self) -> float | None:
        """Seconds left in the current game, or None when it has no time limit (or is over)."""
        state, game = self.table.state, self.table.game
        if state is None or game is None or state.get("winner") is not None:
            return None
        if game.id != self._game_id:  # a game's options never change: its limit is read once (this runs every tick)
            self._game_id, self._warned, self._refused_at = game.id, False, None
            minutes = (state.get("options") or {}).get("end_at_minutes") or 0
            endable = "end-game" in find_ruleset(state["ruleset"]).host_verbs()
            self._limit = minutes * 60 if minutes > 0 and endable else None
            self._started = self.started_at(game.id) if self._limit is not None else None
        if self._limit is None or self._started is None:
            return None
        return self._limit - (self.now() - self._started).total_seconds()

    def check(self) -> None:
        left = self.remaining()
        if left is None:
            return
        if left > 0:
            if left <= WARN_BEFORE and not self._warned:
                self._warned = True
                if self.warn is not None:
                    minutes = math.ceil(left / 60)
                    self.warn(f"{minutes} minute{'s' if minutes != 1 else ''} left in this game")
            return
        seq = self.table.state["seq"]  # type: ignore[index]
        if self._refused_at == seq:
            return
        try:
            self.table.submit(dict(END_GAME), source="timer")
        except CompanionError as error:  # refused now (or the disk is full): again after the next input
            self._refused_at = seq
            log.warning("time is up, but the game could not be ended yet: %s", error)
