"""The invariants of tests/test_invariants.py over random games with each house rule on (RULES.md §1, "House rules
and the official short game"), and what each rule promises, checked after every input:

* money is conserved with the Free Parking pool counted as an account; the pool is there exactly when the option
  fills one, never below zero, and with a seed it is never left empty by a payout;
* only a tax, a jail fine or a card pays into the pool, and only a player standing on Free Parking takes from it;
* with ``go_landing_bonus`` a double salary is paid only to a player on GO, and is twice the salary;
* with ``auctions`` false no deed is auctioned (the short-stock auction of buildings may still be);
* with ``rent_in_jail`` false no rent is paid to an owner in jail;
* with ``buy_after_first_lap`` nobody who has not passed GO is asked to buy or bids for a deed;
* with ``deal_deeds`` each player starts with that many deeds, paid for at their printed price;
* with ``houses_before_hotel`` no street holds more houses than that (tests/test_invariants.py's stock check).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import invariant, run_state_machine_as_test

from companion.engine import find_ruleset

from .test_invariants import GameMachine

FREE_PARKING = "free-parking"
#: The reasons a payment into the pool gives (taxes, the jail fine, cards: RULES §1).
POOL_REASONS = ("income tax", "for Luxury Tax", "as the jail fine", "for the card", "for repairs", "as its seed",
                "in property tax")
HOUSE_RULES: dict[str, tuple[str, dict[str, Any]]] = {
    "free-parking-fees": ("classic", {"free_parking": "fees"}),
    "free-parking-seed": ("classic", {"free_parking": "fees-and-seed", "free_parking_seed": 300}),
    "go-landing-bonus": ("classic", {"go_landing_bonus": True}),
    "no-auctions": ("classic", {"auctions": False}),
    "no-rent-in-jail": ("classic", {"rent_in_jail": False}),
    "uneven-building": ("classic", {"even_build": False}),
    "buy-after-first-lap": ("classic", {"buy_after_first_lap": True}),
    # 800 to start: two deeds dealt cost at most 750, and the debts come early.
    "official-short-game": ("classic", {"deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2,
                                        "start_cash": 800}),
    "addon-free-parking-taxes": ("addon", {"free_parking": "fees-and-seed", "pool": "taxes"}),
    "addon-all-rules": ("addon", {"free_parking": "fees", "go_landing_bonus": True, "auctions": False,
                                  "rent_in_jail": False, "even_build": False, "buy_after_first_lap": True,
                                  "houses_before_hotel": 2}),
}


class HouseRulesMachine(GameMachine):
    """A game under house rules: the base machine's invariants and the rules' own."""

    @invariant()
    def deeds_are_dealt_at_the_start(self) -> None:
        if len(self.lines) != 1:  # only the state the set-up made
            return
        each, cash = self.state["options"]["deal_deeds"], self.state["options"]["start_cash"]
        by_id = self.ruleset.board.by_id
        for p in self.state["players"]:
            deeds = [sid for sid, rec in self.state["spaces"].items() if rec["owner"] == p["name"]]
            assert len(deeds) == each, f"{p['name']} was dealt {deeds}"
            assert p["cash"] == cash - sum(by_id[sid].price or 0 for sid in deeds), f"{p['name']} paid wrongly"

    def submit(self, line: Any) -> bool:
        before = self.state
        accepted = super().submit(line)
        if accepted:
            self.check_payments(before, self.events)
        return accepted

    def check_payments(self, before: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """What the events of one accepted input paid, against the house rules."""
        options, after = self.state["options"], self.state
        jailed = {p["name"] for p in before["players"] if p["in_jail"]}
        where = {p["name"]: p["space"] for p in after["players"]}
        for event in events:
            if event.get("kind") != "pay":
                continue
            text, payer, payee = str(event["text"]), event["payer"], event["payee"]
            if payee == FREE_PARKING:
                assert any(reason in text for reason in POOL_REASONS), f"paid into the pool: {text}"
            if payer == FREE_PARKING:
                assert where[payee] == FREE_PARKING, f"{payee} took the pool from {where[payee]}: {text}"
            if "rent for" in text and not options["rent_in_jail"]:
                assert payee not in jailed, f"rent paid to {payee} in jail: {text}"
            if "double salary" in text:
                assert options["go_landing_bonus"] and event["amount"] == 2 * options["salary"], text
                assert self.ruleset.board.by_id[where[payee]].kind == "go", f"{payee} on {where[payee]}: {text}"

    @invariant()
    def the_pool_is_an_account(self) -> None:
        pools, options = self.state["pools"], self.state["options"]
        assert (FREE_PARKING in pools) == (options["free_parking"] != "nothing"), pools
        assert all(amount >= 0 for amount in pools.values()), pools
        if options["free_parking"] == "fees-and-seed":
            assert pools[FREE_PARKING] >= options["free_parking_seed"] or self.state["winner"] is not None, pools

    @invariant()
    def deeds_are_bought_and_bid_for_only_as_the_rules_allow(self) -> None:
        state, options = self.state, self.state["options"]
        prompt = state["prompt"] or {}
        if not options["auctions"]:
            assert not (prompt.get("kind") == "auction" and "space" in prompt), f"a deed auctioned: {prompt}"
        if options["buy_after_first_lap"]:
            laps = {p["name"]: p["laps"] for p in state["players"]}
            if prompt.get("kind") == "buy":
                assert laps[prompt["player"]] > 0, f"{prompt['player']} asked to buy before passing GO"
            auction = state.get("auction") or {}
            if "space" in auction:
                assert all(laps[n] > 0 for n in auction["bidders"]), f"bidders before passing GO: {auction}"


@pytest.mark.parametrize("name", HOUSE_RULES)
def test_invariants_hold_under_each_house_rule(name: str) -> None:
    ruleset_id, options = HOUSE_RULES[name]
    find_ruleset(ruleset_id)
    machine = type(f"{name.title().replace('-', '')}Game", (HouseRulesMachine,),
                   {"ruleset_id": ruleset_id, "options": options})
    run_state_machine_as_test(machine, settings=settings(
        max_examples=12, stateful_step_count=60, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]))
