"""``GET /api/socket`` through the real server (cheroot, real sockets): inputs over it applied and journaled as the same
inputs POSTed, its refusals said as the POST's and counted by the same limits, what a client may not send closing it
with a code that says why and changing nothing, a foreign page refused, a replaced session's socket closed, a phone
that stops reading delaying nobody."""

from __future__ import annotations

import json
import os
import random
import socket
import sqlite3
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from companion.engine import find_ruleset
from companion.engine.core import IllegalInput
from companion.journal import Journal
from companion.sim.registry import strategy_for
from companion.table import Table
from companion.web import Access, WebServer, create_app, make_server
from companion.web.context import MAX_INPUT_BODY
from companion.web.fanout import FanOut, Tail
from companion.web.feed import RECENT_FRAMES
from companion.web.websocket import text_frame

from .conftest import CODE, PIN, SETUP
from .sse import Client, patched
from .test_fanout import DEEDS, Banker, fanout_of, settled, view_of_anyone
from .test_stream import Phone
from .ws import Refused, SocketPhone


@pytest.fixture
def server(app: Flask) -> Iterator[WebServer]:
    app.extensions["companion"].stream_keepalive = 3600.0  # no pings among the frames compared
    with make_server(app, "127.0.0.1", 0) as running:
        yield running


def cookie_of(phone: Phone) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in phone.jar)


def joined(server: WebServer, player: str | None = "Ann", *, host: bool = False) -> Phone:
    phone = Phone(server)
    if player is not None:
        phone.post("/api/join", {"code": CODE, "player": player})
    if host:
        phone.post("/api/host/login", {"pin": PIN})
    return phone


def socket_of(server: WebServer, phone: Phone, **options: Any) -> SocketPhone:
    """``phone``'s websocket, its first state read."""
    ws = SocketPhone(server.host, server.port, cookie=cookie_of(phone), **options)
    assert ws.next_state()[0] == "state"
    return ws


def records(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT game, line, source, outcome, reason FROM records ORDER BY id").fetchall()


def masked(opcode: int, payload: bytes, *, fin: bool = True, mask: bool = True) -> bytes:
    """A client's frame, written byte by byte (RFC 6455, 5.2): what wsproto would never send."""
    head = bytes([(0x80 if fin else 0) | opcode])
    length = len(payload)
    bit = 0x80 if mask else 0
    if length < 126:
        head += bytes([bit | length])
    elif length < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", length)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", length)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


# ---------------------------------------------------------------------- the same as a POST
def test_inputs_over_the_socket_are_answered_and_journaled_as_the_same_posts(tmp_path: Path) -> None:
    """Two tables on two journals, the same bot game played on both by the host's phone: on one each input POSTed,
    on the other sent over the socket, with a refused input and a stale one among them. Every reply's status and
    body are the same, and so are the two journals (each line, its source, its outcome, the refusal's reason)."""
    tables = []
    for side in ("post", "socket"):
        journal = Journal(tmp_path / f"{side}.sqlite3")
        table = Table(journal)
        table.new_game(SETUP)
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual", secret_key="s")
        app.extensions["companion"].stream_keepalive = 3600.0
        tables.append((journal, table, make_server(app, "127.0.0.1", 0).start()))
    (_, by_post, post_server), (_, by_socket, socket_server) = tables
    try:
        poster = Client(post_server.host, post_server.port)
        poster.request("GET", "/api/session")
        poster.request("POST", "/api/join", {"code": CODE, "player": "Ann"})
        poster.request("POST", "/api/host/login", {"pin": PIN})
        ws = socket_of(socket_server, joined(socket_server, "Ann", host=True))
        bot = strategy_for("classic")(find_ruleset("classic"), random.Random(7))
        for step in range(80):
            state = by_post.state
            assert state is not None and state == by_socket.state
            line = next(line for line in [bot.next_input(state), *bot.fallback(state)] if takes(state, line))
            bodies = [{"input": line, "seq": state["seq"], "game": 1}]
            if step % 10 == 3:  # refused by the engine (journaled as refused), then a stale one (not journaled)
                bodies[:0] = [{"input": {"roll": [9, 9]}, "seq": state["seq"]},
                              {"input": line, "seq": state["seq"] - 1}]
            for body in bodies:
                status, answer = poster.request("POST", "/api/input", body)
                reply = ws.act(body)
                assert (reply["status"], reply["body"]) == (status, answer), body
        assert records(tmp_path / "post.sqlite3") == records(tmp_path / "socket.sqlite3")
        assert any(outcome == "refused" for *_, outcome, _ in records(tmp_path / "socket.sqlite3"))
        ws.close()
    finally:
        for journal, _, running in tables:
            running.stop()
            journal.close()


