"""The landing frequencies drawn on the board as a heat map (SVG, written by hand).

Each track of the board is drawn as a square ring in travel order, the first space in the
bottom-right corner and play going clockwise as on the printed board; smaller tracks nest
inside the largest (the addon's inner board sits inside the outer one). A track that cannot
be a ring (fewer than four spaces, or a length not divisible by four) is drawn as a row below.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from companion.engine.board import Board

CELL = 64
MARGIN = 24
#: A sequential palette (ColorBrewer OrRd), light for rarely landed on, dark for often.
PALETTE = ("#fff7ec", "#fee8c8", "#fdd49e", "#fdbb84", "#fc8d59", "#ef6548", "#d7301f", "#b30000", "#7f0000")


def label_lines(name: str, width: int = 12) -> list[str]:
    """A space's name in at most two short lines (a line too long cut with …)."""
    lines = [""]
    for word in name.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append(word)
        else:
            lines[-1] = f"{lines[-1]} {word}".strip()
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [line if len(line) <= width else line[: width - 1] + "…" for line in lines]


def heat_colour(share: float) -> str:
    """The palette colour for ``share`` (0 to 1 of the most landed-on space)."""
    share = min(max(share, 0.0), 1.0)
    return PALETTE[round(share * (len(PALETTE) - 1))]


def ring_cells(count: int, offset: int) -> list[tuple[int, int]]:
    """Grid cells (column, row) of a ring of ``count`` spaces, from the bottom-right corner, clockwise."""
    side = count // 4 + 1
    last = offset + side - 1
    cells = []
    for i in range(count):
        edge, k = divmod(i, side - 1)
        if edge == 0:
            cells.append((last - k, last))          # bottom row, right to left
        elif edge == 1:
            cells.append((offset, last - k))        # left column, bottom to top
        elif edge == 2:
            cells.append((offset + k, offset))      # top row, left to right
        else:
            cells.append((last, offset + k))        # right column, top to bottom
    return cells


def layout(board: Board) -> tuple[dict[str, tuple[int, int]], int, int]:
    """Grid cells of every space, and the grid's width and height in cells."""
    tracks = sorted(board.tracks.values(), key=len, reverse=True)
    rings: list[tuple[int, tuple[str, ...]]] = []  # (offset, spaces), outermost first
    rows: list[tuple[str, ...]] = []
    size = 0
    for ids in tracks:
        if len(ids) < 4 or len(ids) % 4:
            rows.append(ids)
            continue
        side = len(ids) // 4 + 1
        if not rings:
            size = side
            rings.append((0, ids))
            continue
        offset = (size - side) // 2
        if offset > rings[-1][0]:  # strictly inside the ring drawn last
            rings.append((offset, ids))
        else:
            rows.append(ids)
    cells: dict[str, tuple[int, int]] = {}
    for offset, ids in rings:
        cells.update(zip(ids, ring_cells(len(ids), offset)))
    row = size + (1 if rings and rows else 0)
    for ids in rows:
        cells.update((sid, (column, row)) for column, sid in enumerate(ids))
        row += 1
    width = max([size, *map(len, rows)])
    return cells, width, max(row, size)


def heat_map_svg(board: Board, landings: Mapping[str, int], title: str = "") -> str:
    """An SVG picture of ``board`` with each space coloured by how often tokens landed there."""
    cells, width, height = layout(board)
    total = sum(landings.values()) or 1
    counts = [landings.get(space.id, 0) for space in board.spaces if space.id in cells]
    least, most = min(counts, default=0), max(counts, default=0)
    w, h = width * CELL + 2 * MARGIN, height * CELL + 2 * MARGIN + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="sans-serif">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{MARGIN}" y="{MARGIN - 6}" font-size="14">{escape(title or board.name)}</text>',
    ]
    for space in board.spaces:
        if space.id not in cells:
            continue
        column, row = cells[space.id]
        x, y = MARGIN + column * CELL, MARGIN + row * CELL
        count = landings.get(space.id, 0)
        share = (count - least) / (most - least) if most > least else 0.0
        ink = "white" if share > 0.6 else "black"
        out += [
            f'<g><title>{escape(space.name)}: {count} landings ({100 * count / total:.2f}%)</title>',
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{heat_colour(share)}" '
            'stroke="#555" stroke-width="1"/>',
            *(f'<text x="{x + CELL / 2}" y="{y + 14 + 10 * i}" font-size="8" text-anchor="middle" fill="{ink}">'
              f'{escape(line)}</text>' for i, line in enumerate(label_lines(space.name))),
            f'<text x="{x + CELL / 2}" y="{y + 44}" font-size="12" text-anchor="middle" fill="{ink}">'
            f'{100 * count / total:.1f}%</text></g>',
        ]
    legend_y = h - 32
    for i, colour in enumerate(PALETTE):
        out.append(f'<rect x="{MARGIN + i * 24}" y="{legend_y}" width="24" height="12" fill="{colour}" stroke="#555"/>')
    out.append(f'<text x="{MARGIN + len(PALETTE) * 24 + 8}" y="{legend_y + 10}" font-size="10">'
               f'{100 * least / total:.1f}% … {100 * most / total:.1f}% of {total} landings</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
