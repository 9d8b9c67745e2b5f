"""A row of text as the OLED shows it, put together from its letters' kept pixels: the bytes and controller pages
that Pillow's ``ImageDraw.text`` with the bundled bitmap font makes, without Pillow at every new row (issue 43).

The bundled Spleen fonts are fixed-width: every letter is drawn inside its cell and the pen moves one cell a letter,
so a row is its letters' cells side by side. Each letter is drawn once by Pillow itself (alone, in a band of the
row's height) and kept as its lines' bits and its page columns; a new row (a phone's input brings one or two: the
story's sentence, a player's cash) is then a few shifts and joins. A font whose letters are not all like that (a
letter drawn outside its cell, a pen that moves otherwise) is drawn by Pillow as before (:meth:`Letters.fits`).
At a table's pace the row's code runs cold after every quiet moment; Pillow's text path was the refresh's largest
part then (~100 µs a row here)."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from companion.drivers.frame import PAGES_OF, page_bytes

#: Each byte's bits inverted (a row drawn dark on light: its pages' bytes translated).
INVERTED = bytes(255 - b for b in range(256))


class Letters:
    """One font's letters, each drawn once by Pillow: its pixels as a band's bits with the letter at the band's left
    edge (a "1" image's bytes read as one big-endian number), and its controller pages' columns."""

    def __init__(self, font: Any, cell: tuple[int, int], width: int) -> None:
        self.font, (self.cell_width, self.height), self.width = font, cell, width
        self._bits: dict[str, int] = {}
        self._pages: dict[str, tuple[bytes, ...]] = {}
        self._band_bits = self.height * width
        self._all = (1 << self._band_bits) - 1
        self._blank_page = bytes(width)

    def fits(self, text: str) -> bool:
        """Whether every letter of ``text`` draws inside its cell with the pen one cell on (else Pillow draws it)."""
        return all(ch in self._bits or self._learn(ch) for ch in text)

    def _learn(self, ch: str) -> bool:
        """Draw ``ch`` alone (Pillow, as a row draws it) with room around its cell, and keep it if it stays inside."""
        if ch == "\n":  # Pillow draws text with a line break as lines
            return False
        cell, height, margin = self.cell_width, self.height, 2 * self.cell_width
        try:
            advance = self.font.getlength(ch)
        except (AttributeError, ValueError):
            return False
        if advance != cell:
            return False
        wide = Image.new("1", (cell + 2 * margin, height), 0)
        ImageDraw.Draw(wide).text((margin, 0), ch, font=self.font, fill=1)
        box = wide.getbbox()
        if box is not None and (box[0] < margin or box[2] > margin + cell):
            return False
        band = Image.new("1", (self.width, height), 0)
        band.paste(wide.crop((margin, 0, margin + cell, height)), (0, 0))
        self._bits[ch] = int.from_bytes(band.tobytes(), "big")
        self._pages[ch] = tuple(page_bytes(band, p)[:cell] for p in range(height // PAGES_OF))
        return True

    def band(self, text: str, x: int, invert: bool) -> tuple[bytes, tuple[bytes, ...]]:
        """The row's band (as wide as the screen, one cell high): its bytes and its pages, ``text`` from column ``x``
        (>= 0; letters past the right edge cut there), lit letters on dark or, ``invert``, dark on lit. Every letter
        must :meth:`fits`."""
        cell, width = self.cell_width, self.width
        fitting = max(0, (width - x) // cell)  # letters whole on the band; one more may be cut at the edge
        bits_of, bits = self._bits, 0
        for i, ch in enumerate(text[:fitting]):
            bits |= bits_of[ch] >> (x + i * cell)
        cut = text[fitting:fitting + 1]
        at = x + fitting * cell
        if cut and at < width:
            keep = width - at  # the cut letter's columns that show
            line_mask = ((1 << keep) - 1) << (width - keep)
            mask = sum(line_mask << (width * line) for line in range(self.height))
            bits |= (bits_of[cut] & mask) >> at
        if invert:
            bits ^= self._all
        data = bits.to_bytes(self._band_bits // 8, "big")
        pages = []
        shown = text[:fitting + 1]
        for p in range(self.height // PAGES_OF):
            page = b"".join((bytes(x), *(self._pages[ch][p] for ch in shown)))[:width]
            page += self._blank_page[len(page):]
            pages.append(page.translate(INVERTED) if invert else page)
        return data, tuple(pages)
