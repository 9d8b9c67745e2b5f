"""What one simulated game counts, read from its inputs and the engine's events.

The tally never looks inside the engine: it reads the events a table would show
(``move`` with ``to``, ``pay`` with ``payer`` and ``amount``, ``bankrupt``) and the state
before each input, as a referee at the table would.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, State
from companion.engine.messages import english, is_message

#: Player-turns between two samples of the cash in play (the first at turn 1).
CASH_STEP = 10

#: How the reason of a payment that could not be made reads as a cause of bankruptcy.
CAUSES = (
    ("rent", "rent"),
    ("interest", "mortgage interest"),
    ("income tax", "income tax"),
    ("property tax", "card"),  # chance-property-tax: a card, not a tax space
    ("tax", "tax"),
    ("repairs", "card"),
    ("card", "card"),
    ("fine", "jail fine"),
    ("double trouble", "double trouble"),
    ("triple play", "triple play"),
)


@dataclass
class Tally:
    """The counts of one game; ``observe`` is called once per accepted input."""

    landings: Counter[str] = field(default_factory=Counter)
    switches: int = 0
    #: Every time a token changed track (addon: board) by any way: elevators and the bridge, and also cards,
    #: the subway, the airplane and jail, which take a token straight across. Needs ``tracks``.
    track_changes: int = 0
    #: Each space's track (the board it is on), from the ruleset's board.
    tracks: Mapping[str, str] = field(default_factory=dict, repr=False)
    pool_payouts: Counter[str] = field(default_factory=Counter)
    #: How many times each pool paid out (``pool_payouts``: how much in all).
    pool_payout_count: Counter[str] = field(default_factory=Counter)
    #: Rent paid from player to player, in all.
    rent: int = 0
    #: The cash the players still in the game hold, at the start of player-turn 1, 1 + CASH_STEP, ...
    cash: list[int] = field(default_factory=list)
    prizes: Counter[int] = field(default_factory=Counter)  # triple play prizes paid by the bank, by amount
    bankruptcies: list[str] = field(default_factory=list)

    def observe(self, before: State | None, line: Mapping[str, Any] | None, events: Iterable[Event]) -> None:
        """Count what one input did (for the set-up: ``line`` is None, ``before`` the first state)."""
        where: dict[str, Any] | None = None  # each token's space as the input's moves go on
        if before is not None and before["turn"]["number"] > len(self.cash) * CASH_STEP:
            self.cash.append(sum(p.get("cash", 0) for p in before["players"] if not p.get("bankrupt")))
        for event in events:
            kind = event["kind"]
            if kind == "move":
                to = event.get("to")
                if to is not None:
                    self.landings[to] += 1
                if event.get("switches"):
                    self.switches += len(event["switches"])
                    self.track_changes += len(event["switches"])
                if self.tracks and to is not None and before is not None:
                    if where is None:
                        where = {p["name"]: p.get("space") for p in before["players"]}
                    who = str(event.get("player"))
                    came_from = where.get(who)
                    if not event.get("switches") and came_from is not None and \
                            self.tracks.get(came_from) != self.tracks.get(to):
                        self.track_changes += 1  # straight across: a card, the subway, the airplane, jail
                    where[who] = to
            elif kind == "pay" and before is not None:
                payer, payee, pools = event["payer"], event["payee"], before["pools"]
                if payer in pools:
                    self.pool_payouts[payer] += event["amount"]
                    self.pool_payout_count[payer] += 1
                elif payer == "bank":
                    if prize_roll(before, line):
                        self.prizes[event["amount"]] += 1
                elif payee != "bank" and payee not in pools and is_rent(event.get("reason")):
                    self.rent += event["amount"]
            elif kind == "bankrupt":
                self.bankruptcies.append(cause_of_bankruptcy(before, line, event))


def prize_roll(before: State, line: Mapping[str, Any] | None) -> bool:
    """Whether the input answered a triple play roll (the bank's payments then are prizes)."""
    prompt = before["prompt"]
    return bool(prompt) and prompt.get("purpose") == "triple-play" and "roll" in (line or {})


def is_rent(reason: Any) -> bool:
    """Whether a payment's reason is a rent ("rent for Baltic Avenue": :func:`companion.engine.core.rent_for`), read
    from its message, not from a sentence (the simulation path makes none)."""
    return is_message(reason) and reason["msg"] == "rent for {space}"


def reason_words(reason: Any) -> str:
    """A payment's reason in small English words, for its cause: its message's words, spaces and cards by id (a
    sentence made only for a bankruptcy, never for every payment)."""
    return (english(reason) if is_message(reason) else str(reason)).lower()


def cause_of_bankruptcy(before: State | None, line: Mapping[str, Any] | None, event: Event) -> str:
    """Why a player left the game: the payment their debt prompt waited for, or how they left."""
    prompt = (before or {}).get("prompt") or {}
    act = (line or {}).get("act")
    if isinstance(act, Mapping) and act.get("do") == "bankrupt" and act.get("player") == event.get("player"):
        if prompt.get("kind") != "debt" or prompt.get("player") != event.get("player"):
            return "resigned"
    if prompt.get("kind") != "debt" or prompt.get("player") != event.get("player"):
        said = reason_words(event.get("reason", ""))  # magie-1924 takes out a player with no card without asking
        return next((cause for word, cause in CAUSES if word in said), "could not pay at once")
    reason = ""
    for task in (before or {}).get("queue", [])[:1]:
        if task and task[0] == "pay" and len(task) >= 5:
            reason = reason_words(task[4])
    for word, cause in CAUSES:
        if word in reason:
            return cause
    if prompt.get("creditor") not in (None, "bank", *(before or {}).get("pools", {})):
        return "payment to a player"
    return reason or "payment to the bank"
