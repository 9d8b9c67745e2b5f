"""The money story of the current game: every payment (who paid whom, how much, what for), where tokens stopped.

Kept from the table's updates since the game was opened on this Pi (as the cash chart is), so that each phone can
show its player's payments in and out, newest first, and the game-over summary the rent paid and received and the
most landed spaces. An undo drops what the inputs taken back had recorded.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from companion.table import Update

SHOWN = 300  # the newest payments an answer lists (the totals count them all)


class Ledger:
    """Payments and landings of one game, input by input, from the table's updates."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._game: int | None = None
        self._inputs: list[dict[str, Any]] = []  # each accepted input's payments and landings, in order
        self._where: dict[str, str] = {}

    def seed(self, state: dict[str, Any] | None, game: int | None) -> None:
        """Where the tokens stand when the game is opened here: the first move then counts as a landing."""
        with self._lock:
            self._game, self._inputs = game, []
            self._where = standing(state)

    def record(self, update: Update, game: int | None) -> None:
        state = update.state
        with self._lock:
            if game != self._game:  # a new game, resumed or imported: its story starts here
                self._game, self._inputs, self._where = game, [], standing(state)
                return
            if "undo" in update.line:  # the last input taken back: its payments and landings too
                if self._inputs:
                    self._inputs.pop()
                self._where = standing(state)
                return
            payments = [{"seq": state["seq"], "payer": e.get("payer"), "payee": e.get("payee"), "amount": e["amount"],
                         "text": e["text"]} for e in update.events if e.get("kind") == "pay" and e.get("amount")]
            now = standing(state)
            landings = [space for name, space in now.items() if self._where.get(name) not in (None, space)] \
                if now != self._where else []  # nobody moved (most inputs): no landing, no walk
            self._where = now
            self._inputs.append({"payments": payments, "landings": landings})

    def story(self, players: list[str]) -> dict[str, Any]:
        """``payments`` newest first (the last :data:`SHOWN`), ``rent`` paid and received by each player, and the
        spaces where tokens stopped most (``landed``, most first)."""
        with self._lock:
            payments = [p for entry in self._inputs for p in entry["payments"]]
            landed = Counter(space for entry in self._inputs for space in entry["landings"])
            game = self._game
        rent = {name: {"paid": 0, "received": 0} for name in players}
        for p in payments:
            if "rent" in p["text"].lower():
                if p["payer"] in rent:
                    rent[p["payer"]]["paid"] += p["amount"]
                if p["payee"] in rent:
                    rent[p["payee"]]["received"] += p["amount"]
        return {"game": game, "payments": payments[::-1][:SHOWN], "rent": rent,
                "landed": [{"space": space, "times": n} for space, n in landed.most_common(5)]}


def standing(state: dict[str, Any] | None) -> dict[str, str]:
    """Each player's space in ``state``."""
    return {p["name"]: p["space"] for p in (state or {}).get("players", []) if p.get("space")}
