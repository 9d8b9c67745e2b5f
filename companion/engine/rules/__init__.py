"""The registry of rulesets: ``find_ruleset(id)`` gives the ruleset with its bundled board."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from pathlib import Path

from companion.boards import read_board_file

from ..board import build_board
from ..core import Ruleset

#: Each ruleset's id, its module and its class, imported when first asked for (a table resuming a game imports its
#: own ruleset's alone: the others are ~2 ms of a start here, ~50 ms on a Pi Zero 2 W; issue 43).
_WHERE: dict[str, tuple[str, str]] = {
    "classic": ("classic", "ClassicRules"), "addon": ("addon", "AddonRules"),
    "magie-1904": ("magie1904", "Magie1904Rules"), "magie-1924": ("magie1924", "Magie1924Rules"),
    "chambers": ("chambers", "ChambersRules")}


def ruleset_ids() -> list[str]:
    """Ids of every ruleset the engine plays."""
    return list(_WHERE)


@cache
def ruleset_class(ruleset_id: str) -> type[Ruleset]:
    try:
        module, name = _WHERE[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r} (known: {', '.join(_WHERE)})") from None
    cls: type[Ruleset] = getattr(import_module(f".{module}", __name__), name)
    assert cls.id == ruleset_id, (cls.id, ruleset_id)
    return cls


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
