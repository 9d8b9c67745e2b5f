"""The registry of rulesets: ``find_ruleset(id)`` gives the ruleset with its bundled board."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from companion.boards import read_board_file

from ..board import build_board
from ..core import Ruleset
from .addon import AddonRules
from .chambers import ChambersRules
from .classic import ClassicRules
from .magie1904 import Magie1904Rules
from .magie1924 import Magie1924Rules

_CLASSES: dict[str, type[Ruleset]] = {
    cls.id: cls for cls in (ClassicRules, AddonRules, Magie1904Rules, Magie1924Rules, ChambersRules)}


def ruleset_ids() -> list[str]:
    """Ids of every ruleset the engine plays."""
    return list(_CLASSES)


def ruleset_class(ruleset_id: str) -> type[Ruleset]:
    try:
        return _CLASSES[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r} (known: {', '.join(_CLASSES)})") from None


def load_ruleset(ruleset_id: str, board_file: str | Path | None = None) -> Ruleset:
    """A ruleset with its bundled board, or with a user's board file."""
    cls = ruleset_class(ruleset_id)
    data, name = read_board_file(board_file or ruleset_id)
    board = build_board(data, name, cls.kinds, decks=set(cls.deck_names) or None, effects=set(cls.effects) or None)
    return cls(board)


@cache
def find_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with its bundled board (built once per process: boards are constant data)."""
    return load_ruleset(ruleset_id)
