"""``magie-1904``: the landlord's game of US 748,626 (RULES.md §3).

The turn: throw → move (wages at Mother Earth, a jump on the railroad pass after doubles,
the third stopper one space short) → the space's rule → the next player. Lot tickets at
set-up; bank loans on lots and loans between players; the poorhouse; after the last lap a
debt-free player earns no wages and picks the direction; the count-up ends the game.
Decisions where the patent is silent are listed in ``companion/boards/magie-1904.toml``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BoardError

from ..board import Board, KindRule, Space
from ..core import MAX_AMOUNT, money, names_of, reject, whole
from ..draft import Draft, State, Task
from .magie import MagieRules

TREASURY = "public-treasury"
RAILROAD = "railroad"
MAX_TERMS = 200


#: A player's queued tasks that going to the poorhouse ends: the rest of a move, and what it would have cost.
POORHOUSE_ENDS = frozenset({"move", "offer-pass", "land", "pay", "go-to-jail"})


class Magie1904Rules(MagieRules):
    """The 1904 landlord's game."""

    id = "magie-1904"
    kinds = {
        "mother-earth": KindRule(),
        "lot": KindRule(required=("price", "rent"), rent_length=1, ownable=True),
        "necessity": KindRule(required=("fee",)),
        "franchise": KindRule(required=("fee",), ownable=True),
        "railroad": KindRule(required=("fee",)),
        "luxury": KindRule(),
        "no-trespassing": KindRule(),
        "poorhouse": KindRule(),
        "park": KindRule(),
        "legacy": KindRule(),
        "jail": KindRule(),
    }
    deck_names = frozenset({"lot-tickets"})
    effects = frozenset({"lot-ticket"})
    pool_names = (TREASURY, RAILROAD)
    start_player_keys = {"luxuries": int, "legacies": int, "in_poorhouse": bool, "poorhouse_throws": int}
    start_keys = frozenset({"loans"})
    whole_options = ("start_cash", "start_cash_without_tickets", "tickets_drawn", "laps", "wages", "note",
                     "note_interest", "loan_margin", "jail_fine", "luxury_price", "luxury_value", "legacy")
    flag_options = ("no_lot_tickets",)
    option_bounds = {"note": (1, MAX_AMOUNT), "laps": (1, MAX_AMOUNT)}  # a bank note is worth something; one lap at least

    def __init__(self, board: Board) -> None:
        super().__init__(board)
        b = self.board
        self.mother_earth = self.only_space("mother-earth")
        self.poorhouse = self.only_space("poorhouse")
        if b.options.get("note", 0) < 1:
            raise BoardError(f"{b.source}: options.note: a bank note is worth at least 1")
        for space in b.spaces:
            if "fee" in space.data:
                fee = space.data["fee"]
                if isinstance(fee, bool) or not isinstance(fee, int) or fee < 0:
                    raise BoardError(f"{b.source}: {space.id}.fee: expected a whole number ≥ 0, found {fee!r}")
        for card in b.cards.values():
            if card.id not in b.by_id or b.by_id[card.id].kind != "lot":
                raise BoardError(f"{b.source}: cards: the lot ticket {card.id!r} needs a lot with the same id")
        self.landers = {
            "lot": self.land_lot, "necessity": self.land_necessity, "franchise": self.land_franchise,
            "railroad": self.land_railroad, "luxury": self.land_luxury, "no-trespassing": self.land_no_trespassing,
            "legacy": self.land_legacy, "mother-earth": self.land_nothing, "poorhouse": self.land_nothing,
            "park": self.land_nothing, "jail": self.land_nothing,
        }

    # ================================================================== set-up
    def new_space(self, space_id: str) -> dict[str, Any]:
        return {"owner": None, "mortgaged": False}

    def extra_state(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"loans": [], "loans_made": 0, "scores": None}

    def start_cash(self, options: Mapping[str, Any]) -> int:
        return int(options["start_cash_without_tickets" if options["no_lot_tickets"] else "start_cash"])

    def check_option(self, name: str, value: Any) -> Any:
        if name == "tickets_drawn":
            tickets = sum(1 for card in self.board.cards.values() if card.deck == "lot-tickets")
            if value > tickets:
                raise reject(f"option tickets_drawn must be from 0 to {tickets} (the lot tickets there are), "
                             f"not {value}")
        return value

    def opening(self, d: Draft, setup: Mapping[str, Any]) -> list[Task]:
        """Lot tickets: dealt in turn until ``tickets_drawn`` are out; each holder may buy the lot."""
        self.no_deal(setup)
        options = d.state["options"]
        if options["no_lot_tickets"]:
            return []
        names = d.names()
        drawn: dict[str, list[str]] = {n: [] for n in names}
        for k in range(options["tickets_drawn"]):
            ticket = self.draw(d, "lot-tickets")
            if ticket is None:
                break
            drawn[names[k % len(names)]].append(ticket)
        for name in names:
            lots = [self.board.by_id[t].name for t in drawn[name]]
            d.say("say", f"{name} draws the lot tickets of {names_of(lots) or 'no lot'}", player=name,
                  tickets=drawn[name])
            for ticket in drawn[name]:  # every ticket goes back to the box once its lot is decided
                self.to_bottom(d, ticket)
        return [["offer-lot", name, ticket] for name in names for ticket in drawn[name]]

    def resume_opening(self, d: Draft, setup: Mapping[str, Any]) -> list[Task]:
        self.no_deal(setup)
        return []

    @staticmethod
    def no_deal(setup: Mapping[str, Any]) -> None:
        if setup.get("deal") is not None:
            raise reject("magie-1904 deals no cards (the lot tickets are drawn: use setup.stack)")

    def receive_card(self, d: Draft, name: str, card: str) -> None:
        raise reject(f"{name} cannot hold {card}: in magie-1904 the lot tickets are only drawn at set-up")

    def start_space(self, d: Draft, space_id: str, given: Mapping[str, Any]) -> None:
        if set(given) - {"owner"}:
            raise reject(f"setup.start.spaces.{space_id}: only the owner is given "
                         "(mortgages come with setup.start.loans)")
        super().start_space(d, space_id, given)

    def start_more(self, d: Draft, start: Mapping[str, Any]) -> None:
        """``setup.start.loans``: [{lender, borrower, amount, interest, spaces, terms}] (no money moves)."""
        loans = start.get("loans") or []
        if not isinstance(loans, list):
            raise reject("setup.start.loans must be a list of loans")
        for given in loans:
            if not isinstance(given, Mapping) or set(given) - {"lender", "borrower", "amount", "interest", "spaces",
                                                                "terms"}:
                raise reject("setup.start.loans: a loan has lender, borrower, amount, interest, spaces and terms")
            lender, borrower = given.get("lender", "bank"), given.get("borrower")
            if not isinstance(borrower, str) or not d.has_player(borrower):
                raise reject(f"setup.start.loans: there is no player called {borrower!r}")
            if lender != "bank" and (not isinstance(lender, str) or not d.has_player(lender) or lender == borrower):
                raise reject(f"setup.start.loans: {lender!r} cannot be the lender")
            amount = whole(given.get("amount"), "a loan", minimum=1)
            default = self.note_interest(d, amount) if lender == "bank" else 0
            interest = whole(given.get("interest", default), "interest")
            spaces = self.security(d, borrower, given.get("spaces"), f"setup.start.loans: {borrower}")
            self.record_loan(d, lender, borrower, amount, interest, spaces, self.terms(given.get("terms", "")))

    def task_offer_lot(self, d: Draft, name: str, lot: str) -> None:
        space = self.board.by_id[lot]
        d.ask(name, "buy", f"{name} holds the lot ticket of {space.name}: buy it for {money(space.price or 0)}?",
              ["yes", "no"], space=lot, price=space.price, ticket=True)  # no: the ticket goes back (no auction)

    def answer_buy(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, space = prompt["player"], self.board.by_id[prompt["space"]]
        if value == "no":
            d.say("say", f"{name} does not buy {space.name}: the ticket goes back")
        else:
            self.buy_lot(d, name, space, "answer no")

    def buy_lot(self, d: Draft, name: str, space: Space, otherwise: str) -> None:
        price = space.price or 0
        if d.player(name)["cash"] < price:
            raise reject(f"{name} has {money(d.player(name)['cash'])} and {space.name} costs {money(price)}: "
                         f"borrow first, or {otherwise}")
        self.transfer(d, name, TREASURY, price, f"for {space.name}")
        d.space(space.id)["owner"] = name
        d.say("deed", f"Put {name}'s deed on {space.name}", player=name, space=space.id)

    # ================================================================== turns
    def task_turn(self, d: Draft, name: str) -> None:
        p = d.player(name)
        if p["in_poorhouse"]:
            d.ask(name, "roll", f"{name} is in the poorhouse: throws add up to {self.poorhouse_distance()} "
                  f"({p['poorhouse_throws']} so far)", [], purpose="poorhouse", dice=2)
        elif p["in_jail"]:
            d.ask(name, "roll", f"{name} is in jail: throw doubles or pay {money(d.state['options']['jail_fine'])}",
                  [], purpose="jail", dice=2)
        else:
            d.ask(name, "roll", f"{name}, throw the dice", [], purpose="turn", dice=2)

    def said_throw(self, d: Draft, name: str, dice: list[int], where: str = "") -> tuple[int, bool]:
        d.state["dice"] = dice
        double = dice[0] == dice[1]
        d.say("roll", f"{name} throws {dice[0]} and {dice[1]}{where}" + (" (doubles)" if double else ""),
              player=name, dice=dice)
        return dice[0] + dice[1], double

    def roll_turn(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        total, double = self.said_throw(d, name, dice)
        self.throw(d, name, total, double)

    def throw(self, d: Draft, name: str, total: int, double: bool) -> None:
        """Move by a throw (doubles give the railroad pass); a debt-free player past the last lap picks the way."""
        ctx = {"pass": double, "start": d.player(name)["space"]}
        d.push(["next-turn"])
        if self.picks_direction(d, name):
            d.ask(name, "direction", f"{name}, move {total} forward or backward?", ["forward", "backward"],
                  steps=total, ctx=ctx)
        else:
            d.push(["move", name, total, ctx])

    def answer_direction(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        steps = prompt["steps"] if value == "forward" else -prompt["steps"]
        d.push(["move", prompt["player"], steps, prompt["ctx"]])

    def roll_jail(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        total, double = self.said_throw(d, name, dice, " in jail")
        if double:
            self.release(d, name)
            self.throw(d, name, total, double)
        else:
            d.say("say", f"{name} stays in jail")
            d.push(["next-turn"])

    def release(self, d: Draft, name: str) -> None:
        """Out of jail: the count starts from the space after the jail."""
        d.player(name)["in_jail"] = False
        self.put(d, name, self.steps_from(self.jail, 1)[0], f": {name} leaves jail and counts from here")

    def verb_pay_fine(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        prompt = self.require_prompt(d, "roll", name)
        if prompt.get("purpose") != "jail":
            raise reject(f"{name} is not waiting to throw in jail")
        fine = d.state["options"]["jail_fine"]
        if d.player(name)["cash"] < fine:
            raise reject(f"{name} has {money(d.player(name)['cash'])}: the fine is {money(fine)}")
        self.transfer(d, name, TREASURY, fine, "as the jail fine")
        self.release(d, name)
        d.ask(name, "roll", f"{name}, throw the dice", [], purpose="turn", dice=2)

    def roll_poorhouse(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        total, _ = self.said_throw(d, name, dice, " in the poorhouse")
        p = d.player(name)
        p["poorhouse_throws"] += total
        need = self.poorhouse_distance()
        if p["poorhouse_throws"] < need:
            d.say("say", f"{name} stays in the poorhouse: {p['poorhouse_throws']} of {need}")
            d.push(["next-turn"])
            return
        p["in_poorhouse"], p["poorhouse_throws"] = False, 0
        d.say("say", f"{name}'s throws reach Mother Earth: out of the poorhouse")
        d.push(["move", name, need, {"pass": False, "start": self.poorhouse}], ["next-turn"])

    def poorhouse_distance(self) -> int:
        """Steps from the poorhouse forward to Mother Earth."""
        n = len(self.track)
        return (self.board.by_id[self.mother_earth].index - self.board.by_id[self.poorhouse].index) % n or n

    # ================================================================== movement
    def task_move(self, d: Draft, name: str, steps: int, ctx: Mapping[str, Any]) -> None:
        """Walk a throw: offer the pass at a railroad passed over; stop short of a lot two others stand on.

        Whether a lot is crowded is judged where the move ends: a player with a pass who passes a railroad
        stops there and is offered the jump with the steps left (the lot the throw would have reached
        without the jump is never stopped on, so it cannot cost a step)."""
        ctx = dict(ctx)
        forward = steps > 0
        path = self.steps_from(d.player(name)["space"], steps)
        if ctx.get("pass") and not ctx.get("jumped"):
            stop = next((i + 1 for i, sid in enumerate(path[:-1]) if self.board.by_id[sid].kind == "railroad"), None)
            if stop is not None:
                later = self.go(d, name, path[:stop], forward, ctx)
                if later is not None:
                    d.push(*later, ["offer-pass", name, (len(path) - stop) * (1 if forward else -1), ctx])
                return
        later = self.go(d, name, self.stop_short(d, name, path), forward, ctx)
        if later is not None:
            d.push(*later, ["land", name, ctx])

    def go(self, d: Draft, name: str, path: list[str], forward: bool, ctx: dict[str, Any],
           how: str = "") -> list[Task] | None:
        """Move the token along ``path`` and pay what reaching Mother Earth earns (recorded in ``ctx``).

        Returns the payments that fall due (interest), or None when the last lap ended the game.
        """
        self.place(d, name, path, forward, how)
        later: list[Task] = []
        if forward and self.mother_earth in path:
            later += self.reach_mother_earth(d, name, ctx)
            if all(p["laps"] >= d.state["options"]["laps"] for p in d.state["players"]):
                d.say("say", f"Every player has been round {d.state['options']['laps']} times: the game ends")
                d.push(*later, ["count-up"])
                return None
        return later

    def stop_short(self, d: Draft, name: str, path: list[str]) -> list[str]:
        """A third player may not stop on a lot: one space short (again while that is such a lot too)."""
        while path and self.board.by_id[path[-1]].kind == "lot" and len(self.others_on(d, name, path[-1])) >= 2:
            d.say("say", f"Two players stand on {self.board.by_id[path[-1]].name}: {name} stops one space short")
            path = path[:-1]
        return path

    def others_on(self, d: Draft, name: str, space_id: str) -> list[str]:
        return [p["name"] for p in d.state["players"] if p["name"] != name and p["space"] == space_id]

    def reach_mother_earth(self, d: Draft, name: str, ctx: dict[str, Any]) -> list[Task]:
        """Wages and a lap; the interest of every loan falls due. Past the last lap a debt-free player earns none."""
        p, options = d.player(name), d.state["options"]
        finished = p["laps"] >= options["laps"]
        p["laps"] += 1
        ctx["laps"] = ctx.get("laps", 0) + 1
        loans = self.loans_of(d, name)
        if finished and not loans:
            d.say("say", f"{name} has been round {options['laps']} times and owes nothing: no more wages")
            return []
        self.transfer(d, "bank", name, options["wages"], "wages at Mother Earth")
        ctx["wages"] = ctx.get("wages", 0) + options["wages"]
        due = [[loan["lender"], loan["interest"], loan["id"]] for loan in loans if loan["interest"]]
        ctx["interest"] = [*ctx.get("interest", []), *due]
        return [["pay", name, lender, amount, f"interest on loan {lid}"] for lender, amount, lid in due]

    def task_offer_pass(self, d: Draft, name: str, steps: int, ctx: Mapping[str, Any]) -> None:
        here = d.player(name)["space"]
        there = self.next_railroad(here, steps > 0)[-1]
        d.ask(name, "railroad-pass", f"{name} has a pass: jump to the next railroad (space "
              f"{self.board.by_id[there].index}) and count the last {abs(steps)} from there?", ["yes", "no"],
              steps=steps, ctx=ctx)

    def answer_railroad_pass(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, steps, ctx = prompt["player"], prompt["steps"], dict(prompt["ctx"])
        if value == "yes":
            ctx["jumped"] = True
            later = self.go(d, name, self.next_railroad(d.player(name)["space"], steps > 0), steps > 0, ctx,
                            " on the railroad pass")
            if later is None:
                return
            d.push(*later, ["move", name, steps, ctx])
        else:
            d.push(["move", name, steps, ctx])

    def next_railroad(self, here: str, forward: bool) -> list[str]:
        """The spaces entered from ``here`` to the next railroad in the direction of travel."""
        path = self.steps_from(here, len(self.track) if forward else -len(self.track))
        end = next(i for i, sid in enumerate(path) if self.board.by_id[sid].kind == "railroad")
        return path[:end + 1]

    def picks_direction(self, d: Draft, name: str) -> bool:
        return d.player(name)["laps"] >= d.state["options"]["laps"] and not self.loans_of(d, name)

    # ================================================================== landing
    def land_lot(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        owner, rent = d.read_space(space.id)["owner"], space.rent[0]
        others = self.others_on(d, name, space.id)
        if owner == name:
            d.say("say", f"{name} owns {space.name}: no rent")
        elif owner is None:  # buying stays open to a second stopper; renting pays the one standing there
            renting = f"rent it for {money(rent)}" if not others else \
                f"rent it, paying {others[0]} (who stands there) half the rent, {money(-(-rent // 2))}"
            d.ask(name, "buy-or-rent", f"{space.name}: buy it for {money(space.price or 0)} or {renting}?",
                  ["buy", "rent"], space=space.id, price=space.price, rent=rent)
        elif others:
            self.pay_half_rent(d, name, space, others[0])
        else:
            d.push(["pay", name, owner, rent, f"rent for {space.name}"])

    def pay_half_rent(self, d: Draft, name: str, space: Space, first: str) -> None:
        """The second stopper on a lot pays the player already standing there half the rent, rounded up."""
        half = -(-space.rent[0] // 2)
        d.push(["pay", name, first, half, f"(half the rent of {space.name}: {first} stands there)"])

    def answer_buy_or_rent(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, space = prompt["player"], self.board.by_id[prompt["space"]]
        others = self.others_on(d, name, space.id)
        if value == "buy":
            self.buy_lot(d, name, space, "rent it")
        elif others:
            self.pay_half_rent(d, name, space, others[0])
        else:
            d.push(["pay", name, TREASURY, space.rent[0], f"rent for {space.name}"])

    def land_necessity(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["pay", name, TREASURY, space.data["fee"], f"for {space.name}"])

    def land_railroad(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["pay", name, RAILROAD, space.data["fee"], "railroad fare"])

    def land_franchise(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        holder = d.read_space(space.id)["owner"]
        if holder is None:
            d.space(space.id)["owner"] = name
            d.say("deed", f"Put {name}'s charter on {space.name}", player=name, space=space.id)
        elif holder != name:
            d.push(["pay", name, holder, space.data["fee"], f"for the {space.name}"])

    def land_luxury(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        options = d.state["options"]
        d.ask(name, "luxury", f"{name}: a luxury ticket for {money(options['luxury_price'])} (it counts "
              f"{money(options['luxury_value'])} at the end), or lose the move?", ["yes", "no"], ctx=dict(ctx))

    def answer_luxury(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, price = prompt["player"], d.state["options"]["luxury_price"]
        if value == "yes":
            if d.player(name)["cash"] < price:
                raise reject(f"{name} has {money(d.player(name)['cash'])}: a luxury costs {money(price)}; answer no")
            self.transfer(d, name, TREASURY, price, "for a luxury ticket")
            d.player(name)["luxuries"] += 1
            d.say("say", f"Give {name} a luxury ticket", player=name)
        else:
            self.lose_move(d, name, prompt["ctx"])

    def lose_move(self, d: Draft, name: str, ctx: Mapping[str, Any]) -> None:
        """Back to where the move started; what it earned at Mother Earth is given back."""
        self.put(d, name, ctx["start"], f": {name} declines the luxury and loses the move")
        d.player(name)["laps"] -= ctx.get("laps", 0)
        back: list[Task] = []
        for lender, amount, lid in ctx.get("interest", []):
            if lender == "bank":
                self.transfer(d, "bank", name, amount, f"(the interest on loan {lid} back)")
            else:
                back.append(["pay", lender, name, amount, f"(the interest on loan {lid} back)"])
        back.append(["pay", name, "bank", ctx.get("wages", 0), "(the wages of the lost move back)"])
        d.push(*back)

    def land_no_trespassing(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["go-to-jail", name])

    def land_legacy(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        self.transfer(d, "bank", name, d.state["options"]["legacy"], "a legacy")
        d.player(name)["legacies"] += 1
        d.say("say", f"Give {name} a legacy ticket", player=name)

    def jailed(self, d: Draft, name: str) -> None:
        p = d.player(name)
        p["in_poorhouse"], p["poorhouse_throws"] = False, 0

    # ================================================================== loans
    def candidate_acts(self, state: State, name: str) -> list[dict[str, Any]]:
        """Repay each loan; borrow from the bank: what the debt waiting lacks (else one note), in notes, on the
        fewest free lots that secure it (the dearest first), or as much as all of them secure."""
        acts = [*super().candidate_acts(state, name),
                *({"player": name, "do": "repay", "loan": loan["id"]} for loan in state["loans"]
                  if loan["borrower"] == name)]
        options, prompt = state["options"], state["prompt"] or {}
        note, margin = options["note"], options["loan_margin"]
        cash = next(p["cash"] for p in state["players"] if p["name"] == name)
        short = prompt["amount"] - cash if prompt.get("kind") == "debt" and prompt.get("player") == name else 0
        wanted = max(note, -(-short // note) * note)
        free = sorted((sid for sid, rec in state["spaces"].items() if rec["owner"] == name and not rec["mortgaged"]
                       and self.board.by_id[sid].kind == "lot"), key=lambda sid: -(self.board.by_id[sid].price or 0))
        pledged, value = [], 0
        for sid in free:
            pledged.append(sid)
            value += self.board.by_id[sid].price or 0
            if value >= wanted + margin:
                break
        amount = min(wanted, (value - margin) // note * note)
        if amount >= note:
            acts.append({"player": name, "do": "borrow", "amount": amount, "spaces": pledged})
        return acts

    def loans_of(self, d: Draft, name: str) -> list[dict[str, Any]]:
        """The loans ``name`` owes."""
        return [loan for loan in d.state["loans"] if loan["borrower"] == name]

    def note_interest(self, d: Draft, amount: int) -> int:
        options = d.state["options"]
        return options["note_interest"] * (amount // options["note"])

    def security(self, d: Draft, borrower: str, spaces: Any, why: str) -> list[str]:
        """Check the lots a loan is secured on: the borrower's, not mortgaged yet."""
        if not isinstance(spaces, list) or not spaces or not all(isinstance(s, str) for s in spaces) \
                or len(set(spaces)) != len(spaces):
            raise reject(f"{why}: name the lots to mortgage (spaces: a list of lot ids)")
        for sid in spaces:
            space = self.board.by_id.get(sid)
            if space is None or space.kind != "lot":
                raise reject(f"{why}: {sid!r} is not a lot")
            rec = d.read_space(sid)
            if rec["owner"] != borrower:
                raise reject(f"{why}: {borrower} does not own {space.name}")
            if rec["mortgaged"]:
                raise reject(f"{why}: {space.name} is mortgaged already")
        return list(spaces)

    @staticmethod
    def terms(value: Any) -> str:
        if not isinstance(value, str) or len(value) > MAX_TERMS:
            raise reject(f"the terms of a loan are a text of at most {MAX_TERMS} characters")
        return value

    def verb_borrow(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        options = d.state["options"]
        note = options["note"]
        amount = whole(act.get("amount"), "a bank loan", minimum=note)
        why = f"{name} cannot borrow {money(amount)} from the bank"
        if amount % note:
            raise reject(f"{why}: the bank lends in notes of {money(note)}")
        spaces = self.security(d, name, act.get("spaces"), why)
        value = sum(self.board.by_id[sid].price or 0 for sid in spaces)
        if value < amount + options["loan_margin"]:
            raise reject(f"{why}: the lots pledged are worth {money(value)} and the bank wants "
                         f"{money(amount + options['loan_margin'])}")
        loan = self.record_loan(d, "bank", name, amount, self.note_interest(d, amount), spaces, "")
        self.transfer(d, "bank", name, amount, f"as loan {loan['id']}")

    def verb_loan(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        """Offer a loan to another player: {to, amount, interest (at each of their wages), spaces, terms}."""
        borrower = self.check_offer(d, name, act.get("to"), "lend")
        self.check_spending(d, name, "lend money")
        loan = self.loan_terms(d, name, borrower, act)
        d.state["trade"] = {"from": name, "with": borrower, "loan": loan}
        terms = f" (terms: {loan['terms']})" if loan["terms"] else ""  # agreed, recorded by both (RULES.md)
        d.say("trade", f"{name} offers {borrower} a loan of {money(loan['amount'])} at {money(loan['interest'])} "
              f"each wages, on {names_of([self.board.by_id[s].name for s in loan['spaces']])}{terms}. {borrower}, "
              f"accept or reject", player=name, other=borrower)

    def loan_terms(self, d: Draft, lender: str, borrower: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        amount = whole(raw.get("amount"), "a loan", minimum=1)
        if amount > d.player(lender)["cash"]:
            raise reject(f"{lender} has only {money(d.player(lender)['cash'])}")
        return {"amount": amount, "interest": whole(raw.get("interest", 0), "interest"),
                "spaces": self.security(d, borrower, raw.get("spaces"), f"{borrower} cannot borrow"),
                "terms": self.terms(raw.get("terms", ""))}

    def cash_given(self, offer: Mapping[str, Any]) -> str | None:
        return "lend money" if "loan" in offer else super().cash_given(offer)

    def recheck_offer(self, d: Draft, offer: Mapping[str, Any]) -> None:
        if "loan" not in offer:
            super().recheck_offer(d, offer)
            return
        self.loan_terms(d, offer["from"], offer["with"], offer["loan"])

    def settle(self, d: Draft, offer: Mapping[str, Any]) -> list[Task]:
        if "loan" not in offer:
            return super().settle(d, offer)
        lender, borrower = offer["from"], offer["with"]
        terms = self.loan_terms(d, lender, borrower, offer["loan"])
        loan = self.record_loan(d, lender, borrower, terms["amount"], terms["interest"], terms["spaces"],
                                terms["terms"])
        self.transfer(d, lender, borrower, terms["amount"], f"as loan {loan['id']}")
        return []

    def record_loan(self, d: Draft, lender: str, borrower: str, amount: int, interest: int, spaces: list[str],
                    terms: str) -> dict[str, Any]:
        s = d.state
        s["loans_made"] += 1
        loan = {"id": s["loans_made"], "lender": lender, "borrower": borrower, "amount": amount,
                "interest": interest, "spaces": spaces, "terms": terms}
        s["loans"] = [*s["loans"], loan]
        for sid in spaces:
            d.space(sid)["mortgaged"] = True
        lots = names_of([self.board.by_id[x].name for x in spaces])
        d.say("deed", f"Put {self.account_name(lender)}'s mortgage on {lots} (loan {loan['id']}: {borrower} owes "
              f"{money(amount)})", loan=loan["id"])
        return loan

    def verb_repay(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.check_spending(d, name, "repay a loan")
        lid = act.get("loan")
        loan = next((x for x in self.loans_of(d, name) if x["id"] == lid), None)
        if loan is None:
            owed = ", ".join(str(x["id"]) for x in self.loans_of(d, name)) or "none"
            raise reject(f"{name} owes no loan {lid!r} (loans: {owed})")
        if d.player(name)["cash"] < loan["amount"]:
            raise reject(f"{name} has {money(d.player(name)['cash'])}: loan {lid} is {money(loan['amount'])}")
        d.state["loans"] = [x for x in d.state["loans"] if x["id"] != lid]
        self.transfer(d, name, loan["lender"], loan["amount"], f"to repay loan {lid}")
        for sid in loan["spaces"]:
            d.space(sid)["mortgaged"] = False
        d.say("deed", f"Take the mortgage off {names_of([self.board.by_id[x].name for x in loan['spaces']])}", loan=lid)

    def check_trade_space(self, d: Draft, holder: str, space_id: Any) -> None:
        super().check_trade_space(d, holder, space_id)
        space = self.board.by_id[space_id]
        if space.kind != "lot":
            raise reject(f"{holder} cannot trade {space.name}: a charter stays with its holder")
        if d.read_space(space_id)["mortgaged"]:
            raise reject(f"{holder} cannot trade {space.name}: it is mortgaged (repay the loan first)")

    # ================================================================== debts and the poorhouse
    def can_borrow(self, d: Draft, name: str) -> bool:
        """Whether the bank would still lend a note on the player's free lots."""
        options = d.state["options"]
        free = sum(self.board.by_id[sid].price or 0 for sid in self.owned(d, name, "lot")
                   if not d.read_space(sid)["mortgaged"])
        return free >= options["note"] + options["loan_margin"]

    def short_of_cash(self, d: Draft, debtor: str, creditor: str, amount: int, reason: str) -> None:
        if d.player(debtor)["in_poorhouse"]:
            d.say("say", f"{debtor} is in the poorhouse and pays nothing")
        elif not any(not d.read_space(sid)["mortgaged"] for sid in self.owned(d, debtor, "lot")):
            d.say("say", f"{debtor} owes {self.account_name(creditor)} {money(amount)} {reason}, has "
                  f"{money(d.player(debtor)['cash'])} and no lot left to borrow on")
            self.to_poorhouse(d, debtor)
        else:
            super().short_of_cash(d, debtor, creditor, amount, reason)

    def debt_options(self, d: Draft, debtor: str) -> list[str]:
        return [] if self.can_borrow(d, debtor) else ["poorhouse"]

    def debt_advice(self, d: Draft, debtor: str, short: int) -> str:
        if self.can_borrow(d, debtor):
            return f"borrow on lots (from the bank or a player) or trade to raise {money(short)}"
        return f"borrow from a player or trade to raise {money(short)}, or go to the poorhouse"

    def answer_debt(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        self.drop_debt(d)
        self.to_poorhouse(d, prompt["player"])

    def to_poorhouse(self, d: Draft, name: str) -> None:
        """The payment is forgotten; the player keeps their cash and pays nothing while there. A move under way
        ends there (interest falls due at Mother Earth, mid-move): its railroad pass, its steps left, its landing
        and its other payments are dropped."""
        p = d.player(name)
        p["in_poorhouse"], p["poorhouse_throws"], p["in_jail"] = True, 0, False
        s = d.state
        s["queue"] = [task for task in s["queue"] if not (task[0] in POORHOUSE_ENDS and task[1] == name)]
        self.put(d, name, self.poorhouse, f": {name} goes to the poorhouse and pays nothing")

    # ================================================================== the end
    def task_count_up(self, d: Draft) -> None:
        """Lots at sale value + cash + luxuries − loans owed + loans made; the highest score wins."""
        s = d.state
        value = s["options"]["luxury_value"]
        scores = {}
        for p in s["players"]:
            name = p["name"]
            lots = sum(self.board.by_id[sid].price or 0 for sid in self.owned(d, name, "lot"))
            owed = sum(x["amount"] for x in s["loans"] if x["borrower"] == name)
            lent = sum(x["amount"] for x in s["loans"] if x["lender"] == name)
            scores[name] = lots + p["cash"] + value * p["luxuries"] - owed + lent
            d.say("say", f"{name}: lots {money(lots)} + cash {money(p['cash'])} + {p['luxuries']} luxuries "
                  f"{money(value * p['luxuries'])} − owed {money(owed)} + lent {money(lent)} = {money(scores[name])}")
        s["scores"] = scores
        best = max(scores.values())
        self.win(d, next(n for n in scores if scores[n] == best), f"the highest score, {money(best)}")
