"""A player's name is shown as it is: every character that draws as nothing, or as a space other than the plain one,
is refused by its Unicode category (not by a list of the ones found so far), so two names that look alike on every
screen cannot sit at one table."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from companion.engine import IllegalInput, new_game
from companion.engine.core import BLANK_LETTERS, UNSHOWN_CATEGORIES, printable_name

#: Each of these passed the list of bidi marks the check was before (issue 39's audit found the first six).
REFUSED = {
    "zero-width space": "An\u200bn",
    "word joiner": "An\u2060n",
    "arabic letter mark": "\u061cAnn",
    "hangul filler": "Ann\u3164",
    "soft hyphen": "An\u00adn",
    "line separator": "Ann\u2028",
    "paragraph separator": "Ann\u2029",
    "no-break space": "Ann\u00a0Lee",
    "ideographic space": "Ann\u3000Lee",
    "zero-width joiner": "An\u200dn",
    "byte order mark": "\ufeffAnn",
    "private use": "Ann\ue000",
    "unassigned": "Ann\U000e0080",
    "variation selector": "Ann\ufe0f",
    "combining grapheme joiner": "An\u034fn",
    "hangul choseong filler": "\u115fAnn",
    "halfwidth hangul filler": "Ann\uffa0",
    "braille blank": "Ann\u2800",
    "bidi override": "\u202eAnn",
    "bell": "Ann\u0007",
    "lone surrogate": "Ann\ud800",
}
SHOWN = ["Ann", "Ann Lee", "Zoë", "José María", "Björk", "Łucja", "Анна", "李明", "محمد", "Ann 🎲", "O'Neil", "Jean-Luc"]


@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_a_name_holding_an_unshown_character_is_refused(name: str) -> None:
    assert not printable_name(name)
    with pytest.raises(IllegalInput, match="cannot be a player's name"):
        new_game({"ruleset": "classic", "players": [name, "Bob"]})


@pytest.mark.parametrize("name", SHOWN)
def test_names_in_any_script_are_taken(name: str) -> None:
    assert printable_name(name)
    assert new_game({"ruleset": "classic", "players": [name, "Bob"]})[0]["players"][0]["name"] == name


def test_the_rule_is_the_category_of_every_code_point() -> None:
    """Every code point of the refused categories is refused, whatever it is, and the only space taken is U+0020."""
    refused = [c for c in map(chr, range(sys.maxunicode + 1)) if unicodedata.category(c) in UNSHOWN_CATEGORIES]
    assert len(refused) > 900_000  # the unassigned and private-use planes are most of them
    assert [c for c in refused if printable_name(c)] == [" "]
    assert not any(printable_name(c) for c in BLANK_LETTERS)
