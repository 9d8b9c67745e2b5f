"""The host's phone while the table's own Wi-Fi is up: both QR codes and the password in words (Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.table import Table
from companion.web import Access, WebServer, create_app, make_server

from ..web.conftest import CODE, PIN
from ..web.test_browser import browser, expect_text, phone, shot  # noqa: F401  (fixtures)

WIFI = ("companion-K7MQ", "k7mq-2xtp-9brw")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[WebServer]:
    with Journal(tmp_path / "games.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 5})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE),
                         config={"COMPANION_WIFI": lambda: WIFI})
        with make_server(app, "127.0.0.1", 0) as running:
            yield running


def test_the_host_sees_the_wifi_code_then_the_pages_and_the_password_in_words(server: WebServer,
                                                                              phone: Any) -> None:
    page = phone(server.url + "/host")
    page.fill("#host-pin", PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#host-tools:not([hidden])")
    join = page.locator("#join-show")
    expect_text(join.locator(".wifi-password .code"), WIFI[1])
    assert join.locator("svg").count() == 2  # the Wi-Fi's code, then the page's
    assert join.locator("svg title").first.text_content() == "Join the table's Wi-Fi"
    text = join.inner_text()
    assert WIFI[0] in text and text.index("Join the table's Wi-Fi") < text.index("Join code")
    assert "k · seven · m · q, dash, two · x · t · p, dash, nine · b · r · w" in text
    join.scroll_into_view_if_needed()
    shot(page, "host-wifi")
    assert page.errors == []
