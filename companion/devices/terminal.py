"""The OLED drawn in a terminal, for ``companion demo``.

Two pixels per character cell with half blocks (128 columns × 32 rows), or eight with Braille
dots (64 × 16) when the terminal is narrower than 130 columns or lower than 37 rows (the half
blocks' box, the address and the keys would scroll the picture off the top).
"""

from __future__ import annotations

from typing import Any

from PIL import Image

_BRAILLE_BITS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20),
                 (0, 3, 0x40), (1, 3, 0x80))


def _pixels(image: Image.Image) -> Any:
    """Read access to the image's pixels as one-bit values."""
    px = image.convert("1").load()
    assert px is not None  # a converted image is loaded: load() gives its pixels
    return px


def half_blocks(image: Image.Image) -> list[str]:
    """One character per pixel column and two pixel rows."""
    px = _pixels(image)
    rows = []
    for y in range(0, image.height, 2):
        line = []
        for x in range(image.width):
            top, bottom = bool(px[x, y]), y + 1 < image.height and bool(px[x, y + 1])
            line.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        rows.append("".join(line))
    return rows


def braille(image: Image.Image) -> list[str]:
    """One character per 2×4 pixels."""
    px = _pixels(image)
    rows = []
    for y in range(0, image.height, 4):
        line = []
        for x in range(0, image.width, 2):
            bits = 0
            for dx, dy, bit in _BRAILLE_BITS:
                if x + dx < image.width and y + dy < image.height and px[x + dx, y + dy]:
                    bits |= bit
            line.append(chr(0x2800 + bits))
        rows.append("".join(line))
    return rows


#: Terminal rows below the picture: the seat lights, the phone page's address and two rows of keys.
BELOW = 4


def frame_text(image: Image.Image, columns: int, lines: int = 100) -> str:
    """The OLED in a box, sized for a terminal ``columns`` wide and ``lines`` high."""
    fits = columns >= image.width + 2 and lines >= image.height // 2 + 2 + BELOW
    rows = half_blocks(image) if fits else braille(image)
    width = len(rows[0])
    return "\n".join(["┌" + "─" * width + "┐", *("│" + r + "│" for r in rows), "└" + "─" * width + "┘"])
