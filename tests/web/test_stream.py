"""The live stream through the real server (cheroot on a loopback port): updates, resume, many phones."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from typing import Any

import pytest
from flask import Flask

from companion.engine import public_state
from companion.table import Table
from companion.web import WebServer, make_server

from .conftest import CODE, PIN, design_part
from .sse import WITHIN, EventStream, fanout_of, settled

SECRET_CARDS = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
                "deal": {"Ann": ["travel-forward-2", "triple-play-136"], "Bob": ["travel-back-1", "triple-play-445"]}}


@pytest.fixture
def server(app: Flask) -> Iterator[WebServer]:
    app.extensions["companion"].stream_keepalive = 0.2
    with make_server(app, "127.0.0.1", 0) as running:
        yield running


def test_the_stream_sends_the_state_then_every_change(server: WebServer, table: Table) -> None:
    stream = EventStream(server.host, server.port)
    assert stream.response.getheader("Content-Type").startswith("text/event-stream")
    event_id, state = stream.next_state()
    assert design_part(state) == public_state(table.state) and event_id == f"{table.game.id}:0"
    table.submit({"roll": [1, 2]}, source="buttons")
    event_id, state = stream.next_state()
    assert state["seq"] == 1 and design_part(state) == public_state(table.state) and event_id.endswith(":1")
    assert [line["kind"] for line in state["just_now"]["lines"]] == ["dice", "move"]
    stream.close()


def test_keep_alive_comments_while_nothing_happens(server: WebServer) -> None:
    stream = EventStream(server.host, server.port)
    stream.next_state()
    comments = 0
    while comments < 2:  # the fixture sets a 0.2 s keep-alive
        comments += stream.response.readline().startswith(b":")
    stream.close()


def test_resume_with_last_event_id_sends_only_what_is_new(app: Flask, server: WebServer, table: Table) -> None:
    first = EventStream(server.host, server.port)
    seen, _ = first.next_state()
    first.close()  # the phone loses the connection
    table.submit({"roll": [1, 2]}, source="buttons")
    again = EventStream(server.host, server.port, last_event_id=seen)
    event_id, state = again.next_state()
    assert state["seq"] == 1  # what it missed, at once
    again.close()
    assert settled(lambda: fanout_of(app).following() == 0)  # the phone that left is gone from the fan-out
    current = EventStream(server.host, server.port, last_event_id=event_id, held=state)
    # the stream has looked at the table and follows it (its headers come first): an input before that look would be
    # a resume from an older state, answered with the whole state
    assert settled(lambda: fanout_of(app).following() == 1)
    table.submit({"answer": "yes"}, source="buttons")
    _, state = current.next_state()
    assert state["seq"] == 2 and design_part(state) == public_state(table.state)  # the state it had seen was not sent again:
    assert current.kinds == ["delta"]  # only what changed since
    current.close()


def test_a_new_game_reaches_the_stream(server: WebServer, table: Table) -> None:
    stream = EventStream(server.host, server.port)
    stream.next_state()
    table.new_game({"ruleset": "classic", "players": ["Dee", "Eve"]})
    event_id, state = stream.next_state()
    assert state["seq"] == 0 and [p["name"] for p in state["players"]] == ["Dee", "Eve"]
    assert event_id == f"{table.game.id}:0"
    stream.close()


def test_sixteen_phones_follow_at_once(server: WebServer, table: Table) -> None:
    streams = [EventStream(server.host, server.port) for _ in range(16)]
    for stream in streams:
        stream.next_state()
    table.submit({"roll": [1, 2]}, source="buttons")
    with ThreadPoolExecutor(16) as pool:
        states = list(pool.map(lambda s: s.next_state()[1]["seq"], streams))
    assert states == [1] * 16
    for stream in streams:
        stream.close()


def test_stopping_the_server_ends_open_streams(app: Flask) -> None:
    running = make_server(app, "127.0.0.1", 0).start()
    stream = EventStream(running.host, running.port)
    stream.next_state()
    running.stop()
    with pytest.raises((EOFError, OSError)):
        while True:
            stream.next_event()


def test_a_closed_streams_slot_is_given_back_without_waiting_for_a_write(app: Flask) -> None:
    """A stream's slot came back only when a write to the gone phone failed (the second keep-alive after it left,
    up to 30 s): a phone reloading a few times was refused its stream meanwhile."""
    context = app.extensions["companion"]
    context.stream_keepalive = 3600.0  # nothing is written while the test runs
    context.streams.total = 1
    with make_server(app, "127.0.0.1", 0) as running:
        first = EventStream(running.host, running.port)
        first.next_state()
        first.close()  # the phone goes away
        deadline = time.monotonic() + 30  # only a bound for a broken server: no speed is asserted
        while True:
            again = EventStream(running.host, running.port)
            if again.response.status == 200:
                break
            again.close()
            assert time.monotonic() < deadline, "the closed stream's slot was never given back"
            time.sleep(0.05)
        again.next_state()
        again.close()


class Phone:
    """One phone's cookies on the real server: it joins, logs in and out, and opens its stream."""

    def __init__(self, server: WebServer) -> None:
        self.server, self.jar = server, CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def post(self, path: str, body: dict[str, Any]) -> Any:
        csrf = json.load(self.opener.open(self.server.url + "/api/session"))["csrf"]
        request = urllib.request.Request(self.server.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", "X-CSRFToken": csrf})
        return json.load(self.opener.open(request))

    def stream(self) -> EventStream:
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        return EventStream(self.server.host, self.server.port, cookie=cookie)


def travel_cards(stream: EventStream, within: float = WITHIN) -> list[str]:
    """Each player's first card (their travel card) in the stream's next state (``within`` seconds: else a failure)."""
    return [p["cards"][0] for p in stream.next_state(within)[1]["players"]]


def stream_of_a_host(server: WebServer, table: Table) -> tuple[Phone, EventStream]:
    """Bob's phone in host mode, its stream open on a game where each player holds a face-down card."""
    table.new_game(SECRET_CARDS)
    bob = Phone(server)
    bob.post("/api/join", {"code": CODE, "player": "Bob"})
    bob.post("/api/host/login", {"pin": PIN})
    stream = bob.stream()
    assert travel_cards(stream) == ["travel-forward-2", "travel-back-1"]
    return bob, stream


def ended(stream: EventStream) -> bool:
    """Whether the stream ends without another state (keep-alives aside)."""
    try:
        stream.next_state(within=5)
    except EOFError:
        return True
    return False


def test_leaving_host_mode_hides_the_others_cards_on_the_open_stream(server: WebServer, table: Table) -> None:
    """The stream decided what its phone may see when it opened: after "Leave host mode" it still sent every
    player's face-down travel cards. Now logging out gives the phone a fresh session id: the stream opened under
    the old one ends at once, sending nothing more, and the page's new stream shows only Bob's own card."""
    bob, stream = stream_of_a_host(server, table)
    bob.post("/api/host/logout", {})
    table.submit({"roll": [1, 2]}, source="buttons")
    assert ended(stream)
    again = bob.stream()
    assert travel_cards(again) == ["travel-hidden", "travel-back-1"]
    again.close()


def stream_of_a_lost_phone(server: WebServer, table: Table) -> EventStream:
    """Ann's phone, its stream open on a game where she holds a face-down card, then the host frees her seat."""
    table.new_game(SECRET_CARDS)
    lost = Phone(server)
    lost.post("/api/join", {"code": CODE, "player": "Ann"})
    stream = lost.stream()
    assert travel_cards(stream) == ["travel-forward-2", "travel-hidden"]
    host = Phone(server)
    host.post("/api/host/login", {"pin": PIN})
    host.post("/api/host/free-seat", {"player": "Ann"})
    return stream


def test_a_lost_phones_stream_stops_showing_its_players_cards(server: WebServer, table: Table) -> None:
    """After the host freed a lost phone's seat and the player joined on a new phone, the lost phone's open stream
    still carried that player's face-down cards."""
    stream = stream_of_a_lost_phone(server, table)
    Phone(server).post("/api/join", {"code": CODE, "player": "Ann"})
    table.submit({"roll": [1, 2]}, source="buttons")
    assert travel_cards(stream) == ["travel-hidden", "travel-hidden"]
    stream.close()


def test_freeing_a_seat_alone_reaches_the_lost_phones_open_stream(server: WebServer, table: Table) -> None:
    """Freeing a lost phone's seat changed what its stream sent only at the next input: until somebody played,
    the lost phone went on showing its player's face-down cards."""
    stream = stream_of_a_lost_phone(server, table)
    event_id, state = stream.next_state(within=5)  # the same state, as the phone may see it now
    assert event_id == f"{table.game.id}:0" and [p["cards"][0] for p in state["players"]] == ["travel-hidden"] * 2
    stream.close()


def test_leaving_host_mode_alone_reaches_the_open_stream_and_nothing_is_sent_twice(
        server: WebServer, table: Table) -> None:
    bob, old = stream_of_a_host(server, table)
    bob.post("/api/host/logout", {})
    assert ended(old)  # opened under the session id logging out replaced
    stream = bob.stream()
    assert travel_cards(stream, within=5) == ["travel-hidden", "travel-back-1"]  # the same state, as it may see it now
    Phone(server).post("/api/join", {"code": CODE, "player": "Ann"})  # another phone's seat: Bob's view is the same
    stream.comments = 0
    while stream.comments < 3:  # keep-alives every 0.2 s, and no state event among them
        line = stream.response.readline()
        assert not line.startswith(b"event:"), line
        stream.comments += line.startswith(b":")
    stream.close()
