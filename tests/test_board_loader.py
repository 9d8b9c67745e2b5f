"""Boards as data: ``companion check-board`` names the file and the key of each mistake, and the bundled
``classic.toml`` holds exactly the board, cards and options of RULES.md §1."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.rules import find_ruleset

# A whole, valid classic board in a few spaces: GO, a group of two streets, two railroads, a chance space, jail.
MINI = """\
[game]
ruleset = "classic"
name = "Mini"

[options]
start_cash = 1500
salary = 200
income_tax_flat = 200
income_tax_percent = 10
luxury_tax = 75
jail_fine = 50
houses = 32
hotels = 12
end_after_bankruptcies = 0
end_at_minutes = 0
free_parking = "nothing"
free_parking_seed = 500
go_landing_bonus = false
auctions = true
rent_in_jail = true
even_build = true
buy_after_first_lap = false
deal_deeds = 0
houses_before_hotel = 4

[[spaces]]
id = "go"
kind = "go"
salary = true

[[spaces]]
id = "red-1"
kind = "street"
group = "red"
price = 60
rent = [2, 10, 30, 90, 160, 250]
house = 50
mortgage = 30

[[spaces]]
id = "red-2"
kind = "street"
group = "red"
price = 60
rent = [4, 20, 60, 180, 320, 450]
house = 50
mortgage = 30

[[spaces]]
id = "north-line"
kind = "railroad"
group = "railroad"
price = 200
rent = [25, 50]
mortgage = 100

[[spaces]]
id = "south-line"
kind = "railroad"
group = "railroad"
price = 200
rent = [25, 50]
mortgage = 100

[[spaces]]
id = "chance"
kind = "chance"
deck = "chance"

[[spaces]]
id = "jail"
kind = "jail"

[[cards]]
id = "chance-dividend"
deck = "chance"
text = "Collect $50."
do = "collect"
amount = 50

[[cards]]
id = "chance-ride"
deck = "chance"
text = "Take a ride on the North Line."
do = "advance"
to = "north-line"
"""


def check_board(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``companion check-board classic FILE`` on ``text``; returns status, output and error output."""
    path = tmp_path / "my-edition.toml"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    status = main(["check-board", "classic", str(path)], out=out)
    return status, out.getvalue(), capsys.readouterr().err


def edit(old: str, new: str) -> Callable[[str], str]:
    """A change to MINI: ``old`` must occur exactly once."""
    def apply(text: str) -> str:
        assert text.count(old) == 1, old
        return text.replace(old, new)
    return apply


def test_the_small_board_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = check_board(tmp_path, MINI, capsys)
    assert (status, err) == (0, "")
    assert out == f"{tmp_path / 'my-edition.toml'}: 7 spaces, 2 groups, 2 cards — a valid classic board\n"


