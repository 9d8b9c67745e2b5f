"""The players' colours come from one place (companion/seats.py): the page draws each player in the colour of their
seat, the one their seat's light shines in."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from companion.seats import PLAYER_COLOURS, colour_of
from companion.web import WebServer

from .test_browser import browser, phone, server, table  # noqa: F401 - the browser tests' fixtures


def test_the_page_carries_the_seat_colours(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "data-colours='[" + ", ".join(f'"{c}"' for c in PLAYER_COLOURS) + "]'" in page


def test_each_player_is_drawn_in_their_seats_colour(server: WebServer, phone: Any) -> None:  # noqa: F811
    page = phone(server.url + "/")
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        card = page.locator(f'.player[data-player="{name}"]')
        drawn = card.evaluate("node => getComputedStyle(node).getPropertyValue('--pc').trim()")
        assert drawn == colour_of(seat)
    assert page.errors == []
