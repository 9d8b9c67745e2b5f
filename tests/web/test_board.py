"""Board drawing data: rings for the property boards (both boards of addon), a path for chambers."""

from __future__ import annotations

import pytest

from companion.engine import find_ruleset, ruleset_ids
from companion.web.board import group_colour, layout, links, ring


def test_classic_is_a_ring_with_go_bottom_right() -> None:
    board = layout(find_ruleset("classic").board)
    cells = {c["id"]: c for c in board["spaces"]}
    assert (board["width"], board["height"]) == (11, 11)
    assert (cells["go"]["x"], cells["go"]["y"]) == (10, 10)
    assert (cells["jail"]["x"], cells["jail"]["y"]) == (0, 10)
    assert (cells["free-parking"]["x"], cells["free-parking"]["y"]) == (0, 0)
    assert (cells["go-to-jail"]["x"], cells["go-to-jail"]["y"]) == (10, 0)
    assert cells["boardwalk"]["colour"] == group_colour("dark-blue")


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_space_has_its_own_cell(ruleset: str) -> None:
    board = layout(find_ruleset(ruleset).board)
    places = [(c["x"], c["y"]) for c in board["spaces"]]
    assert len(places) == len(set(places)) == len(find_ruleset(ruleset).board.spaces)
    assert all(0 <= x < board["width"] and 0 <= y < board["height"] for x, y in places)


def test_addon_draws_both_boards_with_the_elevators() -> None:
    ruleset = find_ruleset("addon")
    board = layout(ruleset.board)
    cells = {c["id"]: c for c in board["spaces"]}
    assert set(board["tracks"]) == {"main", "inner"}
    inner = [c for c in board["spaces"] if c["track"] == "inner"]
    assert all(2 <= c["x"] <= 8 and 2 <= c["y"] <= 8 for c in inner)  # nested inside the outer ring
    assert (cells["double-trouble"]["x"], cells["double-trouble"]["y"]) == (8, 8)  # aligned with GO
    assert (cells["pass"]["x"], cells["pass"]["y"]) == (2, 8)  # aligned with jail
    assert links(ruleset, None) == [["east-elevator", "short-line"], ["pennsylvania-railroad", "west-elevator"]]
    assert cells["west-elevator"]["x"] == 2 and cells["pennsylvania-railroad"]["x"] == 0  # same side


def test_chambers_is_a_path_in_board_order() -> None:
    board = layout(find_ruleset("chambers").board)
    order = [c["id"] for c in sorted(board["spaces"], key=lambda c: (c["y"], c["x"] if c["y"] % 2 == 0 else -c["x"]))]
    assert order[0] == "keys-0" and order[-1] == "final-door"
    assert links(find_ruleset("chambers"), None) == []


def test_ring_goes_clockwise_on_screen() -> None:
    assert ring(8, 0, 3) == [(2, 2, 0), (1, 2, 0), (0, 2, 1), (0, 1, 1), (0, 0, 2), (1, 0, 2), (2, 0, 3), (2, 1, 3)]
    assert group_colour("some-new-group") == group_colour("some-new-group")


def test_the_board_names_its_cards_as_people_do(client) -> None:
    """Phones showed card ids ("chance-get-out-of-jail-free", "travel-back-2")."""
    cards = client.get("/api/board?ruleset=addon").get_json()["cards"]
    assert cards["chance-get-out-of-jail-free"] == "Get out of jail free"
    assert cards["travel-forward-2"] == "Travel forward 2 spaces" and cards["triple-play-112"] == "Triple play 1-1-2"
    assert cards["chance-tax-refund-100"] == "Chance tax refund 100"  # a long first sentence: the id in words
    chambers = client.get("/api/board?ruleset=chambers").get_json()["cards"]
    assert chambers["keys-safe"] == "Non-broken broom"
