"""The OLED drawn in a terminal, for ``companion demo``.

Two pixels per character cell with half blocks (128 columns × 32 rows) when the terminal has room for them (130
columns, 37 rows). In a smaller one (the usual 80×24) the OLED's content is shown as text: the same screen model
(:class:`~companion.face.screens.Screen`) row by row, the inverted rows (header, highlighted option, notices) in
the terminal's reverse video, a QR code in half blocks beside its text. Braille dots (64 × 16) are used only when
pixels are asked for (``--screen pixels``) in a terminal too small for half blocks: at that size the inverted header
and highlighted row were dot noise.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from .screens import COLS, Row, Screen

REVERSE, PLAIN = "\x1b[7m", "\x1b[0m"
#: How the demo draws the OLED: text in a small terminal and pixels in a large one, or always one of them.
SCREEN_MODES = ("auto", "text", "pixels")

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


def frame_text(image: Image.Image, columns: int, lines: int = 100, screen: Screen | None = None,
               mode: str = "pixels") -> str:
    """The OLED in a box, sized for a terminal ``columns`` wide and ``lines`` high: pixels (half blocks, or Braille
    when they do not fit), or with ``screen`` and ``mode`` "auto" or "text" the screen's text when half blocks do not
    fit (or always, for "text")."""
    fits = columns >= image.width + 2 and lines >= image.height // 2 + 2 + BELOW
    if screen is not None and (mode == "text" or (mode == "auto" and not fits)):
        return screen_text(screen)
    return boxed(half_blocks(image) if fits else braille(image))


def boxed(rows: list[str], width: int | None = None) -> str:
    """Rows in a box drawing frame (``width``: the rows' printed width, when they hold escape sequences)."""
    width = width if width is not None else len(rows[0])
    return "\n".join(["┌" + "─" * width + "┐", *("│" + r + "│" for r in rows), "└" + "─" * width + "┘"])


def screen_text(screen: Screen) -> str:
    """A screen as text for any terminal (80×24 included): one terminal row per small row, a large row's text
    spaced out, the inverted rows in reverse video; a QR code in half blocks at the left of its rows."""
    width = COLS["small"]
    qr = qr_rows(screen.qr) if screen.qr else []
    texts = [row_text(row, width, len(qr[0]) if qr else 0) for row in screen.rows]
    if not qr:
        return boxed(texts, width)
    height = max(len(qr), len(texts))
    blank = " " * len(qr[0])
    rows = [(qr[i] if i < len(qr) else blank) + " " + (texts[i] if i < len(texts) else " " * width)
            for i in range(height)]
    return boxed(rows, len(qr[0]) + 1 + width)


def row_text(row: Row, width: int, skip: int = 0) -> str:
    """One row as the terminal shows it, ``width`` columns (``skip``: the spaces a QR code's columns took)."""
    text = row.text[13:] if skip and row.text.startswith(" " * 13) else row.text  # beside a QR: its text only
    if row.font == "large":
        text = " ".join(text)
    text = text[:width]
    text = {"left": text.ljust, "center": text.center, "right": text.rjust}[row.align](width)
    return f"{REVERSE}{text}{PLAIN}" if row.invert else text


def qr_rows(matrix: tuple[str, ...]) -> list[str]:
    """A QR code in half blocks, a light quiet zone of two modules around it ('1' dark)."""
    size = len(matrix) + 4
    light = ["0" * size] * 2
    cells = light + ["00" + line + "00" for line in matrix] + light + (["0" * size] if size % 2 else [])
    rows = []
    for y in range(0, len(cells), 2):  # a lit character half is a light module
        rows.append("".join("█" if a == "0" and b == "0" else "▀" if a == "0" else "▄" if b == "0" else " "
                            for a, b in zip(cells[y], cells[y + 1], strict=True)))
    return rows
