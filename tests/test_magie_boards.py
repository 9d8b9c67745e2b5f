"""The bundled ``magie-1904.toml`` and ``magie-1924.toml`` hold the boards of RULES.md §3-4, and a user's
edition with a mistake is refused with the file and the key named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.boards import read_board_file
from companion.cli import main
from companion.errors import BoardError
from companion.engine.rules import find_ruleset, load_ruleset

# RULES.md §3, "Board (40, reconstructed from the text; corners at 0, 10, 20, 30)", verbatim.
RULES_1904 = """\
| 0 | mother-earth | 10 | poorhouse | 20 | public-park | 30 | jail |
| 1 | lot-1 | 11 | lot-6 | 21 | lot-12 | 31 | lot-17 |
| 2 | bread | 12 | coal | 22 | shelter | 32 | clothing |
| 3 | lot-2 | 13 | lot-7 | 23 | lot-13 | 33 | lot-18 |
| 4 | light-franchise | 14 | lot-8 | 24 | water-franchise | 34 | no-trespassing |
| 5 | railroad | 15 | railroad-2 | 25 | railroad-3 | 35 | railroad-4 |
| 6 | lot-3 | 16 | lot-9 | 26 | lot-14 | 36 | lot-19 |
| 7 | lot-4 | 17 | legacy | 27 | lot-15 | 37 | lot-20 |
| 8 | luxury | 18 | lot-10 | 28 | luxury-2 | 38 | lot-21 |
| 9 | lot-5 | 19 | lot-11 | 29 | lot-16 | 39 | lot-22 |
"""

# RULES.md §4, "Board (40; corners 0 wages, 10/20/30 railroads; travel direction as on the board)", verbatim.
RULES_1924 = """\
| 0 | wages | 10 | gee-whiz-railroad | 20 | pdq-railroad | 30 | long-haul-railroad |
| 1 | jail | 11 | easy-street (40) | 21 | timberlands (60) | 31 | broadway (80) |
| 2 | wayback (20) | 12 | tax-on-improvements | 22 | real-estate-office-2 | 32 | tax-on-personal-property-3 |
| 3 | tax-on-personal-property | 13 | market-square (40) | 23 | highland-park (70) | 33 | gold-hill (90) |
| 4 | boomtown (20) | 14 | soakum-lighting-system | 24 | tax-on-land-2 | 34 | real-estate-office-3 |
| 5 | slambang-trolley | 15 | ferry-road (50) | 25 | ting-a-ling-telephone | 35 | park-row (90) |
| 6 | rubeville (30) | 16 | lord-bluebloods-estate | 26 | riverside (70) | 36 | coal-mines (100) |
| 7 | real-estate-office | 17 | grand-avenue (50) | 27 | la-swelle-hotel | 37 | fifth-avenue (100) |
| 8 | lonely-lane (30) | 18 | tax-on-personal-property-2 | 28 | wall-street (80) | 38 | central-square (110) |
| 9 | tax-on-land | 19 | oil-fields (60) | 29 | tax-on-improvements-2 | 39 | easy-money-lane (120) |
"""


def table(text: str) -> dict[int, tuple[str, int | None]]:
    """Index → (id, land rent or None) from a RULES.md board table."""
    cells = [c.strip() for line in text.splitlines() for c in line.strip().strip("|").split("|")]
    found = {}
    for index, entry in zip(cells[::2], cells[1::2], strict=True):
        match = re.fullmatch(r"([a-z0-9-]+)(?: \((\d+)\))?", entry)
        assert match, entry
        found[int(index)] = (match[1], int(match[2]) if match[2] else None)
    return found


def test_1904_board_is_the_forty_spaces_of_the_rules() -> None:
    board = find_ruleset("magie-1904").board
    assert [s.id for s in board.spaces] == [table(RULES_1904)[i][0] for i in range(40)]
    for space in board.spaces:
        if space.kind == "lot":
            n = int(space.id.removeprefix("lot-"))
            assert (space.price, space.rent) == (10 * n, (n,)), space.id
    assert sorted(board.cards) == sorted(f"lot-{n}" for n in range(1, 23))
    kinds = {s.id: s.kind for s in board.spaces}
    assert [sid for sid, k in kinds.items() if k == "necessity"] == ["bread", "coal", "shelter", "clothing"]
    assert [sid for sid, k in kinds.items() if k == "luxury"] == ["luxury", "luxury-2"]
    assert all(board.by_id[s].data["fee"] == 5 for s in kinds if kinds[s] in ("necessity", "railroad", "franchise"))


def test_1904_options_default_to_the_rules() -> None:
    options = find_ruleset("magie-1904").board.options
    assert options["start_cash"] == 500 and options["start_cash_without_tickets"] == 100
    assert options["no_lot_tickets"] is False and options["tickets_drawn"] == 12 and options["laps"] == 5
    assert (options["wages"], options["note"], options["note_interest"], options["loan_margin"]) == (100, 100, 5, 10)
    assert (options["jail_fine"], options["luxury_price"], options["luxury_value"]) == (50, 50, 60)
    assert options["legacy"] == 100


def test_1924_board_is_the_forty_spaces_of_the_rules() -> None:
    board = find_ruleset("magie-1924").board
    rules = table(RULES_1924)
    assert [s.id for s in board.spaces] == [rules[i][0] for i in range(40)]
    for space in board.spaces:
        rent = rules[space.index][1]
        assert (space.kind == "land") == (rent is not None), space.id
        if rent is not None:
            assert space.rent == (rent,)
    assert board.groups["utility"] == ("slambang-trolley", "soakum-lighting-system", "ting-a-ling-telephone")
    assert board.groups["railroad"] == ("gee-whiz-railroad", "pdq-railroad", "long-haul-railroad")


def test_1924_has_the_42_cards_of_the_rules() -> None:
    board = find_ruleset("magie-1924").board
    colours = {}
    for card in board.cards.values():
        colours.setdefault(card.params["colour"], []).append(card.id)
    assert {colour: len(ids) for colour, ids in colours.items()} == {"green": 20, "orange": 3, "red": 3, "yellow": 16}
    assert sorted(colours["yellow"]) == sorted([f"idle-land-{n}" for n in range(1, 16)] + ["gold-mine"])
    assert {board.cards[c].params["sells_for"] for c in colours["yellow"]} == {200, 500}
    assert board.cards["gold-mine"].params["sells_for"] == 500
    assert sorted(colours["green"] + colours["orange"] + colours["red"]) == sorted(s.id for s in board.ownable())


def test_1924_options_and_cube_default_to_the_rules() -> None:
    board = find_ruleset("magie-1924").board
    options = board.options
    assert (options["goal"], options["board_money"], options["start_cash"]) == (3000, 6600, 500)
    assert options["cards_each"] == 8
    assert options["unlimited_board"] is False
    assert (options["wages"], options["wages_exact"]) == (400, 500)
    assert (options["jail_fine"], options["jail_release"]) == (50, 6)
    assert (options["improvement_price"], options["improvement_rent"], options["side_improvements"]) == (300, 100, 4)
    cube = {face["face"]: (face["do"], face.get("amount")) for face in board.data["cube"]}
    assert cube == {5: ("go-to-jail", None), 10: ("collect", 200), 15: ("take-card", None),
                    20: ("take-improvement", None), 25: ("return-improvement", None), 30: ("pay-next", 200)}


def edition(tmp_path: Path, ruleset: str, old: str, new: str) -> Path:
    """A copy of a bundled board with one change."""
    text = (Path(__file__).parents[1] / "companion" / "boards" / f"{ruleset}.toml").read_text()
    assert old in text
    path = tmp_path / "edition.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("ruleset", "old", "new", "message"), [
    ("magie-1904", 'kind = "poorhouse"', 'kind = "park"', "needs one space of kind 'poorhouse', found 0"),
    ("magie-1904", "laps = 5", "laps = -5", "options.laps: expected a whole number ≥ 0, found -5"),
    ("magie-1904", 'id = "lot-22"\ndeck', 'id = "lot-23"\ndeck',
     "the lot ticket 'lot-23' needs a lot with the same id"),
    ("magie-1904", "fee = 5", 'fee = "five"', "bread.fee: expected a whole number ≥ 0"),
    ("magie-1924", "face = 30", "face = 35", "cube[5].face: one of (5, 10, 15, 20, 25, 30), each once"),
    ("magie-1924", 'do = "pay-next"', 'do = "pay-all"', "cube[5].do: one of"),
    ("magie-1924", 'colour = "red"', 'colour = "green"', "gee-whiz-railroad.colour: red for a railroad"),
    ("magie-1924", "sells_for = 500", "sells_for = -1", "gold-mine.sells_for: expected a whole number ≥ 0"),
    ("magie-1924", 'tax = "land"', 'tax = "windows"', "tax-on-land.tax: one of personal-property, land, improvements"),
    ("magie-1924", "rent = [100, 100, 200]", "rent = [100, 200]", "gee-whiz-railroad.rent needs one rent per railroad"),
    ("magie-1924", "unlimited_board = false", "unlimited_board = 0", "options.unlimited_board: expected true or false"),
])
def test_a_mistake_in_an_edition_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str, old: str,
                                          new: str, message: str) -> None:
    path = edition(tmp_path, ruleset, old, new)
    with pytest.raises(BoardError, match=re.escape(message)):
        load_ruleset(ruleset, path)
    assert main(["check-board", ruleset, str(path)]) == 2  # a user's mistake: exit status 2
    err = capsys.readouterr().err
    assert str(path) in err and message in err


def test_an_edition_with_other_amounts_plays(tmp_path: Path) -> None:
    path = edition(tmp_path, "magie-1904", 'id = "bread"\nname = "Bread"\nkind = "necessity"\nfee = 5',
                   'id = "bread"\nname = "Bread"\nkind = "necessity"\nfee = 7')
    rules = load_ruleset("magie-1904", path)
    state, _ = rules.new_game({"ruleset": "magie-1904", "players": ["Ann", "Bob"], "options": {"no_lot_tickets": True}})
    state, _ = rules.apply(state, {"roll": [1, 1]})
    assert state["players"][0]["cash"] == 93 and state["pools"]["public-treasury"] == 7
    assert read_board_file(path)[1] == str(path)
