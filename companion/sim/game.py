"""One simulated game: bots feed inputs to the engine until somebody wins or the turn cap.

The game goes through :func:`companion.engine.apply` as a live table does, on its simulation
path (``table=False``: the same rules, states and events, without the undo record and the log
nobody reads in a bot game); the bots' dice are inputs. Every game's seeds derive from the master seed and the game's
index alone, so a run gives the same results however its games are spread over workers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, IllegalInput, State, apply, find_ruleset, new_game, sentence
from companion.engine.rng import stream_seed

from .registry import strategy_for
from .strategy import BotStuck, Line
from .tally import Tally

SEAT_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
DEFAULT_TURN_CAP = 1000
#: What the table sends when its clock runs out (option ``end_at_minutes``).
END_GAME: Line = {"act": {"player": "host", "do": "end-game"}}
#: Inputs allowed per turn before a game counts as stuck (and is cut): a safety net, never reached in play.
INPUTS_PER_TURN_CAP = 400


@dataclass(frozen=True)
class GameSpec:
    """What every game of a run shares."""

    ruleset: str
    players: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    turn_cap: int = DEFAULT_TURN_CAP
    #: Seconds a player-turn takes at the table (0: no clock). With option ``end_at_minutes`` the host ends the game
    #: (the highest worth wins) when the turns played at this pace reach the time limit, as the table's clock would.
    pace: float = 0.0

    def seats(self) -> list[str]:
        if not 1 <= self.players <= len(SEAT_NAMES):
            raise ValueError(f"from 1 to {len(SEAT_NAMES)} players, not {self.players}")
        return list(SEAT_NAMES[: self.players])

    def time_limit_turns(self) -> int | None:
        """The player-turn at whose start the table's clock ends the game (None: no time limit or no pace)."""
        minutes = self.options.get("end_at_minutes", 0)
        return int(minutes * 60 // self.pace) + 1 if minutes and self.pace else None

    def game_seed(self, index: int) -> int:
        """The seed of game ``index`` (shuffles and dice), derived from the master seed alone."""
        return stream_seed(self.seed, f"game:{index}") >> 1


@dataclass
class GameRecord:
    """The outcome and the counts of one game (``seconds`` is the only figure that varies between runs)."""

    index: int
    seed: int
    winner_seat: int | None
    turns: int
    inputs: int
    cut: bool
    tally: Tally
    rejected: int = 0
    first_rejection: str | None = None
    seconds: float = 0.0
    #: How it ended: "bankruptcy" (one solvent player left), "bankruptcy limit" (option end_after_bankruptcies),
    #: "time limit" (end_at_minutes at the spec's pace), "turn cap" (cut, no winner).
    ended: str = "bankruptcy"


def play_game(spec: GameSpec, index: int, lines: list[Line] | None = None, *, table: bool = False) -> GameRecord:
    """Play game ``index`` of a run; ``lines`` (if given) receives the game file's input lines; ``table``: through
    the table's path of the engine (undo record and log kept) instead of the simulation path."""
    started = time.perf_counter()
    seed = spec.game_seed(index)
    seats = spec.seats()
    setup = {"ruleset": spec.ruleset, "players": seats, "seed": seed, "options": dict(spec.options)}
    state, events = new_game(setup, table=table)
    if lines is not None:
        lines.append({"setup": setup})
    rules = find_ruleset(spec.ruleset)
    strategy = strategy_for(spec.ruleset)(rules, random.Random(seed))
    board = rules.board
    tally = Tally(tracks={s.id: s.track for s in board.spaces} if len(board.tracks) > 1 else {})
    tally.observe(state, None, events)  # the set-up: start money paid from a pool counts as paid out
    inputs = rejected = 0
    first_rejection = None
    cap, input_cap = spec.turn_cap, spec.turn_cap * INPUTS_PER_TURN_CAP
    clock = spec.time_limit_turns() or cap + 1
    while state["winner"] is None and state["turn"]["number"] <= cap and inputs < input_cap:
        line = END_GAME if state["turn"]["number"] >= clock else strategy.next_input(state)
        try:
            after, events = rules.apply(state, line, table=table)  # engine.apply's work for a game under way
        except IllegalInput as error:
            rejected += 1
            first_rejection = first_rejection or f"{describe_input(line)}: {error}"
            line, accepted, events, refused = first_accepted(strategy.fallback(state), state, table=table)
            rejected += refused
            if accepted is None:
                prompt = state["prompt"] or {}
                raise BotStuck(f"{spec.ruleset} game {index}: no input the bot tried was accepted at "
                               f"{prompt.get('kind')!r} ({sentence(prompt, rules)!r}); first refusal: {first_rejection}")
            after = accepted
        tally.observe(state, line, events)
        if lines is not None:
            lines.append(line)
        state = after
        inputs += 1
    winner = state["winner"]
    return GameRecord(
        index=index, seed=seed, winner_seat=seats.index(winner) if winner in seats else None,
        turns=min(state["turn"]["number"], cap), inputs=inputs, cut=winner is None, tally=tally,
        rejected=rejected, first_rejection=first_rejection, seconds=time.perf_counter() - started,
        ended=how_it_ended(state, line if inputs else None),
    )


def how_it_ended(state: State, last: Line | None) -> str:
    """How a game reached its final ``state`` (``last``: its last input), as :class:`GameRecord` names it."""
    if state["winner"] is None:
        return "turn cap"
    if last == END_GAME:
        return "time limit"
    solvent = sum(1 for p in state["players"] if not p.get("bankrupt"))
    return "bankruptcy" if solvent == 1 else "bankruptcy limit"


def first_accepted(lines: Iterable[Line], state: State, *,
                   table: bool = True) -> tuple[Line, State | None, list[Event], int]:
    """The first of ``lines`` the engine accepts: (line, new state, events, refusals before it); ``table``: as
    :func:`companion.engine.apply`."""
    refused = 0
    line: Line = {}
    for line in lines:
        try:
            after, events = apply(state, line, table=table)
            return line, after, events, refused
        except IllegalInput:
            refused += 1
    return line, None, [], refused


def describe_input(line: Line) -> str:
    return ", ".join(f"{k}={v}" for k, v in line.items())