MISTAKES = {
    "unknown kind": (
        edit('id = "red-1"\nkind = "street"', 'id = "red-1"\nkind = "avenue"'),
        "spaces[1] (red-1).kind: unknown kind 'avenue' (known: chance, chest, free, go, go-to-jail, jail, railroad, "
        "street, tax, utility)"),
    "group of one": (
        edit('id = "red-2"\nkind = "street"\ngroup = "red"', 'id = "red-2"\nkind = "street"\ngroup = "blue"'),
        "spaces[1] (red-1).group: group 'red' has only one space"),
    "missing rent row": (
        edit("rent = [4, 20, 60, 180, 320, 450]\n", ""),
        "spaces[2] (red-2): a street needs `rent`"),
    "wrong rent length": (
        edit("rent = [2, 10, 30, 90, 160, 250]", "rent = [2, 10, 30, 90, 160]"),
        "spaces[1] (red-1).rent: a street needs 6 rents, found 5"),
    "rent not a number": (
        edit("rent = [2, 10, 30, 90, 160, 250]", 'rent = [2, 10, 30, "ninety", 160, 250]'),
        "spaces[1] (red-1).rent[3]: expected a whole number ≥ 0, found 'ninety'"),
    "price not a number": (
        edit('group = "red"\nprice = 60\nrent = [2,', 'group = "red"\nprice = "sixty"\nrent = [2,'),
        "spaces[1] (red-1).price: expected a whole number ≥ 0, found 'sixty'"),
    "missing house price": (
        edit("house = 50\nmortgage = 30\n\n[[spaces]]\nid = \"red-2\"", "mortgage = 30\n\n[[spaces]]\nid = \"red-2\""),
        "spaces[1] (red-1): a street needs `house`"),
    "duplicate space id": (
        edit('id = "red-2"', 'id = "red-1"'),
        "spaces[2].id: duplicate id 'red-1'"),
    "duplicate card id": (
        edit('id = "chance-ride"', 'id = "chance-dividend"'),
        "cards[1].id: duplicate id 'chance-dividend'"),
    "unknown card effect": (
        edit('do = "collect"', 'do = "teleport"'),
        "cards[0] (chance-dividend).do: unknown effect 'teleport'"),
    "unknown deck": (
        edit('id = "chance-dividend"\ndeck = "chance"', 'id = "chance-dividend"\ndeck = "surprise"'),
        "cards[0] (chance-dividend).deck: unknown deck 'surprise' (known: chance, chest)"),
    "card without its amount": (
        edit("amount = 50\n", ""),
        "cards[0] (chance-dividend): a collect card needs `amount`"),
    "card amount not a number": (
        edit("amount = 50", 'amount = "fifty"'),
        "cards[0] (chance-dividend).amount: expected a whole number, found 'fifty'"),
    "card to an unknown space": (
        edit('to = "north-line"', 'to = "east-line"'),
        "cards[1] (chance-ride).to: there is no space 'east-line'"),
    "option not a number": (
        edit("start_cash = 1500", 'start_cash = "lots"'),
        "options.start_cash: expected a whole number ≥ 0, found 'lots'"),
    "negative option": (
        edit("houses = 32", "houses = -1"),
        "options.houses: expected a whole number ≥ 0, found -1"),
    "option true or false": (
        edit("jail_fine = 50", "jail_fine = true"),
        "options.jail_fine: expected a whole number ≥ 0, found True"),
    "missing option": (
        edit("luxury_tax = 75\n", ""),
        "options.luxury_tax: expected a whole number ≥ 0, found None"),
    "preset with an unknown option": (
        edit('name = "Mini"', 'name = "Mini"\n\n[presets.quick]\ntext = "Quick game"\noptions = { deal_deedz = 2 }'),
        "presets.quick: unknown option 'deal_deedz' for classic"),
    "preset without its text": (
        edit('name = "Mini"', 'name = "Mini"\n\n[presets.quick]\noptions = { deal_deeds = 2 }'),
        "presets.quick: expected text = \"...\" and options = { NAME = VALUE, ... }"),
    "no jail": (
        edit('\n[[spaces]]\nid = "jail"\nkind = "jail"\n', ""),
        "spaces: a classic board needs a space of kind 'jail'"),
    "players not a pair": (
        edit('name = "Mini"', 'name = "Mini"\nplayers = [2]'),
        "game.players: expected [minimum, maximum]"),
}


@pytest.mark.parametrize("change, message", MISTAKES.values(), ids=MISTAKES.keys())
def test_a_mistake_names_the_file_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          change: Callable[[str], str], message: str | None) -> None:
    status, out, err = check_board(tmp_path, change(MINI), capsys)
    path = tmp_path / "my-edition.toml"
    assert status == 2 and out == ""  # a user's mistake: exit status 2 (issue 20)
    assert err.startswith(f"companion: {path}: "), err
    if message is not None:
        assert err.startswith(f"companion: {path}: {message}"), err
        assert err.endswith("\n") and err.count("\n") == 1


@pytest.mark.parametrize("railroad", ["north-line", "south-line"])
def test_every_railroad_needs_a_rent_per_railroad(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  railroad: str) -> None:
    text = edit(f'id = "{railroad}"\nkind = "railroad"\ngroup = "railroad"\nprice = 200\nrent = [25, 50]',
                f'id = "{railroad}"\nkind = "railroad"\ngroup = "railroad"\nprice = 200\nrent = [25]')(MINI)
    status, _, err = check_board(tmp_path, text, capsys)
    assert status == 2
    assert err == f"companion: {tmp_path / 'my-edition.toml'}: {railroad}.rent needs one rent per railroad owned (2)\n"


def test_a_card_space_needs_cards_in_its_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = MINI.replace('deck = "chance"\ntext', 'deck = "chest"\ntext')
    status, _, err = check_board(tmp_path, text, capsys)
    assert status == 2
    assert err == f"companion: {tmp_path / 'my-edition.toml'}: spaces[5] (chance).deck: no cards in deck 'chance'\n"


def test_toml_syntax_error_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = check_board(tmp_path, MINI.replace("price = 60\n", "price = \n", 1), capsys)
    assert status == 2
    assert err.startswith(f"companion: {tmp_path / 'my-edition.toml'}: ") and "line" in err


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check-board", "classic", str(tmp_path / "nowhere.toml")], out=io.StringIO())
    assert status == 2
    assert capsys.readouterr().err == f"companion: {tmp_path / 'nowhere.toml'}: No such file or directory\n"


