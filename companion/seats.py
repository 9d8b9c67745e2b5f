"""Players' seats: who sits where and in which colour, the one source for the phone page, the seat lights and the
voice.

A player's seat is their place in the turn order (seat 1 plays first); the turn goes round the table, so the seats
are wired round the table in that order (``hardware/pins.toml``, ``[lights]``). Each seat has a colour: the phone
page draws the player's tokens, deeds and balance line in it, and the seat's light shines in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

#: The players' colours, seat 1 first (more players than colours: they go round again). The phone page reads them
#: from the page (``data-colours``), the lights from :func:`led_rgb`.
PLAYER_COLOURS = ("#ff6b6b", "#4dabf7", "#ffd43b", "#69db7c", "#da77f2", "#ff922b", "#3bc9db", "#f783ac")

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Seat:
    """One player at the table: their seat (0 for the first in turn order), name and colour."""

    index: int
    name: str
    colour: str

    @property
    def rgb(self) -> RGB:
        """The colour for an LED (:func:`led_rgb`)."""
        return led_rgb(self.colour)


def colour_of(index: int) -> str:
    """The colour of seat ``index`` (0-based)."""
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def seats(state: Mapping[str, Any] | None) -> list[Seat]:
    """The players of ``state`` in their seats (none without a game)."""
    if state is None:
        return []
    return [Seat(i, p["name"], colour_of(i)) for i, p in enumerate(state["players"])]


def seat_of(state: Mapping[str, Any] | None, name: str | None) -> int | None:
    """The seat of the player called ``name``, or None (nobody, the bank, a player not in the game)."""
    return next((s.index for s in seats(state) if s.name == name), None)


@lru_cache(maxsize=64)  # a handful of colours, asked for every lit seat at every input and every blink (issue 43)
def led_rgb(colour: str) -> RGB:
    """A page colour (``#rrggbb``) as an LED shows it best: the screen's pastel has white mixed in, which an LED
    shows as a washed-out white; most of the white is taken out and the brightest channel goes to full."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    white = min(r, g, b) * 0.85
    r2, g2, b2 = (c - white for c in (r, g, b))
    top = max(r2, g2, b2) or 1.0
    return (round(r2 * 255 / top), round(g2 * 255 / top), round(b2 * 255 / top))
