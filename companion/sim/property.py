"""The property-trading bot (``classic`` and the rulesets built on it).

Every seat plays the same documented strategy (see ``docs/simulate.md``), so that the
wins by seat measure the seat and not the bot:

* **buy** a property when the cash left after it is at least ``buy_reserve``, or always
  when it completes a group the bot already holds the rest of;
* **auction**: bid up to the price (×``group_bid`` when the lot completes the bidder's
  group, ×``block_bid`` when it completes an opponent's), in steps of a tenth of the price,
  keeping ``auction_reserve``; a short-stock building is worth ×1.5 its price; the bidding is
  played out before anything is sent, and only its last bid goes to the engine (``Strategy.on_auction``);
* **build** evenly, before rolling, while ``build_reserve`` stays in hand: the street with
  the best rent gained per dollar first (with ``even_build`` false, any street of the group, so
  the best street goes up first; a hotel after ``houses_before_hotel`` houses); **unmortgage**
  complete groups first;
* **trade** for the one street missing from a group: swap for the street the other
  player is missing, or offer ``trade_premium`` × its price in cash (once per turn, an
  offer not repeated within ``retry_turns``); accept an offer worth as much as it costs,
  a street that completes a group counting twice its price;
* **debt**: mortgage properties outside complete groups, then sell buildings (evenly, the
  cheapest first), then mortgage the rest; bankrupt only when nothing is left;
* **jail**: leave at once (card first, else the fine) while ``jail_leave_unowned`` of the
  properties are still unowned; later stay and roll (with ``rent_in_jail`` false, an owner of
  rent-earning deeds leaves at once all game long: a jailed owner collects nothing);
* **income tax**: the cheaper of flat and percent (the bot knows its worth).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from companion.engine import State
from companion.engine.core import Ruleset

from .strategy import Line, Strategy


Picker = Callable[[Any], tuple[Any, ...]]


def _picker(keys: tuple[Any, ...]) -> Picker:
    """Reads the items at ``keys`` as one tuple (in C: ``itemgetter``)."""
    if len(keys) == 1:  # itemgetter of one key returns the item itself, not a tuple
        only = keys[0]
        return lambda items: (items[only],)
    return itemgetter(*keys)


@dataclass(frozen=True)
class PropertyParams:
    """The knobs of :class:`PropertyStrategy` (the same for every seat)."""

    buy_reserve: int = 100
    build_reserve: int = 50
    unmortgage_reserve: int = 500
    auction_reserve: int = 50
    group_bid: float = 1.6
    block_bid: float = 1.25
    trade_premium: float = 2.0
    retry_turns: int = 12
    jail_leave_unowned: float = 0.4


@dataclass
class Holdings:
    """Who owns what, read again only when an owner changes (not when a house is built or a deed mortgaged)."""

    owners: list[str | None] = field(default_factory=list)
    owned: dict[str, list[str]] = field(default_factory=dict)
    #: Per player, the street groups they hold whole.
    complete: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)
    #: Per player, the one street missing from a street group: (street, its owner).
    wanted: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


class PropertyStrategy(Strategy):
    """Buys, builds, trades and raises debts for the property-trading rulesets."""

    preferred = {"buy": ("yes",), "use-card": ("yes",), "income-tax": ("flat",)}

    def __init__(self, ruleset: Ruleset, rng: random.Random, params: PropertyParams | None = None) -> None:
        super().__init__(ruleset, rng)
        self.params = params or PropertyParams()
        board = self.board
        ownable = board.ownable()
        self.price = {s.id: s.price or 0 for s in ownable}
        self.house = {s.id: s.house or 0 for s in ownable}
        self.mortgage_value = {s.id: s.mortgage or 0 for s in ownable}
        self.rents = {s.id: s.rent for s in ownable}
        self.group_of = {s.id: s.group for s in ownable if s.group}
        self.streets = frozenset(s.id for s in ownable if s.kind == "street")
        self.groups = {g: tuple(m) for g, m in board.groups.items() if all(x in self.price for x in m)}
        self.street_groups = {g: m for g, m in self.groups.items() if all(x in self.streets for x in m)}
        self.jail_cards = frozenset(c.id for c in board.cards.values() if c.params.get("use") == "jail")
        #: The cheapest lift of a mortgage and the cheapest building: less cash left after them, nothing to do.
        self.cheapest_lift = min((self.lift_cost(sid) for sid in self.price), default=0)
        self.cheapest_house = min((self.house[sid] for sid in self.streets), default=0)
        self._offers: dict[tuple[Any, ...], int] = {}
        self._offered_on: dict[str, int] = {}
        self._holdings = Holdings()
        self._spaces: dict[str, Any] | None = None
        self._rest_of_spaces: dict[str, Any] | None = None
        self._rest_owners: dict[str, frozenset[str | None] | None] = {}
        self._owner_pickers: list[tuple[tuple[str, ...], Picker]] | None = None
        self._records = {members: _picker(members) for members in self.street_groups.values()}
        #: Per street group: its records when last read, and the next building it offers then.
        self._group_sites: dict[tuple[str, ...], tuple[tuple[Any, ...], tuple[float, str, int] | None]] = {}

    # ================================================================== reading the state
    @staticmethod
    def level(rec: dict[str, Any]) -> int:
        return 5 if rec.get("hotel") else rec.get("houses", 0)

    def holdings(self, state: State) -> Holdings:
        """Who owns what (states share their spaces until one changes; owners change more rarely still)."""
        spaces = state["spaces"]
        if spaces is not self._spaces:
            self._spaces = spaces
            owners = [rec["owner"] for rec in spaces.values()]  # a list: built faster than a tuple of a map
            if owners != self._holdings.owners:
                self._holdings = self.read_holdings(spaces, owners)
        return self._holdings

    def read_holdings(self, spaces: dict[str, Any], owners: list[str | None]) -> Holdings:
        h = Holdings(owners)
        owned = h.owned
        for sid, owner in zip(spaces, owners):
            if owner is not None:
                if owner in owned:
                    owned[owner].append(sid)
                else:
                    owned[owner] = [sid]
        if self._owner_pickers is None:  # a game's spaces keep their order: index them once
            self._owner_pickers = self.owner_pickers(spaces)
        for members, pick in self._owner_pickers:
            held = pick(owners)
            holders = set(held)
            holders.discard(None)
            for name in holders:
                count = held.count(name)
                if count == len(held):
                    h.complete.setdefault(name, []).append(members)
                elif count == len(held) - 1:
                    i = next(k for k, o in enumerate(held) if o != name)
                    if held[i] is not None:
                        h.wanted.setdefault(name, []).append((members[i], held[i]))
        return h

    def owner_pickers(self, spaces: dict[str, Any]) -> list[tuple[tuple[str, ...], Picker]]:
        """Per street group: its members, and what reads their owners from the list of every space's owner."""
        index = {sid: i for i, sid in enumerate(spaces)}
        return [(members, _picker(tuple(index[m] for m in members))) for members in self.street_groups.values()]

    def sites(self, state: State, name: str) -> list[tuple[float, str, int]]:
        """The next building of each of ``name``'s whole, unmortgaged street groups, best rent per dollar first."""
        spaces = state["spaces"]
        found = []
        for members in self.holdings(state).complete.get(name, ()):
            recs = self._records[members](spaces)
            cached = self._group_sites.get(members)
            # A state's records are never changed in place: the same records (or equal ones) offer the same site.
            if cached is None or cached[0] != recs:
                cached = (recs, self.group_site(members, recs, state["options"]))
                self._group_sites[members] = cached
            if cached[1] is not None:
                found.append(cached[1])
        found.sort(reverse=True)
        return found

    def group_site(self, members: tuple[str, ...], recs: tuple[Any, ...],
                   options: Mapping[str, Any]) -> tuple[float, str, int] | None:
        """The next building of a whole street group: (rent gained per dollar, street, its level), or None. The
        game's ``options``: ``even_build`` (false: any street may go up, not only the lowest) and
        ``houses_before_hotel`` (the level after which the next building is the hotel)."""
        if any(r["mortgaged"] for r in recs):
            return None
        levels = [5 if r["hotel"] else r["houses"] for r in recs]
        low = min(levels)
        if low == 5:
            return None
        even = options.get("even_build", True)
        top = options.get("houses_before_hotel", 4)
        best = None
        for sid, level in zip(members, levels):
            if level == low or (not even and level < 5):
                rent = self.rents[sid]
                after = 5 if level == top else level + 1
                gain = (rent[after] - (rent[0] * 2 if level == 0 else rent[level])) / max(self.house[sid], 1)
                if best is None or gain > best[0]:
                    best = (gain, sid, level)
        return best

    def owned(self, state: State, name: str) -> list[str]:
        return self.holdings(state).owned.get(name, [])

    def rest_owners(self, state: State, sid: str) -> frozenset[str | None] | None:
        """The owners of the other properties of ``sid``'s group (None: ``sid`` is in no group).

        Remembered while the spaces stay the same: an auction asks it for every bidder at every bid."""
        spaces = state["spaces"]
        if spaces is not self._rest_of_spaces:
            self._rest_of_spaces, self._rest_owners = spaces, {}
        elif sid in self._rest_owners:
            return self._rest_owners[sid]
        group = self.group_of.get(sid)
        rest = None if group not in self.groups else \
            frozenset(spaces[m]["owner"] for m in self.groups[group] if m != sid)
        self._rest_owners[sid] = rest
        return rest

    def completes(self, state: State, name: str, sid: str) -> bool:
        """Whether ``sid`` is the one property of its group that ``name`` lacks."""
        rest = self.rest_owners(state, sid)
        return rest is not None and (not rest or (len(rest) == 1 and name in rest))

    def completes_other(self, state: State, name: str, sid: str) -> bool:
        """Whether ``sid`` would complete a group for some player other than ``name``."""
        rest = self.rest_owners(state, sid)
        return rest is not None and len(rest) == 1 and None not in rest and name not in rest

    def worth(self, state: State, name: str) -> int:
        total = self.player(state, name)["cash"]
        hotel = state["options"].get("houses_before_hotel", 4) + 1  # a hotel costs its houses and itself
        for sid in self.owned(state, name):
            rec = state["spaces"][sid]
            total += self.price[sid] + (hotel if rec.get("hotel") else rec.get("houses", 0)) * self.house[sid]
        return total

    # ================================================================== prompts
    def interject(self, state: State) -> Line | None:
        trade = state.get("trade")
        if trade:
            return self.answer_trade(state, trade)
        return None

    def on_roll(self, state: State, prompt: dict[str, Any]) -> Line | None:
        if prompt.get("purpose") in ("turn", "jail"):
            act = self.before_roll(state, prompt["player"], prompt)
            if act is not None:
                return act
        return self.roll(prompt)

    def on_buy(self, state: State, prompt: dict[str, Any]) -> Line:
        name, sid = prompt["player"], prompt["space"]
        cash, price = self.player(state, name)["cash"], prompt.get("price") or self.price.get(sid, 0)
        wanted = cash - price >= self.params.buy_reserve or (cash >= price and self.completes(state, name, sid))
        return {"answer": "yes" if wanted and cash >= price else "no"}

    def on_income_tax(self, state: State, prompt: dict[str, Any]) -> Line:
        options = state["options"]
        percent = self.worth(state, prompt["player"]) * options["income_tax_percent"] // 100
        return {"answer": "percent" if percent < options["income_tax_flat"] else "flat"}

    def on_place_building(self, state: State, prompt: dict[str, Any]) -> Line:
        return {"answer": prompt["options"][0]}

    def on_debt(self, state: State, prompt: dict[str, Any]) -> Line:
        return self.raise_cash(state, prompt["player"]) or {"answer": "bankrupt"}

    # ================================================================== auctions
    def bid_limit(self, state: State, name: str, auction: Mapping[str, Any]) -> int:
        """The most ``name`` will bid for the lot."""
        p = self.params
        if "building" in auction:
            value = int(self.house.get(auction.get("for", ""), 0) * 1.5)
        elif auction.get("space") in self.price:
            sid = auction["space"]
            factor = p.group_bid if self.completes(state, name, sid) else (
                p.block_bid if self.completes_other(state, name, sid) else 1.0)
            value = int(self.price[sid] * factor)
        else:
            return 0
        return min(value, self.player(state, name)["cash"] - p.auction_reserve)

    def next_bid(self, state: State, name: str, auction: Mapping[str, Any]) -> int | None:
        limit = self.bid_limit(state, name, auction)
        base = self.price.get(auction.get("space", ""), 0) or self.house.get(auction.get("for", ""), 0)
        amount = max(auction["minimum"], auction["bid"] + max(1, base // 10))
        if amount > limit:
            amount = limit
        return amount if amount > auction["bid"] and amount >= auction["minimum"] else None

    # ================================================================== before rolling
    def before_roll(self, state: State, name: str, prompt: dict[str, Any]) -> Line | None:
        """Voluntary acts at the start of a turn: leave jail, unmortgage, build, trade."""
        if prompt.get("purpose") == "jail":
            act = self.leave_jail(state, name)
            if act is not None:
                return act
        if not self.owned(state, name):
            return None
        cash = self.player(state, name)["cash"]
        return self.unmortgage(state, name, cash) or self.build(state, name, cash) or self.propose_trade(state, name)

    def leave_jail(self, state: State, name: str) -> Line | None:
        unowned = sum(1 for rec in state["spaces"].values() if rec["owner"] is None)
        if unowned < self.params.jail_leave_unowned * len(state["spaces"]) and not self.rent_waits(state, name):
            return None
        p = self.player(state, name)
        for card in p["cards"]:
            if card in self.jail_cards:
                return {"act": {"player": name, "do": "use-card", "card": card}}
        if p["cash"] >= state["options"]["jail_fine"] + self.params.buy_reserve:
            return {"act": {"player": name, "do": "pay-fine"}}
        return None

    def rent_waits(self, state: State, name: str) -> bool:
        """Whether staying in jail costs ``name`` rent: option ``rent_in_jail`` false and a deed earning rent."""
        if state["options"].get("rent_in_jail", True):
            return False
        spaces = state["spaces"]
        return any(not spaces[sid]["mortgaged"] for sid in self.owned(state, name))

    def lift_cost(self, sid: str) -> int:
        """What lifting the mortgage on ``sid`` costs: its mortgage value and 10% interest, rounded up."""
        value = self.mortgage_value[sid]
        return value + -(-value // 10)

    def unmortgage(self, state: State, name: str, cash: int) -> Line | None:
        """Lift a mortgage while the reserve stays in hand (``cash``): on a group held whole first, then the cheapest."""
        reserve = self.params.unmortgage_reserve
        if cash - self.cheapest_lift < reserve:
            return None  # not even the cheapest mortgage could be lifted
        spaces = state["spaces"]
        best: tuple[bool, int, str] | None = None
        for sid in self.owned(state, name):
            if not spaces[sid]["mortgaged"]:
                continue
            cost = self.lift_cost(sid)
            if cash - cost < reserve:
                continue
            key = (self.completes(state, name, sid), -cost, sid)
            if best is None or key > best:
                best = key
        return {"act": {"player": name, "do": "unmortgage", "space": best[2]}} if best else None

    def build(self, state: State, name: str, cash: int) -> Line | None:
        """One building on the street of a complete group that gains the most rent per dollar (``cash``: in hand)."""
        if cash - self.cheapest_house < self.params.build_reserve:
            return None  # not even the cheapest building is affordable
        sites = self.sites(state, name)
        if not sites:
            return None
        bank = state["bank"]
        top = state["options"].get("houses_before_hotel", 4)
        for _, sid, level in sites:
            if bank.get("hotels" if level == top else "houses", 0) >= 1 and \
                    cash - self.house[sid] >= self.params.build_reserve:
                return {"act": {"player": name, "do": "build", "space": sid}}
        return None

    # ================================================================== debts
    def raise_cash(self, state: State, name: str) -> Line | None:
        """One sale or mortgage towards a debt; None when nothing is left to sell."""
        spaces = state["spaces"]
        owned = self.owned(state, name)
        group_of, groups, value = self.group_of, self.groups, self.mortgage_value
        levels: dict[str, int] = {}  # the streets with buildings
        unmortgaged = []
        for s in owned:  # one pass, each record read once
            rec = spaces[s]
            if rec.get("hotel"):
                levels[s] = 5
            elif rec.get("houses"):
                levels[s] = rec["houses"]
            if not rec["mortgaged"]:
                unmortgaged.append(s)
        built_groups = {group_of[s] for s in levels if s in group_of}
        free = [s for s in unmortgaged if group_of.get(s) not in built_groups] if built_groups else unmortgaged
        # The cheapest first: min of (value, id) pairs, ids being unique (a list, not a key function: no call each).
        if free:
            held = set(owned)
            whole = {g for g in {group_of.get(s) for s in free} if g in groups and held.issuperset(groups[g])}
            loose = [s for s in free if group_of.get(s) not in whole] if whole else free  # outside groups held whole
            if loose:
                return {"act": {"player": name, "do": "mortgage", "space": min([(value[s], s) for s in loose])[1]}}
        if levels:
            level, house = self.level, self.house
            top = {g: max([level(spaces[m]) for m in groups[g]]) for g in built_groups}
            sid = min([(house[s], s) for s, lv in levels.items() if lv == top[group_of[s]]])[1]
            return {"act": {"player": name, "do": "sell", "space": sid}}
        if free:
            return {"act": {"player": name, "do": "mortgage", "space": min([(value[s], s) for s in free])[1]}}
        return None

    # ================================================================== trades
    def space_value(self, state: State, sid: str, receiver: str, giver: str) -> float:
        """What a deed is worth to ``receiver``: twice its price when it completes a group."""
        value = float(self.price[sid])
        if self.completes(state, receiver, sid):
            value *= 2
        if state["spaces"][sid]["mortgaged"]:
            value -= self.lift_cost(sid)
        return value

    def trade_gain(self, state: State, name: str, other: str, get: dict[str, Any], give: dict[str, Any]) -> float:
        """What a trade is worth to ``name``: what comes in minus what goes out."""
        gain = float(get.get("cash", 0) - give.get("cash", 0))
        gain += sum(self.space_value(state, s, name, other) for s in get.get("spaces", []))
        for sid in give.get("spaces", []):
            cost = float(self.price[sid])
            if self.completes(state, other, sid):
                cost *= 2
            gain -= cost
        return gain

    def answer_trade(self, state: State, trade: dict[str, Any]) -> Line:
        name = trade["with"]
        gain = self.trade_gain(state, name, trade["from"], trade["give"], trade["get"])
        affordable = trade["get"].get("cash", 0) <= self.player(state, name)["cash"]
        verb = "accept" if gain >= 0 and affordable else "reject"
        return {"act": {"player": name, "do": verb}}

    def propose_trade(self, state: State, name: str) -> Line | None:
        """Offer for the one street missing from a group (once per turn)."""
        turn = state["turn"]["number"]
        if self._offered_on.get(name) == turn:
            return None
        self._offered_on[name] = turn
        wanted = self.holdings(state).wanted.get(name)
        if not wanted:
            return None
        cash = self.player(state, name)["cash"]
        for want, other in wanted:
            if self.player(state, other)["bankrupt"]:
                continue
            offer = self.swap_offer(state, name, other, want) or self.cash_offer(state, name, cash, want)
            if offer is None:
                continue
            key = (name, other, want, repr(offer))
            if turn - self._offers.get(key, -10**9) < self.params.retry_turns:
                continue
            self._offers[key] = turn
            return {"act": {"player": name, "do": "trade", "with": other, "give": offer,
                            "get": {"spaces": [want]}}}
        return None

    def swap_offer(self, state: State, name: str, other: str, want: str) -> dict[str, Any] | None:
        """A street ``other`` lacks for one of their groups (another group), plus cash for the difference."""
        cash = self.player(state, name)["cash"]
        for give, holder in self.holdings(state).wanted.get(other, []):
            if holder == name and self.group_of[give] != self.group_of[want]:
                extra = max(0, 2 * (self.price[want] - self.price[give]))
                if extra <= cash - self.params.build_reserve:
                    return {"spaces": [give], "cash": extra}
        return None

    def cash_offer(self, state: State, name: str, cash: int, want: str) -> dict[str, Any] | None:
        amount = int(self.price[want] * self.params.trade_premium)
        if cash - amount < self.params.build_reserve:
            return None
        return {"cash": amount}