def takes(state: Any, line: Any) -> bool:
    try:
        find_ruleset(state["ruleset"]).apply(state, line)
    except IllegalInput:
        return False
    return True


def test_a_players_refusals_over_the_socket_count_with_the_posts_and_say_why(server: WebServer, table: Table) -> None:
    """Ann may send Bob's input neither way: refused over the socket (403, as the POST), and the refusals count
    against her phone's limit whichever way they come (30 a minute): the 31st, POSTed, is held back (429)."""
    ann = joined(server, "Ann")
    ws = socket_of(server, ann)
    seq = table.state["seq"]  # type: ignore[index]
    bobs = {"input": {"act": {"player": "Bob", "do": "mortgage", "space": "baltic-avenue"}}, "seq": seq}
    for _ in range(30):
        reply = ws.act({"input": {"roll": [9, 9]}, "seq": seq})
        assert reply["status"] == 422 and reply["body"]["error"] == "refused"
    client = Client(server.host, server.port)
    client.cookie = cookie_of(ann)
    client.csrf = json.load(ann.opener.open(server.url + "/api/session"))["csrf"]
    status, answer = client.request("POST", "/api/input", {"input": {"roll": [9, 9]}, "seq": seq})
    assert (status, answer["error"]) == (429, "too-many")
    reply = ws.act(bobs)
    assert reply["status"] in (403, 429) and table.state["seq"] == seq  # type: ignore[index]
    ws.close()


def test_a_message_that_is_no_input_is_answered_with_what_is_wrong_and_changes_nothing(
        server: WebServer, table: Table) -> None:
    ws = socket_of(server, joined(server, "Ann"))
    seq = table.state["seq"]  # type: ignore[index]
    ws.send_text("{not json")
    assert ws.reply(None)["body"]["error"] == "bad-request"
    assert ws.act({"input": {"roll": [1, 2]}})["body"]["message"] == "missing field 'seq'"
    ws.send_text(json.dumps({"id": [1], "input": {"roll": [1, 2]}, "seq": seq}))
    assert ws.reply(None)["status"] == 400
    assert ws.act({"input": {"roll": [1, 2]}, "seq": seq, "game": 7})["status"] == 409
    assert table.state["seq"] == seq  # type: ignore[index]
    assert ws.act({"input": {"roll": [1, 2]}, "seq": seq})["status"] == 200  # the socket is still open
    ws.close()


# ---------------------------------------------------------------------- what a client may not send
def closed_by(ws: SocketPhone, raw: bytes) -> int:
    """Send ``raw`` bytes and read until the server closes: its close code."""
    ws.sock.sendall(raw)
    with pytest.raises(EOFError):
        while True:
            ws.message()
    assert ws.closed is not None
    return int(ws.closed.code)


INPUT = {"input": {"roll": [1, 2]}, "seq": 0}


@pytest.mark.parametrize("what, raw, code", [
    ("a binary message", masked(0x2, json.dumps(INPUT).encode()), 1003),
    ("a message over the body's bound", masked(0x1, json.dumps(INPUT).encode().ljust(MAX_INPUT_BODY + 1)), 1009),
    ("an unmasked frame", masked(0x1, json.dumps(INPUT).encode(), mask=False), 1002),
    ("text that is not UTF-8", masked(0x1, b'{"input": "\xff\xfe"}'), 1007),
    ("a continuation with no message begun", masked(0x0, json.dumps(INPUT).encode()), 1002),
    ("an HTTP request", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1002),
    ("a reserved opcode", masked(0x3, b"x"), 1002),
])
def test_what_a_client_may_not_send_closes_the_socket_saying_why_and_changes_nothing(
        server: WebServer, table: Table, tmp_path: Path, what: str, raw: bytes, code: int) -> None:
    ws = socket_of(server, joined(server, "Ann"))
    before = (table.state, records(tmp_path / "games.sqlite3"))
    assert closed_by(ws, raw) == code, what
    assert (table.state, records(tmp_path / "games.sqlite3")) == before
    assert settled(lambda: fanout_of(server.app).following() == 0)


def test_a_message_over_the_bound_is_refused_as_it_comes_not_once_whole(server: WebServer, table: Table) -> None:
    """A frame announcing a megabyte: the socket closes (1009) when the bound is passed, without the rest."""
    ws = socket_of(server, joined(server, "Ann"))
    whole = masked(0x1, b" " * (1 << 20))
    assert closed_by(ws, whole[:MAX_INPUT_BODY + 1024]) == 1009


