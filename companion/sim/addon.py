"""The bot for ``addon``: the property-trading bot plus the inner board's choices.

* **subway / airplane**: go to the tax refund space when the tax pool holds at least
  ``refund_worth``; else to the unowned property it can best afford (one that completes a
  group first); else to a space where nothing is owed (free parking, jail, PASS, GO); the
  airplane stays put when none of these is better than where the token stands;
* **use-card** (the tax refund card, the half-prize card): always yes;
* **travel cards**, instead of the first throw of a turn: the GO or PASS card at once; forward
  cards (one, two or three together) when they land exactly on an unowned property the bot
  would buy, on its own board without passing a transition space; the elevator card and
  backward cards are kept (they can be traded like any kept card).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from companion.engine import State
from companion.engine.core import Ruleset

from .property import PropertyParams, PropertyStrategy
from .strategy import Line

SAFE_KINDS = ("free", "jail", "pass", "go")


class AddonStrategy(PropertyStrategy):
    """Plays the inner board: subway and airplane destinations, travel cards, card plays."""

    refund_worth = 100

    def __init__(self, ruleset: Ruleset, rng: random.Random, params: PropertyParams | None = None) -> None:
        super().__init__(ruleset, rng, params)
        board = self.board
        self.travel = {c.id: c.params for c in board.cards.values() if c.params.get("use") == "travel"}
        self.transition_spaces = frozenset(
            s.id for s in board.spaces if s.kind == "elevator" or (s.kind == "railroad" and "side" in s.data))
        self.safe = [s.id for s in board.spaces if s.kind in SAFE_KINDS]
        self.refund = next((s.id for s in board.spaces if s.kind == "tax-refund"), None)

    # ================================================================== prompts
    def on_subway(self, state: State, prompt: dict[str, Any]) -> Line:
        return {"answer": self.destination(state, prompt["player"], prompt["options"]) or prompt["options"][0]}

    def on_airplane(self, state: State, prompt: dict[str, Any]) -> Line:
        target = self.destination(state, prompt["player"], prompt["options"], include_safe=False)
        return {"answer": target or prompt["space"]}

    def on_use_card(self, state: State, prompt: dict[str, Any]) -> Line:
        return {"answer": "yes"}

    def destination(self, state: State, name: str, options: list[str], include_safe: bool = True) -> str | None:
        """Where a bot goes when it may go anywhere."""
        allowed = set(options)
        if self.refund in allowed and state["pools"].get("tax-pool", 0) >= self.refund_worth:
            return self.refund
        cash = self.player(state, name)["cash"]
        best: tuple[bool, int, str] | None = None
        for sid, rec in state["spaces"].items():
            price = self.price[sid]
            if rec["owner"] is None and sid in allowed and cash - price >= self.params.buy_reserve:
                key = (self.completes(state, name, sid), price, sid)
                best = key if best is None or key > best else best
        if best is not None:
            return best[2]
        if include_safe:
            return next((sid for sid in self.safe if sid in allowed), None)
        return None

    # ================================================================== travel cards
    def before_roll(self, state: State, name: str, prompt: dict[str, Any]) -> Line | None:
        act = super().before_roll(state, name, prompt)
        if act is None and prompt.get("purpose") == "turn":
            act = self.play_travel(state, name)
        return act

    def play_travel(self, state: State, name: str) -> Line | None:
        p = self.player(state, name)
        if state.get("doubles") or p.get("backwards") or state["options"].get("travel_with_dice"):
            return None
        held = [c for c in p["cards"] if c in self.travel]
        for card in held:
            if "to" in self.travel[card]:
                return {"act": {"player": name, "do": "travel", "cards": [card]}}
        forward = [c for c in held if self.travel[c].get("steps", 0) > 0]
        for size in (1, 2, 3):
            for cards in combinations(forward, size):
                steps = sum(self.travel[c]["steps"] for c in cards)
                if self.good_landing(state, name, p["space"], steps):
                    return {"act": {"player": name, "do": "travel", "cards": list(cards)}}
        return None

    def good_landing(self, state: State, name: str, start: str, steps: int) -> bool:
        """Whether ``steps`` forward from ``start`` reach, on the same board, a property the bot would buy."""
        space = self.board.by_id[start]
        track = self.board.tracks[space.track]
        if steps >= len(track):
            return False
        passed = [track[(space.index + k) % len(track)] for k in range(steps)]  # the start and the spaces left
        if self.transition_spaces.intersection(passed) or set(passed) & set(state.get("bridge") or ()):
            return False
        target = track[(space.index + steps) % len(track)]
        rec = state["spaces"].get(target)
        if rec is None or rec["owner"] is not None:
            return False
        return self.player(state, name)["cash"] - self.price[target] >= self.params.buy_reserve
