"""Each player's own join digits and QR code (issue 6: "the join QR code and digits per player"): shown on the OLED
page by page, they join that seat and no other; a new join code renews them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from companion.drivers.clock import SimClock
from companion.drivers.virtual import VirtualButtons
from companion.startup.mock import mock_station
from companion.table import Table
from companion.web import Access

from .conftest import CODE, PIN, as_host, post


def test_player_codes_differ_and_are_renewed_with_the_join_code() -> None:
    access = Access(host_pin=PIN, join_code=CODE, secret_key="k")
    ann, bob = access.player_code("Ann"), access.player_code("Bob")
    assert ann != bob and len(ann) == 6 and ann.isdigit() and ann == access.player_code("Ann")
    assert access.check_player_code(ann, "Ann") and not access.check_player_code(ann, "Bob")
    access.new_join_code()
    assert access.player_code("Ann") != ann
    assert access.player_join_url("http://t:8080", "Ann") == f"http://t:8080/join#code={access.player_code('Ann')}&player=Ann"


def test_a_players_code_joins_that_seat_only(app: Flask, access: Access, table: Table) -> None:
    ann_code = access.player_code("Ann")
    phone = app.test_client()
    assert post(phone, "/api/join", {"code": ann_code, "player": "Bob"}).status_code == 403
    reply = post(phone, "/api/join", {"code": ann_code, "player": "Ann"})
    assert reply.status_code == 200 and reply.get_json()["player"] == "Ann"
    assert post(app.test_client(), "/api/join", {"code": CODE, "player": "Bob"}).status_code == 200  # the table's code
    host = as_host(app.test_client())
    assert post(host, "/api/host/join-code", {}).status_code == 200
    assert post(app.test_client(), "/api/join", {"code": ann_code, "player": "Cy"}).status_code == 403


def test_the_oled_shows_each_players_code_with_next(tmp_path: Path) -> None:
    sim = SimClock()
    setup: dict[str, Any] = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 2}
    with mock_station(journal_path=tmp_path / "games.sqlite3", dice="software", clock=sim, sleep=sim.sleep,
                      setup=setup, new_seed=lambda: 3, web=("127.0.0.1", 0)) as (station, factory, pins):
        buttons = VirtualButtons(factory, pins.buttons, sim.sleep, after_step=station.tick)
        info = station.controller.join_info()
        assert [name for name, _, _ in info.players] == ["Ann", "Bob"]
        buttons.hold("MENU", 2)
        items = [a.label for a in station.controller.items]
        for _ in range(items.index("Join codes")):
            buttons.press("NEXT")
        buttons.press("YES")
        text = lambda: " ".join(r.text.strip() for r in station.controller.screen().rows)  # noqa: E731
        assert f"Join code {info.code}" in text() and "NEXT: each" in text()
        buttons.press("NEXT")
        assert f"Ann joins with {info.players[0][1]}" in text() and "1/2" in text()
        assert station.controller.screen().qr is not None
        buttons.press("NEXT")
        assert f"Bob joins with {info.players[1][1]}" in text()
        buttons.press("NEXT")
        assert "Join code" in text()  # round again
        buttons.press("NO")
        assert station.controller.mode == "game"