def test_a_fragmented_input_is_one_input_and_pings_are_answered(server: WebServer, table: Table) -> None:
    ws = socket_of(server, joined(server, "Ann"))
    text = json.dumps({**INPUT, "id": "split"}).encode()
    ws.sock.sendall(masked(0x9, b"are you there") + masked(0x1, text[:10], fin=False) + masked(0x0, text[10:]))
    assert ws.reply("split")["status"] == 200
    assert table.state["seq"] == 1  # type: ignore[index]
    assert ws.pongs == [b"are you there"]  # answered before the message's reply
    ws.close()


def test_a_close_is_answered_with_a_close(server: WebServer, table: Table) -> None:
    ws = socket_of(server, joined(server, "Ann"))
    assert closed_by(ws, masked(0x8, struct.pack("!H", 1000) + b"bye")) == 1000
    assert settled(lambda: server.app.extensions["companion"].streams.held() == 0)


# ---------------------------------------------------------------------- the handshake
@pytest.mark.parametrize("origin", ["http://evil.example", "", "http://127.0.0.1:1", "null"])
def test_a_foreign_page_cannot_open_a_phones_socket(server: WebServer, table: Table, origin: str) -> None:
    ann = joined(server, "Ann")
    with pytest.raises(Refused) as refused:
        SocketPhone(server.host, server.port, cookie=cookie_of(ann), origin=origin)
    assert refused.value.status == 403 and refused.value.body["error"] == "forbidden"
    assert "own page" in refused.value.body["message"]
    assert server.app.extensions["companion"].streams.held() == 0


def test_a_plain_request_or_another_version_is_told_what_to_do(server: WebServer) -> None:
    client = Client(server.host, server.port)
    status, answer = client.request("GET", "/api/socket")
    assert (status, answer["error"]) == (400, "bad-request") and "websocket" in answer["message"]
    with pytest.raises(Refused) as refused:
        SocketPhone(server.host, server.port, extra=[("Sec-WebSocket-Version", "8")])
    assert refused.value.status in (400, 426)


def test_a_table_code_is_asked_for_before_a_socket_opens(app: Flask, server: WebServer) -> None:
    app.extensions["companion"].access.table_code = "4242"
    with pytest.raises(Refused) as refused:
        SocketPhone(server.host, server.port)
    assert (refused.value.status, refused.value.body["error"]) == (401, "table-code")


# ---------------------------------------------------------------------- the session and the fan-out
def test_a_socket_whose_session_was_replaced_is_closed_and_acts_no_more(server: WebServer, table: Table) -> None:
    """Ann's phone logs in as the host (its session id renewed, her seat moved to the new one): the socket opened
    under the old id closes (1008), having sent nothing more, and changed nothing."""
    ann = joined(server, "Ann")
    ws = socket_of(server, ann)
    ann.post("/api/host/login", {"pin": PIN})
    with pytest.raises(EOFError):
        ws.message()
    assert ws.closed is not None and ws.closed.code == 1008
    assert table.state["seq"] == 0  # type: ignore[index]


def test_a_socket_phone_that_stops_reading_delays_nobody_and_catches_up_whole(
        app: Flask, server: WebServer, table: Table) -> None:
    """As a live stream's (test_fanout.py): a socket phone that reads nothing is handed back to its thread when its
    socket is full; the others get each input's event at once; reading again, it catches up whole."""
    bot = Banker(table)
    fast = [socket_of(server, joined(server, None)), socket_of(server, joined(server, None))]
    slow_phone = joined(server, None)
    sock = socket.create_connection((server.host, server.port), 20)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    slow = SocketPhone(server.host, server.port, cookie=cookie_of(slow_phone), connected=sock)
    assert settled(lambda: fanout_of(app).following() == 3)
    with fanout_of(app)._lock:
        tail = next(t for t in fanout_of(app)._following if t._out.getpeername() == sock.getsockname())
        tail._out.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    held = [view_of_anyone(server)] * 2

    def follow() -> None:
        for i, phone in enumerate(fast):
            name, _, data = phone.event()
            held[i] = json.loads(data) if name == "state" else patched(held[i], json.loads(data))

    while not fanout_of(app).handed_back["slow"]:
        assert bot.done < 400, "the slow phone's socket never filled"
        bot.play()
        follow()
    for _ in range(RECENT_FRAMES + 4):
        bot.play()
        follow()
    assert fanout_of(app).following() == 2  # the fast ones never left it
    now = view_of_anyone(server)
    assert held[0] == held[1] == now
    state: Any = None
    kinds = []
    while state is None or state["seq"] != now["seq"]:
        name, _, data = slow.event()
        kinds.append(name)
        state = json.loads(data) if name == "state" else patched(state, json.loads(data))
    assert "state" in kinds[1:] and state == now  # it lagged beyond the kept frames: the whole state
    assert settled(lambda: fanout_of(app).following() == 3)
    for phone in [*fast, slow]:
        phone.close()


