"""The live streams' fan-out (companion/web/fanout.py) through the real server: phones that are up to date are written
to by the thread that published the input, and get byte for byte what their own stream's thread would have sent; a
slow reader, a phone whose view changed and a lagging phone leave it for their own thread and catch up as before."""

from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
import urllib.request
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from companion.engine import find_ruleset
from companion.engine.core import IllegalInput
from companion.sim.registry import strategy_for
from companion.table import Table
from companion.web import WebServer, make_server
from companion.web.feed import RECENT_FRAMES, RETRY
from companion.web.packed_stream import StreamPacker

from .conftest import CODE, PIN
from .sse import WITHIN, EventStream, fanout_of, patched, settled
from .test_stream import SECRET_CARDS, Phone, ended, travel_cards


@pytest.fixture
def server(app: Flask) -> Iterator[WebServer]:
    app.extensions["companion"].stream_keepalive = 3600.0  # no keep-alive among the events compared
    with make_server(app, "127.0.0.1", 0) as running:
        yield running


class Bot:
    """The classic bots choosing each input from the table's state; submitted as the table's buttons would."""

    def __init__(self, table: Table) -> None:
        self.table = table
        ruleset = table.state["ruleset"]  # type: ignore[index]
        self.bot = strategy_for(ruleset)(find_ruleset(ruleset), random.Random(7))

    def play(self) -> None:
        state = self.table.state
        assert state is not None and state.get("winner") is None, "the game ended before the test did"
        for line in [self.bot.next_input(state), *self.bot.fallback(state)]:
            try:
                self.table.submit(line, source="buttons")
                return
            except IllegalInput:
                continue
        raise AssertionError(f"no input taken at {state['prompt']}")


DEEDS = ["mediterranean-avenue", "baltic-avenue", "oriental-avenue", "vermont-avenue"]
OWNED = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "start": {
    "players": {n: {"cash": 1500, "space": "go", "cards": [], "in_jail": False} for n in ["Ann", "Bob"]},
    "spaces": {deed: {"owner": ["Ann", "Bob"][i // 2], "houses": 0, "hotel": False, "mortgaged": False}
               for i, deed in enumerate(DEEDS)},
    "pools": {}, "turn": "Ann"}}


class Banker:
    """Money actions for ever (each player mortgages a deed and lifts the mortgage in turn), as bench/phones_bench.py
    plays them: a game that never ends, on a table set up with :data:`OWNED`."""

    def __init__(self, table: Table) -> None:
        self.table, self.done = table, 0
        table.new_game(OWNED)

    def play(self) -> None:
        deed = DEEDS[self.done % len(DEEDS)]
        verb = "unmortgage" if self.table.state["spaces"][deed]["mortgaged"] else "mortgage"  # type: ignore[index]
        owner = "Ann" if DEEDS.index(deed) < 2 else "Bob"
        self.table.submit({"act": {"player": owner, "do": verb, "space": deed}}, source="buttons")
        self.done += 1


class RawStream:
    """``GET /api/stream`` read as it comes: the body's bytes (chunks undone), its text (gzip undone when asked
    for), and its events as the page parses them."""

    def __init__(self, server: WebServer, *, gzip: bool, receive_buffer: int | None = None) -> None:
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=WITHIN)
        if receive_buffer is not None:  # before connecting: a small window, so that the server's writes fill up
            self.conn.sock = socket.create_connection((server.host, server.port), WITHIN)
            self.conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        headers = {"Accept": "text/event-stream", "Accept-Encoding": "gzip" if gzip else "identity"}
        self.conn.request("GET", "/api/stream", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200 and (self.response.getheader("Content-Encoding") == "gzip") == gzip
        self.body = b""
        self.text = ""
        self._unzip = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
        self.state: dict[str, Any] | None = None
        self.kinds: list[str] = []

    def events(self, count: int) -> list[str]:
        """The next ``count`` events' texts (``id``, ``event`` and ``data`` lines), applied to :attr:`state`."""
        found: list[str] = []
        while len(found) < count:
            if "\n\n" not in self.text:
                data = self.response.read1(65536)
                if not data:
                    raise EOFError("the stream ended")
                self.body += data
                self.text += (self._unzip.decompress(data) if self._unzip else data).decode()
                continue
            event, self.text = self.text.split("\n\n", 1)
            if event.startswith(("retry:", ":")):
                continue
            found.append(event)
            fields = dict(line.split(":", 1) for line in event.split("\n"))
            self.kinds.append(fields["event"])
            data = json.loads(fields["data"])
            self.state = data if fields["event"] == "state" else patched(self.state, data)
        return found

    def close(self) -> None:
        self.conn.close()


def view_of_anyone(server: WebServer) -> dict[str, Any]:
    """``GET /api/state`` as an anonymous phone sees it."""
    with urllib.request.urlopen(server.url + "/api/state", timeout=WITHIN) as response:
        return json.loads(response.read())


def test_gzip_and_plain_phones_get_what_their_own_threads_would_send(app: Flask, server: WebServer,
                                                                      table: Table) -> None:
    """Two gzip'd phones and two plain ones follow 30 inputs written by the fan-out: the plain text is the same for
    all (the same view), the gzip'd bytes are exactly what the stream's own packing makes of that text (one stream
    of deflate from the first event), and every phone holds GET /api/state's view at the end. Meanwhile none of
    their threads was needed: all four stayed with the fan-out."""
    zipped = [RawStream(server, gzip=True) for _ in range(2)]
    plain = [RawStream(server, gzip=False) for _ in range(2)]
    phones = zipped + plain
    texts = {id(p): p.events(1) for p in phones}
    assert settled(lambda: fanout_of(app).following() == 4)
    bot = Bot(table)
    for _ in range(30):
        bot.play()
        for phone in phones:
            texts[id(phone)] += phone.events(1)
    assert fanout_of(app).following() == 4 and not fanout_of(app).handed_back
    first = texts[id(plain[0])]
    assert all(texts[id(p)] == first for p in phones)
    assert plain[0].kinds == ["state"] + ["delta"] * 30
    expected = b"".join(StreamPacker(RETRY).packed([RETRY, *(t + "\n\n" for t in first)]))
    for phone in zipped:
        assert phone.body == expected  # the socket's bytes, their chunks undone (http.client's read1 does)
    for phone in phones:
        assert phone.state == view_of_anyone(server)
        phone.close()


def narrow_the_servers_end(app: Flask, phone: RawStream) -> None:
    """A small send buffer on the server's end of ``phone``'s connection (as on a poor Wi-Fi link: the kernel would
    otherwise let it grow to megabytes on loopback before a write had to wait)."""
    fanout = fanout_of(app)
    with fanout._lock:
        tail = next(t for t in fanout._following if t._out.getpeername() == phone.conn.sock.getsockname())
        tail._out.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)


