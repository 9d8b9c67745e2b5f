"""The board as drawing data: where each space of a ruleset's board sits, in board cells.

Tracks whose length divides by four are drawn as square rings, the longest outside and the
others nested inside it (``addon``'s inner board); any other track is drawn as a snake of rows
(``chambers``' path). A ruleset that pairs spaces across tracks (``pairs(state)``: the elevators)
has them drawn as links. The page turns this into SVG; nothing here is ruleset-specific.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from collections.abc import Mapping
from typing import Any

from companion.engine.board import Board, Space

#: The colours of the groups players know; any other group gets a stable colour from its name.
GROUP_COLOURS = {
    "purple": "#8e5aa8", "brown": "#8d5a3b", "light-blue": "#8fd3f4", "pink": "#d6589c", "orange": "#f39a33",
    "red": "#e0413a", "yellow": "#f2d43c", "green": "#2fa35a", "dark-blue": "#3d63c9",
    "railroad": "#9aa3ad", "utility": "#c7c0a6",
    "new-orleans": "#b38bd9", "boston": "#e27d60", "san-francisco": "#48b7a8", "chicago": "#9d7bd8",
}
SNAKE_WIDTH = 8


def group_colour(group: str | None) -> str | None:
    if group is None:
        return None
    if group in GROUP_COLOURS:
        return GROUP_COLOURS[group]
    hue = int(hashlib.sha256(group.encode()).hexdigest()[:4], 16) % 360
    return f"hsl({hue} 55% 55%)"


@dataclass(frozen=True)
class Cell:
    """One space's place: column and row in cells, and the side of its ring (0 bottom … 3 right; -1 path)."""

    id: str
    name: str
    kind: str
    track: str
    x: int
    y: int
    side: int
    group: str | None
    colour: str | None
    price: int | None
    ownable: bool = False


def ring(length: int, offset: int, size: int) -> list[tuple[int, int, int]]:
    """Cells of a square ring of ``length`` spaces (index 0 bottom right, clockwise on screen)."""
    per_side = length // 4
    last = offset + size - 1
    cells = []
    for i in range(length):
        side, k = divmod(i, per_side)
        if side == 0:
            cells.append((last - k, last, 0))
        elif side == 1:
            cells.append((offset, last - k, 1))
        elif side == 2:
            cells.append((offset + k, offset, 2))
        else:
            cells.append((last, offset + k, 3))
    return cells


def snake(length: int, top: int, width: int = SNAKE_WIDTH) -> list[tuple[int, int, int]]:
    """Cells of a path drawn in rows, left to right then right to left."""
    cells = []
    for i in range(length):
        row, k = divmod(i, width)
        cells.append((k if row % 2 == 0 else width - 1 - k, top + row, -1))
    return cells


def layout(board: Board) -> dict[str, Any]:
    """Drawing data for a board: ``width``/``height`` in cells, ``spaces``, ``tracks``, ``groups``."""
    tracks = list(board.tracks.items())  # in board order
    places: dict[str, tuple[int, int, int]] = {}
    rings = all(len(ids) % 4 == 0 and len(ids) >= 8 for _, ids in tracks)
    if rings:
        tracks.sort(key=lambda item: -len(item[1]))
        width = height = len(tracks[0][1]) // 4 + 1
        for _, ids in tracks:  # nested rings, centred in the outer one
            size = len(ids) // 4 + 1
            places.update(zip(ids, ring(len(ids), (width - size) // 2, size)))
    else:
        top = 0
        width = 1
        for _, ids in tracks:
            places.update(zip(ids, snake(len(ids), top)))
            top += -(-len(ids) // SNAKE_WIDTH) + 1
            width = max(width, min(len(ids), SNAKE_WIDTH))
        height = max(top - 1, 1)
    cells = [_cell(space, places[space.id]) for space in board.spaces]
    return {
        "name": board.name,
        "ruleset": board.ruleset,
        "width": width,
        "height": height,
        "tracks": {name: list(ids) for name, ids in board.tracks.items()},
        "spaces": [{key: value for key, value in asdict(c).items() if value is not None and value is not False}
                   for c in cells],  # no nulls, no "ownable": false (the page reads an absent key as either)
        "groups": {g: {"colour": group_colour(g), "spaces": list(ids)} for g, ids in board.groups.items()},
    }


def _cell(space: Space, place: tuple[int, int, int]) -> Cell:
    x, y, side = place
    return Cell(space.id, space.name, space.kind, space.track, x, y, side, space.group, group_colour(space.group),
                space.price, space.ownable)


def links(ruleset: Any, state: Mapping[str, Any] | None) -> list[list[str]]:
    """Pairs of spaces a token can switch between (addon's elevators and railroads, a bridge).

    Asked of the ruleset (``pairs(state)``, if it has one), since the pairs can change during a game.
    """
    pairs = getattr(ruleset, "pairs", None)
    if pairs is None or state is None or state.get("ruleset") != ruleset.id:
        if pairs is None:
            return []
        state = {"ruleset": ruleset.id, "options": dict(ruleset.board.options)}
    try:
        found = {tuple(sorted(pair)) for pair in pairs(state).items()}
    except (KeyError, TypeError, ValueError):
        return []
    return [list(pair) for pair in sorted(found)]
