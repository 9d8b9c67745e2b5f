"""A websocket's inputs answered by ``POST /api/input``'s own work without a request around them
(``companion.web.inputs.take_input``, for the phone its handshake found): rights revoked or a session replaced while
the socket is open are refused as the POST is, a limit reached over the socket is answered as the POST's, the phone's
language is kept, a cookie past its lifetime is no one's, and a fault inside is answered 500 and logged."""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, request

from companion.table import Table
from companion.web import WebServer, make_server
from companion.web.socket_api import Inputs
from companion.words import ENGLISH, Words

from .sse import Client
from .test_socket import cookie_of, joined, records, socket_of
from .test_stream import Phone

ROLL = {"input": {"roll": [1, 2]}, "seq": 0}  # Ann's, at the start of the game


@pytest.fixture
def server(app: Flask) -> Iterator[WebServer]:
    app.extensions["companion"].stream_keepalive = 3600.0
    with make_server(app, "127.0.0.1", 0) as running:
        yield running


def poster_of(server: WebServer, phone: Phone) -> Client:
    """A connection POSTing with ``phone``'s cookie and CSRF token."""
    client = Client(server.host, server.port)
    client.cookie = cookie_of(phone)
    client.csrf = json.load(phone.opener.open(server.url + "/api/session"))["csrf"]
    return client


def test_a_seat_freed_while_the_socket_is_open_is_refused_as_the_post_is(server: WebServer, table: Table) -> None:
    """The host frees Ann's seat (a lost phone): her socket stays open, and her next input over it is refused
    (401 not-joined) exactly as the same input POSTed with her cookie; nothing is applied."""
    ann, host = joined(server, "Ann"), joined(server, None, host=True)
    ws = socket_of(server, ann)
    poster = poster_of(server, ann)
    host.post("/api/host/free-seat", {"player": "Ann"})
    reply = ws.act(ROLL)
    assert (reply["status"], reply["body"]["error"]) == (401, "not-joined")
    assert (reply["status"], reply["body"]) == poster.request("POST", "/api/input", ROLL)
    assert table.state["seq"] == 0  # type: ignore[index]
    ws.close()


def test_host_rights_revoked_while_the_socket_is_open_are_refused_as_the_post_is(
        app: Flask, server: WebServer, table: Table) -> None:
    """The host's phone (no seat) rolls for Ann over its socket; its host rights revoked on the table, the same roll
    is refused over the socket as by a POST with its cookie."""
    host = joined(server, None, host=True)
    ws = socket_of(server, host)
    poster = poster_of(server, host)
    app.extensions["companion"].access.revoke_host(session_of(app, host)["sid"])
    reply = ws.act(ROLL)
    assert (reply["status"], reply["body"]["error"]) == (401, "not-joined")
    assert (reply["status"], reply["body"]) == poster.request("POST", "/api/input", ROLL)
    assert table.state["seq"] == 0  # type: ignore[index]
    ws.close()


def test_a_message_under_a_replaced_session_is_refused(app: Flask, server: WebServer, table: Table) -> None:
    """A message read after the phone's session id was replaced (joining again, logging in: the socket closes at its
    next look, but a message already read is answered first) holds nothing under the old id: refused (401)."""
    ann = joined(server, "Ann")
    inputs = inputs_of(app, ann)
    ann.post("/api/host/login", {"pin": "246810"})  # the id renewed, the seat moved to the new one
    reply = json.loads(inputs.answer(json.dumps({**ROLL, "id": 1}).encode()))
    assert (reply["id"], reply["status"], reply["body"]["error"]) == (1, 401, "not-joined")
    assert table.state["seq"] == 0  # type: ignore[index]


def session_of(app: Flask, phone: Phone) -> dict[str, Any]:
    """``phone``'s session as its cookie holds it, opened by the app."""
    with app.test_request_context("/api/socket", headers={"Cookie": cookie_of(phone)}):
        return dict(app.session_interface.open_session(app, request) or {})


def inputs_of(app: Flask, phone: Phone, *, expires: float = math.inf, words: Words = ENGLISH) -> Inputs:
    """The inputs of a socket opened by ``phone``, its cookie ending at ``expires``."""
    return Inputs(app.extensions["companion"], session_of(app, phone), "127.0.0.1", words, expires)


