"""The engine's invariants, for every registered ruleset, over long random input sequences.

A hypothesis state machine plays a game with the simulator's bots (the same inputs a table
sends), mixed with stray inputs (random acts, answers, dice and junk, mostly illegal), and
undo/redo. After every step:

* money is conserved: players' cash + pools + ``bank_balance`` never changes;
* no cash is below zero outside a debt prompt for that player;
* building stock stays within bounds (bank + placed = the option's total; 0 ≤ bank ≤ total);
* each property has at most one owner, a player still in the game; bankrupt players hold nothing;
* every card is in exactly one deck or hand;
* an auction prompt comes with its auction (else no bid or pass can be accepted and the game is stuck);
* a rejected input changes nothing (the state equals a deep copy taken before);
* undo then redo of the same input gives the same state (but ``seq``, which counts every input, and the log).

At the end of each game: no state the engine returned was changed later, and replaying every
accepted input from the set-up gives an identical state (private keys included).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test,
)

from companion.engine import IllegalInput, apply, find_ruleset, new_game, ruleset_ids
from companion.sim import strategy_for

NAMES = ["Ann", "Bob", "Cat", "Dan"]
JUNK: list[Any] = [
    {}, [], "roll", {"frobnicate": 1}, {"roll": [3, 4], "extra": 1}, {"answer": None}, {"act": "bid"},
    {"act": {"do": "pass"}}, {"undo": 2}, {"undo": True}, {"setup": {"ruleset": "classic", "players": ["A", "B"]}},
]


def money_total(state: dict[str, Any]) -> int:
    return (sum(p.get("cash", 0) for p in state["players"]) + sum(state.get("pools", {}).values())
            + state.get("bank_balance", 0))


def cards_held(state: dict[str, Any]) -> Counter[str]:
    held: Counter[str] = Counter()
    for p in state["players"]:
        held.update(p.get("cards", []))
    for deck in state.get("decks", {}).values():
        held.update(deck)
    return held


def without(state: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in keys}


@st.composite
def stray_inputs(draw: st.DrawFn, state: dict[str, Any], ruleset: Any) -> Any:
    """An input a confused table might send: mostly illegal, sometimes legal by chance."""
    board = ruleset.board
    names = [p["name"] for p in state["players"]]
    spaces = sorted(board.by_id) + ["nowhere"]
    cards = sorted(board.cards) + ["no-such-card"]
    prompt = state["prompt"] or {}
    amount = st.one_of(st.integers(-10, 3000), st.sampled_from([0, 10**9, 1.5, True, "10"]))
    bundle = st.fixed_dictionaries({}, optional={
        "cash": amount, "spaces": st.lists(st.sampled_from(spaces), max_size=2),
        "cards": st.lists(st.sampled_from(cards), max_size=2)})
    kind = draw(st.sampled_from(["act", "act", "act", "answer", "roll", "junk", "undo"]))
    if kind == "junk":
        return draw(st.sampled_from(JUNK))
    if kind == "undo":
        return {"undo": draw(st.sampled_from([1, 0, 2, "1"]))}
    if kind == "roll":
        count = prompt.get("dice", ruleset.dice_count)
        return {"roll": draw(st.one_of(
            st.lists(st.integers(1, ruleset.die_faces), min_size=count, max_size=count),
            st.lists(st.integers(-1, ruleset.die_faces + 2), max_size=4),
            st.sampled_from([None, 7, [1.0, 2.0], [True, 2]])))}
    if kind == "answer":
        options = list(prompt.get("options") or [])
        return {"answer": draw(st.sampled_from(options + ["maybe", "", 3, "yes", "no"]))}
    # Common verbs often; resigning and the host's end of game rarely (they end the game).
    verbs = ruleset.verbs() * 4 + ruleset.host_verbs() + ["juggle"]
    verbs = [v for v in verbs if v != "bankrupt"] + ["bankrupt"]
    act: dict[str, Any] = {
        "player": draw(st.sampled_from(names * 4 + ["host", "Zed", ""])),
        "do": draw(st.sampled_from(verbs)),
    }
    extras = draw(st.fixed_dictionaries({}, optional={
        "space": st.sampled_from(spaces), "amount": amount, "card": st.sampled_from(cards),
        "cards": st.lists(st.sampled_from(cards), max_size=3), "with": st.sampled_from(names + ["Zed"]),
        "give": bundle, "get": bundle, "outer": st.sampled_from(spaces), "inner": st.sampled_from(spaces)}))
    act.update(extras)
    return {"act": act}


class GameMachine(RuleBasedStateMachine):
    """One game of one ruleset, driven by bots, stray inputs and undo/redo."""

    ruleset_id: ClassVar[str] = "classic"
    #: Options every game of the machine is set up with (house rules: tests/test_house_rules_invariants.py).
    options: ClassVar[dict[str, Any]] = {}

    def __init__(self) -> None:
        super().__init__()
        self.ruleset = find_ruleset(self.ruleset_id)
        self.lines: list[Any] = []
        self.returned: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.events: list[dict[str, Any]] = []  # those of the last input accepted

    # ------------------------------------------------------------------ set-up
    @initialize(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), poor=st.booleans())
    def start(self, seed: int, players: int, poor: bool) -> None:
        board = self.ruleset.board
        players = max(board.min_players, min(players, board.max_players))
        setup: dict[str, Any] = {"ruleset": self.ruleset_id, "players": NAMES[:players], "seed": seed}
        options = dict(self.options)
        if poor and "start_cash" in board.options:
            options = {"start_cash": 300, **options}  # debts, sales and bankruptcies early (unless given)
        if options:
            setup["options"] = options
        self.state, _ = new_game(setup)
        self.lines = [{"setup": setup}]
        self.total = money_total(self.state)
        self.cards = cards_held(self.state)
        self.bot = strategy_for(self.ruleset_id)(self.ruleset, random.Random(seed))
        self.keep(self.state)

    # ------------------------------------------------------------------ helpers
    def keep(self, state: dict[str, Any]) -> None:
        """Remember a returned state and a deep copy of it, to check at the end that nobody changed it."""
        self.returned.append((state, copy.deepcopy(state)))

    def submit(self, line: Any) -> bool:
        """Apply ``line``; a refusal must leave the state as it was. Returns whether it was accepted."""
        before = copy.deepcopy(self.state)
        try:
            state, events = apply(self.state, line)
        except IllegalInput:
            assert self.state == before, f"the refused input {line!r} changed the state"
            return False
        assert self.state == before, f"applying {line!r} changed the state it was applied to"
        self.lines.append(line)
        self.state, self.events = state, events
        return True

    @property
    def playing(self) -> bool:
        return self.state["winner"] is None

    # ------------------------------------------------------------------ rules
    @precondition(lambda self: self.playing)
    @rule(count=st.integers(1, 60))
    def bots_play(self, count: int) -> None:
        for i in range(count):
            if not self.playing:
                return
            assert any(self.submit(line) for line in self.bot.candidates(self.state)), "no bot input was accepted"
            if i % 8 == 0:
                self.keep(self.state)

    @rule(data=st.data())
    def stray_input(self, data: st.DataObject) -> None:
        if self.submit(data.draw(stray_inputs(self.state, self.ruleset), label="input")):
            self.keep(self.state)

    @rule()
    def undo_then_redo(self) -> None:
        inputs = (self.state.get("undo") or {}).get("inputs") or []
        if not inputs:
            assert not self.submit({"undo": 1}), "undo was accepted with nothing to undo"
            return
        before, last = self.state, inputs[-1]
        assert self.submit({"undo": 1})
        self.keep(self.state)
        assert self.submit(last), f"redoing {last!r} after undo was refused"
        assert without(self.state, "seq", "log") == without(before, "seq", "log")
        assert self.state["seq"] == before["seq"] + 2

    # ------------------------------------------------------------------ invariants
    @invariant()
    def money_is_conserved(self) -> None:
        assert money_total(self.state) == self.total

    @invariant()
    def no_cash_below_zero_outside_a_debt(self) -> None:
        prompt = self.state["prompt"] or {}
        for p in self.state["players"]:
            in_debt = prompt.get("kind") == "debt" and prompt.get("player") == p["name"]
            assert p.get("cash", 0) >= 0 or in_debt, f"{p['name']} has {p['cash']}"

    @invariant()
    def building_stock_within_bounds(self) -> None:
        bank, options = self.state.get("bank", {}), self.state["options"]
        for kind, placed in (("houses", lambda r: r.get("houses", 0)), ("hotels", lambda r: int(r.get("hotel", 0)))):
            if kind not in bank or kind not in options:
                continue
            on_board = sum(placed(rec) for rec in self.state["spaces"].values())
            assert 0 <= bank[kind] <= options[kind]
            assert bank[kind] + on_board == options[kind], f"{kind}: {bank[kind]} in the bank + {on_board} placed"
        most = options.get("houses_before_hotel", 4)  # the houses a street holds before its hotel
        for sid, rec in self.state["spaces"].items():
            assert 0 <= rec.get("houses", 0) <= most and not (rec.get("hotel") and rec.get("houses")), sid

    @invariant()
    def every_street_group_is_built_evenly(self) -> None:
        """RULES.md: build and sell evenly — no street more than one building above another of its group
        (selling a hotel short of houses left 0/0/hotel before the group came down evenly)."""
        if not self.state["options"].get("even_build", True):
            return  # the house rule: building and selling need not be even
        spaces = self.state["spaces"]
        for group, members in self.ruleset.board.groups.items():
            hotel = self.state["options"].get("houses_before_hotel", 4) + 1  # the level after the last house
            levels = [hotel if spaces[m].get("hotel") else spaces[m].get("houses", 0) for m in members if m in spaces]
            if levels and "houses" in spaces[members[0]]:
                assert max(levels) - min(levels) <= 1, f"{group}: {levels}"

    @invariant()
    def each_property_has_one_owner_in_the_game(self) -> None:
        players = {p["name"]: p for p in self.state["players"]}
        for sid, rec in self.state["spaces"].items():
            owner = rec.get("owner")
            assert owner is None or (owner in players and not players[owner]["bankrupt"]), f"{sid}: {owner}"
        for p in players.values():
            if p["bankrupt"]:
                assert not p.get("cards") and not p.get("cash"), f"bankrupt {p['name']} still holds something"

    @invariant()
    def an_auction_prompt_has_its_auction(self) -> None:
        prompt = self.state["prompt"] or {}
        if prompt.get("kind") == "auction":
            auction = self.state.get("auction") or {}
            assert auction.get("space") == prompt.get("space") and auction.get("building") == prompt.get("building"), \
                f"the prompt asks for bids on {prompt.get('space') or prompt.get('building')} but the auction is {auction}"

    @invariant()
    def every_card_is_in_one_place(self) -> None:
        assert cards_held(self.state) == self.cards

    def teardown(self) -> None:
        if not self.lines:
            return
        for state, deep in self.returned:
            assert state == deep, "a state the engine returned was changed later"
        replayed, _ = apply(None, self.lines[0])
        for line in self.lines[1:]:
            replayed, _ = apply(replayed, line)
        assert replayed == self.state, "replaying the accepted inputs gives a different state"


@pytest.mark.parametrize("ruleset_id", ruleset_ids())
def test_invariants_hold_over_random_games(ruleset_id: str) -> None:
    machine = type(f"{ruleset_id.title().replace('-', '')}Game", (GameMachine,), {"ruleset_id": ruleset_id})
    run_state_machine_as_test(machine, settings=settings(
        max_examples=30, stateful_step_count=60, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]))
