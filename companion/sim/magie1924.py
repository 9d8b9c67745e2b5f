"""The bot for ``magie-1924``, the 1924 landlord's game (the first to hold the goal in cash wins).

Cards are worth: a land card ``land_worth`` × its rent, a railroad or utility card
``franchise_worth`` × its fare, an idle land card three quarters of what the board pays for it.

* **auctions**: bid up to a card's worth, keeping ``reserve``, in steps of a tenth of it (played out
  at once: ``Strategy.on_auction``);
* **before the throw**: an improvement on the land of highest rent while ``reserve`` stays
  after it; the no-trespassing sign once, on the land of lowest rent (its rent matters least);
* **improvement tag**: on the land of highest rent; **chance cube**: thrown with the dice;
* **railroad move**: to the best space within reach — Wages by the exact count, one's own
  land (the board pays its rent), a card still for sale — keeping away from another player's
  land, the taxes and the way to jail; staying put when nothing beats it;
* **real estate office**: sell every idle land card to the board; with none, buy one blind
  while ``reserve`` stays; then done;
* **debt**: offer a card to the other player who can best afford it, at its worth (each offer
  once per debt); out of the game when no offer is left; accept an offer worth at least what
  it costs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.engine import State
from companion.engine.core import Ruleset

from .strategy import Line, Strategy


class Magie1924Strategy(Strategy):
    """Buys cards at auction, improves, sells idle land, sells cards to pay debts."""

    reserve = 100
    land_worth = 4
    franchise_worth = 3

    def __init__(self, ruleset: Ruleset, rng: random.Random) -> None:
        super().__init__(ruleset, rng)
        board = self.board
        self.cube_faces = sorted(face["face"] for face in board.data.get("cube", []))
        self.worth = {}
        for card in board.cards.values():
            if card.do == "deed":
                space = board.by_id[card.id]
                self.worth[card.id] = (space.rent[0] if space.rent else 0) * (
                    self.land_worth if space.kind == "land" else self.franchise_worth)
            else:
                self.worth[card.id] = int(card.params.get("sells_for", 0)) * 3 // 4
        self.rent = {s.id: s.rent[0] for s in board.spaces if s.kind == "land"}
        self._offers: set[tuple[Any, ...]] = set()

    def roll(self, prompt: Mapping[str, Any]) -> Line:
        line = super().roll(prompt)
        if prompt.get("with_cube") and self.cube_faces:
            line["cube"] = self.rng.choice(self.cube_faces)
        return line

    def cash(self, state: State, name: str) -> int:
        return int(self.player(state, name)["cash"])

    def lands(self, state: State, name: str) -> list[str]:
        return [sid for sid, rec in state["spaces"].items() if rec["owner"] == name and sid in self.rent]

    # ================================================================== offers
    def interject(self, state: State) -> Line | None:
        offer = state.get("trade")
        if not offer:
            return None
        name = offer["with"]
        give, get = offer.get("give", {}), offer.get("get", {})
        gain = give.get("cash", 0) - get.get("cash", 0) + sum(self.worth.get(c, 0) for c in give.get("cards", []))
        gain -= sum(self.worth.get(c, 0) for c in get.get("cards", []))
        fits = self.cash(state, name) - get.get("cash", 0) >= self.reserve
        return {"act": {"player": name, "do": "accept" if gain >= 0 and fits and "loan" not in offer else "reject"}}

    def on_debt(self, state: State, prompt: dict[str, Any]) -> Line:
        name = prompt["player"]
        cards = sorted(self.player(state, name)["cards"], key=lambda c: (self.worth.get(c, 0), c))
        buyers = sorted((p for p in state["players"] if p["name"] != name and not p["bankrupt"]),
                        key=lambda p: -p["cash"])
        for card in cards:
            price = max(self.worth.get(card, 0), 1)
            for buyer in buyers:
                key = (state["turn"]["number"], name, prompt["amount"], card, buyer["name"])
                if buyer["cash"] - price >= self.reserve and key not in self._offers:
                    self._offers.add(key)
                    return {"act": {"player": name, "do": "trade", "with": buyer["name"],
                                    "give": {"cards": [card]}, "get": {"cash": price}}}
        return {"answer": "out"}

    # ================================================================== auctions
    def next_bid(self, state: State, name: str, auction: Mapping[str, Any]) -> int | None:
        worth = self.worth.get(auction.get("space", ""), 0)
        limit = min(worth, self.cash(state, name) - self.reserve)
        amount = min(max(auction["minimum"], auction["bid"] + max(1, worth // 10)), limit)
        return amount if amount > auction["bid"] and amount >= auction["minimum"] else None

    # ================================================================== the turn
    def on_roll(self, state: State, prompt: dict[str, Any]) -> Line:
        name = prompt["player"]
        if prompt.get("purpose") in ("turn", "jail"):
            act = self.improve(state, name) or self.sign(state, name)
            if act is not None:
                return act
        return self.roll(prompt)

    def improve(self, state: State, name: str) -> Line | None:
        price = state["options"]["improvement_price"]
        if state["bank"].get("improvements", 0) < 1 or self.cash(state, name) - price < self.reserve:
            return None
        bare = [sid for sid in self.lands(state, name) if not state["spaces"][sid]["improvement"]]
        if not bare:
            return None
        return {"act": {"player": name, "do": "improve", "space": max(bare, key=lambda s: (self.rent[s], s))}}

    def sign(self, state: State, name: str) -> Line | None:
        lands = self.lands(state, name)
        if not lands or any(state["spaces"][sid]["sign"] for sid in lands):
            return None
        return {"act": {"player": name, "do": "sign", "space": min(lands, key=lambda s: (self.rent[s], s))}}

    def on_place_improvement(self, state: State, prompt: dict[str, Any]) -> Line:
        return {"answer": max(prompt["options"], key=lambda s: (self.rent.get(s, 0), s))}

    def on_railroad_move(self, state: State, prompt: dict[str, Any]) -> Line:
        name = prompt["player"]
        ahead = prompt.get("ahead", [])
        best, choice = 0, "stay"
        for option in prompt["options"]:
            if option == "stay":
                continue
            value = self.value_of(state, name, option, exact=option in ahead)
            if value > best:
                best, choice = value, option
        return {"answer": choice}

    def value_of(self, state: State, name: str, space_id: str, exact: bool) -> int:
        """What stopping on a space is likely to bring ``name`` (negative: to cost)."""
        space = self.board.by_id[space_id]
        options = state["options"]
        if space.kind == "wages":
            return int(options["wages_exact"]) if exact else 0
        if space.kind in ("go-to-jail", "tax"):
            return -100
        rec = state["spaces"].get(space_id)
        if rec is None:
            return 0
        if rec["owner"] is None:
            return 10
        if rec["owner"] == name:
            return self.rent.get(space_id, 0)
        if rec.get("sign"):
            return -200
        return -self.rent.get(space_id, 50)

    def on_real_estate_office(self, state: State, prompt: dict[str, Any]) -> Line:
        name, done = prompt["player"], state.get("office")
        idle = [c for c in self.player(state, name)["cards"] if self.board.cards[c].do != "deed"]
        if idle and done != "bought":
            return {"act": {"player": name, "do": "sell-idle", "cards": idle}}
        for_sale = any(self.board.cards[c].do != "deed" for c in state.get("decks", {}).get("cards", []))
        if done is None and for_sale and self.cash(state, name) - state["options"]["idle_price"] >= self.reserve:
            return {"act": {"player": name, "do": "buy-idle", "count": 1}}
        return {"answer": "done"}
