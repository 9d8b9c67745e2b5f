"""Bot strategies: one object plays every seat of one game, one input at a time.

A strategy reads the state (the JSON object of DESIGN.md with its prompt) and returns the
input a table would send next: an answer, an act, or dice. Dice come from the strategy's
seeded :class:`random.Random` and enter as ordinary ``{"roll": [...]}`` inputs, so the
engine cannot tell a bot from a table and a simulated game is a game file like any other.
Nothing else draws from that generator (a random pick among options has its own, ``choices``):
two games of the same seed under different rules throw the same dice in the same order
(``companion simulate --compare`` pairs them so).

:class:`Strategy` knows only the core's prompt shapes: it rolls the dice a ``roll`` prompt
asks for and picks among a prompt's options. Rulesets get better play from subclasses
(``companion.sim.property`` for the property-trading rulesets) that define
``on_<prompt-kind>`` methods, found by name as the engine finds its ``answer_<kind>``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

from companion.engine import CompanionError, State
from companion.engine.core import Ruleset

Line = dict[str, Any]
Handler = Callable[[State, dict[str, Any]], "Line | None"]


class BotStuck(CompanionError, RuntimeError):
    """A bot found no input the game accepts (a gap in a strategy or in a ruleset)."""


class Strategy:
    """Plays every seat of one game; subclasses add ``on_<kind>`` handlers for better play."""

    #: Prompt kinds whose options are tried in this order before a random pick (first listed first).
    preferred: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def __init__(self, ruleset: Ruleset, rng: random.Random) -> None:
        self.ruleset = ruleset
        self.board = ruleset.board
        self.rng = rng
        # Picks among options draw from their own generator, seeded from the dice's state without drawing from it.
        self.choices = random.Random(repr(rng.getstate()[1][:4]))
        self._seats: dict[str, int] = {}
        self._handlers: dict[str, Handler] = {
            attr[3:].replace("_", "-"): getattr(self, attr) for attr in dir(type(self)) if attr.startswith("on_")
        }

    def next_input(self, state: State) -> Line:
        """The input the table would send now (the game must not be over)."""
        line = self.interject(state)
        if line is not None:
            return line
        prompt = state["prompt"]
        if prompt is None:
            raise BotStuck(f"{state['ruleset']}: the game waits for nothing")
        handler = self._handlers.get(prompt["kind"])
        if handler is not None:
            line = handler(state, prompt)
            if line is not None:
                return line
        line = next(self.fallback(state), None)
        if line is None:
            raise BotStuck(f"{state['ruleset']}: no bot knows how to answer a {prompt['kind']!r} prompt")
        return line

    def interject(self, state: State) -> Line | None:
        """An input that comes before the prompt's answer (a reply to a trade offer); None if none."""
        return None

    def fallback(self, state: State) -> Iterator[Line]:
        """Plainer inputs to try when the chosen one is refused: the dice, then every option in turn."""
        prompt = state["prompt"]
        if prompt is None:
            return
        if prompt["kind"] == "roll":
            yield self.roll(prompt)
            return
        options = list(prompt.get("options") or [])
        first = [o for o in self.preferred.get(prompt["kind"], ()) if o in options]
        rest = [o for o in options if o not in first]
        self.choices.shuffle(rest)
        for choice in first + rest:
            yield {"answer": choice}

    def candidates(self, state: State) -> Iterator[Line]:
        """The bot's input, then its fallbacks, best first: the table sends the first one accepted."""
        try:
            yield self.next_input(state)
        except BotStuck:
            pass
        yield from self.fallback(state)

    # ================================================================== auctions
    def next_bid(self, state: State, name: str, auction: Mapping[str, Any]) -> int | None:
        """What ``name`` would bid next in ``auction`` (its ``bid`` and ``bidder`` as they stand), None to pass. The
        generic bot never bids. A subclass's rule may read the state and the auction, nothing that changes while
        the bidding goes on: :meth:`play_out` plays the bidding ahead with it."""
        return None

    def on_auction(self, state: State, prompt: dict[str, Any]) -> Line | None:
        """The bids the bots would make one after another, made at once: the bidder who would end up highest bids
        the last amount, and the others pass. The winner and the price are those of the bidding war (same games);
        only the raises that would be outbid are left out (issue 26: each was a whole input for the engine)."""
        auction = state.get("auction")
        if not auction:
            return None  # an auction prompt without an auction: nothing a bidder can do
        first, winner, price = self.play_out(state, auction, prompt["waiting"])
        if winner is not None and winner != auction["bidder"]:
            return {"act": {"player": winner, "do": "bid", "amount": price}}
        return first  # the leader wins, or outbid now it wins higher later: the bidding's next input

    def play_out(self, state: State, auction: Mapping[str, Any],
                 waiting: list[str]) -> tuple[Line | None, str | None, int]:
        """The bidding as the bots play it bid by bid, until one bidder is left (or none): among the bidders still
        waiting but the highest, the first in turn order who would raise the bid (:meth:`next_bid`) does; when none
        would, the first of them passes. Returns the first of those inputs (None: nothing is left to do), the
        last bidder (None: nobody bid) and the last bid."""
        waiting = list(waiting)
        bid, bidder = auction["bid"], auction["bidder"]
        first: Line | None = None
        while True:
            others = [n for n in waiting if n != bidder]
            if not others:
                return first, bidder, bid
            step: Line | None = None
            standing = {**auction, "bid": bid, "bidder": bidder}  # the auction as this round of bidders sees it
            for name in others:
                amount = self.next_bid(state, name, standing)
                if amount is not None:
                    bid, bidder = amount, name
                    step = {"act": {"player": name, "do": "bid", "amount": amount}}
                    break
            if step is None:
                waiting.remove(others[0])
                step = {"act": {"player": others[0], "do": "pass"}}
            if first is None:
                first = step

    def roll(self, prompt: Mapping[str, Any]) -> Line:
        """The dice a roll prompt asks for, thrown with the game's random generator."""
        count = prompt.get("dice", self.ruleset.dice_count)
        faces = self.ruleset.die_faces
        rand = self.rng.random  # a fair die from one call (randint costs three Python calls a die)
        if count == 2:  # the usual pair, without a comprehension's frame: the same draws in the same order
            return {"roll": [int(rand() * faces) + 1, int(rand() * faces) + 1]}
        return {"roll": [int(rand() * faces) + 1 for _ in range(count)]}

    def player(self, state: State, name: str) -> dict[str, Any]:
        """A player's record in ``state`` (found at the seat it had before: seats never change order)."""
        players = state["players"]
        try:
            p = players[self._seats[name]]
            if p["name"] == name:
                return p
        except (KeyError, IndexError):
            pass
        for seat, p in enumerate(players):
            if p["name"] == name:
                self._seats[name] = seat
                return p
        raise KeyError(name)
