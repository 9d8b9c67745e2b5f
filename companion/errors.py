"""The errors every part of the companion raises: one root, each also a builtin.

A leaf of its own (it imports nothing): the engine raises them, and so do the rooms it reads its board files
through (``companion.boards``, ``companion.localfiles``), which therefore never import the engine.
``companion.engine`` hands them on, as every other room knows them."""


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class IllegalInput(CompanionError, ValueError):
    """An input the game cannot accept now; the state is unchanged.

    ``str(error)`` is a sentence fit to show a player.
    """


class BoardError(CompanionError, ValueError):
    """A board file that does not describe a playable board (names the file and key)."""
