"""``magie-1924``: the landlord's game of US 1,509,312 (RULES.md §4).

The turn: (the jail fine) → improvements and the sign before the throw → throw → move (a
move that reaches Wages stops there) → the space's rule → after doubles, the chance throw
with the cube → the next player. A player owns a space while holding its card; money is
finite (the board pays what it has); the first player to hold the goal in cash wins.
Decisions where the patent is silent are listed in ``companion/boards/magie-1924.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BoardError

from ..board import Board, KindRule, Space
from ..core import MAX_AMOUNT, Throw, refusal, reject, rent_for, whole
from ..draft import Draft, State, Task
from ..messages import Message, m, mp
from .auction import Auctions
from .magie import MagieRules, throw_message
from .trade import TRADE_PAYMENT

BOARD = "board"
CUBE_FACES = (5, 10, 15, 20, 25, 30)
CUBE_EFFECTS = {"go-to-jail": (), "collect": ("amount",), "take-card": (), "take-improvement": (),
                "return-improvement": (), "pay-next": ("amount",)}
TAXES = ("personal-property", "land", "improvements")
LAND_COLOURS = frozenset({"green", "yellow"})  # the land tax
FRANCHISE_COLOURS = frozenset({"red", "orange"})  # the tax on improvements
COLOUR_OF_KIND = {"land": "green", "utility": "orange", "railroad": "red"}


class Magie1924Rules(Auctions, MagieRules):
    """The 1924 landlord's game."""

    id = "magie-1924"
    kinds = {
        "wages": KindRule(),
        "jail": KindRule(),
        "land": KindRule(required=("rent",), rent_length=1, ownable=True),
        "utility": KindRule(required=("group", "rent"), ownable=True, grouped=True),
        "railroad": KindRule(required=("group", "rent"), ownable=True, grouped=True),
        "tax": KindRule(required=("tax", "rate")),
        "real-estate-office": KindRule(),
        "go-to-jail": KindRule(),
        "hotel": KindRule(),
    }
    deck_names = frozenset({"cards"})
    effects = frozenset({"deed", "idle"})
    pool_names = (BOARD,)
    money_source = BOARD
    auction_account = BOARD
    fallback_account = BOARD
    start_player_keys = {"fine_paid": bool}
    whole_options = ("goal", "board_money", "start_cash", "cards_each", "improvements", "improvement_price",
                     "improvement_rent", "side_improvements", "wages", "wages_exact", "jail_fine", "jail_release",
                     "railroad_move", "idle_price", "hotel_fee", "hotel_threshold")
    flag_options = ("unlimited_board",)
    option_bounds = {"jail_release": (2, 12), "goal": (1, MAX_AMOUNT)}  # a throw of two dice; a goal not yet reached
    space_verbs = ("improve", "sign")

    def __init__(self, board: Board) -> None:
        super().__init__(board)
        b = self.board
        self.wages = self.only_space("wages")
        self.check_cards()
        self.cube = self.read_cube()
        for space in b.spaces:
            if space.kind == "tax":
                if space.data["tax"] not in TAXES:
                    raise BoardError(f"{b.source}: {space.id}.tax: one of {', '.join(TAXES)}")
                for key in ("rate", "per"):
                    value = space.data.get(key, 1)
                    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                        raise BoardError(f"{b.source}: {space.id}.{key}: expected a whole number ≥ 1")
            if space.kind in ("utility", "railroad") and len(space.rent) < len(b.groups[space.group or ""]):
                raise BoardError(f"{b.source}: {space.id}.rent needs one rent per {space.group} held")
        self.landers = {
            "land": self.land_land, "utility": self.land_franchise, "railroad": self.land_railroad,
            "tax": self.land_tax, "real-estate-office": self.land_office, "go-to-jail": self.land_go_to_jail,
            "hotel": self.land_hotel, "wages": self.land_nothing, "jail": self.land_nothing,
        }
        self.cube_effects = {
            "go-to-jail": self.cube_jail, "collect": self.cube_collect, "take-card": self.cube_take_card,
            "take-improvement": self.cube_take_improvement, "return-improvement": self.cube_return_improvement,
            "pay-next": self.cube_pay_next,
        }

    def check_cards(self) -> None:
        """One deed per ownable space (same id, the colour of its kind); idle cards say what the board pays."""
        b = self.board
        for card in b.cards.values():
            if card.do == "deed":
                space = b.by_id.get(card.id)
                if space is None or not space.ownable:
                    raise BoardError(f"{b.source}: cards: the deed {card.id!r} needs an ownable space with its id")
                if card.params.get("colour") != COLOUR_OF_KIND[space.kind]:
                    raise BoardError(f"{b.source}: cards: {card.id}.colour: {COLOUR_OF_KIND[space.kind]} for a "
                                     f"{space.kind}")
            else:
                value = card.params.get("sells_for")
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise BoardError(f"{b.source}: cards: {card.id}.sells_for: expected a whole number ≥ 0")
                if card.params.get("colour") != "yellow":
                    raise BoardError(f"{b.source}: cards: {card.id}.colour: yellow for idle land")
        missing = [s.id for s in b.ownable() if s.id not in b.cards]
        if missing:
            raise BoardError(f"{b.source}: cards: no deed for {', '.join(missing)}")

    def read_cube(self) -> dict[int, Mapping[str, Any]]:
        b = self.board
        faces = b.data.get("cube")
        if not isinstance(faces, list):
            raise BoardError(f"{b.source}: cube: expected six [[cube]] tables, faces 5 to 30")
        cube: dict[int, Mapping[str, Any]] = {}
        for i, face in enumerate(faces):
            where = f"{b.source}: cube[{i}]"
            if not isinstance(face, Mapping) or face.get("face") not in CUBE_FACES or face.get("face") in cube:
                raise BoardError(f"{where}.face: one of {CUBE_FACES}, each once")
            if face.get("do") not in CUBE_EFFECTS:
                raise BoardError(f"{where}.do: one of {', '.join(CUBE_EFFECTS)}")
            for key in CUBE_EFFECTS[face["do"]]:
                value = face.get(key)
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise BoardError(f"{where}.{key}: expected a whole number ≥ 0")
            cube[face["face"]] = face
        if len(cube) != len(CUBE_FACES):
            raise BoardError(f"{b.source}: cube: faces {sorted(set(CUBE_FACES) - set(cube))} are missing")
        return cube

    # ================================================================== set-up
    def new_space(self, space_id: str) -> dict[str, Any]:
        if self.board.by_id[space_id].kind == "land":
            return {"owner": None, "improvement": False, "sign": False}
        return {"owner": None}

    def new_bank(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"improvements": options["improvements"]}

    def extra_state(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"auction": None, "office": None}

    def roll_extras(self) -> set[str]:
        return {"cube"}

    def throws(self, prompt: Mapping[str, Any]) -> tuple[Throw, ...]:
        """The throw after doubles adds the chance cube (a roller's third die, face n, reads 5n)."""
        dice = super().throws(prompt)
        return (*dice, Throw("Cube", CUBE_FACES, key="cube")) if prompt.get("with_cube") else dice

    def fund(self, d: Draft) -> None:
        """All the money is the board's; the players' start money comes out of it."""
        self.transfer(d, "bank", BOARD, d.state["options"]["board_money"], m("(all the money in the box)"))
        for name in d.names():
            self.board_pays(d, name, d.state["options"]["start_cash"], m("to start"))

    def opening(self, d: Draft, setup: Mapping[str, Any]) -> list[Task]:
        """The deal (or ``setup.deal``), then each player puts their improvement tag on their land."""
        if setup.get("deal") is not None:
            self.deal_hands(d, setup["deal"])
        else:
            names = d.names()
            for k in range(d.state["options"]["cards_each"] * len(names)):
                card = self.draw(d, "cards")
                if card is None:
                    break
                self.receive_card(d, names[k % len(names)], card)
        for name in d.names():
            cards = d.player(name)["cards"]
            d.say("say", m("{player} is dealt {cards}", player=name, cards=list(cards)) if cards else
                  m("{player} is dealt no card", player=name), player=name)
        return [["place-improvement", name] for name in d.names()]

    def resume_opening(self, d: Draft, setup: Mapping[str, Any]) -> list[Task]:
        if setup.get("deal") is not None:
            self.deal_hands(d, setup["deal"])
        return []

    def start_space(self, d: Draft, space_id: str, given: Mapping[str, Any]) -> None:
        """``{owner, improvement, sign}``: the owner receives the card of the space."""
        unknown = set(given) - {"owner", "improvement", "sign"}
        if unknown:
            raise reject("setup.start.spaces.{name}: unknown key {key}", name=space_id, key=sorted(unknown)[0])
        owner = given.get("owner")
        if owner is not None and d.read_space(space_id)["owner"] != owner:
            d.player(owner)
            self.take_from_deck(d, space_id)
            self.receive_card(d, owner, space_id)
        land = self.board.by_id[space_id].kind == "land"
        owner = d.read_space(space_id)["owner"]
        for key in ("improvement", "sign"):
            if key not in given:
                continue
            if not land or not isinstance(given[key], bool):
                raise reject("setup.start.spaces.{name}.{option}: true or false, on land only", name=space_id,
                             option=key)
            if given[key] and (key == "sign") and (owner is None or self.sign_of(d, owner)):
                raise reject("setup.start.spaces.{name}: a sign needs an owner, and each has one sign", name=space_id)
            d.space(space_id)[key] = given[key]
            if key == "improvement" and given[key]:
                self.take_tag(d)

    def start_more(self, d: Draft, start: Mapping[str, Any]) -> None:
        if BOARD not in (start.get("pools") or {}) and self.balance(d, BOARD) < 0:
            raise reject("setup.start: the players hold more than the board's {amount}",
                         amount=d.state["options"]["board_money"])

    def take_tag(self, d: Draft) -> None:
        bank = d.state["bank"]
        if bank["improvements"] < 1:
            raise reject("there are no improvement tags left in the box")
        bank["improvements"] -= 1

    # ================================================================== cards
    def card_name(self, card: str) -> str:
        return self.board.cards[card].text

    def is_deed(self, card: str) -> bool:
        return self.board.cards[card].do == "deed"

    def receive_card(self, d: Draft, name: str, card: str) -> None:
        super().receive_card(d, name, card)
        if self.is_deed(card):
            d.space(card)["owner"] = name

    def release_card(self, d: Draft, name: str, card: str) -> None:
        super().release_card(d, name, card)
        if self.is_deed(card):
            rec = d.space(card)
            rec["owner"] = None
            if rec.get("sign"):
                rec["sign"] = False
                d.say("say", m("Take {player}'s no-trespassing sign off {space}", player=name, space=card), space=card)

    def to_board(self, d: Draft, name: str, card: str) -> None:
        """A card goes back to the board, for sale."""
        self.release_card(d, name, card)
        self.to_bottom(d, card)

    def check_trade_space(self, d: Draft, holder: str, space_id: Any) -> None:
        raise reject("in magie-1924 the card is the deed: trade cards, not spaces")

    def colours(self, d: Draft, name: str) -> list[str]:
        return [self.board.cards[c].params["colour"] for c in d.player(name)["cards"]]

    def candidate_acts(self, state: State, name: str) -> list[dict[str, Any]]:
        """At a real estate office: buy one idle land card, or sell one of theirs (and improve or sign before a
        throw)."""
        hand = next(p["cards"] for p in state["players"] if p["name"] == name)
        return [*super().candidate_acts(state, name), {"player": name, "do": "buy-idle", "count": 1},
                *({"player": name, "do": "sell-idle", "cards": [card]} for card in hand if not self.is_deed(card))]

    def idle_cards(self, d: Draft, name: str) -> list[str]:
        return [c for c in d.player(name)["cards"] if not self.is_deed(c)]

    def sign_of(self, d: Draft, name: str) -> str | None:
        return next((sid for sid in self.owned(d, name, "land") if d.read_space(sid)["sign"]), None)

    # ================================================================== the board's money
    def board_pays(self, d: Draft, name: str, amount: int, reason: Message) -> None:
        """The board pays what it has (unless ``unlimited_board``: then the bank tops it up)."""
        have = self.balance(d, BOARD)
        if amount > have:
            if d.state["options"]["unlimited_board"]:
                self.transfer(d, "bank", BOARD, amount - have, m("(the board never runs short)"))
            else:
                d.say("say", m("The board has only {amount}", amount=have))
                amount = have
        self.transfer(d, BOARD, name, amount, reason)

    def transfer(self, d: Draft, src: str, dst: str, amount: int, reason: Message | str = "") -> None:
        """Every payment may make a player reach the goal: the first to hold it wins at once."""
        super().transfer(d, src, dst, amount, reason)
        if reason != TRADE_PAYMENT:  # a trade is judged once both sides are handed over (``settle``)
            self.check_goal(d, dst, src)

    def settle(self, d: Draft, offer: Mapping[str, Any]) -> list[Task]:
        later = super().settle(d, offer)
        self.check_goal(d, offer["from"], offer["with"])
        return later

    def check_goal(self, d: Draft, *names: str) -> None:
        """The first to hold the goal wins, once what they owe is paid (a waiting debt comes first)."""
        s = d.state
        if s["winner"] is not None:
            return
        goal, prompt = s["options"]["goal"], s["prompt"]
        for name in names:
            owing = prompt is not None and prompt["kind"] == "debt" and prompt["player"] == name
            if d.has_player(name) and d.player(name)["cash"] >= goal and not owing:
                self.win(d, name, m("the first to hold {amount}", amount=goal))
                return

    def win(self, d: Draft, name: str, why: Message) -> None:
        super().win(d, name, why)
        d.state["auction"] = None

    # ================================================================== turns
    def task_turn(self, d: Draft, name: str) -> None:
        d.state["office"] = None
        p = d.player(name)
        if p["in_jail"] and not p["fine_paid"]:
            p["fine_paid"] = True
            d.push(["pay", name, BOARD, d.state["options"]["jail_fine"], m("as the jail fine")], ["ask-throw", name])
        else:
            self.task_ask_throw(d, name)

    def task_ask_throw(self, d: Draft, name: str) -> None:
        if d.player(name)["in_jail"]:
            d.ask(name, "roll", m("{player} is in jail: a throw of {total} or more lets them out", player=name,
                                  total=d.state["options"]["jail_release"]), [], purpose="jail", dice=2)
        else:
            d.ask(name, "roll", m("{player}, throw the dice (improve or place your sign first)", player=name), [],
                  purpose="turn", dice=2)

    def throw_of(self, d: Draft, dice: list[int], prompt: Mapping[str, Any], where: str = "") -> tuple[int, bool]:
        if "cube" in prompt:
            raise reject("the chance cube is thrown only with the throw after doubles")
        d.state["dice"] = dice
        double = dice[0] == dice[1]
        d.say("roll", throw_message(prompt["player"], dice, where), player=prompt["player"], dice=dice)
        return dice[0] + dice[1], double

    def roll_turn(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        total, double = self.throw_of(d, dice, prompt)
        d.push(["move", name, total], ["after-throw", name, double])

    def roll_jail(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        total, double = self.throw_of(d, dice, prompt, "jail")
        if total < d.state["options"]["jail_release"]:
            d.say("say", m("{player} stays in jail", player=name))
            d.push(["next-turn"])
            return
        p = d.player(name)
        p["in_jail"], p["fine_paid"] = False, False
        d.say("say", m("{player} leaves jail", player=name))
        d.push(["move", name, total], ["after-throw", name, double])

    def task_after_throw(self, d: Draft, name: str, double: bool) -> None:
        p = d.player(name)
        if double and not p["in_jail"] and not p["bankrupt"]:
            d.ask(name, "roll", m("Doubles: {player}, throw the dice and the chance cube", player=name), [],
                  purpose="chance", dice=2, with_cube=True)
        else:
            d.push(["next-turn"])

    def roll_chance(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name, face = prompt["player"], prompt.get("cube")
        if isinstance(face, bool) or not isinstance(face, int) or face not in CUBE_FACES:
            raise reject('this throw needs the chance cube: "cube" is one of {known}',
                         known=", ".join(map(str, CUBE_FACES)))
        d.state["dice"] = dice
        d.say("roll", m("{player} throws {a} and {b} and the cube shows {n}", player=name, a=dice[0], b=dice[1],
                        n=face), player=name, dice=dice, cube=face)
        d.push(["move", name, dice[0] + dice[1]], ["cube", name, face], ["next-turn"])

    def jailed(self, d: Draft, name: str) -> None:
        d.player(name)["fine_paid"] = False

    # ================================================================== movement
    def task_move(self, d: Draft, name: str, steps: int) -> None:
        """Move by ``steps`` (negative: backwards); a move that reaches Wages stops there and earns the wages."""
        path = self.steps_from(d.player(name)["space"], steps)
        if self.wages in path:
            reached = path.index(self.wages) + 1
            exact = reached == len(path)
            path = path[:reached]
            self.place(d, name, path, steps > 0, "" if exact else "wages")
            d.player(name)["laps"] += 1
            options = d.state["options"]
            self.board_pays(d, name, options["wages_exact" if exact else "wages"],
                            m("wages by the exact count") if exact else m("wages"))
        else:
            self.place(d, name, path, steps > 0)
        d.push(["land", name, {}])

    # ================================================================== landing
    def land_go_to_jail(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.say("say", m("{space}: {player} is trespassing", space=space.id, player=name))
        d.push(["go-to-jail", name])

    def land_land(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        rec = d.read_space(space.id)
        owner = rec["owner"]
        if owner is None:
            d.push(["auction", space.id])
        elif owner == name:
            self.board_pays(d, name, self.land_rent(d, space), m("rent for {space} (their own land)", space=space.id))
        elif rec["sign"]:
            d.say("say", m("No trespassing on {space}: {player} goes to jail", space=space.id, player=name))
            d.push(["go-to-jail", name])
        else:
            d.push(["pay", name, owner, self.land_rent(d, space), rent_for(space.id)])

    def land_rent(self, d: Draft, space: Space) -> int:
        """Land rent (doubled when its side has enough improvements) + the improvement's rent."""
        options = d.state["options"]
        side = space.index // 10
        improved = sum(1 for s in self.board.spaces if s.kind == "land" and s.index // 10 == side
                       and d.read_space(s.id)["improvement"])
        rent = space.rent[0] * (2 if improved >= options["side_improvements"] else 1)
        return rent + options["improvement_rent"] * int(d.read_space(space.id)["improvement"])

    def land_franchise(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        """A utility or a railroad: the holder's fare, or the board pays the holder; for sale: an auction."""
        owner = d.read_space(space.id)["owner"]
        if owner is None:
            d.push(["auction", space.id])
            return
        held = sum(1 for sid in self.board.groups[space.group or ""] if d.read_space(sid)["owner"] == owner)
        fare = space.rent[held - 1]
        if owner == name:
            self.board_pays(d, name, fare, m("for {space} (their own)", space=space.id))
        else:
            d.push(["pay", name, owner, fare, m("for {space}", space=space.id)])

    def land_railroad(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["fare", name, space.id], ["railroad-move", name])

    def task_fare(self, d: Draft, name: str, space_id: str) -> None:
        self.land_franchise(d, name, self.board.by_id[space_id], {})

    def task_railroad_move(self, d: Draft, name: str) -> None:
        """After the fare: move to any space up to ``railroad_move`` away, forward or backward, or stay."""
        here, reach = d.player(name)["space"], d.state["options"]["railroad_move"]
        ahead, behind = self.steps_from(here, reach), self.steps_from(here, -reach)
        d.ask(name, "railroad-move", m("{player} may move up to {n} spaces forward or backward: where to?",
                                       player=name, n=reach),
              ["stay", *ahead, *behind], ahead=ahead, behind=behind)

    def answer_railroad_move(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        if value == "stay":
            return
        steps = prompt["ahead"].index(value) + 1 if value in prompt["ahead"] else -(prompt["behind"].index(value) + 1)
        d.push(["move", prompt["player"], steps])

    def land_tax(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        kind, rate = space.data["tax"], space.data["rate"]
        if kind == "personal-property":
            per = space.data.get("per", 100)
            base = d.player(name)["cash"] // per
            said = m("{space}: {player} has {n} full {amount} of cash, {rate} each", amount=per)
        elif kind == "land":
            base = sum(1 for c in self.colours(d, name) if c in LAND_COLOURS)
            said = m("{space}: {player} has {n} land cards, {rate} each")
        else:
            tags = sum(1 for sid in self.owned(d, name, "land") if d.read_space(sid)["improvement"])
            base = tags + sum(1 for c in self.colours(d, name) if c in FRANCHISE_COLOURS)
            said = m("{space}: {player} has {n} improvements, railroad and utility cards, {rate} each")
        said["args"].update(space=space.id, player=name, n=base, rate=rate)
        d.say("say", said)
        d.push(["pay", name, BOARD, base * rate, m("for the {space_lower}", space_lower=space.id)])

    def land_hotel(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        options = d.state["options"]
        if d.player(name)["cash"] >= options["hotel_threshold"]:
            d.push(["pay", name, BOARD, options["hotel_fee"], m("at {space}", space=space.id)])
        else:
            d.ask(name, "roll", m("{space} takes only guests with {amount}: {player}, throw again and move back",
                                  space=space.id, amount=options["hotel_threshold"], player=name), [],
                  purpose="hotel", dice=2)

    def roll_hotel(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        total, _ = self.throw_of(d, dice, prompt)
        d.push(["move", prompt["player"], -total])

    # ================================================================== real estate offices
    def land_office(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        if not self.office_business(d, name):
            d.say("say", m("{space}: {player} has no business here", space=space.id, player=name))
            return
        self.ask_office(d, name, space.id)

    def office_business(self, d: Draft, name: str) -> bool:
        done = d.state["office"]
        can_sell = done != "bought" and bool(self.idle_cards(d, name))
        can_buy = (done != "sold" and d.player(name)["cash"] >= d.state["options"]["idle_price"]
                   and any(not self.is_deed(c) for c in d.state["decks"]["cards"]))
        return can_sell or can_buy

    def ask_office(self, d: Draft, name: str, space_id: str) -> None:
        price = d.state["options"]["idle_price"]
        d.ask(name, "real-estate-office", m("Real estate office: {player} may sell idle land to the board (sell-idle) "
                                            "or buy it for {price} each, drawn blind (buy-idle), not both",
                                            player=name, price=price), ["done"],
              space=space_id)

    def answer_real_estate_office(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        pass

    def verb_sell_idle(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        """At a real estate office: sell idle land cards to the board (it pays what it has)."""
        prompt = self.require_prompt(d, "real-estate-office", name)
        if d.state["office"] == "bought":
            raise reject("{player} bought idle land this turn and cannot sell too", player=name)
        cards = act.get("cards")
        if not isinstance(cards, list) or not cards or len(set(map(str, cards))) != len(cards):
            raise reject("sell-idle needs cards: a list of idle land cards")
        for card in cards:
            if card not in d.player(name)["cards"] or self.is_deed(card):
                raise reject("{player} holds no idle land card {value}", player=name, value=card)
        for card in cards:
            self.to_board(d, name, card)
            d.say("say", m("{player} sells {card} to the board", player=name, card=card), player=name, card=card)
            self.board_pays(d, name, self.board.cards[card].params["sells_for"], m("for {card}", card=card))
        d.state["office"] = "sold"
        self.ask_office(d, name, prompt["space"])

    def verb_buy_idle(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        """At a real estate office: buy idle land cards from the board, drawn blind."""
        prompt = self.require_prompt(d, "real-estate-office", name)
        if d.state["office"] == "sold":
            raise reject("{player} sold idle land this turn and cannot buy too", player=name)
        count = whole(act.get("count", 1), m("the number of cards"), minimum=1)
        price = d.state["options"]["idle_price"]
        left = [c for c in d.state["decks"]["cards"] if not self.is_deed(c)]
        if count > len(left):
            raise refusal(mp("the board has {count} idle land card", "the board has {count} idle land cards",
                             len(left)))
        if d.player(name)["cash"] < count * price:
            raise reject("{player} has {cash}: {n} cost {amount}", player=name, cash=d.player(name)["cash"], n=count,
                         amount=count * price)
        deck = d.deck("cards")
        d.barrier = True
        for card in left[:count]:
            deck.remove(card)
            self.transfer(d, name, BOARD, price, m("for idle land"))
            self.receive_card(d, name, card)
            d.say("card", m("{player} draws {card}", player=name, card=card), player=name, card=card)
        d.state["office"] = "bought"
        self.ask_office(d, name, prompt["space"])

    # ================================================================== auctions
    def task_auction(self, d: Draft, space_id: str) -> None:
        d.say("say", m("{space} is for sale: every player may bid", space=space_id))
        self.open_auction(d, {"space": space_id}, d.solvent(), minimum=1)

    def unsold_text(self) -> Message:
        return m("stays for sale")

    def task_award(self, d: Draft, name: str, lot: Mapping[str, Any]) -> None:
        self.take_from_deck(d, lot["space"])
        self.receive_card(d, name, lot["space"])
        d.say("deed", m("Give {player} the card of {space}", player=name, space=lot["space"]), player=name,
              space=lot["space"])

    # ================================================================== improvements and signs
    def task_place_improvement(self, d: Draft, name: str) -> None:
        """A tag from the box on one of the player's unimproved land spaces (none: it stays in the box)."""
        spaces = self.improvable(d, name)
        if d.state["bank"]["improvements"] < 1 or not spaces:
            d.say("say", m("{player} has no land to improve", player=name) if not spaces else
                  m("The box has no improvement tag left"))
            return
        d.ask(name, "place-improvement", m("{player}, which land gets the improvement?", player=name), spaces)

    def improvable(self, d: Draft, name: str) -> list[str]:
        return [sid for sid in self.owned(d, name, "land") if not d.read_space(sid)["improvement"]]

    def answer_place_improvement(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        if value not in self.improvable(d, name):  # the options are kept current by ``resume``
            raise reject("{player} cannot put the improvement tag on {space} now", player=name, space=value)
        self.improve(d, name, value)

    def resume(self, d: Draft) -> None:
        """After a voluntary act (a trade of cards): the tag waiting to be placed is offered on the land held now."""
        super().resume(d)
        prompt = d.state["prompt"]
        if not prompt or prompt["kind"] != "place-improvement":
            return
        spaces = self.improvable(d, prompt["player"])
        if not spaces:
            d.state["prompt"] = None
            d.say("say", m("{player} has no land to improve now: the tag stays in the box", player=prompt["player"]))
        elif spaces != prompt["options"]:
            d.state["prompt"] = {**prompt, "options": spaces}

    def improve(self, d: Draft, name: str, space_id: str) -> None:
        self.take_tag(d)
        d.space(space_id)["improvement"] = True
        d.say("build", m("Put {player}'s improvement tag on {space}", player=name, space=space_id), space=space_id)

    def own_land(self, d: Draft, name: str, space_id: Any, why: Message) -> Space:
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        if space is None or space.kind != "land":
            raise reject("{why}: {value} is not a land space", why=why, value=space_id)
        if d.read_space(space.id)["owner"] != name:
            raise reject("{why}: {player} does not hold the card of {space}", why=why, player=name, space=space.id)
        return space

    def before_throw(self, d: Draft, name: str, why: Message) -> None:
        """Reject unless ``name`` is at their own turn's roll prompt (RULES.md: "before throwing")."""
        prompt = d.state["prompt"]
        if not prompt or prompt["kind"] != "roll" or prompt["player"] != name or prompt.get("purpose") not in (
                "turn", "jail"):
            raise refusal(why)

    def verb_improve(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        """Before the throw, in one's own turn: an improvement for ``improvement_price``, one per land space."""
        why = m("{player} cannot improve {ident}", player=name, ident=str(act.get("space")))
        self.before_throw(d, name, m("{why}: improvements are bought in one's own turn, before the throw", why=why))
        space = self.own_land(d, name, act.get("space"), why)
        if d.read_space(space.id)["improvement"]:
            raise reject("{why}: it has an improvement already", why=why)
        price = d.state["options"]["improvement_price"]
        if d.player(name)["cash"] < price:
            raise reject("{why}: an improvement costs {price}", why=why, price=price)
        if d.state["bank"]["improvements"] < 1:
            raise reject("{why}: the box has no improvement tag left", why=why)
        self.transfer(d, name, BOARD, price, m("for an improvement on {space}", space=space.id))
        self.improve(d, name, space.id)

    def verb_sign(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        """In one's own turn, before the throw: put (or move) one's no-trespassing sign on one's own land."""
        why = m("{player} cannot put the sign on {ident}", player=name, ident=str(act.get("space")))
        self.before_throw(d, name, m("{why}: signs are placed in one's own turn, before the throw", why=why))
        space = self.own_land(d, name, act.get("space"), why)
        old = self.sign_of(d, name)
        if old == space.id:
            raise reject("{why}: it is there already", why=why)
        if old is not None:
            d.space(old)["sign"] = False
        d.space(space.id)["sign"] = True
        d.say("build", m("Put {player}'s no-trespassing sign on {space} (from {space_from})", player=name,
                         space=space.id, space_from=old) if old else
              m("Put {player}'s no-trespassing sign on {space}", player=name, space=space.id), space=space.id)

    # ================================================================== the chance cube
    def cube_text(self, face: int) -> str:
        """A face's printed text, from the board file's ``[[cube]]`` (an edition in another language names its
        faces in ``[names.<lang>.cube]``, as it names its cards)."""
        return str(self.cube[face]["text"])

    def task_cube(self, d: Draft, name: str, face: int) -> None:
        entry = self.cube[face]
        d.say("say", m("Chance cube {n}: {face_text}", n=face, face_text=face), player=name, cube=face)
        if not d.player(name)["bankrupt"]:
            self.cube_effects[entry["do"]](d, name, entry)

    def cube_jail(self, d: Draft, name: str, entry: Mapping[str, Any]) -> None:
        d.push(["go-to-jail", name])

    def cube_collect(self, d: Draft, name: str, entry: Mapping[str, Any]) -> None:
        self.board_pays(d, name, entry["amount"], m("(chance)"))

    def cube_take_card(self, d: Draft, name: str, entry: Mapping[str, Any]) -> None:
        card = self.draw(d, "cards")
        if card is None:
            d.say("say", m("No card is left on the board"))
            return
        self.receive_card(d, name, card)
        d.say("card", m("{player} takes {card} from the board", player=name, card=card), player=name, card=card)

    def cube_take_improvement(self, d: Draft, name: str, entry: Mapping[str, Any]) -> None:
        d.push(["place-improvement", name])

    def cube_return_improvement(self, d: Draft, name: str, entry: Mapping[str, Any]) -> None:
        here = d.player(name)["space"]
        ahead = self.steps_from(here, len(self.track))  # the space the player stands on comes last
        improved = [sid for sid in ahead if self.board.by_id[sid].kind == "land"
                    and d.read_space(sid)["owner"] == name and d.read_space(sid)["improvement"]]
        if not improved:
            d.say("say", m("{player} has no improvement to lose", player=name))
            return
        d.space(improved[0])["improvement"] = False
        d.state["bank"]["improvements"] += 1
        d.say("build", m("Take {player}'s improvement off {space}: back to the box", player=name, space=improved[0]),
              space=improved[0])

    def cube_pay_next(self, d: Draft, name: str, entry: Mapping[str, Any]) -> None:
        d.push(["pay", name, self.next_player(d, name), entry["amount"], m("(a judgment)")])

    # ================================================================== debts and leaving the game
    def short_of_cash(self, d: Draft, debtor: str, creditor: str, amount: int, reason: Message | str) -> None:
        if d.player(debtor)["cards"]:
            super().short_of_cash(d, debtor, creditor, amount, reason)
            return
        d.say("say", m("{player} owes {creditor} {amount} {reason}, has {cash} and no card to sell", player=debtor,
                       creditor=creditor, amount=amount, reason=reason, cash=d.player(debtor)["cash"]))
        self.go_out(d, debtor, creditor, reason)

    def debt_options(self, d: Draft, debtor: str) -> list[str]:
        return ["out"]

    def debt_advice(self, d: Draft, debtor: str, short: int) -> Message:
        return m("sell cards to other players (trade) to raise {short}, or go out of the game", short=short)

    def answer_debt(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        self.drop_debt(d)
        self.go_out(d, prompt["player"], prompt["creditor"])

    def go_out(self, d: Draft, name: str, creditor: str, reason: Message | str = "") -> None:
        """Out of the game: cash to the creditor, cards back to the board for sale."""
        s = d.state
        p = d.player(name)
        self.transfer(d, name, creditor, p["cash"], m("(everything left)"))
        for card in list(p["cards"]):
            self.to_board(d, name, card)
        p.update(bankrupt=True, in_jail=False)
        d.say("bankrupt", m("{player} is out of the game: the cards go back to the board", player=name), player=name,
              **({"reason": reason} if reason else {}))  # the payment that could not be made, when no prompt asked
        d.say("hand-over", m("Take {player}'s token off the board", player=name), player=name)
        self.cancel_offers(d, name)
        self.withdraw_bidder(d, name)
        if s["turn"]["player"] == name:
            s["queue"] = [["next-turn"]]
        else:
            s["queue"] = [t for t in s["queue"] if len(t) < 2 or t[1] != name]
        left = d.solvent()
        if len(left) == 1:
            self.win(d, left[0], m("the last player in the game"))
