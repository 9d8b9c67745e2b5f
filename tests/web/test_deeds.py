"""Title deeds as printed, for every ruleset's ownable spaces (companion/web/deeds.py)."""

from __future__ import annotations

import pytest

from companion.engine import find_ruleset, ruleset_ids
from companion.engine.rules.classic import ClassicRules
from companion.web.deeds import deeds


def cards(ruleset: str) -> dict[str, dict[str, list[list[str]] | list[str]]]:
    rules = find_ruleset(ruleset)
    return deeds(rules.board, rules.board.options, dice_utilities=isinstance(rules, ClassicRules))


def printed(ruleset: str, space: str) -> dict[str, str]:
    return {label: value for label, value in cards(ruleset)[space]["lines"]}  # type: ignore[misc]


def test_boardwalk_reads_as_its_title_deed() -> None:
    deed = printed("classic", "boardwalk")
    assert [deed[k] for k in ("Rent", "With 1 house", "With 2 houses", "With 3 houses", "With 4 houses",
                              "With a hotel")] == ["$50", "$200", "$600", "$1400", "$1700", "$2000"]
    assert (deed["Price"], deed["Mortgage value"], deed["Houses cost"]) == ("$400", "$200", "$200 each")
    assert cards("classic")["boardwalk"]["notes"] == [
        "Rent is doubled on an unbuilt street when one player owns both streets of the group."]


def test_railroads_and_utilities_by_how_many_are_owned() -> None:
    assert printed("classic", "reading-railroad")["With 4 owned"] == "$200"
    assert printed("classic", "electric-company")["With 2 owned"] == "10 × the dice"
    assert printed("addon", "electric-company")["With 4 owned"] == "40 × the dice"  # both boards' utilities
    assert printed("magie-1924", "slambang-trolley")["With 3 owned"] == "$100"  # a fare, not times the dice


def test_the_landlords_games() -> None:
    assert printed("magie-1904", "lot-2") == {"Price": "$20", "Rent": "$2"}
    assert printed("magie-1904", "light-franchise") == {"Fee": "$5"}
    land = printed("magie-1924", "wayback")
    assert (land["Rent"], land["An improvement costs"], land["Rent of the improvement"]) == ("$20", "$300", "+$100")


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_ownable_space_has_a_card(ruleset: str) -> None:
    board = find_ruleset(ruleset).board
    found = cards(ruleset)
    for space in board.ownable():
        assert found[space.id]["lines"], space.id
