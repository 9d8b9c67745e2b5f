"""The bot for ``chambers``: a race, so every choice is about getting ahead.

* **star** (6★: draw a skill card or move 6): move, unless the sixth space is a snare the
  bot holds no safe card for (it draws instead);
* **exchange**: change places with the player furthest ahead on the path.
"""

from __future__ import annotations

import random
from typing import Any

from companion.engine import State
from companion.engine.core import Ruleset

from .strategy import Line, Strategy


class ChambersStrategy(Strategy):
    """Races through the chambers."""

    def __init__(self, ruleset: Ruleset, rng: random.Random) -> None:
        super().__init__(ruleset, rng)
        self.path = [s.id for s in self.board.spaces]
        self.index = {sid: i for i, sid in enumerate(self.path)}

    def on_star(self, state: State, prompt: dict[str, Any]) -> Line:
        p = self.player(state, prompt["player"])
        target = self.board.by_id[self.path[min(self.index[p["space"]] + prompt.get("steps", 6), len(self.path) - 1)]]
        safe = any(self.board.cards[c].deck == target.track and self.board.cards[c].kept for c in p["cards"])
        return {"answer": "draw" if target.kind == "snare" and not safe else "move"}

    def on_exchange(self, state: State, prompt: dict[str, Any]) -> Line:
        ahead = max(prompt["options"], key=lambda n: (self.index[self.player(state, n)["space"]], n))
        return {"answer": ahead}
