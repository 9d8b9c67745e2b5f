"""The errors every part of the companion raises: one root, each also a builtin.

A leaf of its own (it imports nothing): the engine raises them, and so do the rooms it reads its board files
through (``companion.boards``, ``companion.localfiles``), which therefore never import the engine.
``companion.engine`` hands them on, as every other room knows them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class IllegalInput(CompanionError, ValueError):
    """An input the game cannot accept now; the state is unchanged.

    It carries a message (``companion.engine.messages``): ``msg``, its arguments ``params`` (``args`` is the
    exception's own) and ``plural``; :attr:`message` gives them as the engine's events do. ``str(error)`` is the
    English sentence fit to show a player, made by :attr:`render` (the engine's English renderer, which the engine's
    ``reject`` sets: this module imports nothing) with :attr:`names` (the ruleset that refused it, set as the refusal
    leaves ``Ruleset.apply``). Without ``params`` (the other rooms' refusals) ``msg`` is a sentence already, shown as
    it is.
    """

    def __init__(self, msg: str, params: Mapping[str, Any] | None = None, plural: str | None = None) -> None:
        super().__init__(msg, params, plural)
        self.msg = msg
        self.params: Mapping[str, Any] = params or {}
        self.literal = params is None  # a sentence made elsewhere (a room's own refusal), not a template
        self.plural = plural
        self.names: Any = None
        self.render: Callable[[Mapping[str, Any], Any], str] | None = None

    @property
    def message(self) -> dict[str, Any]:
        """The refusal as a message: ``{"msg": ..., "args": ...}`` (and ``plural``)."""
        said = {"msg": self.msg, "args": dict(self.params)}
        if self.plural is not None:
            said["plural"] = self.plural
        return said

    def __str__(self) -> str:
        if self.literal:
            return self.msg
        if self.render is not None:
            return self.render(self.message, self.names)
        return self.msg.format_map({name: str(value) for name, value in self.params.items()})


class BoardError(CompanionError, ValueError):
    """A board file that does not describe a playable board (names the file and key)."""
