"""The OLED fonts' letters beyond ASCII: the accents of German, French and Spanish, ß, ¿ ¡, € and £ (issue 41).

Spleen 5x8 (version 1.9.1, as bundled) has no glyph above ASCII, and Spleen 8x16 none for the euro: a German,
French or Spanish word lost its ä, é or ñ on the OLED (and "1.500 €" its symbol). This module draws the missing
glyphs into the bundled ``.pil``/``.pbm`` fonts, the ASCII glyphs untouched (every English frame stays the same):
each accented letter is its base letter from the same font with its mark above it (or its cedilla below), ß ¿ ¡ £ €
« » · ª º are drawn here. The euro sign has no Latin-1 code: it takes 0x80 (a C1 control, never drawn), and
:func:`.draw.latin1` writes "€" as that code.

Run once after changing a pattern: ``python -m companion.face.glyphs`` rewrites the fonts;
``tests/face/test_glyphs.py`` checks that the bundled fonts are what this makes, and that every string of every
catalogue draws without a missing glyph.
"""

from __future__ import annotations

import struct
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from PIL import Image
from PIL.FontFile import FontFile

FONTS = Path(__file__).with_name("fonts")
#: Where the euro sign lives in the fonts (Latin-1 has none; 0x80 is a C1 control code no text draws).
EURO = "\x80"

#: Marks above a letter (combining character -> rows of its pattern, "#" lit): a lowercase letter's two rows above its
#: x-height, a capital's one row above it (5x8); the 8x16 font has every Latin-1 letter of its own.
MARKS_LOWER: dict[str, tuple[str, ...]] = {
    "\u0300": (".#..", "..#."), "\u0301": ("..#.", ".#.."), "\u0302": (".##.", "#..#"),
    "\u0303": (".#.#", "#.#."), "\u0308": ("#..#", "...."), "\u030a": (".##.", ".##."),
}
MARKS_UPPER: dict[str, tuple[str, ...]] = {
    "\u0300": ("##..",), "\u0301": ("..##",), "\u0302": (".##.",), "\u0303": ("#.##",), "\u0308": ("#..#",),
    "\u030a": (".##.",),
}
CEDILLA = "\u0327"
#: Glyphs drawn whole in the 5x8 cell (rows 0 to 7).
DRAWN_SMALL: dict[str, tuple[str, ...]] = {
    "ß": ("....", ".##.", "#..#", "#.#.", "#..#", "#..#", "#.#.", "#..."),
    "£": ("....", "..##", ".#..", "###.", ".#..", ".#..", "####", "...."),
    EURO: ("....", "..##", ".#..", "###.", ".#..", "###.", "..##", "...."),
    "ª": ("....", ".##.", "#.#.", ".##.", "....", "###.", "....", "...."),
    "º": ("....", ".#..", "#.#.", ".#..", "....", "###.", "....", "...."),
    "«": ("....", "....", "..#.", ".#.#", "#.#.", ".#.#", "..#.", "...."),
    "»": ("....", "....", ".#..", "#.#.", ".#.#", "#.#.", ".#..", "...."),
    "·": ("....", "....", "....", "....", ".##.", ".##.", "....", "...."),
}
#: The euro in the 8x16 cell: its "C" one column right of the font's own, two bars through it.
EURO_LARGE = ("........", "........", "..######", ".##.....", ".##.....", "######..", ".##.....", ".##.....",
              "######..", ".##.....", ".##.....", "..######", "........", "........", "........", "........")
#: Turned upside down from the font's own glyph (Spanish opening marks).
TURNED = {"¿": "?", "¡": "!"}


def read_font(name: str) -> tuple[bytes, list[tuple[int, ...]], Image.Image]:
    """A bundled font: its ``.pil`` header, the metrics of its 256 glyphs, and its glyph sheet."""
    data = (FONTS / f"{name}.pil").read_bytes()
    head, _, rest = data.partition(b"DATA\n")
    metrics = [struct.unpack(">10h", rest[i * 20:i * 20 + 20]) for i in range(256)]
    with Image.open(FONTS / f"{name}.pbm") as sheet:
        return head, metrics, sheet.convert("1")


def cell(metrics: Sequence[tuple[int, ...]], sheet: Image.Image, code: int) -> Image.Image:
    """The glyph of ``code`` as a cell of the font's size (lit pixels 1)."""
    x0, y0, x1, y1 = metrics[code][6:10]
    return sheet.crop((x0, y0, x1, y1))


def pattern(rows: Sequence[str], width: int, height: int) -> Image.Image:
    image = Image.new("1", (width, height), 0)
    for y, row in enumerate(rows):
        for x, pixel in enumerate(row):
            if pixel == "#":
                image.putpixel((x, y), 1)
    return image


def composed(char: str, metrics: Sequence[tuple[int, ...]], sheet: Image.Image) -> Image.Image | None:
    """A 5x8 accented letter: its base letter and its mark (None: not a letter with a mark this font draws)."""
    parts = unicodedata.normalize("NFD", char)
    base, marks = parts[0], parts[1:]
    if len(marks) != 1 or ord(base) > 126:
        return None
    image = cell(metrics, sheet, ord(base)).copy()
    mark = marks[0]
    if mark == CEDILLA:
        image.putpixel((1, 7), 1)
        return image
    table = MARKS_UPPER if base.isupper() else MARKS_LOWER
    if mark not in table:
        return None
    rows = table[mark]
    if base == "i":  # its dot gives way to the mark
        for y in range(2):
            for x in range(image.width):
                image.putpixel((x, y), 0)
    for y, row in enumerate(rows):
        for x, pixel in enumerate(row):
            if pixel == "#":
                image.putpixel((x, y), 1)
    return image


def extra_glyphs(name: str, metrics: Sequence[tuple[int, ...]], sheet: Image.Image) -> dict[int, Image.Image]:
    """The glyphs this module adds to font ``name`` (code -> cell)."""
    width, height = (5, 8) if name == "spleen-5x8" else (8, 16)
    if name != "spleen-5x8":
        return {ord(EURO): pattern(EURO_LARGE, width, height)}
    added = {ord(c): pattern(rows, width, height) for c, rows in DRAWN_SMALL.items()}
    for turned, source in TURNED.items():
        added[ord(turned)] = cell(metrics, sheet, ord(source)).rotate(180)
    for code in range(0xC0, 0x100):
        image = composed(chr(code), metrics, sheet)
        if image is not None:
            added[code] = image
    return added


def build(name: str) -> FontFile:
    """Font ``name`` with :func:`extra_glyphs` drawn in (every other glyph as it was)."""
    _, metrics, sheet = read_font(name)
    font = FontFile()
    added = extra_glyphs(name, metrics, sheet)
    template = metrics[ord("A")]
    for code in range(256):
        if code in added:
            image = added[code]
            font.glyph[code] = (_pair(template[0:2]), _box(template[2:6]), (0, 0, image.width, image.height), image)
        elif any(metrics[code]):
            m, image = metrics[code], cell(metrics, sheet, code)
            font.glyph[code] = (_pair(m[0:2]), _box(m[2:6]), (0, 0, image.width, image.height), image)
    return font


def _pair(values: Sequence[int]) -> tuple[int, int]:
    return values[0], values[1]


def _box(values: Sequence[int]) -> tuple[int, int, int, int]:
    return values[0], values[1], values[2], values[3]


def write(folder: Path = FONTS) -> None:
    """Rewrite both fonts in ``folder`` (``.pil`` and ``.pbm``)."""
    for name in ("spleen-5x8", "spleen-8x16"):
        build(name).save(str(folder / f"{name}.pil"))


if __name__ == "__main__":
    write()
