"""The bot for ``addon``: the property-trading bot plus the inner board's choices.

* **subway / airplane**: go to the tax refund space when the tax pool holds at least
  ``refund_worth``; else to the unowned property it can best afford (one that completes a
  group first); else to a space where nothing is owed (free parking, jail, PASS, GO); the
  airplane stays put when none of these is better than where the token stands;
* **use-card** (the tax refund card, the half-prize card): always yes;
* **travel cards**, instead of the first throw of a turn: the GO or PASS card at once; forward
  cards (one, two or three together) when they land exactly on an unowned property the bot
  would buy, on its own board without passing a transition space; the elevator card and
  backward cards are kept (they can be traded like any kept card). With ``travel_with_dice``
  (cards add to the throw) the bot adds the forward cards, if any, that most raise its chance,
  over the 36 throws of two dice, of landing so on a property it would buy;
* **the bridge** (``bridge_moves``: who passed over it may move it): in front of the next player
  (its outer end 7 spaces ahead of their token, else 6, 8, 5 or 9), its inner end on the bot's
  best inner property (the highest base rent), else where it was; not moved when the next player
  is on the inner board or no such place is free.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from companion.engine import State
from companion.engine.core import Ruleset
from companion.engine.rules.addon import AddonRules

from .property import PropertyParams, PropertyStrategy
from .strategy import Line

SAFE_KINDS = ("free", "jail", "pass", "go")
#: Each total of two dice with its chance (in 36ths).
THROWS = tuple((total, 6 - abs(total - 7)) for total in range(2, 13))
#: How far ahead of the next player the bridge goes, the likeliest throw first.
BRIDGE_AHEAD = (7, 6, 8, 5, 9)


class AddonStrategy(PropertyStrategy):
    """Plays the inner board: subway and airplane destinations, travel cards, card plays."""

    refund_worth = 100

    def __init__(self, ruleset: Ruleset, rng: random.Random, params: PropertyParams | None = None) -> None:
        super().__init__(ruleset, rng, params)
        assert isinstance(ruleset, AddonRules)
        self.addon = ruleset
        board = self.board
        self.travel = {c.id: c.params for c in board.cards.values() if c.params.get("use") == "travel"}
        self.transition_spaces = frozenset(
            s.id for s in board.spaces if s.kind == "elevator" or (s.kind == "railroad" and "side" in s.data))
        self.safe = [s.id for s in board.spaces if s.kind in SAFE_KINDS]
        self.refund = next((s.id for s in board.spaces if s.kind == "tax-refund"), None)
        self.outer_track = board.spaces[0].track
        self.bridge_ends = frozenset(s.id for s in board.spaces) - self.transition_spaces  # what may hold an end

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
        if state.get("doubles") or p.get("backwards"):
            return None
        held = [c for c in p["cards"] if c in self.travel]
        if state["options"].get("travel_with_dice"):
            return self.add_travel(state, name, p, held)
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

    def add_travel(self, state: State, name: str, p: dict[str, Any], held: list[str]) -> Line | None:
        """Option ``travel_with_dice``: the forward cards to add to the coming throw, if any raise the chance (in
        36ths) of landing on a property the bot would buy."""
        if p.get("travel_bonus"):
            return None  # already added to this throw
        forward = [c for c in held if self.travel[c].get("steps", 0) > 0]
        if not forward:
            return None

        def chance(steps: int) -> int:
            return sum(ways for total, ways in THROWS if self.good_landing(state, name, p["space"], total + steps))

        best, best_cards = chance(0), None
        for size in (1, 2, 3):
            for cards in combinations(forward, size):
                odds = chance(sum(self.travel[c]["steps"] for c in cards))
                if odds > best:
                    best, best_cards = odds, list(cards)
        return {"act": {"player": name, "do": "travel", "cards": best_cards}} if best_cards else None

    # ================================================================== the bridge
    def interject(self, state: State) -> Line | None:
        mover = state.get("bridge_mover")
        if mover:
            act = self.move_bridge(state, mover)
            if act is not None:
                return act
        return super().interject(state)

    def move_bridge(self, state: State, name: str) -> Line | None:
        """Where ``name`` (who passed over the bridge) moves it: see the module's docstring."""
        bridge = state.get("bridge")
        players = state["players"]
        seat = next(i for i, p in enumerate(players) if p["name"] == name)
        following = [players[(seat + k) % len(players)] for k in range(1, len(players))]
        nxt = next((p for p in following if not p["bankrupt"]), None)
        if not bridge or nxt is None:
            return None
        start = self.board.by_id[nxt["space"]]
        if start.track != self.outer_track:
            return None
        track = self.board.tracks[start.track]
        outer = next((track[(start.index + k) % len(track)] for k in BRIDGE_AHEAD
                      if track[(start.index + k) % len(track)] in self.bridge_ends), None)
        mine = [sid for sid in self.owned(state, name)
                if sid in self.bridge_ends and self.board.by_id[sid].track != self.outer_track]
        inner = max(mine, key=lambda sid: ((self.rents[sid] or (0,))[0], sid)) if mine else bridge[1]
        if outer is None or [outer, inner] == list(bridge):
            return None
        return {"act": {"player": name, "do": "move-bridge", "outer": outer, "inner": inner}}

    def good_landing(self, state: State, name: str, start: str, steps: int) -> bool:
        """Whether ``steps`` forward from ``start`` reach, on the same board, a property the bot would buy."""
        space = self.board.by_id[start]
        track = self.board.tracks[space.track]
        if steps >= len(track):
            return False
        passed = [track[(space.index + k) % len(track)] for k in range(steps)]  # the start and the spaces left
        pairs = self.addon.pairs(state)  # the elevators and the railroads they face now, and the bridge
        if any(sid in pairs for sid in passed):
            return False
        target = track[(space.index + steps) % len(track)]
        rec = state["spaces"].get(target)
        if rec is None or rec["owner"] is not None:
            return False
        return self.player(state, name)["cash"] - self.price[target] >= self.params.buy_reserve
