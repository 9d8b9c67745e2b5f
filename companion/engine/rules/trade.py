"""Offers between two players: one proposes, the other accepts or rejects.

``trade {with, give: {cash, spaces, cards}, get: {cash, spaces, cards}}`` is the offer every
ruleset with deeds or cards shares. A ruleset adds other kinds of offer (a loan) with
:meth:`Trades.check_offer` and settles them in :meth:`Trades.settle`. One offer waits at a time,
in ``state["trade"]``; either party may withdraw it with ``reject``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import IllegalInput

from ..core import Ruleset, reject, whole
from ..draft import Draft, Task
from ..messages import Message, m


#: The reason of a trade's cash payment (a ruleset may judge the trade after both sides, not after each).
TRADE_PAYMENT = m("in the trade")


class Trades(Ruleset):
    """Mixin: the ``trade``, ``accept`` and ``reject`` verbs, with hooks for what a deed or card carries."""

    def check_offer(self, d: Draft, name: str, other: Any, verb: str = "trade") -> str:
        """Reject an offer from ``name`` to ``other`` if one already waits or ``other`` cannot take it."""
        if d.state.get("trade"):
            t = d.state["trade"]
            raise reject("{player}'s offer to {other} waits for an answer first", player=t["from"], other=t["with"])
        if not isinstance(other, str) or other == name or not d.has_player(other) or d.player(other)["bankrupt"]:
            raise reject("{player} cannot lend with {value}" if verb == "lend" else
                         "{player} cannot trade with {value}", player=name, value=other)
        return other

    def verb_trade(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        other = self.check_offer(d, name, act.get("with"))
        give = self.bundle(d, name, act.get("give", {}), "give")
        get = self.bundle(d, other, act.get("get", {}), "get")
        if not any(give.values()) and not any(get.values()):
            raise reject("an empty trade")
        if give["cash"]:
            self.check_spending(d, name, m("give cash in a trade"))
        d.state["trade"] = {"from": name, "with": other, "give": give, "get": get}
        d.say("trade", m("{player} offers {other}: {give} for {get}. {other}, accept or reject", player=name,
                         other=other, give=self.describe_bundle(give), get=self.describe_bundle(get)), player=name,
              other=other)

    def bundle(self, d: Draft, holder: str, raw: Any, what: str) -> dict[str, Any]:
        """Check one side of a trade: ``holder`` must hold everything in it (``what``: "give" or "get")."""
        if not isinstance(raw, Mapping) or set(raw) - {"cash", "spaces", "cards"}:
            raise reject("trade {side} must be an object with cash, spaces and cards", side=what)
        cash = whole(raw.get("cash", 0), m("trade {side} cash", side=what))
        if cash > d.player(holder)["cash"]:
            raise reject("{player} has only {cash}", player=holder, cash=d.player(holder)["cash"])
        spaces, cards = raw.get("spaces", []), raw.get("cards", [])
        if not isinstance(spaces, list) or not isinstance(cards, list) or len(set(map(str, spaces))) != len(spaces):
            raise reject("trade {side}: spaces and cards must be lists of distinct ids", side=what)
        for sid in spaces:
            self.check_trade_space(d, holder, sid)
        held = list(d.player(holder)["cards"])
        for card in cards:
            if card not in held:
                raise reject("{player} does not hold the card {value}", player=holder, value=card)
            held.remove(card)
        return {"cash": cash, "spaces": list(spaces), "cards": list(cards)}

    def check_trade_space(self, d: Draft, holder: str, space_id: Any) -> None:
        """Reject a space ``holder`` may not trade (default: one they do not own)."""
        space = self.board.by_id.get(space_id) if isinstance(space_id, str) else None
        if space is None or not space.ownable or d.read_space(space.id)["owner"] != holder:
            raise reject("{player} cannot trade {ident}: {player} does not own it", player=holder, ident=space_id)

    def describe_bundle(self, bundle: Mapping[str, Any]) -> Message:
        parts = [m("{amount}", amount=bundle["cash"])] if bundle["cash"] else []
        parts += [m("{space}", space=s) for s in bundle["spaces"]] + [m("{card}", card=c) for c in bundle["cards"]]
        return m("{items}", items=parts) if parts else m("nothing")

    def verb_accept(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        t = d.state.get("trade")
        if not t or t["with"] != name:
            raise reject("there is no trade offer for {player}", player=name)
        if (t.get("get") or {}).get("cash"):
            self.check_spending(d, name, m("pay cash in a trade"))
        giving = self.cash_given(t)
        if giving:  # a debt that came after the offer: its cash goes to the creditor first (refused, not withdrawn)
            self.check_spending(d, t["from"], giving)
        d.state["trade"] = None
        later = self.settle(d, t)
        if later:
            self.interrupt(d, *later)

    def settle(self, d: Draft, offer: Mapping[str, Any]) -> list[Task]:
        """Carry out an accepted offer (checked again: hands may have changed); returns tasks to run now."""
        give = self.bundle(d, offer["from"], offer["give"], "give")
        get = self.bundle(d, offer["with"], offer["get"], "get")
        later = self.hand_over(d, offer["from"], offer["with"], give)
        later += self.hand_over(d, offer["with"], offer["from"], get)
        d.say("trade", m("{player} accepts: trade done", player=offer["with"]), player=offer["with"],
              other=offer["from"])
        return later

    def hand_over(self, d: Draft, giver: str, taker: str, bundle: Mapping[str, Any]) -> list[Task]:
        """Move one side of a trade; returns payments that fall due (a ruleset's hook decides)."""
        self.transfer(d, giver, taker, bundle["cash"], TRADE_PAYMENT)
        due: list[Task] = []
        for sid in bundle["spaces"]:
            due += self.pass_space(d, giver, taker, sid)
        for card in bundle["cards"]:
            self.pass_card(d, giver, taker, card)
            # A hand at the table moves it, as the deeds (told as they are: the OLED, the voice and both phones).
            d.say("hand-over", m("{giver} gives {taker} the {card} card", giver=giver, taker=taker, card=card),
                  player=giver, to=taker, cards=[card])
        return due

    def pass_space(self, d: Draft, giver: str, taker: str, space_id: str) -> list[Task]:
        d.space(space_id)["owner"] = taker
        d.say("deed", m("{giver} gives {taker} the deed of {space}", giver=giver, taker=taker, space=space_id),
              space=space_id)
        return []

    def pass_card(self, d: Draft, giver: str, taker: str, card: str) -> None:
        d.take_card(giver, card)
        d.give_card(taker, card)

    def verb_reject(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        t = d.state.get("trade")
        if not t or name not in (t["from"], t["with"]):
            raise reject("there is no trade offer involving {player}", player=name)
        d.state["trade"] = None
        d.say("trade", m("{player} withdraws the trade" if name == t["from"] else "{player} rejects the trade",
                         player=name), player=name)

    def resume(self, d: Draft) -> None:
        """After a voluntary act: an offer whose spaces the act changed (a deed mortgaged, a house built) is
        withdrawn, so nobody accepts what they did not read."""
        offer = d.state.get("trade")
        if offer:
            changed = d.written_spaces() & set(self.offer_spaces(offer))
            if changed:
                self.withdraw(d, offer, m("{spaces} changed since it was made",
                                          spaces=sorted(changed, key=lambda s: self.board.by_id[s].name)))
        super().resume(d)

    def settled(self, d: Draft) -> None:
        """After any input: an offer it made impossible (a house built beside a deed offered, the cash offered spent
        on rent or a debt) is withdrawn with the reason its acceptance would meet, not left open to be refused."""
        offer = d.state.get("trade")
        if offer:
            try:
                self.recheck_offer(d, offer)
            except IllegalInput as error:
                self.withdraw(d, offer, error.message)
        super().settled(d)

    @staticmethod
    def withdraw(d: Draft, offer: Mapping[str, Any], why: Message) -> None:
        d.state["trade"] = None
        d.say("trade", m("{player}'s offer to {other} is withdrawn: {why}", player=offer["from"], other=offer["with"],
                         why=why), player=offer["from"], other=offer["with"])

    def recheck_offer(self, d: Draft, offer: Mapping[str, Any]) -> None:
        """Refuse an offer that could no longer be carried out (the checks :meth:`settle` makes, changing nothing)."""
        self.bundle(d, offer["from"], offer["give"], "give")
        self.bundle(d, offer["with"], offer["get"], "get")

    def cash_given(self, offer: Mapping[str, Any]) -> Message | None:
        """What the offering player does with cash when the offer is accepted ("give cash in a trade"), or None."""
        return m("give cash in a trade") if (offer.get("give") or {}).get("cash") else None

    @staticmethod
    def offer_spaces(offer: Mapping[str, Any]) -> list[str]:
        """The spaces an offer names: both sides of a trade, a loan's security."""
        sides = [offer.get("give") or {}, offer.get("get") or {}, offer.get("loan") or {}]
        return [sid for side in sides for sid in side.get("spaces", [])]

    def cancel_offers(self, d: Draft, name: str) -> None:
        """Drop the waiting offer of a player who left the game."""
        trade = d.state.get("trade")
        if trade and name in (trade["from"], trade["with"]):
            d.state["trade"] = None
