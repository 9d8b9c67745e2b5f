"""Payments that may not be covered: the ``pay`` task and the debt that waits for cash.

A payment larger than the payer's cash calls :meth:`Debts.short_of_cash`; by default the
payment goes back on the queue and a ``debt`` prompt waits until voluntary acts (sales,
loans, trades) raise the cash, when :meth:`Debts.resume` lets it through. Rulesets decide
what else the debtor may answer (``bankrupt``, ``poorhouse``, ``out``).
"""

from __future__ import annotations

from typing import ClassVar

from ..core import Ruleset, reject
from ..draft import Draft
from ..messages import Message, m


class Debts(Ruleset):
    """Mixin: the ``pay`` task and the ``debt`` prompt."""

    #: Where a payment goes when its creditor has left the game.
    fallback_account: ClassVar[str] = "bank"

    def task_pay(self, d: Draft, debtor: str, creditor: str, amount: int, reason: Message | str) -> None:
        if amount <= 0 or d.player(debtor)["bankrupt"]:
            return
        if creditor not in ("bank", *d.state["pools"]) and d.player(creditor)["bankrupt"]:
            creditor = self.fallback_account
        if d.player(debtor)["cash"] >= amount:
            self.transfer(d, debtor, creditor, amount, reason)
            return
        self.short_of_cash(d, debtor, creditor, amount, reason)

    def short_of_cash(self, d: Draft, debtor: str, creditor: str, amount: int, reason: Message | str) -> None:
        """The debtor cannot pay now: wait for the cash (the payment is retried first)."""
        cash = d.player(debtor)["cash"]
        d.push(["pay", debtor, creditor, amount, reason])
        d.say("debt", m("{player} owes {creditor} {amount} and has {cash}", player=debtor, creditor=creditor,
                        amount=amount, cash=cash), player=debtor, creditor=creditor, amount=amount)
        d.ask(debtor, "debt", self.debt_text(d, debtor, creditor, amount, reason), self.debt_options(d, debtor),
              creditor=creditor, amount=amount)

    def debt_text(self, d: Draft, debtor: str, creditor: str, amount: int, reason: Message | str) -> Message:
        cash = d.player(debtor)["cash"]
        return m("{player} owes {creditor} {amount} {reason} and has {cash}: {advice}", player=debtor,
                 creditor=creditor, amount=amount, reason=reason, cash=cash,
                 advice=self.debt_advice(d, debtor, amount - cash))

    def debt_options(self, d: Draft, debtor: str) -> list[str]:
        return ["bankrupt"]

    def debt_advice(self, d: Draft, debtor: str, short: int) -> Message:
        return m("sell, mortgage or trade to raise {short}, or go bankrupt", short=short)

    def drop_debt(self, d: Draft) -> None:
        """Forget the payment the ``debt`` prompt waits for (it is first on the queue)."""
        d.state["queue"].pop(0)

    def resume(self, d: Draft) -> None:
        """After a voluntary act: pay a waiting debt if the cash is there now, else refresh its options."""
        prompt = d.state["prompt"]
        if not prompt or prompt["kind"] != "debt":
            return
        debtor, creditor = prompt["player"], prompt["creditor"]
        if d.player(debtor)["cash"] >= prompt["amount"]:
            d.state["prompt"] = None
        elif creditor not in ("bank", *d.state["pools"]) and d.player(creditor)["bankrupt"]:
            # The creditor left the game meanwhile: the debt is owed where the payment would now go.
            _, _, _, amount, reason = d.state["queue"].pop(0)
            d.state["prompt"] = None
            self.short_of_cash(d, debtor, self.fallback_account, amount, reason)
        else:  # the cash and what is still lacking, as they are now (they were as when the debt arose)
            task = d.state["queue"][0]
            reason = task[4] if task[0] == "pay" else ""
            d.reprompt(prompt, self.debt_text(d, debtor, creditor, prompt["amount"], reason),
                       options=self.debt_options(d, debtor))

    def check_spending(self, d: Draft, name: str, doing: Message) -> None:
        """A player who owes more than they hold raises money; they do not spend it or give it away."""
        prompt = d.state["prompt"]
        if prompt and prompt["kind"] == "debt" and prompt["player"] == name:
            short = prompt["amount"] - d.player(name)["cash"]
            raise reject("{player} cannot {doing} while owing {creditor} {amount}: {advice}", player=name,
                         doing=doing, creditor=prompt["creditor"], amount=prompt["amount"],
                         advice=self.debt_advice(d, name, short))
