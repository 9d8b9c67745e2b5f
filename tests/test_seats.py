"""Seats: each player's place in the turn order and colour (companion/seats.py)."""

from __future__ import annotations

from companion.engine import new_game
from companion.seats import PLAYER_COLOURS, led_rgb, seat_of, seats


def test_seats_follow_the_turn_order_and_colours_go_round() -> None:
    state, _ = new_game({"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 1})
    assert [(s.index, s.name, s.colour) for s in seats(state)] == [(i, n, PLAYER_COLOURS[i])
                                                                    for i, n in enumerate(["Ann", "Bob", "Cy"])]
    assert seat_of(state, "Cy") == 2 and seat_of(state, "bank") is None and seats(None) == []


def test_an_led_shows_the_colour_without_the_white_in_it() -> None:
    assert led_rgb("#ff6b6b") == (255, 25, 25)  # the page's soft red: a clear red on the strip
    assert max(led_rgb("#3bc9db")) == 255 and min(led_rgb("#3bc9db")) < 20