def test_a_cookie_past_its_lifetime_is_no_ones_over_the_socket(app: Flask, server: WebServer, table: Table) -> None:
    """The session's cookie ends while its socket is open: the next message is no one's (as its POST would be, the
    cookie no longer opened), and with the cookie alive the same input is taken."""
    ann = joined(server, "Ann")
    ended = inputs_of(app, ann, expires=time.time() - 1)
    reply = json.loads(ended.answer(json.dumps(ROLL).encode()))
    assert (reply["status"], reply["body"]["error"]) == (401, "not-joined")
    assert table.state["seq"] == 0  # type: ignore[index]
    alive = inputs_of(app, ann)
    assert json.loads(alive.answer(json.dumps(ROLL).encode()))["status"] == 200
    assert table.state["seq"] == 1  # type: ignore[index]


def test_a_limit_reached_over_the_socket_is_answered_as_the_post_is(server: WebServer, table: Table) -> None:
    """Ann's 30 refusals a minute, over the socket: the 31st, over the socket too, is held back (429) with the body
    a POST of hers gets then; Bob's accepted inputs (8 in 5 s, 60 a minute) end in the same 429 over the socket."""
    ann, bob = joined(server, "Ann"), joined(server, "Bob")
    ws = socket_of(server, ann)
    refused = {"input": {"roll": [9, 9]}, "seq": 0}
    for _ in range(30):
        assert ws.act(refused)["status"] == 422
    held = ws.act(refused)
    status, answer = poster_of(server, ann).request("POST", "/api/input", refused)
    assert (held["status"], held["body"]) == (status, answer) == (429, answer)
    assert answer["error"] == "too-many"
    ws.close()

    bobs = socket_of(server, bob)
    offer = {"act": {"player": "Bob", "do": "trade", "with": "Ann", "give": {"cash": 1}, "get": {}}}
    withdraw = {"act": {"player": "Bob", "do": "reject"}}
    statuses: list[int] = []
    seq = table.state["seq"]  # type: ignore[index]
    while 429 not in statuses and len(statuses) < 70:
        reply = bobs.act({"input": withdraw if statuses.count(200) % 2 else offer, "seq": seq})
        statuses.append(reply["status"])
        seq = reply["body"].get("seq", seq)
    assert statuses[-1] == 429 and set(statuses[:-1]) == {200}, statuses
    assert reply["body"]["error"] == "too-many" and table.state["seq"] == seq  # type: ignore[index]
    bobs.close()


def test_refusals_over_the_socket_are_said_in_the_phones_language_as_the_posts(
        server: WebServer, table: Table) -> None:
    """Ann's phone reads German (chosen on the page): every refusal over her socket (another's act, a stale seq, a
    bad field, the engine's) says what her POST says, in German."""
    ann = joined(server, "Ann")
    ann.opener.open(server.url + "/?lang=de").read()
    ws = socket_of(server, ann)
    poster = poster_of(server, ann)
    english = poster_of(server, joined(server, "Cy"))
    for body in [{"input": {"act": {"player": "Bob", "do": "mortgage", "space": "baltic-avenue"}}, "seq": 0},
                 {"input": {"roll": [1, 2]}, "seq": 5},
                 {"input": {"roll": [1, 2]}, "seq": "0"},
                 {"input": {"roll": [9, 9]}, "seq": 0}]:
        reply = ws.act(body)
        assert (reply["status"], reply["body"]) == poster.request("POST", "/api/input", body), body
        assert reply["body"]["message"] != english.request("POST", "/api/input", body)[1]["message"], body
    assert table.state["seq"] == 0  # type: ignore[index]
    ws.close()


def test_a_fault_inside_an_input_is_answered_500_and_logged(
        server: WebServer, table: Table, tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The table fails an input in a way no handler answers: the socket answers 500 (``internal``), the log says
    so, nothing is journaled, and the socket goes on."""
    ws = socket_of(server, joined(server, "Ann"))
    before = records(tmp_path / "games.sqlite3")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    with monkeypatch.context() as patch:
        patch.setattr(table, "submit", broken)
        with caplog.at_level(logging.ERROR, logger="companion.web.socket_api"):
            reply = ws.act({**ROLL, "id": "x"})
    assert (reply["status"], reply["body"]["error"]) == (500, "internal")
    assert any("an input over the websocket failed" in r.getMessage() and r.exc_info for r in caplog.records)
    assert records(tmp_path / "games.sqlite3") == before and table.state["seq"] == 0  # type: ignore[index]
    assert ws.act(ROLL)["status"] == 200
    ws.close()
