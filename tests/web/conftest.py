"""Fixtures for the phone page: a real journal (SQLite in a temporary folder), the table, the app."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.journal import Journal
from companion.table import Table
from companion.web import Access, create_app

PIN = "246810"
CODE = "135790"
SETUP = {"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 5}


def design_part(view: dict[str, Any]) -> dict[str, Any]:
    """The page's view of a state without what it adds to DESIGN.md's state (``just_now``, the last input's story)."""
    assert set(view["just_now"]) == {"seq", "lines"} and view["just_now"]["seq"] == view["seq"]
    return {key: value for key, value in view.items() if key != "just_now"}


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "games.sqlite3") as j:
        yield j


@pytest.fixture
def table(journal: Journal) -> Table:
    t = Table(journal)
    t.new_game(SETUP)
    return t


@pytest.fixture
def access() -> Access:
    return Access(host_pin=PIN, join_code=CODE)


@pytest.fixture
def app(table: Table, access: Access) -> Flask:
    return create_app(table, access=access, phone_dice="manual", secret_key="test-secret")


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf(client: FlaskClient) -> str:
    return str(client.get("/api/session").get_json()["csrf"])


def post(client: FlaskClient, path: str, body: Any = None, **kwargs: Any) -> Any:
    """POST JSON with this client's CSRF token."""
    headers = {"X-CSRFToken": csrf(client), **kwargs.pop("headers", {})}
    return client.post(path, json=body, headers=headers, **kwargs)


def join(client: FlaskClient, player: str) -> FlaskClient:
    response = post(client, "/api/join", {"code": CODE, "player": player})
    assert response.status_code == 200, response.get_json()
    return client


def as_host(client: FlaskClient) -> FlaskClient:
    response = post(client, "/api/host/login", {"pin": PIN})
    assert response.status_code == 200, response.get_json()
    return client


def send(client: FlaskClient, line: dict[str, Any], seq: int | None = None) -> Any:
    if seq is None:
        seq = client.get("/api/state").get_json()["seq"]
    return post(client, "/api/input", {"input": line, "seq": seq})


@contextmanager
def ticking(station: Any) -> Iterator[None]:
    """The station's tick every 10 ms on a thread of its own, as ``companion run`` ticks it."""
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(0.01):
            station.tick()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join(timeout=2)
