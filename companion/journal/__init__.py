"""The game journal: every input on disk before it is applied; games rebuilt by replay.

>>> with Journal("games.sqlite3") as journal:
...     game = journal.latest_game(unfinished=True) or journal.new_game(
...         {"ruleset": "classic", "players": ["Ann", "Bob"]})
...     state, events = game.submit({"roll": [4, 3]})
"""

from companion.gamefile import GameFileError

from .errors import EngineFailure, GameDamaged, JournalError, JournalFull
from .store import GameInfo, Journal, StoredGame

__all__ = [
    "EngineFailure", "GameDamaged", "GameFileError", "GameInfo", "Journal", "JournalError", "JournalFull",
    "StoredGame",
]
