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
from ..core import MAX_AMOUNT, reject, rent_for, whole
from ..draft import Draft, State, Task
from ..messages import Message, m
from .magie import MagieRules, throw_message

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
                raise reject("option tickets_drawn must be from 0 to {count} (the lot tickets there are), not {n}",
                             count=tickets, n=value)
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
            d.say("say", m("{player} draws the lot tickets of {spaces}", player=name, spaces=drawn[name])
                  if drawn[name] else m("{player} draws the lot tickets of no lot", player=name), player=name,
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
        raise reject("{player} cannot hold {ident}: in magie-1904 the lot tickets are only drawn at set-up",
                     player=name, ident=card)

    def start_space(self, d: Draft, space_id: str, given: Mapping[str, Any]) -> None:
        if set(given) - {"owner"}:
            raise reject("setup.start.spaces.{name}: only the owner is given (mortgages come with setup.start.loans)",
                         name=space_id)
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
                raise reject("setup.start.loans: there is no player called {value}", value=borrower)
            if lender != "bank" and (not isinstance(lender, str) or not d.has_player(lender) or lender == borrower):
                raise reject("setup.start.loans: {value} cannot be the lender", value=lender)
            amount = whole(given.get("amount"), m("a loan"), minimum=1)
            default = self.note_interest(d, amount) if lender == "bank" else 0
            interest = whole(given.get("interest", default), m("interest"))
            spaces = self.security(d, borrower, given.get("spaces"), m("setup.start.loans: {player}", player=borrower))
            self.record_loan(d, lender, borrower, amount, interest, spaces, self.terms(given.get("terms", "")))

    def task_offer_lot(self, d: Draft, name: str, lot: str) -> None:
        space = self.board.by_id[lot]
        d.ask(name, "buy", m("{player} holds the lot ticket of {space}: buy it for {price}?", player=name, space=lot,
                             price=space.price or 0),
              ["yes", "no"], space=lot, price=space.price, ticket=True)  # no: the ticket goes back (no auction)

    def answer_buy(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, space = prompt["player"], self.board.by_id[prompt["space"]]
        if value == "no":
            d.say("say", m("{player} does not buy {space}: the ticket goes back", player=name, space=space.id))
        else:
            self.buy_lot(d, name, space, m("answer no"))

    def buy_lot(self, d: Draft, name: str, space: Space, otherwise: Message) -> None:
        price = space.price or 0
        if d.player(name)["cash"] < price:
            raise reject("{player} has {cash} and {space} costs {price}: borrow first, or {then}", player=name,
                         cash=d.player(name)["cash"], space=space.id, price=price, then=otherwise)
        self.transfer(d, name, TREASURY, price, m("for {space}", space=space.id))
        d.space(space.id)["owner"] = name
        d.say("deed", m("Put {player}'s deed on {space}", player=name, space=space.id), player=name, space=space.id)

    # ================================================================== turns
    def task_turn(self, d: Draft, name: str) -> None:
        p = d.player(name)
        if p["in_poorhouse"]:
            d.ask(name, "roll", m("{player} is in the poorhouse: throws add up to {total} ({n} so far)", player=name,
                                  total=self.poorhouse_distance(), n=p["poorhouse_throws"]), [],
                  purpose="poorhouse", dice=2)
        elif p["in_jail"]:
            d.ask(name, "roll", m("{player} is in jail: throw doubles or pay {fine}", player=name,
                                  fine=d.state["options"]["jail_fine"]), [], purpose="jail", dice=2)
        else:
            d.ask(name, "roll", m("{player}, throw the dice", player=name), [], purpose="turn", dice=2)

    def said_throw(self, d: Draft, name: str, dice: list[int], where: str = "") -> tuple[int, bool]:
        """Tell a throw (``where``: "", "jail" or "poorhouse")."""
        d.state["dice"] = dice
        double = dice[0] == dice[1]
        d.say("roll", throw_message(name, dice, where), player=name, dice=dice)
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
            d.ask(name, "direction", m("{player}, move {total} forward or backward?", player=name, total=total),
                  ["forward", "backward"],
                  steps=total, ctx=ctx)
        else:
            d.push(["move", name, total, ctx])

    def answer_direction(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        steps = prompt["steps"] if value == "forward" else -prompt["steps"]
        d.push(["move", prompt["player"], steps, prompt["ctx"]])

    def roll_jail(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        total, double = self.said_throw(d, name, dice, "jail")
        if double:
            self.release(d, name)
            self.throw(d, name, total, double)
        else:
            d.say("say", m("{player} stays in jail", player=name))
            d.push(["next-turn"])

    def release(self, d: Draft, name: str) -> None:
        """Out of jail: the count starts from the space after the jail."""
        d.player(name)["in_jail"] = False
        there = self.steps_from(self.jail, 1)[0]
        self.put(d, name, there, m("Move {player}'s token to {space}: {player} leaves jail and counts from here",
                                   player=name, space=there))

    def verb_pay_fine(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        prompt = self.require_prompt(d, "roll", name)
        if prompt.get("purpose") != "jail":
            raise reject("{player} is not waiting to throw in jail", player=name)
        fine = d.state["options"]["jail_fine"]
        if d.player(name)["cash"] < fine:
            raise reject("{player} has {cash}: the fine is {fine}", player=name, cash=d.player(name)["cash"], fine=fine)
        self.transfer(d, name, TREASURY, fine, m("as the jail fine"))
        self.release(d, name)
        d.ask(name, "roll", m("{player}, throw the dice", player=name), [], purpose="turn", dice=2)

    def roll_poorhouse(self, d: Draft, dice: list[int], prompt: Mapping[str, Any]) -> None:
        name = prompt["player"]
        total, _ = self.said_throw(d, name, dice, "poorhouse")
        p = d.player(name)
        p["poorhouse_throws"] += total
        need = self.poorhouse_distance()
        if p["poorhouse_throws"] < need:
            d.say("say", m("{player} stays in the poorhouse: {n} of {total}", player=name, n=p["poorhouse_throws"],
                           total=need))
            d.push(["next-turn"])
            return
        p["in_poorhouse"], p["poorhouse_throws"] = False, 0
        d.say("say", m("{player}'s throws reach Mother Earth: out of the poorhouse", player=name))
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
                d.say("say", m("Every player has been round {n} times: the game ends", n=d.state["options"]["laps"]))
                d.push(*later, ["count-up"])
                return None
        return later

    def stop_short(self, d: Draft, name: str, path: list[str]) -> list[str]:
        """A third player may not stop on a lot: one space short (again while that is such a lot too)."""
        while path and self.board.by_id[path[-1]].kind == "lot" and len(self.others_on(d, name, path[-1])) >= 2:
            d.say("say", m("Two players stand on {space}: {player} stops one space short", space=path[-1],
                           player=name))
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
            d.say("say", m("{player} has been round {n} times and owes nothing: no more wages", player=name,
                           n=options["laps"]))
            return []
        self.transfer(d, "bank", name, options["wages"], m("wages at Mother Earth"))
        ctx["wages"] = ctx.get("wages", 0) + options["wages"]
        due = [[loan["lender"], loan["interest"], loan["id"]] for loan in loans if loan["interest"]]
        ctx["interest"] = [*ctx.get("interest", []), *due]
        return [["pay", name, lender, amount, m("interest on loan {loan}", loan=lid)] for lender, amount, lid in due]

    def task_offer_pass(self, d: Draft, name: str, steps: int, ctx: Mapping[str, Any]) -> None:
        here = d.player(name)["space"]
        there = self.next_railroad(here, steps > 0)[-1]
        d.ask(name, "railroad-pass", m("{player} has a pass: jump to the next railroad (space {number}) and count the "
                                       "last {n} from there?", player=name, number=self.board.by_id[there].index,
                                       n=abs(steps)), ["yes", "no"],
              steps=steps, ctx=ctx)

    def answer_railroad_pass(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, steps, ctx = prompt["player"], prompt["steps"], dict(prompt["ctx"])
        if value == "yes":
            ctx["jumped"] = True
            later = self.go(d, name, self.next_railroad(d.player(name)["space"], steps > 0), steps > 0, ctx, "pass")
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
            d.say("say", m("{player} owns {space}: no rent", player=name, space=space.id))
        elif owner is None:  # buying stays open to a second stopper; renting pays the one standing there
            d.ask(name, "buy-or-rent", m("{space}: buy it for {price} or rent it for {rent}?", space=space.id,
                                         price=space.price or 0, rent=rent) if not others else
                  m("{space}: buy it for {price} or rent it, paying {other} (who stands there) half the rent, "
                    "{amount}?", space=space.id, price=space.price or 0, other=others[0], amount=-(-rent // 2)),
                  ["buy", "rent"], space=space.id, price=space.price, rent=rent)
        elif others:
            self.pay_half_rent(d, name, space, others[0])
        else:
            d.push(["pay", name, owner, rent, rent_for(space.id)])

    def pay_half_rent(self, d: Draft, name: str, space: Space, first: str) -> None:
        """The second stopper on a lot pays the player already standing there half the rent, rounded up."""
        half = -(-space.rent[0] // 2)
        d.push(["pay", name, first, half, m("(half the rent of {space}: {other} stands there)", space=space.id,
                                            other=first)])

    def answer_buy_or_rent(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, space = prompt["player"], self.board.by_id[prompt["space"]]
        others = self.others_on(d, name, space.id)
        if value == "buy":
            self.buy_lot(d, name, space, m("rent it"))
        elif others:
            self.pay_half_rent(d, name, space, others[0])
        else:
            d.push(["pay", name, TREASURY, space.rent[0], rent_for(space.id)])

    def land_necessity(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["pay", name, TREASURY, space.data["fee"], m("for {space}", space=space.id)])

    def land_railroad(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["pay", name, RAILROAD, space.data["fee"], m("railroad fare")])

    def land_franchise(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        holder = d.read_space(space.id)["owner"]
        if holder is None:
            d.space(space.id)["owner"] = name
            d.say("deed", m("Put {player}'s charter on {space}", player=name, space=space.id), player=name,
                  space=space.id)
        elif holder != name:
            d.push(["pay", name, holder, space.data["fee"], m("for the {space}", space=space.id)])

    def land_luxury(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        options = d.state["options"]
        d.ask(name, "luxury", m("{player}: a luxury ticket for {price} (it counts {worth} at the end), or lose the "
                                "move?", player=name, price=options["luxury_price"], worth=options["luxury_value"]),
              ["yes", "no"], ctx=dict(ctx))

    def answer_luxury(self, d: Draft, value: str, prompt: Mapping[str, Any]) -> None:
        name, price = prompt["player"], d.state["options"]["luxury_price"]
        if value == "yes":
            if d.player(name)["cash"] < price:
                raise reject("{player} has {cash}: a luxury costs {price}; answer no", player=name,
                             cash=d.player(name)["cash"], price=price)
            self.transfer(d, name, TREASURY, price, m("for a luxury ticket"))
            d.player(name)["luxuries"] += 1
            d.say("say", m("Give {player} a luxury ticket", player=name), player=name)
        else:
            self.lose_move(d, name, prompt["ctx"])

    def lose_move(self, d: Draft, name: str, ctx: Mapping[str, Any]) -> None:
        """Back to where the move started; what it earned at Mother Earth is given back."""
        self.put(d, name, ctx["start"], m("Move {player}'s token to {space}: {player} declines the luxury and loses "
                                          "the move", player=name, space=ctx["start"]))
        d.player(name)["laps"] -= ctx.get("laps", 0)
        back: list[Task] = []
        for lender, amount, lid in ctx.get("interest", []):
            if lender == "bank":
                self.transfer(d, "bank", name, amount, m("(the interest on loan {loan} back)", loan=lid))
            else:
                back.append(["pay", lender, name, amount, m("(the interest on loan {loan} back)", loan=lid)])
        back.append(["pay", name, "bank", ctx.get("wages", 0), m("(the wages of the lost move back)")])
        d.push(*back)

    def land_no_trespassing(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        d.push(["go-to-jail", name])

    def land_legacy(self, d: Draft, name: str, space: Space, ctx: Mapping[str, Any]) -> None:
        self.transfer(d, "bank", name, d.state["options"]["legacy"], m("a legacy"))
        d.player(name)["legacies"] += 1
        d.say("say", m("Give {player} a legacy ticket", player=name), player=name)

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

    def security(self, d: Draft, borrower: str, spaces: Any, why: Message) -> list[str]:
        """Check the lots a loan is secured on: the borrower's, not mortgaged yet."""
        if not isinstance(spaces, list) or not spaces or not all(isinstance(s, str) for s in spaces) \
                or len(set(spaces)) != len(spaces):
            raise reject("{why}: name the lots to mortgage (spaces: a list of lot ids)", why=why)
        for sid in spaces:
            space = self.board.by_id.get(sid)
            if space is None or space.kind != "lot":
                raise reject("{why}: {value} is not a lot", why=why, value=sid)
            rec = d.read_space(sid)
            if rec["owner"] != borrower:
                raise reject("{why}: {player} does not own {space}", why=why, player=borrower, space=sid)
            if rec["mortgaged"]:
                raise reject("{why}: {space} is mortgaged already", why=why, space=sid)
        return list(spaces)

    @staticmethod
    def terms(value: Any) -> str:
        if not isinstance(value, str) or len(value) > MAX_TERMS:
            raise reject("the terms of a loan are a text of at most {count} characters", count=MAX_TERMS)
        return value

    def verb_borrow(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        options = d.state["options"]
        note = options["note"]
        amount = whole(act.get("amount"), m("a bank loan"), minimum=note)
        why = m("{player} cannot borrow {amount} from the bank", player=name, amount=amount)
        if amount % note:
            raise reject("{why}: the bank lends in notes of {amount}", why=why, amount=note)
        spaces = self.security(d, name, act.get("spaces"), why)
        value = sum(self.board.by_id[sid].price or 0 for sid in spaces)
        if value < amount + options["loan_margin"]:
            raise reject("{why}: the lots pledged are worth {worth} and the bank wants {amount}", why=why, worth=value,
                         amount=amount + options["loan_margin"])
        loan = self.record_loan(d, "bank", name, amount, self.note_interest(d, amount), spaces, "")
        self.transfer(d, "bank", name, amount, m("as loan {loan}", loan=loan["id"]))

    def verb_loan(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        """Offer a loan to another player: {to, amount, interest (at each of their wages), spaces, terms}."""
        borrower = self.check_offer(d, name, act.get("to"), "lend")
        self.check_spending(d, name, m("lend money"))
        loan = self.loan_terms(d, name, borrower, act)
        d.state["trade"] = {"from": name, "with": borrower, "loan": loan}
        if loan["terms"]:  # agreed, recorded by both (RULES.md)
            said = m("{player} offers {other} a loan of {amount} at {interest} each wages, on {spaces} (terms: "
                     "{terms}). {other}, accept or reject", player=name, other=borrower, amount=loan["amount"],
                     interest=loan["interest"], spaces=loan["spaces"], terms=loan["terms"])
        else:
            said = m("{player} offers {other} a loan of {amount} at {interest} each wages, on {spaces}. {other}, "
                     "accept or reject", player=name, other=borrower, amount=loan["amount"],
                     interest=loan["interest"], spaces=loan["spaces"])
        d.say("trade", said, player=name, other=borrower)

    def loan_terms(self, d: Draft, lender: str, borrower: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        amount = whole(raw.get("amount"), m("a loan"), minimum=1)
        if amount > d.player(lender)["cash"]:
            raise reject("{player} has only {cash}", player=lender, cash=d.player(lender)["cash"])
        return {"amount": amount, "interest": whole(raw.get("interest", 0), m("interest")),
                "spaces": self.security(d, borrower, raw.get("spaces"), m("{player} cannot borrow", player=borrower)),
                "terms": self.terms(raw.get("terms", ""))}

    def cash_given(self, offer: Mapping[str, Any]) -> Message | None:
        return m("lend money") if "loan" in offer else super().cash_given(offer)

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
        self.transfer(d, lender, borrower, terms["amount"], m("as loan {loan}", loan=loan["id"]))
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
        d.say("deed", m("Put {lender}'s mortgage on {spaces} (loan {loan}: {borrower} owes {amount})", lender=lender,
                        spaces=spaces, loan=loan["id"], borrower=borrower, amount=amount), loan=loan["id"])
        return loan

    def verb_repay(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        self.check_spending(d, name, m("repay a loan"))
        lid = act.get("loan")
        loan = next((x for x in self.loans_of(d, name) if x["id"] == lid), None)
        if loan is None:
            owed = ", ".join(str(x["id"]) for x in self.loans_of(d, name)) or m("none")
            raise reject("{player} owes no loan {value} (loans: {known})", player=name, value=lid, known=owed)
        if d.player(name)["cash"] < loan["amount"]:
            raise reject("{player} has {cash}: loan {loan} is {amount}", player=name, cash=d.player(name)["cash"],
                         loan=lid, amount=loan["amount"])
        d.state["loans"] = [x for x in d.state["loans"] if x["id"] != lid]
        self.transfer(d, name, loan["lender"], loan["amount"], m("to repay loan {loan}", loan=lid))
        for sid in loan["spaces"]:
            d.space(sid)["mortgaged"] = False
        d.say("deed", m("Take the mortgage off {spaces}", spaces=loan["spaces"]), loan=lid)

    def check_trade_space(self, d: Draft, holder: str, space_id: Any) -> None:
        super().check_trade_space(d, holder, space_id)
        space = self.board.by_id[space_id]
        if space.kind != "lot":
            raise reject("{player} cannot trade {space}: a charter stays with its holder", player=holder, space=space_id)
        if d.read_space(space_id)["mortgaged"]:
            raise reject("{player} cannot trade {space}: it is mortgaged (repay the loan first)", player=holder,
                         space=space_id)

    # ================================================================== debts and the poorhouse
    def can_borrow(self, d: Draft, name: str) -> bool:
        """Whether the bank would still lend a note on the player's free lots."""
        options = d.state["options"]
        free = sum(self.board.by_id[sid].price or 0 for sid in self.owned(d, name, "lot")
                   if not d.read_space(sid)["mortgaged"])
        return free >= options["note"] + options["loan_margin"]

    def short_of_cash(self, d: Draft, debtor: str, creditor: str, amount: int, reason: Message | str) -> None:
        if d.player(debtor)["in_poorhouse"]:
            d.say("say", m("{player} is in the poorhouse and pays nothing", player=debtor))
        elif not any(not d.read_space(sid)["mortgaged"] for sid in self.owned(d, debtor, "lot")):
            d.say("say", m("{player} owes {creditor} {amount} {reason}, has {cash} and no lot left to borrow on",
                           player=debtor, creditor=creditor, amount=amount, reason=reason,
                           cash=d.player(debtor)["cash"]))
            self.to_poorhouse(d, debtor)
        else:
            super().short_of_cash(d, debtor, creditor, amount, reason)

    def debt_options(self, d: Draft, debtor: str) -> list[str]:
        return [] if self.can_borrow(d, debtor) else ["poorhouse"]

    def debt_advice(self, d: Draft, debtor: str, short: int) -> Message:
        if self.can_borrow(d, debtor):
            return m("borrow on lots (from the bank or a player) or trade to raise {short}", short=short)
        return m("borrow from a player or trade to raise {short}, or go to the poorhouse", short=short)

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
        self.put(d, name, self.poorhouse, m("Move {player}'s token to {space}: {player} goes to the poorhouse and pays "
                                            "nothing", player=name, space=self.poorhouse))

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
            d.say("say", m("{player}: lots {amount_lots} + cash {cash} + {n} luxuries {amount_luxuries} − owed "
                           "{amount_owed} + lent {amount_lent} = {amount}", player=name, amount_lots=lots,
                           cash=p["cash"], n=p["luxuries"], amount_luxuries=value * p["luxuries"], amount_owed=owed,
                           amount_lent=lent, amount=scores[name]))
        s["scores"] = scores
        best = max(scores.values())
        self.win(d, next(n for n in scores if scores[n] == best), m("the highest score, {amount}", amount=best))
