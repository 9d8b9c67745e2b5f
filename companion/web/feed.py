"""The live feed: one subscription to the table that wakes every open stream, and the cash history.

Each stream waits on one condition for the feed's ``version`` to move; whatever happened in
between, it sends the current state (a phone only needs the latest one).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from companion.engine import find_ruleset
from companion.engine.draft import Draft
from companion.table import Table, Update

from .ledger import Ledger

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
        self.ledger = Ledger()
        self._record(table.state, self._game_id())
        self.ledger.seed(table.state, self._game)
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

    def poke(self) -> None:
        """Wake every stream with no new state: what a phone may see has changed (a seat freed, host rights taken)."""
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def history(self) -> dict[str, Any]:
        """``{"game": id, "points": [{"seq": n, "cash": {name: cash}}]}`` since the game was opened here."""
        with self._changed:
            return {"game": self._game, "points": list(self._history)}

    # ------------------------------------------------------------------ internals
    def _game_id(self) -> int | None:
        game = self.table.game
        return game.id if game is not None else None

    def _on_update(self, update: Update) -> None:
        game = self._game_id()
        self._record(update.state, game)
        self.ledger.record(update, game)
        with self._changed:
            self.version += 1
            self._changed.notify_all()

    def _record(self, state: dict[str, Any] | None, game: int | None) -> None:
        if state is None:
            return
        point = {"seq": state["seq"], "cash": {p["name"]: p["cash"] for p in state["players"] if "cash" in p}}
        worth = net_worth(state)
        if worth:
            point["worth"] = worth
        with self._changed:
            if game != self._game or (self._history and state["seq"] < self._history[-1]["seq"]):
                self._history.clear()
                self._game = game
            if not self._history or self._history[-1] != point:
                self._history.append(point)


def net_worth(state: dict[str, Any]) -> dict[str, int]:
    """Each player's total worth as the ruleset counts it (cash, deeds at their price, buildings at cost), for the
    game-over chart; empty for a ruleset that counts none (its cash is its worth)."""
    worth = getattr(find_ruleset(state["ruleset"]), "worth", None)
    if worth is None or "queue" not in state:
        return {}
    draft = Draft(state)
    return {p["name"]: worth(draft, p["name"]) for p in state["players"] if "cash" in p and not p.get("bankrupt")}


LOOPBACK = frozenset({"127.0.0.1", "::1"})


class StreamSlots:
    """The live streams held open: each holds one of the server's threads until the phone goes away.

    One address may hold ``per_address`` (a phone reconnecting holds two for a moment; a few tabs), all of them
    ``total`` (the server's 48 threads leave 16 for requests): beyond that a stream is refused, so a device on the
    network holding streams open cannot starve every phone's requests.
    """

    def __init__(self, *, per_address: int = 4, total: int = 32) -> None:
        self.per_address, self.total = per_address, total
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, address: str) -> bool:
        """Hold a slot for a stream from ``address`` (the Pi itself, loopback, has only the total limit)."""
        with self._lock:
            own_limit = address not in LOOPBACK and self._held.get(address, 0) >= self.per_address
            if own_limit or sum(self._held.values()) >= self.total:
                return False
            self._held[address] = self._held.get(address, 0) + 1
            return True

    def give_back(self, address: str) -> None:
        with self._lock:
            left = self._held.get(address, 0) - 1
            if left > 0:
                self._held[address] = left
            else:
                self._held.pop(address, None)
