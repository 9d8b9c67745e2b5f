"""The errors every part of the companion raises: one root, each also a builtin."""


class CompanionError(Exception):
    """Root of every error the companion raises on purpose."""


class IllegalInput(CompanionError, ValueError):
    """An input the game cannot accept now; the state is unchanged.

    ``str(error)`` is a sentence fit to show a player.
    """


class BoardError(CompanionError, ValueError):
    """A board file that does not describe a playable board (names the file and key)."""
