"""The OLED's fonts draw every letter the table says: every string of every catalogue, in each language, on both
fonts, without a missing glyph (ä ö ü ß é è ê ç à ñ ¿ ¡ € £ ...); the fonts are the ones companion/face/glyphs.py
makes (the ASCII glyphs as Spleen drew them, so English frames are unchanged)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw, ImageFont

from companion.engine import find_ruleset
from companion.face import glyphs
from companion.face.draw import Painter, latin1
from companion.words import LANGUAGES, Words

LOCALES = Path(glyphs.__file__).parents[1] / "words" / "locales"
#: Drawn as no glyph: spaces, and the line breaks of the command line's help (the table catalogue holds it too).
BLANK = {" ", "\u00a0", "\n"}


def catalogue_strings() -> list[tuple[str, str]]:
    """(file, text) for every translation of every catalogue, and each language's money on every bundled board."""
    found = []
    for po in sorted(LOCALES.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as file:
            for message in read_po(file):
                if message.id:
                    texts = message.string if isinstance(message.string, tuple) else (message.string,)
                    found += [(str(po.relative_to(LOCALES)), t) for t in texts]
    for language in LANGUAGES:
        for currency in ("$", "£", "€", "M"):
            board = find_ruleset("classic").board
            words = Words.for_language(language, type(board)(**{**board.__dict__, "currency": currency}))
            found.append((f"{language} money", words.money(1234567)))
    return found


def templates() -> list[tuple[str, str]]:
    """(domain, msgid) of every template: the English."""
    found = []
    for pot in sorted(LOCALES.glob("*.pot")):
        with pot.open("rb") as file:
            found += [(pot.stem, m.id) for m in read_po(file) if m.id and isinstance(m.id, str)]
    return found


@pytest.fixture(scope="module")
def painter() -> Painter:
    return Painter()


@pytest.mark.parametrize("font", ["small", "large"])
def test_every_catalogue_string_draws_without_a_missing_glyph(painter: Painter, font: str) -> None:
    strings = catalogue_strings()
    assert len(strings) > 500  # the table's catalogue in three languages at least
    missing: dict[str, set[str]] = {}
    for where, text in strings:
        for ch in set(latin1(text)) - BLANK:
            if painter.fonts[font].getmask(ch).getbbox() is None:
                missing.setdefault(ch, set()).add(where)
    assert not missing, {f"{ch!r} (U+{ord(ch):04X})": sorted(w)[:3] for ch, w in missing.items()}


def test_latin1_keeps_the_letters_and_writes_the_euro_at_its_code() -> None:
    assert latin1("Straße, 1.500 €, ¿Comprar?, Château") == "Straße, 1.500 \x80, ¿Comprar?, Château"


@pytest.mark.parametrize("name", ["spleen-5x8", "spleen-8x16"])
def test_the_bundled_fonts_are_what_glyphs_makes(tmp_path: Path, name: str) -> None:
    glyphs.write(tmp_path)
    size = (5, 8) if name == "spleen-5x8" else (8, 16)
    bundled = ImageFont.load(str(glyphs.FONTS / f"{name}.pil"))
    made = ImageFont.load(str(tmp_path / f"{name}.pil"))
    for code in range(256):
        a, b = Image.new("1", size), Image.new("1", size)
        ImageDraw.Draw(a).text((0, 0), chr(code), font=bundled, fill=1)
        ImageDraw.Draw(b).text((0, 0), chr(code), font=made, fill=1)
        assert a.tobytes() == b.tobytes(), hex(code)


def test_no_catalogue_string_draws_a_question_mark_its_source_did_not_have() -> None:
    """latin1() writes "?" for a character the fonts cannot draw: none of the catalogues' may become one ("↔",
    "−"), or the OLED shows a question nobody asked."""
    strings = catalogue_strings() + [(f"{domain}.pot", msgid) for domain, msgid in templates()]
    turned = {where + ": " + text for where, text in strings if latin1(text).count("?") > text.count("?")}
    assert not turned, sorted(turned)[:10]


def test_latin1_draws_arrows_and_the_minus_sign_with_ascii() -> None:
    assert latin1("Ann ↔ Bob, −50 $, A → B") == "Ann <> Bob, -50 $, A -> B"
