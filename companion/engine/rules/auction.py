"""Open auctions, for any ruleset that sells a lot to the highest bidder.

Every bidder bids any whole amount above the current bid (at most their cash), in any
order; the highest bidder may not pass; the auction ends when all the others have passed.
The winner pays :attr:`Auctions.auction_account` and receives the lot through the ruleset's
``award`` task. The lot is a dict naming a ``space`` (rulesets may add keys).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..core import Ruleset, reject, whole
from ..draft import Draft
from ..messages import Message, m


class Auctions(Ruleset):
    """Mixin: ``open_auction`` and the ``bid`` and ``pass`` verbs; the ruleset defines ``task_award``."""

    #: The account the winning bid is paid to.
    auction_account: ClassVar[str] = "bank"

    def open_auction(self, d: Draft, lot: dict[str, Any], bidders: list[str], *, minimum: int) -> None:
        d.state["auction"] = {**lot, "bid": 0, "bidder": None, "minimum": minimum, "bidders": bidders, "passed": []}
        self.ask_auction(d)

    def lot_name(self, auction: Mapping[str, Any]) -> Message:
        return m("{space}", space=auction["space"])

    def ask_auction(self, d: Draft) -> None:
        a = d.state["auction"]
        waiting = [n for n in a["bidders"] if n not in a["passed"]]
        high = m("{bidder} bids {bid}", bidder=a["bidder"], bid=a["bid"]) if a["bidder"] else m("no bid yet")
        d.ask(None, "auction", m("Auction of {lot}: {high}", lot=self.lot_name(a), high=high), [], bid=a["bid"],
              bidder=a["bidder"],
              waiting=waiting, **{k: a[k] for k in ("space", "building") if k in a})

    def require_bidder(self, d: Draft, name: str) -> dict[str, Any]:
        a = d.state.get("auction")
        if not a or (d.state["prompt"] or {}).get("kind") != "auction":
            raise reject("there is no auction now")
        if name not in a["bidders"] or name in a["passed"]:
            raise reject("{player} is not bidding in this auction", player=name)
        return a

    def verb_bid(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        a = self.require_bidder(d, name)
        amount = whole(act.get("amount"), m("a bid"), minimum=1)
        if amount < a["minimum"]:
            raise reject("the opening bid is at least {amount}", amount=a["minimum"])
        if amount <= a["bid"]:
            raise reject("{player} must bid more than {amount}", player=name, amount=a["bid"])
        if a["bidder"] == name:
            raise reject("{player} is already the highest bidder", player=name)
        if amount > d.player(name)["cash"]:
            raise reject("{player} has only {cash}", player=name, cash=d.player(name)["cash"])
        d.state["auction"] = {**a, "bid": amount, "bidder": name}
        d.say("bid", m("{player} bids {amount}", player=name, amount=amount), player=name, amount=amount)
        self.ask_auction(d)
        self.check_auction(d)

    def verb_pass(self, d: Draft, name: str, act: Mapping[str, Any]) -> None:
        a = self.require_bidder(d, name)
        if a["bidder"] == name:
            raise reject("{player} holds the highest bid and cannot pass", player=name)
        d.state["auction"] = {**a, "passed": [*a["passed"], name]}
        d.say("say", m("{player} passes", player=name))
        self.ask_auction(d)
        self.check_auction(d)

    def check_auction(self, d: Draft) -> None:
        """Close the auction once every bidder but the highest has passed."""
        s = d.state
        a = s["auction"]
        waiting = [n for n in a["bidders"] if n not in a["passed"]]
        if a["bidder"] is not None and waiting == [a["bidder"]]:
            s["auction"], s["prompt"] = None, None
            d.say("say", m("{bidder} wins the auction of {lot} for {bid}", bidder=a["bidder"], lot=self.lot_name(a),
                           bid=a["bid"]))
            d.push(["pay", a["bidder"], self.auction_account, a["bid"], m("for {lot}", lot=self.lot_name(a))],
                   ["award", a["bidder"], a])
        elif not waiting:
            s["auction"], s["prompt"] = None, None
            d.say("say", m("Nobody bids: {lot} {unsold}", lot=self.lot_name(a), unsold=self.unsold_text()))

    def unsold_text(self) -> Message:
        return m("stays with the bank")

    def withdraw_bidder(self, d: Draft, name: str) -> None:
        """Take a player who left the game out of a running auction."""
        s = d.state
        auction = s.get("auction")
        if auction and name in auction["bidders"]:
            auction = {**auction, "passed": [*auction["passed"], name]}
            if auction["bidder"] == name:
                auction.update(bid=0, bidder=None)
            s["auction"] = auction
            if s["prompt"] and s["prompt"]["kind"] == "auction":
                self.ask_auction(d)
                self.check_auction(d)