def test_a_phone_that_stops_reading_delays_nobody_and_catches_up_whole_when_it_reads_again(
        app: Flask, server: WebServer, table: Table) -> None:
    """A phone with a small window that reads nothing: the fan-out's send to it soon takes less than an event, and
    it is handed to its own thread (which waits on its write); the others get every input as it comes, by the
    fan-out. More than the kept frames later the slow phone reads again: what was half-written comes whole, then
    the whole state (it lagged), and it holds the same state as the others."""
    bot = Banker(table)
    fast = [RawStream(server, gzip=True), RawStream(server, gzip=False)]
    slow = RawStream(server, gzip=False, receive_buffer=1024)
    for phone in [*fast, slow]:
        phone.events(1)
    assert settled(lambda: fanout_of(app).following() == 3)
    narrow_the_servers_end(app, slow)
    while not fanout_of(app).handed_back["slow"]:
        assert bot.done < 400, "the slow phone's socket never filled"
        bot.play()
        for phone in fast:
            phone.events(1)
    for _ in range(RECENT_FRAMES + 4):
        bot.play()
        for phone in fast:
            phone.events(1)
    assert fanout_of(app).following() == 2  # the fast ones never left it
    now = view_of_anyone(server)
    while slow.state is None or slow.state["seq"] != now["seq"]:
        slow.events(1)
    assert "state" in slow.kinds[1:]  # it lagged beyond the kept frames: the whole state
    assert slow.state == now == fast[0].state == fast[1].state
    assert settled(lambda: fanout_of(app).following() == 3)  # up to date again: back with the fan-out
    bot.play()
    assert all(phone.events(1) for phone in [*fast, slow])
    assert slow.state == fast[0].state
    for phone in [*fast, slow]:
        phone.close()


