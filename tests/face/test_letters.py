"""A row put together from its font's kept letters (companion/face/letters.py) is, byte for byte and page for page,
the row Pillow draws with the bundled fonts: every letter, both fonts, lit or inverted, each alignment, rows cut at
the screen's edge."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.drivers.frame import PAGES_OF, page_bytes
from companion.face.draw import Painter
from companion.face.glyphs import EURO
from companion.face.screens import CELL, WIDTH, Row

PAINTER = Painter()
DRAWN = "".join(chr(c) for c in range(32, 256) if c != 127) + EURO + "€ŁŚ→–\t"


def drawn_by_pillow(text: str, font: str, invert: bool, align: str) -> tuple[bytes, tuple[bytes, ...]]:
    image = Image.new("1", (WIDTH, CELL[font][1]), 0)
    PAINTER._row(ImageDraw.Draw(image), Row(text, font, invert, align), 0)  # type: ignore[arg-type]
    return image.tobytes(), tuple(page_bytes(image, p) for p in range(image.height // PAGES_OF))


def test_every_letter_of_both_fonts_is_drawn_as_pillow_draws_it() -> None:
    for font in CELL:
        for ch in DRAWN:
            for invert in (False, True):
                text = f"a{ch}Z{ch}"
                assert PAINTER._draw_band(text, font, invert, "left") == drawn_by_pillow(text, font, invert, "left"), \
                    (font, ch, invert)


def test_the_bundled_fonts_letters_are_put_together_not_drawn() -> None:
    """Every letter with a glyph (the C1 controls but the euro's 0x80 have none, no pen move: Pillow draws a row with
    one, as the first test shows)."""
    for font in CELL:
        assert PAINTER.letters[font].fits("".join(chr(c) for c in (*range(32, 127), *range(160, 256))) + EURO), font
        assert not PAINTER.letters[font].fits("\x81")


@settings(max_examples=400, deadline=None)
@given(text=st.text(st.sampled_from(DRAWN + "  "), max_size=40), font=st.sampled_from(sorted(CELL)),
       invert=st.booleans(), align=st.sampled_from(("left", "center", "right")))
def test_any_row_is_drawn_as_pillow_draws_it(text: str, font: str, invert: bool, align: str) -> None:
    assert PAINTER._draw_band(text, font, invert, align) == drawn_by_pillow(text, font, invert, align)
