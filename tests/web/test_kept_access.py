"""After a power cut the phones are still joined: the table keeps its PIN, join code, cookie key and seats."""

from __future__ import annotations

import http.cookiejar
import json
import stat
import urllib.request
from pathlib import Path

from companion.drivers.clock import SimClock
from companion.startup.mock import mock_station
from companion.web import Access


def test_a_kept_access_comes_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "games.phones.json"
    first = Access.kept(path)
    first.take_seat("Ann", "phone-1")
    first.take_seat("Bob", "phone-2")
    first.leave("phone-2")
    code = first.new_join_code()
    again = Access.kept(path)
    assert (again.host_pin, again.join_code, again.secret_key) == (first.host_pin, code, first.secret_key)
    assert again.seats() == ["Ann"] and again.seat_of("phone-1") == "Ann"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the PIN and the cookie key: the owner's only
    assert "phone-1" not in repr(again) and again.host_pin not in repr(again)


def test_a_damaged_file_gives_a_fresh_access_and_is_replaced(tmp_path: Path, caplog) -> None:
    path = tmp_path / "games.phones.json"
    path.write_text('{"host_pin": "1234"')  # cut short by the power cut
    access = Access.kept(path)
    assert "join again" in caplog.text
    assert json.loads(path.read_text())["host_pin"] == access.host_pin


def test_a_phone_stays_joined_across_a_restart_of_the_table(tmp_path: Path) -> None:
    """The same phone (its cookie) acts again after the table is stopped and started on the same journal."""
    cookies = http.cookiejar.CookieJar()
    phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 2}

    def session(base: str) -> dict:
        with phone.open(f"{base}/api/session") as reply:
            return json.load(reply)

    def started() -> object:
        sim = SimClock()
        return mock_station(journal_path=tmp_path / "games.sqlite3", dice="software", clock=sim, sleep=sim.sleep,
                            setup=setup, new_seed=lambda: 3, web=("127.0.0.1", 0))

    with started() as (station, _, _):
        base = f"http://127.0.0.1:{station.web.port}"
        info = station.controller.join_info()
        token = session(base)["csrf"]
        body = json.dumps({"code": info.code, "player": "Ann"}).encode()
        request = urllib.request.Request(f"{base}/api/join", data=body,
                                         headers={"Content-Type": "application/json", "X-CSRFToken": token})
        with phone.open(request) as reply:
            assert reply.status == 200
        pin = info.pin
    with started() as (station, _, _):  # the power came back
        base = f"http://127.0.0.1:{station.web.port}"
        assert session(base)["player"] == "Ann"
        assert station.controller.join_info().pin == pin and station.resumed