def test_a_phone_whose_view_changes_while_following_gets_the_whole_state_and_the_others_only_deltas(
        app: Flask, server: WebServer, table: Table) -> None:
    """Ann's phone and an anonymous one follow a game with face-down cards; the host frees Ann's seat: the fan-out
    hands Ann's stream back, whose thread sends the whole state as she may see it now; the anonymous phone is sent
    nothing. Both follow the next input through the fan-out again."""
    table.new_game(SECRET_CARDS)
    ann = Phone(server)
    ann.post("/api/join", {"code": CODE, "player": "Ann"})
    mine = ann.stream()
    anyone = EventStream(server.host, server.port)
    assert travel_cards(mine) == ["travel-forward-2", "travel-hidden"]
    anyone.next_state()
    assert settled(lambda: fanout_of(app).following() == 2)
    host = Phone(server)
    host.post("/api/host/login", {"pin": PIN})
    host.post("/api/host/free-seat", {"player": "Ann"})
    assert travel_cards(mine, within=5) == ["travel-hidden", "travel-hidden"]
    assert fanout_of(app).handed_back["view"] == 1
    table.submit({"roll": [1, 2]}, source="buttons")
    _, seen = anyone.next_state()
    _, ann_sees = mine.next_state()
    assert anyone.kinds == ["state", "delta"] and mine.kinds == ["state", "state", "delta"]
    assert seen == ann_sees and seen["seq"] == 1
    assert settled(lambda: fanout_of(app).following() == 2)
    mine.close()
    anyone.close()


def test_a_stream_whose_session_was_replaced_is_sent_nothing_more(app: Flask, server: WebServer,
                                                                 table: Table) -> None:
    """Ann's phone follows a game without face-down cards (its view would not change) and logs in as the host, which
    replaces its session id: its old stream ends at once, the next input written to it by nobody."""
    phone = Phone(server)
    phone.post("/api/join", {"code": CODE, "player": "Ann"})
    old = phone.stream()
    old.next_state()
    assert settled(lambda: fanout_of(app).following() == 1)
    phone.post("/api/host/login", {"pin": PIN})
    table.submit({"roll": [1, 2]}, source="buttons")
    assert ended(old)
    assert fanout_of(app).handed_back["ended"] == 1


def test_a_phone_that_goes_away_is_handed_back_and_its_slot_freed(app: Flask, server: WebServer,
                                                                  table: Table) -> None:
    """A following phone closes its connection: the fan-out's watcher of hang-ups hands its stream back, whose
    thread ends it and gives back its slot; the fan-out writes to the others as before."""
    stays = RawStream(server, gzip=True)
    goes = RawStream(server, gzip=True)
    stays.events(1)
    goes.events(1)
    assert settled(lambda: fanout_of(app).following() == 2)
    goes.close()
    assert settled(lambda: app.extensions["companion"].streams.held() == 1)
    assert fanout_of(app).following() == 1
    assert fanout_of(app).handed_back == {"gone": 1}  # the watcher saw it close (its thread was not looking)
    Bot(table).play()
    stays.events(1)
    assert stays.state == view_of_anyone(server)
    stays.close()


def test_threads_follow_while_the_server_has_no_socket_to_give(client: Any, table: Table) -> None:
    """Another server than ours (Flask's test client) gives no socket: the stream's thread waits for every change
    as before, and sends the same events."""
    response = client.get("/api/stream", buffered=False)
    chunks = iter(response.response)
    assert next(chunks) == RETRY.encode()
    assert b"event:state" in next(chunks)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(next(chunks)), daemon=True)
    reader.start()
    time.sleep(0.2)
    table.submit({"roll": [1, 2]}, source="buttons")
    reader.join(WITHIN)
    assert got and got[0].startswith(b"id:") and b"event:delta" in got[0]
    response.close()


def test_an_http_1_0_phone_is_written_the_events_without_chunks(app: Flask, server: WebServer, table: Table) -> None:
    """A client of HTTP/1.0 gets the stream without chunks (cheroot frames none, and closes at its end): the fan-out
    writes the event's bytes alone."""
    with socket.create_connection((server.host, server.port), WITHIN) as sock:
        sock.sendall(b"GET /api/stream HTTP/1.0\r\nHost: companion\r\nAccept: text/event-stream\r\n\r\n")
        received = b""
        while b"event:state" not in received or not received.endswith(b"\n\n"):
            received += sock.recv(65536)
        assert b"Transfer-Encoding: chunked" not in received
        assert settled(lambda: fanout_of(app).following() == 1)
        table.submit({"roll": [1, 2]}, source="buttons")
        event = b""
        while not event.endswith(b"\n\n"):
            event += sock.recv(65536)
        assert fanout_of(app).handed_back == {}  # written by the fan-out
    assert event.startswith(f"id:{table.game.id}:1\nevent:delta\ndata:[".encode())  # type: ignore[union-attr]
