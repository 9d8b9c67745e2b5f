"""The errors every part of the companion raises: one root, each also a builtin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .messages import english


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class IllegalInput(CompanionError, ValueError):
    """An input the game cannot accept now; the state is unchanged.

    It carries a message (:mod:`.messages`): ``msg``, its arguments ``params`` (``args`` is the exception's own)
    and ``plural``; :attr:`message` gives them as the engine's events do. ``str(error)`` is the English sentence fit
    to show a player, its spaces and cards named by :attr:`names` (the ruleset that refused it, set as the refusal
    leaves :meth:`~companion.engine.core.Ruleset.apply`). Without ``params`` (the other rooms' refusals) ``msg`` is
    a sentence already, shown as it is.
    """

    def __init__(self, msg: str, params: Mapping[str, Any] | None = None, plural: str | None = None) -> None:
        super().__init__(msg, params, plural)
        self.msg = msg
        self.params: Mapping[str, Any] = params or {}
        self.literal = params is None  # a sentence made elsewhere (a room's own refusal), not a template
        self.plural = plural
        self.names: Any = None

    @property
    def message(self) -> dict[str, Any]:
        """The refusal as a message: ``{"msg": ..., "args": ...}`` (and ``plural``)."""
        said = {"msg": self.msg, "args": dict(self.params)}
        if self.plural is not None:
            said["plural"] = self.plural
        return said

    def __str__(self) -> str:
        return self.msg if self.literal else english(self.message, self.names)


class BoardError(CompanionError, ValueError):
    """A board file that does not describe a playable board (names the file and key)."""