def test_a_board_for_another_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = check_board(tmp_path, MINI.replace('ruleset = "classic"', 'ruleset = "chambers"'), capsys)
    assert status == 2
    assert err == f"companion: {tmp_path / 'my-edition.toml'} is a board for 'chambers', not 'classic'\n"


def test_a_small_board_plays(tmp_path: Path) -> None:
    """The small board is not only valid: a game runs on it (two steps from GO to the second street)."""
    path = tmp_path / "my-edition.toml"
    path.write_text(MINI, encoding="utf-8")
    game = tmp_path / "game.jsonl"
    game.write_text('{"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}}\n'
                    '{"roll": [1, 1]}\n{"answer": "yes"}\n', encoding="utf-8")
    out = io.StringIO()
    assert main(["replay", str(game), "--json", "--board", str(path)], out=out) == 0
    assert '"red-2": {"owner": "Ann"' in out.getvalue()


# ---------------------------------------------------------------------------------------------- the bundled board
# RULES.md §1, "Board (40 spaces...)", verbatim: i | id | kind | price | rent | house | mortgage | group
RULES_BOARD = """\
| 0 | go | go | | collect 200 when passing or landing | | | |
| 1 | mediterranean-avenue | street | 60 | 2, 10, 30, 90, 160, 250 | 50 | 30 | purple |
| 2 | community-chest | chest | | | | | |
| 3 | baltic-avenue | street | 60 | 4, 20, 60, 180, 320, 450 | 50 | 30 | purple |
| 4 | income-tax | tax | | 200 or 10% of total worth, player's choice made before worth is computed | | | |
| 5 | reading-railroad | railroad | 200 | 25/50/100/200 for 1/2/3/4 owned | | 100 | railroad |
| 6 | oriental-avenue | street | 100 | 6, 30, 90, 270, 400, 550 | 50 | 50 | light-blue |
| 7 | chance | chance | | | | | |
| 8 | vermont-avenue | street | 100 | 6, 30, 90, 270, 400, 550 | 50 | 50 | light-blue |
| 9 | connecticut-avenue | street | 120 | 8, 40, 100, 300, 450, 600 | 50 | 60 | light-blue |
| 10 | jail | jail | | just visiting | | | |
| 11 | st-charles-place | street | 140 | 10, 50, 150, 450, 625, 750 | 100 | 70 | pink |
| 12 | electric-company | utility | 150 | 4× dice with 1 owned, 10× with 2 | | 75 | utility |
| 13 | states-avenue | street | 140 | 10, 50, 150, 450, 625, 750 | 100 | 70 | pink |
| 14 | virginia-avenue | street | 160 | 12, 60, 180, 500, 700, 900 | 100 | 80 | pink |
| 15 | pennsylvania-railroad | railroad | 200 | as above | | 100 | railroad |
| 16 | st-james-place | street | 180 | 14, 70, 200, 550, 750, 950 | 100 | 90 | orange |
| 17 | community-chest-2 | chest | | | | | |
| 18 | tennessee-avenue | street | 180 | 14, 70, 200, 550, 750, 950 | 100 | 90 | orange |
| 19 | new-york-avenue | street | 200 | 16, 80, 220, 600, 800, 1000 | 100 | 100 | orange |
| 20 | free-parking | free | | | | | |
| 21 | kentucky-avenue | street | 220 | 18, 90, 250, 700, 875, 1050 | 150 | 110 | red |
| 22 | chance-2 | chance | | | | | |
| 23 | indiana-avenue | street | 220 | 18, 90, 250, 700, 875, 1050 | 150 | 110 | red |
| 24 | illinois-avenue | street | 240 | 20, 100, 300, 750, 925, 1100 | 150 | 120 | red |
| 25 | b-and-o-railroad | railroad | 200 | as above | | 100 | railroad |
| 26 | atlantic-avenue | street | 260 | 22, 110, 330, 800, 975, 1150 | 150 | 130 | yellow |
| 27 | ventnor-avenue | street | 260 | 22, 110, 330, 800, 975, 1150 | 150 | 130 | yellow |
| 28 | water-works | utility | 150 | as electric | | 75 | utility |
| 29 | marvin-gardens | street | 280 | 24, 120, 360, 850, 1025, 1200 | 150 | 140 | yellow |
| 30 | go-to-jail | go-to-jail | | | | | |
| 31 | pacific-avenue | street | 300 | 26, 130, 390, 900, 1100, 1275 | 200 | 150 | green |
| 32 | north-carolina-avenue | street | 300 | 26, 130, 390, 900, 1100, 1275 | 200 | 150 | green |
| 33 | community-chest-3 | chest | | | | | |
| 34 | pennsylvania-avenue | street | 320 | 28, 150, 450, 1000, 1200, 1400 | 200 | 160 | green |
| 35 | short-line | railroad | 200 | as above | | 100 | railroad |
| 36 | chance-3 | chance | | | | | |
| 37 | park-place | street | 350 | 35, 175, 500, 1100, 1300, 1500 | 200 | 175 | dark-blue |
| 38 | luxury-tax | tax | | 75 | | | |
| 39 | boardwalk | street | 400 | 50, 200, 600, 1400, 1700, 2000 | 200 | 200 | dark-blue |
"""
RAILROAD_RENT = (25, 50, 100, 200)
UTILITY_RENT = (4, 10)

