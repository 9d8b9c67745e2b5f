"""``addon``: the inner board of US 6,164,650 on top of ``classic`` (RULES.md §2).

Everything of ``classic`` holds; this class adds the second track and its transitions
(elevators, the bridge, the rotating inner board), the tax pool, double trouble, tax refund,
subway, move backwards, triple play, travel cards and the airplane — through the classic
hooks (``route``, ``route_to``, ``throw_move``, ``tax_account``, landers, effects, card uses).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..board import KindRule, Space
from ..core import reject
from ..draft import Draft, Event, State
from ..messages import Message, m, n_
from .classic import ClassicRules, Route

SIDES = ("left", "top", "right", "bottom")  # clockwise: a quarter turn moves each side to the next
TRIPLE_PRIZES = {1: 50, 2: 200, 3: 1000}
OWN_TRIPLE_PRIZE = 1500
HALF_PRIZE_CARD = "half-triple-play"
#: A flight as the table is told it: (by airplane, subway or a card's "space", the board named when it changes).
FLIGHTS = {
    ("airplane", ""): n_("Take the airplane: move {player}'s token to {space} and put the airplane there"),
    ("airplane", "inner"): n_("Take the airplane: move {player}'s token to {space} on the inner board and put the "
                           "airplane there"),
    ("airplane", "outer"): n_("Take the airplane: move {player}'s token to {space} on the outer board and put the "
                           "airplane there"),
    ("subway", ""): n_("Take the subway: move {player}'s token to {space}"),
    ("subway", "inner"): n_("Take the subway: move {player}'s token to {space} on the inner board"),
    ("subway", "outer"): n_("Take the subway: move {player}'s token to {space} on the outer board"),
    ("space", ""): n_("Take the {space_lower}: move {player}'s token to {space}"),
    ("space", "inner"): n_("Take the {space_lower}: move {player}'s token to {space} on the inner board"),
    ("space", "outer"): n_("Take the {space_lower}: move {player}'s token to {space} on the outer board"),
}


class AddonRules(ClassicRules):
    """Classic rules with the inner board."""

    id = "addon"
    kinds = {
        **ClassicRules.kinds,
        "pass": KindRule(),
        "elevator": KindRule(required=("side",)),
        "double-trouble": KindRule(),
        "triple-play": KindRule(),
        "tax-refund": KindRule(),
        "subway": KindRule(),
        "move-backwards": KindRule(),
    }
    deck_names = ClassicRules.deck_names | {"travel", "triple-play"}
    effects = ClassicRules.effects | {"draw", "pay-per-property"}
    option_choices = {
        **ClassicRules.option_choices,
        "transition": ("even_total", "even_step"),
        "double_trouble": ("table", "doubles"),
        "backwards": ("reverse", "rotate"),
        "pool": ("all", "taxes"),
    }
    option_bounds = {**ClassicRules.option_bounds, "refund_percent": (0, 100)}  # a share of the tax pool
    pool_names = ("tax-pool",)
    secret_decks = frozenset({"travel"})

    def __init__(self, board: Any) -> None:
        super().__init__(board)
        b = self.board
        self.elevator_sides = {s.id: s.data["side"] for s in b.spaces if s.kind == "elevator"}
        self.railroad_by_side = {s.data["side"]: s.id for s in b.spaces if s.kind == "railroad" and "side" in s.data}
        missing = {side for side in self.elevator_sides.values()} - set(self.railroad_by_side)
        if missing or set(self.railroad_by_side) != set(SIDES):
            raise ValueError(f"{b.source}: every side needs a railroad with `side` (missing: {sorted(missing)})")
        self.landers.update({
            "pass": self.land_nothing,
            "elevator": self.land_elevator,
            "double-trouble": self.land_double_trouble,
            "triple-play": self.land_triple_play,
            "tax-refund": self.land_tax_refund,
            "subway": self.land_subway,
            "move-backwards": self.land_move_backwards,
        })
        self.card_uses.update({"travel": self.use_travel_card})
        self.all_spaces = [s.id for s in b.spaces]
        self._pairs_cache: dict[tuple[int, tuple[str, ...]], dict[str, str]] = {}

    # ================================================================== set-up
    def check_option(self, name: str, value: Any) -> Any:
        by_id = self.board.by_id
        if name == "airplane" and value and value not in by_id:
            raise reject("option airplane: no space {value}", value=value)
        if name == "bridge" and value:
            outer = self.board.spaces[0].track
            if (not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, str) for v in value)
                    or value[0] not in by_id or value[1] not in by_id
                    or by_id[value[0]].track != outer or by_id[value[1]].track == outer):
                raise reject("option bridge must be [OUTER_SPACE_ID, INNER_SPACE_ID]: a space of the outer board, "
                             "then one of the inner board")
            if set(value) & (set(self.elevator_sides) | set(self.railroad_by_side.values())):
                raise reject("option bridge: an elevator or its railroad is already a transition")
        return value

    def new_player(self, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
        player = super().new_player(name, options)
        player.update(backwards=False, travel_bonus=0)
        return player

    def setup(self, d: Draft, setup: Mapping[str, Any]) -> None:
        s = d.state
        options = s["options"]
        s.update(rotation=0, airplane=options["airplane"] or None, bridge=list(options["bridge"]) or None,
                 bridge_mover=None)
        super().setup(d, setup)
        dealt = set((setup.get("deal") or {}).keys())
        dealt |= {n for n, p in ((setup.get("start") or {}).get("players") or {}).items() if "cards" in p}
        stacked = setup.get("stack") or {}
        for name in d.names():
            if name in dealt:
                continue
            for deck in ("travel", "triple-play"):
                card = next(c for c in d.deck(deck) if c not in stacked.get(deck, ()))
                d.deck(deck).remove(card)
                d.give_card(name, card)
        d.say("say", m("Deal each player one travel card (face down) and one triple play card (face up)"))

    # ================================================================== transitions
    def pairs(self, state: Mapping[str, Any]) -> dict[str, str]:
        """Every transition pair, both ways, for the board's present rotation and bridge."""
        key = (state.get("rotation", 0) % 4, tuple(state.get("bridge") or ()))
        pairs = self._pairs_cache.get(key)
        if pairs is None:
            pairs = {}
            for elevator, side in self.elevator_sides.items():
                railroad = self.railroad_by_side[SIDES[(SIDES.index(side) + key[0]) % 4]]
                pairs[elevator], pairs[railroad] = railroad, elevator
            if key[1]:
                outer, inner = key[1]
                pairs[outer], pairs[inner] = inner, outer
            self._pairs_cache[key] = pairs
        return pairs

    def route(self, d: Draft, name: str, start: str, steps: int, ctx: Mapping[str, Any]) -> Route:
        """Step by step; leaving a transition space switches boards when the rule says so."""
        pairs = self.pairs(d.state)
        even_total = d.state["options"]["transition"] == "even_total"
        total = ctx.get("total", abs(steps))
        sign = 1 if steps > 0 else -1
        here, spaces, switches = start, [], []
        for taken in range(abs(steps)):
            if here in pairs and (total % 2 == 0 if even_total else taken % 2 == 0):
                switches.append((here, pairs[here]))
                here = pairs[here]
            here = self.track_path(here, sign)[0]
            spaces.append(here)
        self.note_bridge_passed(d, name, start, spaces)
        return Route(spaces, switches)

    def note_bridge_passed(self, d: Draft, name: str, start: str, spaces: list[str]) -> None:
        """Option ``bridge_moves``: a move that passes over an end of the bridge lets its player move the bridge."""
        bridge = d.state["bridge"]
        if bridge and d.state["options"]["bridge_moves"] and {start, *spaces[:-1]} & set(bridge):
            d.state["bridge_mover"] = name

    def route_to(self, d: Draft, name: str, start: str, target: str) -> Route:
        """Forward along the track to a space of the same board; straight across to the other board."""
        if self.board.by_id[start].track == self.board.by_id[target].track:
            return super().route_to(d, name, start, target)
        return Route([target], direct=True)

    def move_message(self, name: str, route: Route, forward: bool) -> Message:
        said = super().move_message(name, route, forward)
        if not route.switches or route.direct:
            return said
        ways = [m("take the elevator at {space} to {space_to}" if a in self.elevator_sides or b in self.elevator_sides
                  else "cross the bridge at {space} to {space_to}", space=a, space_to=b) for a, b in route.switches]
        if self.board.by_id[route.spaces[-1]].track == "inner":
            return m("{ways}: {move} on the inner board", ways=ways, move=said)
        return m("{ways}: {move} on the outer board", ways=ways, move=said)

    def nearest(self, d: Draft, name: str, kind: str) -> str:
        """Nearest ahead on the player's board; a railroad from the inner board: the next elevator's pair."""
        here = d.player(name)["space"]
        track = self.board.tracks[self.board.by_id[here].track]
        for sid in self.track_path(here, len(track)):
            if self.board.by_id[sid].kind == kind:
                return sid
        pairs = self.pairs(d.state)
        return next(pairs[sid] for sid in self.track_path(here, len(track)) if sid in self.elevator_sides)

    def throw_move(self, d: Draft, name: str, total: int) -> list[Any]:
        p = d.player(name)
        steps, bonus = total, p["travel_bonus"]
        if bonus:
            steps += bonus
            p["travel_bonus"] = 0
            d.say("say", m("{player}'s travel cards add {signed}: {total} in all", player=name, signed=f"{bonus:+d}",
                           total=steps))
        if p["backwards"]:
            p["backwards"] = False
            d.say("say", m("{player} moves backwards this throw", player=name))
            steps = -steps
        if steps == 0:  # travel cards cancelled the dice (option travel_with_dice): no move, no landing
            return ["stay-put", name]
        return ["move", name, steps, {"dice": total, "total": abs(steps)}]

    def task_stay_put(self, d: Draft, name: str) -> None:
        d.say("say", m("{player} does not move: the token stays on {space}", player=name,
                       space=d.player(name)["space"]), player=name)

    def roll_turn(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        super().roll_turn(d, dice, prompt)
        p = d.player(prompt["player"])
        if p["backwards"] and d.state["doubles"] == 3:
            p["backwards"] = False  # the throw that was to go backwards sent the player to jail: it is used up

    # ================================================================== the tax pool
    def fee_account(self, d: Draft, reason: str) -> str:
        if d.state["options"]["pool"] == "taxes" and reason == "jail-fine":
            return "bank"
        return "tax-pool" if reason in self.tax_reasons else "bank"

    # ================================================================== the inner board's spaces
    def task_land(self, d: Draft, name: str, ctx: Mapping[str, Any]) -> None:
        here = d.player(name)["space"]
        if d.state["airplane"] == here and not ctx.get("flown"):
            # The landing's details (the throw, a card's double rent or 10x the throw) wait in the prompt:
            # a player who stays lands with them.
            d.ask(name, "airplane", m("{player}, fly the airplane to any space? Choose {space} to stay", player=name,
                                      space=here), list(self.all_spaces), space=here, landing=dict(ctx))
            return
        super().task_land(d, name, ctx)

    def answer_airplane(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        if value != prompt["space"]:
            fare = d.state["options"]["airplane_fare"]
            d.say("say", m("{player} boards the airplane", player=name), player=name)
            d.push(*([["pay", name, "bank", fare, m("airplane fare")]] if fare else []),
                   ["fly", name, value, "airplane"])
        else:
            d.push(["land", name, {**prompt.get("landing", {}), "flown": True}])

    def task_fly(self, d: Draft, name: str, target: str, how: str) -> None:
        """Subway or airplane (or a card's direct trip, ``how`` the space it names): straight to the target (no
        salary), then land there."""
        start = d.player(name)["space"]
        d.player(name)["space"] = target
        if how == "airplane":
            d.state["airplane"] = target  # only a flight that happens (its fare paid) moves the airplane
        track = self.board.by_id[target].track
        board = "" if track == self.board.by_id[start].track else \
            "inner" if track == "inner" else "outer"  # the names repeat on both boards
        by = how if how in ("airplane", "subway") else "space"
        d.say("move", m(FLIGHTS[by, board], player=name, space=target, space_lower=how), player=name, to=target,
              steps=0, switches=[])
        d.push(["land", name, {"flown": True}])

    def land_elevator(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["draw", name, "travel"])

    def land_double_trouble(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.ask(name, "roll", m("Double trouble: {player}, roll two dice", player=name), [], purpose="double-trouble",
              dice=2)

    def roll_double_trouble(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name, total = prompt["player"], sum(dice)
        d.say("roll", m("{player} rolls {a} and {b} for double trouble", player=name, a=dice[0], b=dice[1]),
              player=name, dice=dice)
        if d.state["options"]["double_trouble"] == "doubles":
            amount = 200 if dice[0] == dice[1] else 0
        else:
            amount = 200 if total in (2, 12) else 100 if total in (3, 4, 10, 11) else 50
        if not amount:
            d.say("say", m("No doubles: nobody pays"))
            return
        d.push(*(["pay", other, name, amount, m("for double trouble")] for other in d.solvent() if other != name))

    def land_tax_refund(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        card = self.held_card(d, name, "tax-refund")
        if card and d.state["pools"]["tax-pool"]:
            d.ask(name, "use-card", m("{player}, play your tax refund card to take the whole tax pool ({amount})?",
                                      player=name, amount=d.state["pools"]["tax-pool"]), ["yes", "no"], card=card)
        else:
            self.refund(d, name, d.state["options"]["refund_percent"])

    def refund(self, d: Draft, name: str, percent: int) -> None:
        amount = d.state["pools"]["tax-pool"] * percent // 100
        self.transfer(d, "tax-pool", name, amount, m("as a {percent}% tax refund", percent=percent))
        if not amount:
            pool = d.state["pools"]["tax-pool"]
            d.say("say", m("{percent}% of the tax pool's {amount} is {amount_zero}", percent=percent, amount=pool,
                           amount_zero=0) if pool else m("The tax pool is empty"))

    def land_subway(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        fare = d.state["options"]["subway_fare"]
        d.ask(name, "subway", m("{player}, take the subway to any space (fare {amount})", player=name, amount=fare)
              if fare else m("{player}, take the subway to any space", player=name),
              [sid for sid in self.all_spaces if sid != space.id])

    def answer_subway(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, fare = prompt["player"], d.state["options"]["subway_fare"]
        d.push(*([["pay", name, "bank", fare, m("subway fare")]] if fare else []), ["fly", name, value, "subway"])

    def land_move_backwards(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        s = d.state
        if s["options"]["backwards"] == "rotate":
            s["rotation"] = (s["rotation"] + 1) % 4
            pairs = self.pairs(s)
            told = [m("{space} ↔ {space_to}", space=e, space_to=pairs[e]) for e in self.elevator_sides]
            d.say("rotate", m("Turn the inner board a quarter turn clockwise (elevators now: {parts})", parts=told),
                  rotation=s["rotation"])
        else:
            d.player(name)["backwards"] = True
            d.say("say", m("{player}'s next throw moves backwards", player=name))

    # ================================================================== triple play
    def land_triple_play(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["draw", name, "triple-play"], ["ask-triple-roll", name])

    def task_ask_triple_roll(self, d: Draft, name: str) -> None:
        d.ask(name, "roll", m("Triple play: {player}, roll three dice", player=name), [], purpose="triple-play",
              dice=3)

    def roll_triple_play(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        lander = prompt["player"]
        d.say("roll", m("Triple play: {player} rolls {numbers}", player=lander, numbers=", ".join(map(str, dice))),
              player=lander, dice=dice)
        thrown = Counter(dice)
        names = d.names()
        start = names.index(lander)
        prizes: list[tuple[str, str, int]] = []
        for name in names[start:] + names[:start]:
            if d.player(name)["bankrupt"]:
                continue
            won = []
            for card in d.player(name)["cards"]:
                params = self.board.cards[card].params
                if params.get("use") != "triple-play":
                    continue
                matches = sum((thrown & Counter(int(c) for c in params["numbers"])).values())
                prize = TRIPLE_PRIZES.get(matches, 0)
                if matches == 3 and name == lander:
                    prize = OWN_TRIPLE_PRIZE
                if prize:
                    won.append((card, prize))
            if won and d.state["options"]["one_card_each"]:
                won = [max(won, key=lambda w: w[1])]
            prizes += [(name, card, prize) for card, prize in won]
        if not prizes:
            d.say("say", m("No triple play card matches"))
        later = []
        for name, card, prize in prizes:
            self.transfer(d, "bank", name, prize, m("for the card {card}", card=card))  # as printed: Triple play 2-4-5
            later += [["offer-half-prize", holder, name, prize] for holder in d.solvent()
                      if holder != name and self.held_card(d, holder, HALF_PRIZE_CARD)]
        d.push(*later)

    def task_offer_half_prize(self, d: Draft, holder: str, winner: str, prize: int) -> None:
        card = self.held_card(d, holder, HALF_PRIZE_CARD)
        if card and not d.player(winner)["bankrupt"]:
            d.ask(holder, "use-card", m("{player}, play your card to take half of {winner}'s {amount} prize?",
                                        player=holder, winner=winner, amount=prize),
                  ["yes", "no"], card=card, winner=winner, amount=prize // 2)

    def answer_use_card(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, card = prompt["player"], prompt["card"]
        use = self.board.cards[card].params["use"]
        if value == "yes":
            if card not in d.player(name)["cards"]:  # traded away while the question waited
                raise reject("{player} does not hold the card {value}", player=name, value=card)
            d.take_card(name, card)
            self.to_bottom(d, card)
            d.say("say", m("{player} plays {card}", player=name, card=card))
        if use == "tax-refund":
            self.refund(d, name, 100 if value == "yes" else d.state["options"]["refund_percent"])
        elif value == "yes":
            d.push(["pay", prompt["winner"], name, prompt["amount"], m("(half the triple play prize)")])

    def held_card(self, d: Draft, name: str, use: str) -> str | None:
        return next((c for c in d.player(name)["cards"] if self.board.cards[c].params.get("use") == use), None)

    # ================================================================== cards
    def task_draw(self, d: Draft, name: str, deck_name: str) -> None:
        if deck_name not in self.secret_decks:
            super().task_draw(d, name, deck_name)
            return
        card = self.draw(d, deck_name)
        if card is None:
            d.say("say", m("The {pile} deck is empty", pile=deck_name))
            return
        d.give_card(name, card)
        d.say("card", m("{player} takes a {pile} card (kept face down)", player=name, pile=deck_name), player=name,
              deck=deck_name)

    def effect_advance(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        if params.get("direct"):
            d.push(["fly", name, params["to"], params["to"]])  # "Take the <space>: ..."
        else:
            super().effect_advance(d, name, params)

    def effect_collect(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        where = params.get("only_on")
        if where and self.board.by_id[d.player(name)["space"]].track != where:
            d.say("say", m("{player} is not on the inner board: nothing to collect" if where == "inner" else
                           "{player} is not on the outer board: nothing to collect", player=name))
            return
        super().effect_collect(d, name, params)

    def effect_draw(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        d.push(["draw", name, params["from"]])

    def effect_pay_per_property(self, d: Draft, name: str, params: Mapping[str, Any]) -> None:
        count = len(self.owned(d, name))
        d.say("say", m("{player} owns {n} properties", player=name, n=count))
        d.push(["pay", name, self.tax_account(d, "card"), count * params["amount"], m("in property tax")])

    # ================================================================== travel
    def verb_travel(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        cards = act.get("cards")
        if not isinstance(cards, list) or not cards or len(set(map(str, cards))) != len(cards):
            raise reject("travel needs a list of distinct travel cards")
        self.travel(d, name, cards)

    def use_travel_card(self, d: Draft, name: str, card: str) -> None:
        self.travel(d, name, [card])

    def travel(self, d: Draft, name: str, cards: list[Any]) -> None:
        s, p = d.state, d.player(name)
        self.require_prompt(d, "roll", name)
        if s["prompt"].get("purpose") != "turn" or s["doubles"]:
            raise reject("{player} may travel only instead of the first throw of a turn", player=name)
        if p["backwards"]:
            raise reject("{player}'s next throw moves backwards: no travel card may be used for it", player=name)
        params = []
        for card in cards:
            if card not in p["cards"] or self.board.cards[card].params.get("use") != "travel":
                raise reject("{player} does not hold the travel card {value}", player=name, value=card)
            params.append(self.board.cards[card].params)
        special = [c for c, prm in zip(cards, params) if "steps" not in prm]
        if special and len(cards) > 1:
            raise reject("{ident} is played alone", ident=special[0])
        with_dice = s["options"]["travel_with_dice"]
        if with_dice and special:
            raise reject("{ident} cannot be added to a throw", ident=special[0])
        steps = sum(prm.get("steps", 0) for prm in params)
        if not special and steps == 0:
            raise reject("those travel cards cancel out")
        for card in cards:
            d.take_card(name, card)
            self.to_bottom(d, card)
        d.say("say", m("{player} plays {cards}", player=name, cards=list(cards)), player=name, cards=cards)
        if with_dice:
            p["travel_bonus"] += steps
            return
        s["prompt"], s["again"] = None, False
        if special and params[0].get("elevator"):
            d.push(self.elevator_trip(d, name), ["end-roll", name])
        elif special:
            d.push(["advance", name, params[0]["to"], {}], ["end-roll", name])
        else:
            d.push(["move", name, steps, {"total": abs(steps), "travel": True}], ["end-roll", name])

    def elevator_trip(self, d: Draft, name: str) -> list[Any]:
        """The travel elevator card: to the nearest transition space ahead, then across."""
        here = d.player(name)["space"]
        pairs = self.pairs(d.state)
        path = self.track_path(here, len(self.board.tracks[self.board.by_id[here].track]))
        stop = next(sid for sid in path if sid in pairs)
        return ["elevator-trip", name, stop, pairs[stop]]

    def task_elevator_trip(self, d: Draft, name: str, stop: str, across: str) -> None:
        start = d.player(name)["space"]
        route = super().route_to(d, name, start, stop)
        route.spaces.append(across)
        route.switches.append((stop, across))
        self.note_bridge_passed(d, name, start, route.spaces)  # the card's trip may cross the bridge too
        self.walk(d, name, route, True, {})

    def undo_instructions(self, before: State, after: State) -> list[Event]:
        """Classic's, and the airplane and the bridge where the undone input had moved them."""
        events = super().undo_instructions(before, after)
        if after.get("airplane") != before.get("airplane") and after.get("airplane"):
            events.append(self.say_text("say", m("Put the airplane back on {space}", space=after["airplane"]),
                                        undo=True))
        if after.get("bridge") != before.get("bridge") and after.get("bridge"):
            outer, inner = after["bridge"]
            events.append(self.say_text("bridge", m("Put the bridge back between {space} and {space_to}", space=outer,
                                                    space_to=inner), undo=True, bridge=after["bridge"]))
        return events

    # ================================================================== the bridge
    def verb_move_bridge(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        if d.state["bridge_mover"] != name:
            raise reject("{player} may move the bridge only after passing over it (option bridge_moves)", player=name)
        self.move_bridge(d, act)

    def host_move_bridge(self, d: Draft, act: Mapping[str, Any]) -> None:
        self.move_bridge(d, act)

    def move_bridge(self, d: Draft, act: Mapping[str, Any]) -> None:
        if not d.state["bridge"]:
            raise reject("this game has no bridge (option bridge)")
        ends = self.check_option("bridge", [act.get("outer"), act.get("inner")])  # two space ids, or a refusal
        d.state["bridge"], d.state["bridge_mover"] = ends, None
        d.say("bridge", m("Move the bridge to {space} ↔ {space_to}", space=ends[0], space_to=ends[1]), bridge=ends)

    def task_next_turn(self, d: Draft) -> None:
        d.state["bridge_mover"] = None
        super().task_next_turn(d)
