"""How an engine message's argument is said, by its placeholder's name (the shared plan of issue 41).

The table itself is the engine's (``companion.engine.messages.ARG_KINDS``: a placeholder's name, or the name it
starts with, to its kind); until that module exists this room reads the plan's table below.
"""

from __future__ import annotations

from collections.abc import Mapping

try:  # the engine's own table, once the engine's messages have landed
    from companion.engine.messages import ARG_KINDS as _ENGINE_KINDS  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - before i18n-engine's merge
    _ENGINE_KINDS = None

#: The plan's table (docs/i18n-plan.md): a name, or the start of one, to the kind of what it holds.
PLAN_KINDS: Mapping[str, str] = {
    "player": "player", "payee": "player", "creditor": "player", "owner": "player", "taker": "player",
    "who": "player",
    "amount": "money", "cash": "money", "price": "money", "fine": "money", "worth": "money",
    "spaces": "spaces", "space": "space", "card": "card", "deck": "deck",
}


def arg_kind(name: str) -> str:
    """The kind of the placeholder ``name``: its own entry, else the longest entry it starts with ("amount_due" is
    money), else ``number`` (a count, a die, a percentage) or the value as it is."""
    table: Mapping[str, str] = _ENGINE_KINDS if isinstance(_ENGINE_KINDS, Mapping) else PLAN_KINDS
    if name in table:
        return table[name]
    starts = [key for key in table if name.startswith(key)]
    return table[max(starts, key=len)] if starts else "number"
