"""The landing frequencies drawn on the board as a heat map, and a comparison's game lengths and cash in play as
two charts (SVG, written by hand).

Each track of the board is drawn as a square ring in travel order, the first space in the
bottom-right corner and play going clockwise as on the printed board; smaller tracks nest
inside the largest (the addon's inner board sits inside the outer one). A track that cannot
be a ring (fewer than four spaces, or a length not divisible by four) is drawn as a row below.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

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


#: The two sets of options of a comparison, as the charts draw them (A blue, B orange: told apart in grey too).
ARMS = (("a", "#1f77b4", ""), ("b", "#e6550d", "6 3"))
CHART_W, CHART_H = 560, 220


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2 or 5 times a power of ten) for about ``ticks`` ticks over ``span``."""
    raw = max(span, 1e-9) / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def chart(title: str, x_label: str, y_label: str, top: float, x_max: float, y_max: float,
          lines: Sequence[tuple[str, str, str, Sequence[tuple[float, float]]]]) -> list[str]:
    """One chart at ``top``: axes with round ticks, and each line (name, colour, dashes, points)."""
    left, width, height = MARGIN + 56, CHART_W, CHART_H
    bottom = top + height

    def x(v: float) -> float:
        return left + width * v / (x_max or 1)

    def y(v: float) -> float:
        return bottom - height * v / (y_max or 1)

    out = [f'<text x="{left}" y="{top - 10}" font-size="13" font-weight="bold">{escape(title)}</text>',
           f'<line x1="{left}" y1="{bottom}" x2="{left + width}" y2="{bottom}" stroke="#333"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#333"/>',
           f'<text x="{left + width / 2}" y="{bottom + 32}" font-size="11" text-anchor="middle">'
           f'{escape(x_label)}</text>',
           f'<text x="{left - 46}" y="{top + height / 2}" font-size="11" text-anchor="middle" '
           f'transform="rotate(-90 {left - 46} {top + height / 2})">{escape(y_label)}</text>']
    for axis, limit in (("x", x_max), ("y", y_max)):
        step = nice_step(limit)
        v = 0.0
        while v <= limit + 1e-9:
            label = f"{v:,.0f}"
            if axis == "x":
                out.append(f'<text x="{x(v):.1f}" y="{bottom + 14}" font-size="10" text-anchor="middle">{label}</text>')
            else:
                out += [f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + width}" y2="{y(v):.1f}" stroke="#ddd"/>',
                        f'<text x="{left - 4}" y="{y(v) + 3:.1f}" font-size="10" text-anchor="end">{label}</text>']
            v += step
    for k, (name, colour, dashes, points) in enumerate(lines):  # B dashed: the two told apart without colour
        path = " ".join(f"{x(px):.1f},{y(py):.1f}" for px, py in points)
        dash = f' stroke-dasharray="{dashes}"' if dashes else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}>'
                   f'<title>{escape(name)}</title></polyline>')
        ly = top + 14 + 16 * k
        out += [f'<line x1="{left + width - 190}" y1="{ly - 4}" x2="{left + width - 166}" y2="{ly - 4}" '
                f'stroke="{colour}" stroke-width="2"{dash}/>',
                f'<text x="{left + width - 160}" y="{ly}" font-size="11">{escape(name)}</text>']
    return out


def histogram(values: Sequence[int], bins: int, width: float) -> list[tuple[float, float]]:
    """The outline of a histogram of ``values`` (per cent of games per bin of ``width``) as a step line's points."""
    counts = [0] * bins
    for v in values:
        counts[min(int(v // width), bins - 1)] += 1
    points = [(0.0, 0.0)]
    for i, c in enumerate(counts):
        share = 100 * c / max(len(values), 1)
        points += [(i * width, share), ((i + 1) * width, share)]
    return points + [(bins * width, 0.0)]


def comparison_svg(results: Mapping[str, Any]) -> str:
    """A ``--compare`` run's two game-length distributions and two cash-in-play curves, A against B."""
    names = {"a": f"A: {results['a']['described']}", "b": f"B: {results['b']['described']}"}
    lengths = results["length_turns"]
    longest = max([*lengths["a"], *lengths["b"], 1])
    width = nice_step(longest, 40)
    bins = int(longest // width) + 1
    shapes = {arm: histogram(lengths[arm], bins, width) for arm, _, _ in ARMS}
    top_share = max(share for points in shapes.values() for _, share in points) * 1.1
    cash = results["cash_in_play_curve"]
    curves = {arm: list(zip(cash["turns"], cash[arm])) for arm, _, _ in ARMS}
    top_cash = max([v for arm in ("a", "b") for v in cash[arm]] + [1]) * 1.1
    height = 2 * (CHART_H + 90) + MARGIN
    total_w = CHART_W + 2 * MARGIN + 70
    title = (f"{results['ruleset']}: {results['pairs']} pairs of games of {results['players']} bots "
             f"(the same dice for A and B)")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w}" height="{height}" '
           f'viewBox="0 0 {total_w} {height}" font-family="sans-serif">',
           f'<rect width="{total_w}" height="{height}" fill="white"/>',
           f'<text x="{MARGIN}" y="{MARGIN - 4}" font-size="14">{escape(title)}</text>']
    out += chart("How long games last", "player-turns (a game cut by the turn cap counts as its cap)", "% of games",
                 MARGIN + 40, bins * width, top_share,
                 [(names[arm], colour, dashes, shapes[arm]) for arm, colour, dashes in ARMS])
    out += chart("Cash in play", "player-turn (mean over the games still going, while a tenth of them or more are)",
                 "cash the players hold ($)", MARGIN + 40 + CHART_H + 90, max(cash["turns"] or [1]), top_cash,
                 [(names[arm], colour, dashes, curves[arm]) for arm, colour, dashes in ARMS])
    out.append("</svg>")
    return "\n".join(out) + "\n"
