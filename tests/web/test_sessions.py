"""The phones' sessions (companion/web/sessions.py): each cookie's signature checked once, the cookie sent again only
when the session changed or is a day old, and a forged or expired cookie still nothing but a new session."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask
from itsdangerous import URLSafeTimedSerializer

from companion.web.sessions import REFRESH_AFTER, KeptSessions

from .conftest import join

WEEK = 7 * 24 * 3600


@pytest.fixture
def later(app: Flask) -> list[float]:
    """Seconds to add to the sessions' clock."""
    offset = [0.0]
    app.session_interface = KeptSessions(clock=lambda: time.time() + offset[0])
    return offset


def cookie_sent(response: Any) -> bool:
    return any(h.startswith("companion=") for h in response.headers.getlist("Set-Cookie"))


def test_an_unchanged_session_is_not_signed_again_until_a_day_has_passed(app: Flask, later: list[float]) -> None:
    ann = join(app.test_client(), "Ann")  # a permanent session (its id), just signed
    assert not cookie_sent(ann.get("/api/state")) and not cookie_sent(ann.get("/api/session"))
    assert ann.get("/api/session").get_json()["player"] == "Ann"
    later[0] = REFRESH_AFTER + 60
    assert cookie_sent(ann.get("/api/state"))  # a day on: signed anew, so a phone in use never reaches its end
    later[0] = 0
    assert not cookie_sent(ann.get("/api/state"))


def test_each_cookie_is_checked_once(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = join(app.test_client(), "Ann")
    checked: list[str] = []
    loads = URLSafeTimedSerializer.loads
    monkeypatch.setattr(URLSafeTimedSerializer, "loads", lambda self, *a, **k: checked.append("x") or loads(self, *a, **k))
    for _ in range(5):
        assert ann.get("/api/session").get_json()["player"] == "Ann"
    assert len(checked) <= 1


def test_a_forged_or_expired_cookie_is_a_new_session(app: Flask, later: list[float]) -> None:
    ann = join(app.test_client(), "Ann")
    cookie = ann.get_cookie("companion")
    assert cookie is not None
    forged = app.test_client()
    forged.set_cookie("companion", cookie.value[:-2] + ("AA" if not cookie.value.endswith("AA") else "BB"))
    assert forged.get("/api/session").get_json()["player"] is None
    assert ann.get("/api/session").get_json()["player"] == "Ann"  # opened, and kept
    later[0] = WEEK + 60
    assert ann.get("/api/session").get_json()["player"] is None  # a week old: expired, kept or not
