"""The simulator: bots play complete games through the engine, and the run is summed up.

``companion simulate --ruleset classic --players 4 --games 1000`` (see ``docs/simulate.md``).
This package is an adapter: it may use ``random.Random(seed)``; the engine may not.

>>> record = play_game(GameSpec("classic", players=4, seed=1), index=0)
>>> record.cut or record.winner_seat is not None
True
"""

from .game import GameRecord, GameSpec, play_game
from .registry import strategy_for
from .strategy import BotStuck, Strategy

__all__ = ["BotStuck", "GameRecord", "GameSpec", "Strategy", "play_game", "strategy_for"]
