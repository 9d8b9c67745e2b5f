"""The simulator: bots play complete games through the engine, and the run is summed up.

``companion simulate --ruleset classic --players 4 --games 1000`` (see ``docs/simulate.md``).
This package is an adapter: it may use ``random.Random(seed)``; the engine may not.

>>> record = play_game(GameSpec("classic", players=4, seed=1), index=0)
>>> record.cut or record.winner_seat is not None
True
"""

from pathlib import Path

from companion.compiled import choose

#: Which bots this process runs: the simulator's modules compiled by Cython from these sources (setup.py compiles
#: those that bots play through, not the command line, report nor plot), or the sources (see companion.compiled).
BUILD = choose(__name__, Path(__file__).parent)

from .game import GameRecord, GameSpec, play_game  # noqa: E402 - after the choice of the compiled modules or sources
from .registry import strategy_for  # noqa: E402
from .strategy import BotStuck, Strategy  # noqa: E402

__all__ = ["BUILD", "BotStuck", "GameRecord", "GameSpec", "Strategy", "play_game", "strategy_for"]
