"""Turn a :class:`~companion.face.screens.Screen` into a 128×64 one-bit image.

The fonts are Spleen bitmap fonts (BSD licence, ``fonts/LICENSE-spleen.txt``) bundled with the
package, so every table draws the same pixels; the letters of German, French and Spanish beyond ASCII, and "€" (at
0x80), are drawn into them by :mod:`.glyphs`. Other text outside Latin-1 is reduced to its closest Latin-1 letters
("Łódź" → "Lodz").
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from companion.drivers.frame import PAGES_OF, Frame, page_bytes

from .glyphs import EURO
from .letters import Letters
from .screens import CELL, HEIGHT, WIDTH, Row, Screen

FONT_FILES = {"small": "spleen-5x8.pil", "large": "spleen-8x16.pil"}


ROWS_KEPT = 256  # rows drawn and kept for the next frames (a 16-pixel row is 256 bytes, and its pages as many)
BLANK_PAGE = bytes(WIDTH)  # a controller page below the last row: one object, so a driver sees it unchanged at once


class Painter:
    """Draws screens with the bundled fonts (loaded once).

    A frame shows the rows of the one before but two or three: each row is drawn once into a band of its own and kept
    with its controller pages (the last :data:`ROWS_KEPT` distinct rows: a least-recently-used cache keyed by the row's
    text, font, colours and alignment), and a frame is its rows' bands one under the other, its pages theirs; a
    screen with a QR code is drawn whole (its rows are drawn over the code, not beside it)."""

    def __init__(self, rows_kept: int = ROWS_KEPT) -> None:
        self.fonts: dict[str, Any] = {}
        folder = resources.files("companion.face").joinpath("fonts")
        for name, file in FONT_FILES.items():
            with resources.as_file(folder.joinpath(file)) as path:
                # Pillow reads the .pbm glyph sheet beside the .pil metrics file.
                with resources.as_file(folder.joinpath(file.replace(".pil", ".pbm"))):
                    self.fonts[name] = ImageFont.load(str(path))
        #: Each font's letters, drawn once (a new row put together from them: :mod:`.letters`).
        self.letters = {name: Letters(font, CELL[name], WIDTH) for name, font in self.fonts.items()}
        #: A row's band: its bytes and its pages, by (text, font, invert, align) (a bounded LRU, in C).
        self.band = lru_cache(maxsize=rows_kept)(self._draw_band)

    def paint(self, screen: Screen) -> Image.Image:
        return self.painted(screen).image

    def frame(self, screen: Screen) -> tuple[Image.Image, bytes | None]:
        """The screen's image, and its bytes when it was made of them (its rows' kept bands; None: drawn whole)."""
        frame = self.painted(screen)
        return frame.image, (None if screen.qr else frame.data)

    def painted(self, screen: Screen) -> Frame:
        """The screen as a :class:`~companion.drivers.frame.Frame` for the display: from its rows' kept bands (its
        bytes and pages joined, its image made only if asked), or drawn whole when it has a QR code."""
        if not screen.qr:
            return self._from_bands(screen.rows)
        image = Image.new("1", (WIDTH, HEIGHT), 0)
        draw = ImageDraw.Draw(image)
        self._qr(draw, screen.qr)
        y = 0
        for row in screen.rows:
            height = CELL[row.font][1]
            if y + height > HEIGHT:
                break
            self._row(draw, row, y)
            y += height
        return Frame.of(image)

    def _from_bands(self, rows: tuple[Row, ...]) -> Frame:
        """The rows' kept bands one under the other: a one-bit image is its lines' bytes in order, so the frame's bytes
        are its bands' bytes joined (and dark lines below the last row); its pages are its bands' pages in turn."""
        parts: list[bytes] = []
        pages: list[bytes] = []
        band, y = self.band, 0
        for row in rows:
            height = CELL[row.font][1]
            if y + height > HEIGHT:
                break
            data, its_pages = band(row.text, row.font, row.invert, row.align)
            parts.append(data)
            pages += its_pages
            y += height
        if y < HEIGHT:
            parts.append(bytes((HEIGHT - y) * WIDTH // 8))
            pages += [BLANK_PAGE] * ((HEIGHT - y) // PAGES_OF)
        return Frame(b"".join(parts), (WIDTH, HEIGHT), tuple(pages))

    def _draw_band(self, text: str, font: str, invert: bool, align: str) -> tuple[bytes, tuple[bytes, ...]]:
        """The row drawn alone at the top of a band as wide as the screen and as high as its font's cell: its bytes,
        and its controller pages (every font is a whole number of pages tall, and every row starts on a page): put
        together from the font's kept letters, or drawn by Pillow if one of them does not fit its cell."""
        text = latin1(text)
        letters = self.letters[font]
        if letters.fits(text):
            return letters.band(text if text.strip() else "", row_x(text, font, align), invert)
        image = Image.new("1", (WIDTH, CELL[font][1]), 0)
        self._row(ImageDraw.Draw(image), Row(text, font, invert, align), 0)  # type: ignore[arg-type]
        return image.tobytes(), tuple(page_bytes(image, p) for p in range(image.height // PAGES_OF))

    def _row(self, draw: ImageDraw.ImageDraw, row: Row, y: int) -> None:
        height = CELL[row.font][1]
        text = latin1(row.text)
        x = row_x(text, row.font, row.align)
        if row.invert:
            draw.rectangle((0, y, WIDTH - 1, y + height - 1), fill=1)
        if text.strip():
            draw.text((x, y), text, font=self.fonts[row.font], fill=0 if row.invert else 1)

    @staticmethod
    def _qr(draw: ImageDraw.ImageDraw, matrix: tuple[str, ...]) -> None:
        """A QR code at the left, as large as fits in 64 pixels, light modules lit (dark on light)."""
        quiet = 2 if HEIGHT // (len(matrix) + 4) >= 2 else 1  # a narrower quiet zone buys 2-pixel modules
        modules = len(matrix) + 2 * quiet
        scale = max(1, HEIGHT // modules)
        size = modules * scale
        top = (HEIGHT - size) // 2
        draw.rectangle((0, top, size - 1, top + size - 1), fill=1)  # the light background and quiet zone
        for r, line in enumerate(matrix):
            for c, cell in enumerate(line):
                if cell == "1":
                    x, y = (c + quiet) * scale, top + (r + quiet) * scale
                    draw.rectangle((x, y, x + scale - 1, y + scale - 1), fill=0)


def row_x(text: str, font: str, align: str) -> int:
    """The column where a row's text starts (its letters one cell each; never left of the screen)."""
    used = len(text) * CELL[font][0]
    return max(0, {"left": 0, "center": (WIDTH - used) // 2, "right": WIDTH - used}[align])


#: What the fonts draw for a character beyond Latin-1 that has no plain letter under it: dashes, the minus sign
#: and arrows of the catalogues' sentences ("{space} ↔ {space_to}", "− owed"), Polish L, stars. The one place such
#: a character is mapped (tests/face/test_glyphs.py fails on any catalogue string that would draw a "?").
ASCII_FOR = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2019": "'", "\u2026": "~", "\u0141": "L", "\u0142": "l",
             "\u2605": "*", "\u2606": "*", "\u2194": "<>", "\u2192": "->", "\u2190": "<-"}


def latin1(text: str) -> str:
    """Text the Latin-1 fonts can draw: decomposed accents dropped where needed, '?' for the rest."""
    try:
        text.encode("latin-1")  # every row of every frame: asked in C, not letter by letter
        return text
    except UnicodeEncodeError:
        pass
    out = []
    for ch in text:
        if ord(ch) < 256:
            out.append(ch)
            continue
        if ch == "\u20ac":
            out.append(EURO)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128 and not unicodedata.combining(c))
        out.append(base or ASCII_FOR.get(ch, "?"))
    return "".join(out)
