"""``classic``: the property trading rules of US 2,026,082 (RULES.md §1).

The turn: roll → move (salary on passing GO) → land (buy or auction, rent, card, tax,
jail) → roll again after doubles, or the next player. Voluntary acts (build, sell,
mortgage, unmortgage, trade, bankrupt) are accepted at any prompt, from any player.
Deeds, buildings and mortgages are the :class:`RealEstate` mixin (``estate.py``). ``addon``
builds on this class; ``magie-*`` share the auction, trade and debt mixins with it
(``auction.py``, ``trade.py``, ``debt.py``), ``chambers`` only the core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.errors import BoardError

from ..board import KindRule, Space
from ..core import Ruleset, flag, known_keys, reject, rent_for, steps_message, whole
from ..draft import Draft
from ..messages import Message, m, mp
from ..rng import shuffled
from .debt import Debts
from .estate import RealEstate, interest
from .trade import Trades

PROPERTY = dict(ownable=True, grouped=True)
FREE_PARKING = "free-parking"


@dataclass
class Route:
    """Where a move goes: the spaces entered step by step, and the board changes on the way."""

    spaces: list[str]
    switches: list[tuple[str, str]] = field(default_factory=list)  # (transition space, paired space)
    direct: bool = False  # straight to the last space (subway, airplane, a card to the other board)
    salary: bool = True  # whether GO (or PASS) pays when this route passes or lands on it


def for_player(task: list[Any], name: str) -> bool:
    """Whether a queued task acts for ``name``: one of their own, or a question to put to them again."""
    if len(task) < 2:
        return False
    if task[0] == "ask-again":
        return isinstance(task[1], Mapping) and task[1].get("player") == name
    return bool(task[1] == name)


class ClassicRules(RealEstate, Trades, Debts, Ruleset):
    """The classic game; subclasses change it through data and the small hooks below."""

    id = "classic"
    kinds = {
        "go": KindRule(),
        "street": KindRule(required=("group", "price", "rent", "house", "mortgage"), rent_length=6, **PROPERTY),
        "railroad": KindRule(required=("group", "price", "rent", "mortgage"), **PROPERTY),
        "utility": KindRule(required=("group", "price", "rent", "mortgage"), **PROPERTY),
        "chance": KindRule(required=("deck",)),
        "chest": KindRule(required=("deck",)),
        "tax": KindRule(required=("tax",)),
        "jail": KindRule(),
        "free": KindRule(),
        "go-to-jail": KindRule(),
    }
    deck_names = frozenset({"chance", "chest"})
    effects = frozenset({"pay", "collect", "advance", "advance-nearest", "go-to-jail", "keep", "repairs",
                         "move", "pay-each", "collect-each"})
    #: What sends money to the tax account rather than the bank (addon's tax pool).
    tax_reasons = frozenset({"card", "income-tax", "luxury-tax", "jail-fine"})
    #: Options the board must give, each a whole number ≥ 0 (RULES.md §1).
    whole_options: ClassVar[tuple[str, ...]] = (
        "start_cash", "salary", "income_tax_flat", "income_tax_percent", "luxury_tax", "jail_fine", "houses", "hotels",
        "end_after_bankruptcies", "end_at_minutes", "free_parking_seed", "deal_deeds", "houses_before_hotel")
    #: The house rules that are true or false (RULES.md §1, "House rules and the official short game").
    flag_options: ClassVar[tuple[str, ...]] = (
        "go_landing_bonus", "auctions", "rent_in_jail", "even_build", "buy_after_first_lap")
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {"free_parking": ("nothing", "fees", "fees-and-seed")}
    option_bounds: ClassVar[Mapping[str, tuple[int, int]]] = {"income_tax_percent": (0, 100),
                                                              "houses_before_hotel": (1, 4)}
    #: The parameters a card of each effect needs; the numeric ones are whole numbers.
    effect_params: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "pay": ("amount",), "collect": ("amount",), "pay-each": ("amount",), "collect-each": ("amount",),
        "advance": ("to",), "advance-nearest": ("kind",), "repairs": ("house", "hotel"), "move": ("steps",),
        "keep": ("use",)}

    def __init__(self, board: Any) -> None:
        super().__init__(board)
        b = self.board
        self.check_board()
        self.jail = next(s.id for s in b.spaces if s.kind == "jail")
        self.salary_spaces = frozenset(s.id for s in b.spaces if s.data.get("salary"))
        self.rings = {name: track * 2 for name, track in b.tracks.items()}  # a lap ahead is a slice of these
        for group, members in b.groups.items():
            for member in (b.by_id[m] for m in members):
                if member.kind in ("railroad", "utility") and len(member.rent) < len(members):
                    raise BoardError(f"{b.source}: {member.id}.rent needs one rent per {group} owned ({len(members)})")
        self.landers = {
            "street": self.land_property, "railroad": self.land_property, "utility": self.land_property,
            "chance": self.land_card, "chest": self.land_card, "tax": self.land_tax,
            "go-to-jail": self.land_go_to_jail, "go": self.land_nothing, "jail": self.land_nothing,
            "free": self.land_free_parking,
        }
        self.effect_handlers = {name: getattr(self, "effect_" + name.replace("-", "_")) for name in self.effects}
        self.card_uses = {"jail": self.use_jail_card}

    def check_board(self) -> None:
        """What the generic loader cannot know: the jail, the options and card parameters this ruleset reads."""
        b = self.board
        if not any(s.kind == "jail" for s in b.spaces):
            raise BoardError(f"{b.source}: spaces: a {self.id} board needs a space of kind 'jail'")
        for key in self.whole_options:
            value = b.options.get(key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BoardError(f"{b.source}: options.{key}: expected a whole number ≥ 0, found {value!r}")
        for key in self.flag_options:
            if not isinstance(b.options.get(key), bool):
                raise BoardError(f"{b.source}: options.{key}: expected true or false, found {b.options.get(key)!r}")
        for key, choices in self.option_choices.items():
            if b.options.get(key) not in choices:
                raise BoardError(f"{b.source}: options.{key}: expected one of {', '.join(map(str, choices))}, "
                                 f"found {b.options.get(key)!r}")
        for key, (low, high) in self.option_bounds.items():
            if not low <= b.options[key] <= high:
                raise BoardError(f"{b.source}: options.{key}: expected {low} to {high}, found {b.options[key]!r}")
        for i, card in enumerate(b.cards.values()):
            where = f"{b.source}: cards[{i}] ({card.id})"
            for key in self.effect_params.get(card.do, ()):
                value = card.params.get(key)
                if value is None:
                    raise BoardError(f"{where}: a {card.do} card needs `{key}`")
                if key not in ("to", "kind", "use") and (isinstance(value, bool) or not isinstance(value, int)):
                    raise BoardError(f"{where}.{key}: expected a whole number, found {value!r}")
            if card.do == "advance" and card.params["to"] not in b.by_id:
                raise BoardError(f"{where}.to: there is no space {card.params['to']!r}")
            if card.do == "advance-nearest" and not any(s.kind == card.params["kind"] for s in b.spaces):
                raise BoardError(f"{where}.kind: there is no space of kind {card.params['kind']!r}")

    # ================================================================== set-up
    def new_player(self, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        player = super().new_player(name, options)
        player["jail_turns"] = 0
        return player

    def new_space(self, space_id: str) -> dict[str, Any]:
        return {"owner": None, "houses": 0, "hotel": False, "mortgaged": False}

    def new_bank(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"houses": options["houses"], "hotels": options["hotels"]}

    def pools(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The ruleset's pools, and the Free Parking pool when option ``free_parking`` fills one."""
        return (*super().pools(options), FREE_PARKING) if options["free_parking"] != "nothing" else \
            super().pools(options)

    def setup(self, d: Draft, setup: Mapping[str, Any]) -> None:
        s = d.state
        s.update(dice=None, doubles=0, again=False, auction=None, trade=None)
        for name in d.names():
            self.transfer(d, "bank", name, s["options"]["start_cash"], m("to start"))
        self.seed_free_parking(d)
        self.deal_hands(d, setup.get("deal"))
        first = d.names()[0]
        if "start" in setup:
            first = self.start_in_progress(d, setup["start"])
        elif s["options"]["deal_deeds"]:
            self.deal_deeds(d, s["options"]["deal_deeds"])
        s["turn"] = {"player": first, "number": 1}
        d.push(["turn", first])

    def start_in_progress(self, d: Draft, start: Any) -> str:
        """Apply ``setup.start``: cash, places, cards, deeds and pools of a game in progress."""
        if not isinstance(start, Mapping):
            raise reject("setup.start must be an object")
        known_keys(start, {"players", "spaces", "pools", "turn"}, "setup.start")
        s = d.state
        for name, given in (start.get("players") or {}).items():
            p = d.player(name)
            if not isinstance(given, Mapping):
                raise reject("setup.start.players.{player} must be an object", player=name)
            known_keys(given, {"cash", "space", "cards", "in_jail"}, f"setup.start.players.{name}")
            if "cash" in given:
                cash = whole(given["cash"], m("{player}'s cash", player=name))
                self.transfer(d, "bank", name, cash - p["cash"]) if cash > p["cash"] else \
                    self.transfer(d, name, "bank", p["cash"] - cash)
            if "space" in given:
                if given["space"] not in self.board.by_id:
                    raise reject("setup.start: unknown space {value} for {player}", value=given["space"], player=name)
                p["space"] = given["space"]
            for card in given.get("cards", []):
                self.take_from_deck(d, card)
                d.give_card(name, card)
            p["in_jail"] = flag(given.get("in_jail", False), m("setup.start.players.{player}.in_jail", player=name))
            if p["in_jail"]:
                p["space"] = self.jail
        given_spaces = start.get("spaces") or {}
        if not isinstance(given_spaces, Mapping):
            raise reject("setup.start.spaces must map space ids to deeds")
        for space_id, given in given_spaces.items():  # owners first: buildings need whole groups
            if space_id not in d.state["spaces"] or not isinstance(given, Mapping):
                raise reject("setup.start.spaces: {value} is not an ownable space", value=space_id)
            if given.get("owner") is not None:
                d.player(given["owner"])
            d.space(space_id)["owner"] = given.get("owner")
        for space_id, given in given_spaces.items():
            self.start_space(d, space_id, given)
        for pool, amount in (start.get("pools") or {}).items():
            if pool not in s["pools"]:
                raise reject("setup.start: unknown pool {value}", value=pool)
            amount = whole(amount, m("pool {name}", name=pool))  # what the pool holds (a seeded one already holds its seed)
            self.transfer(d, "bank", pool, amount - s["pools"][pool]) if amount > s["pools"][pool] else \
                self.transfer(d, pool, "bank", s["pools"][pool] - amount)
        d.events.clear()
        d.say("setup", m("The game continues from the position given"))
        turn = start.get("turn", d.names()[0])
        if not d.has_player(turn):
            raise reject("setup.start.turn: there is no player called {value}", value=turn)
        return str(turn)

    def start_space(self, d: Draft, space_id: str, given: Any) -> None:
        rec = d.space(space_id)
        owner = given.get("owner")
        houses = whole(given.get("houses", 0), m("houses on {name}", name=space_id), maximum=self.hotel_after(d))
        known_keys(given, {"owner", "houses", "hotel", "mortgaged"}, f"setup.start.spaces.{space_id}")
        hotel = flag(given.get("hotel", False), m("setup.start.spaces.{name}.hotel", name=space_id))
        space = self.board.by_id[space_id]
        if (houses or hotel) and (space.kind != "street" or owner is None or not self.owns_group(d, owner, space)):
            raise reject("setup.start.spaces.{name}: buildings need the whole group in one hand", name=space_id)
        if hotel and houses:
            raise reject("setup.start.spaces.{name}: a hotel replaces the {what}", name=space_id,
                         what=self.houses_words(d))
        mortgaged = flag(given.get("mortgaged", False), m("setup.start.spaces.{name}.mortgaged", name=space_id))
        rec.update(owner=owner, houses=houses, hotel=hotel, mortgaged=mortgaged)
        bank = d.state["bank"]
        bank["houses"] -= houses
        bank["hotels"] -= int(hotel)
        if bank["houses"] < 0 or bank["hotels"] < 0:
            raise reject("setup.start: more buildings than the bank holds")

    def deal_deeds(self, d: Draft, each: int) -> None:
        """Option ``deal_deeds`` (the official short game): the bank shuffles the title deeds (the seed decides) and
        deals ``each`` to every player in turn order, one at a time, each paying the bank the printed price."""
        names = d.names()
        deeds = shuffled([s.id for s in self.board.ownable()], d.state["seed"], "deal:deeds")
        if each * len(names) > len(deeds):
            raise reject("option deal_deeds: {n} deeds each for {count} players is more than the {total} deeds there "
                         "are", n=each, count=len(names), total=len(deeds))
        d.say("say", m("The bank shuffles the title deeds and deals {n} to each player", n=each))
        for k, space_id in enumerate(deeds[:each * len(names)]):
            name, space = names[k % len(names)], self.board.by_id[space_id]
            if d.player(name)["cash"] < (space.price or 0):
                raise reject("option deal_deeds: {player} cannot pay {price} for {space} with the cash they start "
                             "with", player=name, price=space.price or 0, space=space.id)
            self.transfer(d, name, "bank", space.price or 0, m("for {space}", space=space.id))
            self.give_space(d, name, space.id)
            d.say("deed", m("Give {player} the deed of {space}", player=name, space=space.id), player=name,
                  space=space.id)

    # ================================================================== turns
    def task_turn(self, d: Draft, name: str) -> None:
        s = d.state
        s["doubles"] = 0
        s["again"] = False
        if d.player(name)["in_jail"]:
            fine = s["options"]["jail_fine"]
            d.ask(name, "roll", m("{player} is in jail: roll for doubles, pay {fine} or use a card", player=name,
                                  fine=fine), [], purpose="jail", dice=2)
        else:
            d.ask(name, "roll", m("{player}, roll the dice", player=name), [], purpose="turn", dice=2)

    def roll_turn(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        s, name = d.state, prompt["player"]
        a, b = dice[0], dice[1]
        s["dice"] = dice
        double = a == b
        d.say("roll", m("{player} rolls {a} and {b} (doubles)" if double else "{player} rolls {a} and {b}",
                        player=name, a=a, b=b), player=name, dice=dice)
        if double:
            s["doubles"] += 1
            if s["doubles"] == 3:
                d.say("say", m("Third doubles: {player} goes to jail", player=name))
                d.push(["go-to-jail", name], ["end-roll", name])
                return
        s["again"] = double
        d.push(self.throw_move(d, name, a + b), ["end-roll", name])

    def roll_jail(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        s, name = d.state, prompt["player"]
        s["dice"] = dice
        total = dice[0] + dice[1]
        p = d.player(name)
        d.say("roll", m("{player} rolls {a} and {b} in jail", player=name, a=dice[0], b=dice[1]), player=name,
              dice=dice)
        if dice[0] == dice[1]:
            d.say("say", m("Doubles: {player} leaves jail", player=name))
            self.release(d, name)
            d.push(self.throw_move(d, name, total), ["end-roll", name])
        elif p["jail_turns"] >= 2:
            d.say("say", m("Third try failed: {player} pays the fine and leaves jail", player=name))
            d.push(["pay", name, self.tax_account(d, "jail-fine"), s["options"]["jail_fine"], m("as the jail fine")],
                   ["release", name], self.throw_move(d, name, total), ["end-roll", name])
        else:
            p["jail_turns"] += 1
            d.say("say", m("{player} stays in jail", player=name))
            d.push(["end-roll", name])

    def throw_move(self, d: Draft, name: str, total: int) -> list[Any]:
        """The move task for a throw of the dice (addon: backwards, travel cards added)."""
        return ["move", name, total, {"dice": total}]

    def task_release(self, d: Draft, name: str) -> None:
        self.release(d, name)

    def release(self, d: Draft, name: str) -> None:
        p = d.player(name)
        p["in_jail"] = False
        p["jail_turns"] = 0

    def task_end_roll(self, d: Draft, name: str) -> None:
        s = d.state
        p = d.player(name)
        if s["again"] and not p["in_jail"] and not p["bankrupt"]:
            s["again"] = False
            d.ask(name, "roll", m("Doubles: {player}, roll again", player=name), [], purpose="turn", dice=2)
        else:
            self.task_next_turn(d)  # at once: what a queued "next-turn" would do as the very next task

    def task_go_to_jail(self, d: Draft, name: str) -> None:
        p = d.player(name)
        p["space"], p["in_jail"], p["jail_turns"] = self.jail, True, 0
        d.state["again"] = False
        d.say("move", m("Move {player}'s token to {space}: {player} is in jail", player=name, space=self.jail),
              player=name, to=self.jail, jail=True)

    # ================================================================== movement
    def track_path(self, start: str, steps: int) -> list[str]:
        """The spaces entered along the start's own track, one per step (negative steps: backwards)."""
        space = self.board.by_id[start]
        track = self.board.tracks[space.track]
        n, i = len(track), space.index
        if 0 < steps <= n:
            return list(self.rings[space.track][i + 1:i + 1 + steps])
        sign = 1 if steps > 0 else -1
        return [track[(i + sign * k) % n] for k in range(1, abs(steps) + 1)]

    def route(self, d: Draft, name: str, start: str, steps: int, ctx: Mapping[str, Any]) -> Route:
        """Where a move of ``steps`` (negative: backwards) takes a token; addon adds board changes."""
        return Route(self.track_path(start, steps))

    def route_to(self, d: Draft, name: str, start: str, target: str) -> Route:
        """The way forward from ``start`` to ``target`` for a card that says "advance to"."""
        here, there = self.board.by_id[start], self.board.by_id[target]
        n = len(self.board.tracks[here.track])
        return Route(self.track_path(start, (there.index - here.index) % n or n))

    def task_move(self, d: Draft, name: str, steps: int, ctx: Mapping[str, Any]) -> None:
        route = self.route(d, name, d.player(name)["space"], steps, ctx)
        self.walk(d, name, route, steps > 0, ctx)

    def task_advance(self, d: Draft, name: str, target: str, ctx: Mapping[str, Any]) -> None:
        route = self.route_to(d, name, d.player(name)["space"], target)
        self.walk(d, name, route, True, ctx)

    def walk(self, d: Draft, name: str, route: Route, forward: bool, ctx: Mapping[str, Any]) -> None:
        """Move a token along a route (salary when a forward move passes or lands on GO), then land.

        Landing is called, not queued: a queued ``land`` would be the very next task anyway (the queue
        runs tasks front first and nothing on the way asks a question), so the result is the same.
        """
        p = d.player(name)
        path = route.spaces
        if not path:
            self.task_land(d, name, dict(ctx))
            return
        target = self.board.by_id[path[-1]]
        d.say("move", self.move_message(name, route, forward), player=name, to=target.id,
              steps=len(path) if forward else -len(path),
              switches=[list(sw) for sw in route.switches] if route.switches else [])
        p["space"] = target.id
        if forward and route.salary and not self.salary_spaces.isdisjoint(path):
            for space_id in path:
                if space_id in self.salary_spaces:
                    self.pay_salary(d, name, space_id, landed=space_id == target.id)
        self.task_land(d, name, dict(ctx))  # at once: nothing can come between a move and its landing

    def move_message(self, name: str, route: Route, forward: bool) -> Message:
        """What the table is told to do with the token."""
        n, to = len(route.spaces), route.spaces[-1]
        if route.direct:
            return m("Move {player}'s token to {space}", player=name, space=to)
        return steps_message(name, n, forward, to)

    def pay_salary(self, d: Draft, name: str, space_id: str, *, landed: bool) -> None:
        d.player(name)["laps"] += 1
        options, space = d.state["options"], self.board.by_id[space_id]
        go = space.name == "GO"  # "passing GO", "passing the PASS space"
        if landed and options["go_landing_bonus"] and space.kind == "go":
            self.transfer(d, "bank", name, 2 * options["salary"],
                          m("double salary for landing on {space}" if go else
                            "double salary for landing on the {space} space", space=space_id))
            return
        if landed:
            why = m("salary for landing on {space}" if go else "salary for landing on the {space} space", space=space_id)
        else:
            why = m("salary for passing {space}" if go else "salary for passing the {space} space", space=space_id)
        self.transfer(d, "bank", name, options["salary"], why)

    # ================================================================== landing
    def task_land(self, d: Draft, name: str, ctx: Mapping[str, Any]) -> None:
        space = self.board.by_id[d.player(name)["space"]]
        self.landers[space.kind](d, name, space, ctx)

    def land_nothing(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        pass

    def land_free_parking(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        """Option ``free_parking``: the lander takes the whole pool (with ``fees-and-seed`` the bank seeds it again)."""
        pool = d.state["pools"].get(FREE_PARKING)
        if pool is None:
            return  # the book: nothing happens on Free Parking
        if not pool:
            d.say("say", m("{space} is empty: {player} takes nothing", space=space.id, player=name), player=name)
            return
        self.transfer(d, FREE_PARKING, name, pool, m("(the whole pool)"))
        self.seed_free_parking(d)

    def seed_free_parking(self, d: Draft) -> None:
        """With ``free_parking = "fees-and-seed"``: the bank puts the seed into the (empty) pool."""
        options = d.state["options"]
        if options["free_parking"] == "fees-and-seed":
            self.transfer(d, "bank", FREE_PARKING, options["free_parking_seed"], m("as its seed"))

    def land_go_to_jail(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["go-to-jail", name])

    def land_card(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["draw", name, space.data["deck"]])

    def land_tax(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        options = d.state["options"]
        if space.data["tax"] == "income":
            flat, pct = options["income_tax_flat"], options["income_tax_percent"]
            d.ask(name, "income-tax", m("Income tax: {player}, pay {amount} or {percent}% of your total worth?",
                                        player=name, amount=flat, percent=pct), ["flat", "percent"], space=space.id)
        else:
            d.push(["pay", name, self.tax_account(d, "luxury-tax"), options["luxury_tax"],
                    m("for {space}", space=space.id)])

    def answer_income_tax(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, options = prompt["player"], d.state["options"]
        if value == "flat":
            amount = options["income_tax_flat"]
        else:
            worth = self.worth(d, name)
            amount = worth * options["income_tax_percent"] // 100
            d.say("say", m("{player}'s total worth is {worth}: {percent}% is {amount}", player=name, worth=worth,
                           percent=options["income_tax_percent"], amount=amount))
        d.push(["pay", name, self.tax_account(d, "income-tax"), amount, m("income tax")])

    def land_property(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        rec = d.read_space(space.id)
        owner = rec["owner"]
        if owner is None:
            if not self.may_buy(d, name):
                self.deed_declined(d, space, m("{player} has not passed GO yet and may not buy {space}", player=name,
                                               space=space.id))
                return
            d.ask(name, "buy", m("Buy {space} for {price}?", space=space.id, price=space.price or 0), ["yes", "no"],
                  space=space.id, price=space.price)
        elif owner == name:
            d.say("say", m("{player} owns {space}", player=name, space=space.id))
        elif rec["mortgaged"]:
            d.say("say", m("{space} is mortgaged: no rent", space=space.id))
        elif not d.state["options"]["rent_in_jail"] and d.player(owner)["in_jail"]:
            d.say("say", m("{owner} is in jail: no rent for {space}", owner=owner, space=space.id))
        elif space.kind == "utility" and (ctx.get("dice") is None or ctx.get("dice_multiplier")):
            times = ctx.get("dice_multiplier") or space.rent[self.count_owned(d, owner, space) - 1]
            d.ask(name, "roll", m("{player}, throw the dice: you pay {owner} {times} times the throw", player=name,
                                  owner=owner, times=times), [],
                  purpose="utility", dice=2, space=space.id, owner=owner, multiplier=times)
        else:
            rent = self.rent(d, space, owner, ctx)
            d.push(["pay", name, owner, rent, rent_for(space.id)])

    def roll_utility(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name, total = prompt["player"], sum(dice)
        d.say("roll", m("{player} throws {total}", player=name, total=total), player=name, dice=dice)
        d.push(["pay", name, prompt["owner"], total * prompt["multiplier"], rent_for(prompt["space"])])

    def rent(self, d: Draft, space: Space, owner: str, ctx: Mapping[str, Any]) -> int:
        """Rent due on an owned, unmortgaged property."""
        rec = d.read_space(space.id)
        if space.kind == "street":
            if rec["hotel"]:
                return space.rent[5]
            if rec["houses"]:
                return space.rent[rec["houses"]]
            return space.rent[0] * (2 if self.owns_group(d, owner, space) else 1)
        count = self.count_owned(d, owner, space)
        if space.kind == "utility":
            return space.rent[count - 1] * ctx["dice"]
        return space.rent[count - 1] * ctx.get("rent_multiplier", 1)

    def answer_buy(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, space = prompt["player"], self.board.by_id[prompt["space"]]
        if value == "no":
            self.deed_declined(d, space, m("{player} does not buy {space}", player=name, space=space.id))
            return
        price = space.price or 0
        if d.player(name)["cash"] < price:
            raise reject("{player} has {cash} and {space} costs {price}: sell or mortgage first, or answer no",
                         player=name, cash=d.player(name)["cash"], space=space.id, price=price)
        self.transfer(d, name, "bank", price, m("for {space}", space=space.id))
        self.give_space(d, name, space.id)
        d.say("deed", m("Give {player} the deed of {space}", player=name, space=space.id), player=name, space=space.id)

    def give_space(self, d: Draft, name: str, space_id: str) -> None:
        d.space(space_id)["owner"] = name

    def deed_declined(self, d: Draft, space: Space, why: Message) -> None:
        """A deed its lander does not (or may not) buy: auctioned, or (option ``auctions`` false) left with the bank."""
        if d.state["options"]["auctions"]:
            d.say("say", m("{why}: it is auctioned", why=why))
            d.push(["auction", space.id])
        else:
            d.say("say", m("{why}: it stays with the bank (no auctions)", why=why))

    def may_buy(self, d: Draft, name: str) -> bool:
        """Whether ``name`` may buy a deed or bid for one (option ``buy_after_first_lap``: not before passing GO)."""
        return not d.state["options"]["buy_after_first_lap"] or d.player(name)["laps"] > 0

    # ================================================================== cards
    def task_draw(self, d: Draft, name: str, deck_name: str) -> None:
        card_id = self.draw(d, deck_name)
        if card_id is None:
            d.say("say", m("The {pile} deck is empty", pile=deck_name))
            return
        card = self.board.cards[card_id]
        d.say("card", m("{player} draws {deck}: {printed}", player=name, deck=deck_name, printed=card_id), player=name,
              card=card_id, deck=deck_name)
        if card.kept:
            d.give_card(name, card_id)
        else:
            self.to_bottom(d, card_id)
        self.effect_handlers[card.do](d, name, card.params)

    def deck_title(self, deck_name: str) -> str:
        return self.deck_name(deck_name)

    def effect_pay(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.push(["pay", name, self.tax_account(d, "card"), params["amount"], m("for the card")])

    def effect_collect(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        self.transfer(d, "bank", name, params["amount"], m("for the card"))

    def effect_advance(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.push(["advance", name, params["to"], {}])

    def effect_advance_nearest(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        target = self.nearest(d, name, params["kind"])
        ctx = {k: params[k] for k in ("rent_multiplier", "dice_multiplier") if k in params}
        d.push(["advance", name, target, ctx])

    def nearest(self, d: Draft, name: str, kind: str) -> str:
        """The first space of ``kind`` ahead of the player on their track."""
        here = d.player(name)["space"]
        path = self.track_path(here, len(self.board.tracks[self.board.by_id[here].track]))
        return next(sid for sid in path if self.board.by_id[sid].kind == kind)

    def effect_go_to_jail(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.push(["go-to-jail", name])

    def effect_keep(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.say("say", m("{player} keeps the card", player=name))

    def effect_repairs(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        houses = hotels = 0
        for sid in self.owned(d, name):
            rec = d.read_space(sid)
            houses += rec["houses"]
            hotels += int(rec["hotel"])
        amount = houses * params["house"] + hotels * params["hotel"]
        d.say("say", m("{player} has {houses} houses and {hotels} hotels", player=name, houses=houses, hotels=hotels))
        d.push(["pay", name, self.tax_account(d, "card"), amount, m("for repairs")])

    def effect_move(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.push(["move", name, params["steps"], {}])

    def effect_pay_each(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.push(*(["pay", name, other, params["amount"], m("for the card")] for other in d.solvent() if other != name))

    def effect_collect_each(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.push(*(["pay", other, name, params["amount"], m("for the card")] for other in d.solvent() if other != name))

    def verb_use_card(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        card = act.get("card")
        if not isinstance(card, str) or card not in d.player(name)["cards"]:
            raise reject("{player} does not hold the card {value}", player=name, value=card)
        use = self.board.cards[card].params.get("use")
        handler = self.card_uses.get(use) if isinstance(use, str) else None
        if handler is None:
            raise reject("{ident} is not played that way", ident=card)
        handler(d, name, card)

    def use_jail_card(self, d: Draft, name: str, card: str) -> None:
        self.require_prompt(d, "roll", name)
        if d.state["prompt"].get("purpose") != "jail":
            raise reject("{player} is not waiting to roll in jail", player=name)
        d.take_card(name, card)
        self.to_bottom(d, card)
        self.release(d, name)
        d.say("say", m("{player} uses {ident} and leaves jail", player=name, ident=card))
        d.ask(name, "roll", m("{player}, roll the dice", player=name), [], purpose="turn", dice=2)

    def verb_pay_fine(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.require_prompt(d, "roll", name)
        if d.state["prompt"].get("purpose") != "jail":
            raise reject("{player} is not waiting to roll in jail", player=name)
        fine = d.state["options"]["jail_fine"]
        if d.player(name)["cash"] < fine:
            raise reject("{player} has {cash}: the fine is {fine}", player=name, cash=d.player(name)["cash"], fine=fine)
        self.transfer(d, name, self.tax_account(d, "jail-fine"), fine, m("as the jail fine"))
        self.release(d, name)
        d.ask(name, "roll", m("{player}, roll the dice", player=name), [], purpose="turn", dice=2)

    # ================================================================== money owed
    def tax_account(self, d: Draft, reason: str) -> str:
        """Where taxes, fines and card payments go: :meth:`fee_account`'s account, except that what it would pay the
        bank goes into the Free Parking pool when there is one (option ``free_parking``)."""
        account = self.fee_account(d, reason)
        if account == "bank" and reason in self.tax_reasons and FREE_PARKING in d.state["pools"]:
            return FREE_PARKING
        return account

    def fee_account(self, d: Draft, reason: str) -> str:
        """Where a tax, fine or card payment goes by the ruleset's own rules (the bank; addon's tax pool)."""
        return "bank"

    def short_of_cash(self, d: Draft, debtor: str, creditor: str, amount: int, reason: Message | str) -> None:
        """A payment the debtor cannot make now; when the debtor is the last player left in the game (the interest on
        mortgaged deeds received from the last rival's bankruptcy), it is not asked for: the last solvent player
        has won (RULES §1), and going bankrupt over it would leave the game with no player and no winner."""
        if d.solvent() == [debtor] and self.check_end(d):
            return
        super().short_of_cash(d, debtor, creditor, amount, reason)

    def answer_debt(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        d.state["prompt"] = prompt  # bankrupt() clears it with the retried payment
        self.bankrupt(d, prompt["player"])

    def verb_bankrupt(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.bankrupt(d, name)

    def bankrupt(self, d: Draft, name: str) -> None:
        """Declare ``name`` bankrupt to whoever they owe (the bank if nobody)."""
        s = d.state
        prompt = s["prompt"]
        creditor = "bank"
        if prompt and prompt["kind"] == "debt" and prompt["player"] == name:
            creditor = prompt["creditor"]
            s["queue"].pop(0)  # the payment that could not be made
        if creditor == FREE_PARKING:
            creditor = "bank"  # a debt settled by bankruptcy goes to the bank, not into the pool (RULES §1)
        to_player = creditor not in ("bank", *s["pools"])
        p = d.player(name)
        owned = self.owned(d, name)
        bank = s["bank"]
        d.say("bankrupt", m("{player} is bankrupt: everything goes to {creditor}", player=name, creditor=creditor)
              if to_player else m("{player} is bankrupt: property returns to the bank", player=name), player=name,
              creditor=creditor)
        self.tell_hand_over(d, name, creditor if to_player else None, owned)  # what the table does, item by item
        for sid in owned:  # buildings go back to the bank, sold at half price to a player creditor
            rec = d.space(sid)
            level = self.buildings(d, rec)
            if level:
                bank["houses"] += rec["houses"]
                bank["hotels"] += int(rec["hotel"])
                if to_player:
                    self.transfer(d, "bank", name, level * (self.board.by_id[sid].house or 0) // 2,
                                  m("for the buildings on {space}", space=sid))
                rec["houses"], rec["hotel"] = 0, False
        self.transfer(d, name, creditor, p["cash"], m("(everything left)"))
        later: list[list[Any]] = []
        for sid in owned:
            rec = d.space(sid)
            if to_player:
                rec["owner"] = creditor
                if rec["mortgaged"]:
                    later.append(["pay", creditor, "bank", interest(self.board.by_id[sid].mortgage or 0),
                                  m("interest on mortgaged {space}", space=sid)])
            else:
                rec["owner"], rec["mortgaged"] = None, False
                if s["options"]["auctions"]:
                    later.append(["auction", sid])
        for card in p["cards"]:
            if to_player:
                d.give_card(creditor, card)
            else:
                self.to_bottom(d, card)
        p.update(cards=[], bankrupt=True, in_jail=False, cash=0)
        d.say("hand-over", m("Take {player}'s token off the board", player=name), player=name)
        self.forget_player(d, name)
        was_turn = s["turn"]["player"] == name
        if was_turn:
            # Another player's debt keeps its payment, first on the queue: resume() sends it where a payment to a
            # player who left the game goes. The rest of the turn goes with its player.
            owed = prompt is not None and prompt["kind"] == "debt" and prompt["player"] != name
            s["queue"] = s["queue"][:1] if owed else []
        else:
            s["queue"] = [t for t in s["queue"] if not for_player(t, name)]
        if prompt is not None and prompt.get("player") == name:
            s["prompt"] = None
        if len(d.solvent()) == 1:  # the last solvent player wins at once: no auction of the deeds among nobody else
            later = [task for task in later if task[0] != "auction"]
        later.append(["check-end"])
        if was_turn:
            s["queue"] = [*s["queue"], *later, ["next-turn"]]
        elif s["prompt"] is not None:
            self.interrupt(d, *later)
        else:
            d.push(*later)

    def tell_hand_over(self, d: Draft, name: str, creditor: str | None, owned: list[str]) -> None:
        """A bankruptcy's hand-overs, each a sentence the OLED, the voice and the page tell ("hand-over" events,
        before the payments they bring): the buildings back to the bank, the deeds and the kept cards to the
        creditor (``None``: the bank), all told before the money and the token."""
        built = [sid for sid in owned if self.level(d.space(sid))]
        if built:
            d.say("hand-over", m("Put the buildings on {spaces} back in the bank", spaces=built), player=name,
                  spaces=built)
        if owned:
            deeds = [m("{space} (mortgaged)" if d.space(sid)["mortgaged"] else "{space}", space=sid) for sid in owned]
            d.say("hand-over", mp("Give {taker} {player}'s deed of {items}", "Give {taker} {player}'s deeds of {items}",
                                  len(owned), taker=creditor or "bank", player=name, items=deeds), player=name,
                  to=creditor or "bank", spaces=owned)
        cards = d.player(name)["cards"]
        if cards:
            held: dict[str, str] = {}  # one card of each name, in the order held
            for card in cards:
                held.setdefault(self.card_name(card), card)
            said = mp("Give {creditor} {player}'s {cards} card", "Give {creditor} {player}'s {cards} cards",
                      len(cards), creditor=creditor, player=name, cards=list(held.values())) if creditor else \
                mp("Put {player}'s {cards} card back under its deck", "Put {player}'s {cards} cards back under their decks",
                   len(cards), player=name, cards=list(held.values()))
            d.say("hand-over", said, player=name, to=creditor or "bank", cards=list(cards))

    def forget_player(self, d: Draft, name: str) -> None:
        """Take a bankrupt player out of a running auction or trade offer."""
        self.cancel_offers(d, name)
        self.withdraw_bidder(d, name)

    def task_check_end(self, d: Draft) -> None:
        self.check_end(d)

    def check_end(self, d: Draft) -> bool:
        """End the game if one player is left, or after the bankruptcies the options allow."""
        s = d.state
        solvent = d.solvent()
        limit = s["options"].get("end_after_bankruptcies", 0)
        if len(solvent) == 1:
            self.win(d, solvent[0], m("the last solvent player"))
            return True
        if limit and len(d.names()) - len(solvent) >= limit:
            self.win_by_worth(d)
            return True
        return False

    def win(self, d: Draft, name: str, why: Message) -> None:
        s = d.state
        s["winner"], s["prompt"], s["queue"] = name, None, []
        s["auction"] = s["trade"] = None
        d.say("winner", m("{player} wins: {why}", player=name, why=why), player=name)

    def win_by_worth(self, d: Draft) -> None:
        worth = self.worths(d, d.solvent())
        best = max(worth.values())
        winner = next(n for n in d.solvent() if worth[n] == best)
        d.say("say", m("Total worth: {parts}", parts=[m("{player} {worth}", player=n, worth=w) for n, w in worth.items()]))
        self.win(d, winner, m("the highest total worth, {worth}", worth=best))

    def host_end_game(self, d: Draft, act: Mapping[str, Any]) -> None:
        """The table's clock ran out (option ``end_at_minutes``) or the host ends the game."""
        self.win_by_worth(d)

    # ================================================================== auctions
    def task_auction(self, d: Draft, space_id: str) -> None:
        bidders = [name for name in d.solvent() if self.may_buy(d, name)]
        if not bidders:
            d.say("say", m("Nobody may bid yet: {space} stays with the bank", space=space_id))
            return
        self.open_auction(d, {"space": space_id}, bidders, minimum=1)

    def lot_name(self, auction: Mapping[str, Any]) -> Message:
        if auction.get("building") == "hotel":
            return m("a hotel (the bank's stock is short)")
        if "building" in auction:
            return m("a house (the bank's stock is short)")
        return m("{space}", space=auction["space"])

    def task_award(self, d: Draft, name: str, lot: Mapping[str, Any]) -> None:
        if "building" in lot:
            self.place_bought_building(d, name, lot)
            return
        self.give_space(d, name, lot["space"])
        d.say("deed", m("Give {player} the deed of {space}", player=name, space=lot["space"]), player=name,
              space=lot["space"])

    # ================================================================== trades (the offer itself: Trades)
    def check_trade_space(self, d: Draft, holder: str, space_id: Any) -> None:
        space = self.deed(d, holder, space_id, m("{player} cannot trade {ident}", player=holder, ident=space_id))
        if space.group and any(self.level(d.read_space(sid)) for sid in self.board.groups[space.group]):
            raise reject("{space} cannot change hands: its group has buildings", space=space.id)

    def pass_space(self, d: Draft, giver: str, taker: str, space_id: str) -> list[list[Any]]:
        """The deed changes hands; a mortgaged one costs the taker 10% interest at once."""
        due = super().pass_space(d, giver, taker, space_id)
        space = self.board.by_id[space_id]
        if d.read_space(space_id)["mortgaged"]:
            due.append(["pay", taker, "bank", interest(space.mortgage or 0),
                        m("interest on mortgaged {space}", space=space_id)])
        return due
