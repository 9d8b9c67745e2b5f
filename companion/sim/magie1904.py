"""The bot for ``magie-1904``, the 1904 landlord's game.

* **lots** (a lot ticket at set-up, or landing on an unowned lot): buy while ``reserve``
  stays in hand, else rent;
* **luxury**: buy the ticket (worth more at the end than it costs) while ``reserve``
  stays in hand, else lose the move;
* **railroad pass**: always jump; **direction** after the last lap: the way whose end costs
  least (a lot of another player's rent, a fee, no trespassing);
* **before the throw**: pay the jail fine while ``reserve`` stays; repay a loan when its
  amount and ``reserve`` are in hand (before wages, it saves the interest);
* **debt**: borrow from the bank in notes on the cheapest free lots that secure it; the
  poorhouse when nothing is left to borrow on;
* offers from other players are rejected (the bots neither trade nor lend).
"""

from __future__ import annotations

from typing import Any

from companion.engine import State

from .strategy import Line, Strategy


class Magie1904Strategy(Strategy):
    """Buys lots, borrows on them when short, repays when flush."""

    reserve = 60

    def interject(self, state: State) -> Line | None:
        offer = state.get("trade")
        if offer:
            return {"act": {"player": offer["with"], "do": "reject"}}
        return None

    def cash(self, state: State, name: str) -> int:
        return int(self.player(state, name)["cash"])

    def on_buy(self, state: State, prompt: dict[str, Any]) -> Line:
        name, price = prompt["player"], prompt.get("price") or 0
        return {"answer": "yes" if self.cash(state, name) - price >= self.reserve else "no"}

    def on_buy_or_rent(self, state: State, prompt: dict[str, Any]) -> Line:
        name, price = prompt["player"], prompt.get("price") or 0
        return {"answer": "buy" if self.cash(state, name) - price >= self.reserve else "rent"}

    def on_luxury(self, state: State, prompt: dict[str, Any]) -> Line:
        price = state["options"]["luxury_price"]
        return {"answer": "yes" if self.cash(state, prompt["player"]) - price >= self.reserve else "no"}

    def on_railroad_pass(self, state: State, prompt: dict[str, Any]) -> Line:
        return {"answer": "yes"}

    def on_direction(self, state: State, prompt: dict[str, Any]) -> Line:
        name, steps = prompt["player"], prompt["steps"]
        here = self.board.by_id[self.player(state, name)["space"]]
        track = self.board.tracks[here.track]
        ahead = self.cost_of(state, name, track[(here.index + steps) % len(track)])
        behind = self.cost_of(state, name, track[(here.index - steps) % len(track)])
        return {"answer": "backward" if behind < ahead else "forward"}

    def cost_of(self, state: State, name: str, space_id: str) -> int:
        """What stopping on a space is likely to cost ``name``."""
        space = self.board.by_id[space_id]
        if space.kind == "no-trespassing":
            return 100
        if space.kind in ("necessity", "railroad"):
            return int(space.data.get("fee", 0))
        rec = state["spaces"].get(space_id)
        if rec is not None and rec["owner"] not in (None, name):
            return int(space.rent[0]) if space.rent else int(space.data.get("fee", 0))
        return 0

    def on_roll(self, state: State, prompt: dict[str, Any]) -> Line:
        name = prompt["player"]
        if prompt.get("purpose") in ("turn", "jail"):
            cash = self.cash(state, name)
            if prompt.get("purpose") == "jail" and cash - state["options"]["jail_fine"] >= self.reserve:
                return {"act": {"player": name, "do": "pay-fine"}}
            for loan in state.get("loans", []):
                if loan["borrower"] == name and cash - loan["amount"] >= self.reserve:
                    return {"act": {"player": name, "do": "repay", "loan": loan["id"]}}
        return self.roll(prompt)

    def on_debt(self, state: State, prompt: dict[str, Any]) -> Line:
        if "poorhouse" in prompt["options"]:
            return {"answer": "poorhouse"}
        return self.borrow(state, prompt["player"], prompt["amount"]) or {"answer": "poorhouse"}

    def borrow(self, state: State, name: str, amount: int) -> Line | None:
        """A bank loan in notes covering the shortfall, on the cheapest free lots that secure it."""
        options = state["options"]
        note, margin = options["note"], options["loan_margin"]
        free = sorted((self.board.by_id[sid].price or 0, sid) for sid, rec in state["spaces"].items()
                      if rec["owner"] == name and not rec["mortgaged"] and self.board.by_id[sid].kind == "lot")
        short = max(amount - self.cash(state, name), 1)
        want = -(-short // note) * note
        pledged, value = [], 0
        for price, sid in free:
            pledged.append(sid)
            value += price
            if value >= want + margin:
                break
        loan = min(want, (value - margin) // note * note)
        if loan < note:
            return None
        return {"act": {"player": name, "do": "borrow", "amount": loan, "spaces": pledged}}