# ---------------------------------------------------------------------- permessage-deflate
def test_phones_offering_deflate_get_the_events_compressed_and_hold_the_same_state(
        app: Flask, server: WebServer, table: Table) -> None:
    """Two phones offering permessage-deflate (as browsers do) and one that does not follow a run of money actions:
    all hold GET /api/state's state after each, the compressed ones for much fewer bytes; a compressed phone's own
    inputs (wsproto compresses them) are taken."""
    bot = Banker(table)
    packed = [socket_of(server, joined(server, None), deflate=True) for _ in range(2)]
    plain = socket_of(server, joined(server, None))
    assert all(phone.accepted.extensions for phone in packed) and not plain.accepted.extensions
    assert settled(lambda: fanout_of(app).following() == 3)
    counted = [phone.received for phone in [*packed, plain]]
    for _ in range(RECENT_FRAMES + 10):
        bot.play()
        states = [phone.next_state()[1] for phone in [*packed, plain]]
        assert states[0] == states[1] == states[2] == view_of_anyone(server)
    sizes = [phone.received - before for phone, before in zip([*packed, plain], counted)]
    assert sizes[0] == sizes[1] and 3 * sizes[0] < sizes[2], sizes  # the same frames to both, a fraction of plain
    assert fanout_of(app).following() == 3
    host = socket_of(server, joined(server, None, host=True), deflate=True)
    seq = table.state["seq"]  # type: ignore[index]
    mortgage = {"act": {"player": "Ann", "do": "mortgage", "space": "mediterranean-avenue"}}
    if table.state["spaces"]["mediterranean-avenue"]["mortgaged"]:  # type: ignore[index]
        mortgage["act"]["do"] = "unmortgage"
    assert host.act({"input": mortgage, "seq": seq, "game": table.game.id})["status"] == 200  # type: ignore[union-attr]
    assert table.state["seq"] == seq + 1  # type: ignore[index]
    for phone in [*packed, plain, host]:
        phone.close()


@pytest.mark.parametrize("offer", ["permessage-deflate; server_no_context_takeover",
                                   "permessage-deflate; server_max_window_bits=9", "x-webkit-deflate-frame"])
def test_a_deflate_offer_the_shared_compressor_cannot_keep_to_is_declined(server: WebServer, offer: str) -> None:
    ws = SocketPhone(server.host, server.port, extra=[("Sec-WebSocket-Extensions", offer)])
    assert not ws.accepted.extensions
    assert ws.event()[0] == "state"  # plain frames
    ws.close()


def test_a_reply_the_socket_cannot_take_whole_is_left_to_its_thread_in_order() -> None:
    """FanOut.write (a socket phone's reply between the events) to a socket that stops taking bytes: what it did not
    take is kept pending and the phone handed back, nothing more written by the fan-out; the thread's write of the
    rest then gives the phone every frame whole and in order. (A real socket pair with small buffers; through the
    server, a phone that neither reads nor is read from stalls its own TCP before its reply's turn comes.)"""
    frame = SimpleNamespace(state={})
    fanout = FanOut(SimpleNamespace(closed=False, latest=lambda: frame))  # type: ignore[arg-type]
    ours, phone = socket.socketpair()
    ours.settimeout(20)  # as cheroot's connection has: its duplicate's O_NONBLOCK is shared, so a timeout makes it wait
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    tail = Tail(lambda state: "anyone", lambda viewer: lambda state, events: state, None)
    tail.held = (frame, "anyone")
    tail.attach(ours, text_frame)
    assert fanout.follow(tail)
    frames = [text_frame(json.dumps({"id": n, "body": "x" * 600}).encode()) for n in range(400)]
    written = 0
    while fanout.following():
        assert written < len(frames), "the socket never filled"
        assert fanout.write(tail, frames[written])
        written += 1
    assert tail.woken.is_set() and tail.pending and fanout.handed_back["slow"] == 1
    assert not fanout.write(tail, frames[written])  # handed back: the thread writes from now on
    received = bytearray()
    phone.settimeout(20)  # a failure below must not leave the reader waiting for ever (the run would never end)
    reader = threading.Thread(target=lambda: received.extend(read_all(phone)), daemon=True)
    reader.start()
    assert tail.write_pending(ours)
    ours.sendall(frames[written])
    ours.close()
    tail.close()
    reader.join(timeout=20)
    assert bytes(received) == b"".join(frames[:written + 1])
    phone.close()
    fanout.close()


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    while data := sock.recv(65536):
        chunks.append(data)
    return b"".join(chunks)
