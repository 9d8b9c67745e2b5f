"""The live feed: one subscription to the table that wakes every open stream, and the cash history.

Each stream waits on one condition for the feed's ``version`` to move; whatever happened in
between, it sends the current state (a phone only needs the latest one).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from companion.engine import public_state
from companion.table import Table, Update

HISTORY_POINTS = 400


class Feed:
    """Counts the table's updates and keeps each player's cash after every input of the current game."""

    def __init__(self, table: Table, *, history_points: int = HISTORY_POINTS) -> None:
        self.table = table
        self.version = 0
        self.closed = False
        self._changed = threading.Condition()
        self._history: deque[dict[str, Any]] = deque(maxlen=history_points)
        self._game: int | None = None
        self._record(table.public(), self._game_id())
        self._unsubscribe = table.subscribe(self._on_update)

    def close(self) -> None:
        """Stop listening and release every waiting stream."""
        self._unsubscribe()
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def wait(self, version: int, timeout: float) -> int:
        """Block until the version differs from ``version`` (or timeout, or close); returns the version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != version or self.closed, timeout)
            return self.version

    def history(self) -> dict[str, Any]:
        """``{"game": id, "points": [{"seq": n, "cash": {name: cash}}]}`` since the game was opened here."""
        with self._changed:
            return {"game": self._game, "points": list(self._history)}

    # ------------------------------------------------------------------ internals
    def _game_id(self) -> int | None:
        game = self.table.game
        return game.id if game is not None else None

    def _on_update(self, update: Update) -> None:
        self._record(public_state(update.state), self._game_id())
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def _record(self, state: dict[str, Any] | None, game: int | None) -> None:
        if state is None:
            return
        point = {"seq": state["seq"], "cash": {p["name"]: p["cash"] for p in state["players"] if "cash" in p}}
        with self._changed:
            if game != self._game or (self._history and state["seq"] < self._history[-1]["seq"]):
                self._history.clear()
                self._game = game
            if not self._history or self._history[-1] != point:
                self._history.append(point)
