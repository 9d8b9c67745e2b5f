"""Which strategy plays which ruleset.

Every ruleset the engine registers gets a bot: a ruleset listed here gets its own
strategy; any other one the generic :class:`Strategy` (dice for every roll, a random
option for every question), so a new ruleset can be simulated the day it appears.
"""

from __future__ import annotations

from collections.abc import Mapping

from .addon import AddonStrategy
from .chambers import ChambersStrategy
from .magie1904 import Magie1904Strategy
from .magie1924 import Magie1924Strategy
from .property import PropertyStrategy
from .strategy import Strategy

STRATEGIES: Mapping[str, type[Strategy]] = {
    "classic": PropertyStrategy,
    "addon": AddonStrategy,
    "magie-1904": Magie1904Strategy,
    "magie-1924": Magie1924Strategy,
    "chambers": ChambersStrategy,
}


def strategy_for(ruleset_id: str) -> type[Strategy]:
    """The strategy class that plays ``ruleset_id``."""
    return STRATEGIES.get(ruleset_id, Strategy)
