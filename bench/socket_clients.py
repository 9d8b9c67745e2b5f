"""The benches' phones over the page's websocket (``/api/socket``), as the page now follows and acts: a follower that
counts every byte its socket receives (frames' heads included) and applies the events as the page does, and the
host's acting client, each input a message on its socket and its reply the message with its id.

The profile before it (``GET /api/stream`` and ``POST /api/input``) is bench/phones_bench.py's ``Follower`` and
``Host``, kept as ``--transport stream``."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

from wsproto import ConnectionType, WSConnection
from wsproto.extensions import PerMessageDeflate
from wsproto.events import AcceptConnection, Event, Message, Ping, RejectConnection, Request, TextMessage

from phones_bench import HOST_ADDRESS, WITHIN, Follower, Host  # noqa: E402
from tests.web.running import RunningTable  # noqa: E402


def opened(table: RunningTable, source: str, cookie: str, deflate: bool) -> tuple[socket.socket, WSConnection]:
    """A websocket to the table from ``source`` under ``cookie``, its handshake answered (the page's Origin),
    offering permessage-deflate (``deflate``) as browsers do."""
    sock = socket.create_connection((table.host, table.port), timeout=WITHIN, source_address=(source, 0))
    ws = WSConnection(ConnectionType.CLIENT)
    origin = f"http://{table.host}:{table.port}"
    sock.sendall(ws.send(Request(host=f"{table.host}:{table.port}", target="/api/socket",
                                 extra_headers=[(b"Origin", origin.encode())]
                                 + ([(b"Cookie", cookie.encode())] if cookie else []),
                                 extensions=[PerMessageDeflate()] if deflate else [])))
    while True:
        ws.receive_data(sock.recv(65536) or None)
        for event in ws.events():
            if isinstance(event, AcceptConnection):
                return sock, ws
            if isinstance(event, RejectConnection):
                raise SystemExit(f"the socket was refused: {event.status_code}")


class SocketFollower(Follower):
    """One phone following the game over its websocket (a :class:`Follower` whose events come as text frames),
    offering permessage-deflate as a browser does (``gzip``; ``--plain``: not)."""

    def __init__(self, table: RunningTable, source: str, cookie: str, *, gzip: bool = True) -> None:
        self.table, self.source, self.cookie = table, source, cookie
        self.sock, self.ws = opened(table, source, cookie, gzip)
        self.sock.setblocking(False)
        self.received = 0  # from the first frame on (the handshake's answer left out, as the stream's head is not)
        self.text = b""
        self.state: dict[str, Any] | None = None
        self.game: int | None = None
        self.arrived: dict[int, float] = {}
        self.parsed_after: dict[int, float] = {}
        self.parsing = 0.0
        self.woke = 0.0
        self.woken: dict[int, float] = {}
        self.broken: str | None = None
        self.last_event = ""
        self._parts: list[str] = []
        self._drain(0.0)  # frames that came with the handshake's answer

    ENDED = "the socket closed"

    def take(self, data: bytes, now: float) -> None:
        self.received += len(data)
        self.ws.receive_data(data)
        self._drain(now)

    def _drain(self, now: float) -> None:
        for event in self.ws.events():
            self._take(event)
        self._events(now)

    def _take(self, event: Event) -> None:
        if isinstance(event, Ping):
            self.sock.send(self.ws.send(event.response()))
        elif isinstance(event, TextMessage):
            self._parts.append(event.data)
            if event.message_finished:
                text, self._parts = "".join(self._parts), []
                if not text.startswith("{"):  # an event (a reply is the acting phone's)
                    self.text += text.encode()
        elif not isinstance(event, Message):
            self.broken = f"the socket said {event}"


class SocketHost(Host):
    """The host's phone: its inputs over its websocket (which follows the game too, as the page's does), anything
    else over its keep-alive connection as before."""

    def __init__(self, table: RunningTable) -> None:
        super().__init__(table)
        self.table = table
        # opened after the phones' (by open(), else at the first input), so that the fan-out writes to them before
        # the host's own view (as a POST's host had none)
        self.opened: tuple[socket.socket, WSConnection] | None = None
        self.count = 0
        self._parts: list[str] = []
        self.sends: list[int] = []

    def open(self) -> None:
        """The host's websocket (once), as its page opens it when it loads: after the phones' (see above)."""
        if self.opened is None:
            self.opened = opened(self.table, HOST_ADDRESS, self.headers["Cookie"], True)

    def post(self, path: str, body: Any) -> tuple[int, Any, int]:
        if path != "/api/input":
            return super().post(path, body)
        self.open()
        assert self.opened is not None
        self.sock, self.ws = self.opened
        self.count += 1
        data = self.ws.send(Message(data=json.dumps({**body, "id": self.count}, separators=(",", ":"))))
        self.sends.append(time.perf_counter_ns())  # the message's send (``--path``)
        self.sock.sendall(data)
        while True:
            for event in self.ws.events():
                if isinstance(event, Ping):
                    self.sock.sendall(self.ws.send(event.response()))
                elif isinstance(event, TextMessage):
                    self._parts.append(event.data)
                    if event.message_finished:
                        text, self._parts = "".join(self._parts), []
                        if text.startswith("{"):
                            reply = json.loads(text)
                            if reply["id"] == self.count:
                                return int(reply["status"]), reply["body"], len(text)
            data = self.sock.recv(65536)
            if not data:
                raise SystemExit("the host's socket closed")
            self.ws.receive_data(data)
