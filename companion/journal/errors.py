"""The errors of the journal: each a :class:`CompanionError` and a builtin."""

from __future__ import annotations

from companion.engine import CompanionError


class JournalError(CompanionError, RuntimeError):
    """The journal cannot do what was asked (the message says why)."""


class JournalFull(JournalError, OSError):
    """The disk (or the database's size limit) is full: the input was NOT recorded.

    Nothing was applied or acknowledged; free some space and send the input again.
    """


class GameDamaged(JournalError):
    """A game's records are damaged beyond the last one: the game is not loaded.

    Other games in the same journal are unaffected.
    """


class EngineFailure(JournalError):
    """The engine crashed on an input (a bug, not a refusal).

    The input stays journaled and counts as refused, on replay too, so the game goes on.
    """