# RULES.md §1, "Chance (16)" and "Community Chest (16)"
CHANCE = """chance-poor-tax chance-building-loan chance-dividend chance-nearest-utility chance-reading chance-boardwalk
chance-go-to-jail chance-illinois chance-advance-to-go chance-st-charles chance-nearest-railroad chance-nearest-railroad-2
chance-chairman chance-get-out-of-jail-free chance-general-repairs chance-back-3""".split()
CHEST = """chest-opera chest-inherit chest-stock chest-beauty chest-advance-to-go chest-street-repairs chest-bank-error
chest-services chest-go-to-jail chest-hospital chest-tax-refund chest-school-tax chest-life-insurance chest-xmas
chest-get-out-of-jail-free chest-doctor""".split()


def rules_rows() -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in RULES_BOARD.splitlines()]


def test_classic_board_has_the_forty_spaces_of_the_rules() -> None:
    board = find_ruleset("classic").board
    rows = rules_rows()
    assert len(board.spaces) == len(rows) == 40
    assert [(s.index, s.id, s.kind) for s in board.spaces] == [(int(r[0]), r[1], r[2]) for r in rows]
    assert len(board.ownable()) == 28


@pytest.mark.parametrize("row", rules_rows()[1:], ids=lambda r: r[1])
def test_classic_board_prices_rents_and_groups(row: list[str]) -> None:
    _, space_id, kind, price, rent, house, mortgage, group = row
    space = find_ruleset("classic").board.space(space_id)
    if kind not in ("street", "railroad", "utility"):
        assert not space.ownable and space.price is None
        return
    assert (space.price, space.mortgage, space.group) == (int(price), int(mortgage), group)
    expected_rent = {"railroad": RAILROAD_RENT, "utility": UTILITY_RENT}.get(kind)
    assert space.rent == (expected_rent or tuple(int(x) for x in rent.split(",")))
    assert space.house == (int(house) if house else None)


def test_classic_taxes_and_go() -> None:
    board = find_ruleset("classic").board
    assert board.space("go").data["salary"] is True
    assert board.space("income-tax").data["tax"] == "income"
    assert board.space("luxury-tax").data["tax"] == "luxury"


def test_classic_cards_are_the_sixteen_and_sixteen_of_the_rules() -> None:
    board = find_ruleset("classic").board
    assert sorted(board.decks["chance"]) == sorted(CHANCE) and len(CHANCE) == 16
    assert sorted(board.decks["chest"]) == sorted(CHEST) and len(CHEST) == 16
    assert sorted(board.cards) == sorted(CHANCE + CHEST)
    kept = sorted(c.id for c in board.cards.values() if c.kept)
    assert kept == ["chance-get-out-of-jail-free", "chest-get-out-of-jail-free"]


def test_classic_options_default_to_the_rules() -> None:
    options = find_ruleset("classic").board.options
    assert {k: options[k] for k in ("income_tax_flat", "luxury_tax", "start_cash", "salary", "houses", "hotels")} == {
        "income_tax_flat": 200, "luxury_tax": 75, "start_cash": 1500, "salary": 200, "houses": 32, "hotels": 12}
    assert options["income_tax_percent"] == 10 and options["jail_fine"] == 50


def test_check_board_accepts_the_bundled_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parents[1] / "companion" / "boards" / "classic.toml"
    out = io.StringIO()
    assert main(["check-board", "classic", str(path)], out=out) == 0
    assert out.getvalue() == f"{path}: 40 spaces, 10 groups, 32 cards — a valid classic board\n"

