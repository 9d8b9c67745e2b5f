"""The phone page answers only to names a home network gives the table (a defence against DNS rebinding)."""

from __future__ import annotations

import http.client
import socket
from pathlib import Path

import pytest
from flask import Flask

from companion.drivers.clock import SimClock
from companion.startup.mock import mock_station
from companion.table import Table
from companion.web import Access, create_app
from companion.web.hosts import answers_to, known_names

from .conftest import CODE, PIN, csrf


@pytest.mark.parametrize(("host", "answered"), [
    ("192.168.1.20:8080", True), ("127.0.0.1", True), ("[::1]:8080", True), ("[fe80::1]", True), ("::1", True),
    ("localhost:8080", True), ("raspberrypi:8080", True), ("companion.local", True), ("Companion.Local.:80", True),
    ("pi.lan", True), ("table.home.arpa", True), ("companion.fritz.box", False),
    ("evil.example", False), ("192.168.1.20.evil.example", False), ("local.evil.example", False), ("", False),
])
def test_which_names_the_table_answers_to(host: str, answered: bool) -> None:
    assert answers_to(host) is answered


def test_the_machines_own_name_and_the_configured_names_are_answered() -> None:
    assert answers_to(f"{socket.gethostname()}:8080")
    assert not answers_to("games.example.org")
    assert answers_to("games.example.org:8080", known_names(["Games.Example.org."]))
    assert answers_to("companion.fritz.box", known_names(["companion.fritz.box"]))  # .box is public: only if listed


def test_a_rebound_name_gets_nothing_not_even_the_state(app: Flask, table: Table) -> None:
    """A page of evil.example whose DNS now points at the table: same origin for the browser, but its Host header
    still says evil.example, and the table refuses it before anything else (the state, a join code, an input)."""
    rebound = app.test_client()
    for path in ("/", "/api/state", "/api/session"):
        refused = rebound.get(path, base_url="http://evil.example:8080")
        assert refused.status_code == 400 and refused.get_json()["error"] == "unknown-host", path
    seq = table.state["seq"]
    refused = rebound.post("/api/join", json={"code": CODE, "player": "Ann"}, base_url="http://evil.example:8080")
    assert refused.status_code == 400 and refused.get_json()["error"] == "unknown-host"
    assert table.state["seq"] == seq
    at_home = app.test_client()
    assert at_home.get("/api/state", base_url="http://192.168.1.20:8080").status_code == 200
    assert at_home.get("/api/state", base_url="http://companion.local:8080").status_code == 200
    token = csrf(at_home)
    assert at_home.post("/api/join", json={"code": CODE, "player": "Ann"}, headers={"X-CSRFToken": token}).status_code == 200


def test_a_name_listed_in_the_config_is_answered(table: Table) -> None:
    app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), config={"COMPANION_HOSTS": ("games.example.org",)})
    client = app.test_client()
    assert client.get("/api/state", base_url="http://games.example.org").status_code == 200
    assert client.get("/api/state", base_url="http://evil.example").status_code == 400


def test_the_tables_server_answers_the_names_of_its_config(tmp_path: Path) -> None:
    """From the config's web_names to the running server (cheroot), as `companion run` builds it."""
    sim = SimClock()
    with mock_station(journal_path=tmp_path / "games.sqlite3", dice="software", clock=sim, sleep=sim.sleep,
                      setup={"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 2}, new_seed=lambda: 3,
                      web=("127.0.0.1", 0), web_names=("games.example.org",)) as (station, _, _):
        def status(host: str) -> int:
            connection = http.client.HTTPConnection("127.0.0.1", station.web.port, timeout=10)
            try:
                connection.request("GET", "/api/state", headers={"Host": host})
                return connection.getresponse().status
            finally:
                connection.close()

        assert status("games.example.org") == 200
        assert status(f"127.0.0.1:{station.web.port}") == 200
        assert status("evil.example") == 400
