"""A websocket client for the tests and the benches: a real socket, wsproto's client side (the handshake through h11,
the frames masked as a browser masks them), and the SSE text the server's event frames carry read as the page does."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Sequence
from typing import Any

from .sse import patched
from wsproto import ConnectionType, WSConnection
from wsproto.extensions import PerMessageDeflate
from wsproto.events import (AcceptConnection, CloseConnection, Event, Message, Ping, Pong, RejectConnection,
                            RejectData, Request, TextMessage)

WITHIN = 20.0  # seconds for what a test waits for (a loaded two-core machine)


class Refused(Exception):
    """The server answered the handshake with an HTTP error: its status and JSON body."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"{status} {body}")
        self.status, self.body = status, body


def sse_fields(text: str) -> tuple[str, str, str]:
    """An event's text as the stream sends it → (its event name, its id, its data), as the page reads it."""
    name, ident, data = "message", "", []
    for line in text.split("\n"):
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("id:"):
            ident = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    return name, ident, "\n".join(data)


class SocketPhone:
    """A phone's websocket to ``/api/socket``: :meth:`event` reads the stream's next event, :meth:`act` sends an
    input and returns its reply."""

    def __init__(self, host: str, port: int, *, cookie: str = "", origin: str | None = None,
                 extra: Sequence[tuple[str, str]] = (), connected: socket.socket | None = None,
                 deflate: bool = False) -> None:
        """``connected``: a socket connected already (its options set before), else a new one; ``deflate``: offer
        permessage-deflate, as browsers do."""
        self.replies: list[dict[str, Any]] = []  # replies read while waiting for an event
        self.events: list[tuple[str, str, str]] = []  # events read while waiting for a reply
        self.state: Any = None  # as :meth:`next_state` holds it
        self.kinds: list[str] = []
        self.pongs: list[bytes] = []  # the payloads of the server's pongs
        self.sock = connected or socket.create_connection((host, port), timeout=WITHIN)
        self.ws = WSConnection(ConnectionType.CLIENT)
        headers = [(b"Cookie", cookie.encode())] if cookie else []
        origin = f"http://{host}:{port}" if origin is None else origin
        if origin:
            headers.append((b"Origin", origin.encode()))
        headers += [(k.encode(), v.encode()) for k, v in extra]
        self.extensions = [PerMessageDeflate()] if deflate else []
        self.sock.sendall(self.ws.send(Request(host=f"{host}:{port}", target="/api/socket", extra_headers=headers,
                                               extensions=self.extensions)))
        self.received = 0  # bytes from the server after the handshake's answer
        self.pending: list[Event] = []
        self.closed: CloseConnection | None = None
        self._next_id = 0
        self._parts: list[str] = []
        reject: RejectConnection | None = None
        body = b""
        while True:
            event = self._next()
            if isinstance(event, AcceptConnection):
                self.accepted = event
                return
            if isinstance(event, RejectConnection):
                reject = event
                if not event.has_body:
                    break
            elif isinstance(event, RejectData):
                body += event.data
                if event.body_finished:
                    break
        self.sock.close()
        assert reject is not None
        raise Refused(reject.status_code, json.loads(body) if body else None)

    def _next(self, within: float = WITHIN) -> Event:
        """The next event from the server (pings answered), waiting ``within`` seconds at most."""
        deadline = time.monotonic() + within
        while True:
            for event in self.ws.events():
                if isinstance(event, Ping):
                    self.sock.sendall(self.ws.send(event.response()))
                    continue
                return event
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("nothing from the server")
            self.sock.settimeout(left)
            data = self.sock.recv(65536)
            self.received += len(data)
            self.ws.receive_data(data or None)

    def message(self, within: float = WITHIN) -> str:
        """The next whole text message; EOFError once the server closed (:attr:`closed` says how)."""
        while True:
            if self.pending:
                event = self.pending.pop(0)
            else:
                event = self._next(within)
            if isinstance(event, CloseConnection):
                self.closed = event
                raise EOFError(f"closed: {event.code} {event.reason}")
            if isinstance(event, Pong):
                self.pongs.append(bytes(event.payload))
            if isinstance(event, TextMessage):
                self._parts.append(event.data)
                if event.message_finished:
                    text, self._parts = "".join(self._parts), []
                    return text

    def event(self, within: float = WITHIN) -> tuple[str, str, str]:
        """The stream's next event (replies to inputs are left for :meth:`reply`): (name, id, data)."""
        while True:
            if self.events:
                return self.events.pop(0)
            text = self.message(within)
            if text.startswith("{"):
                self.replies.append(json.loads(text))
                continue
            name, ident, data = sse_fields(text)
            if name in ("state", "delta"):
                return name, ident, data

    def next_state(self, within: float = WITHIN) -> tuple[str, Any]:
        """The next event applied to the state held (as the page applies it): its kind and the state now."""
        name, _, data = self.event(within)
        self.kinds.append(name)
        self.state = json.loads(data) if name == "state" else patched(self.state, json.loads(data))
        return name, self.state

    def send_text(self, text: str) -> None:
        self.sock.sendall(self.ws.send(Message(data=text)))

    def act(self, body: dict[str, Any], within: float = WITHIN) -> dict[str, Any]:
        """Send an input (``POST /api/input``'s body) and wait for its reply (``{"id", "status", "body"}``); the
        events that come first are kept for :meth:`event`."""
        self._next_id += 1
        ident = self._next_id
        self.send_text(json.dumps({**body, "id": ident}))
        return self.reply(ident, within)

    def reply(self, ident: Any, within: float = WITHIN) -> dict[str, Any]:
        while True:
            for reply in self.replies:
                if reply["id"] == ident:
                    self.replies.remove(reply)
                    return reply
            text = self.message(within)
            if text.startswith("{"):
                self.replies.append(json.loads(text))
            elif (fields := sse_fields(text))[0] in ("state", "delta"):
                self.events.append(fields)

    def close(self) -> None:
        try:
            self.sock.sendall(self.ws.send(CloseConnection(code=1000)))
        except Exception:
            pass
        self.sock.close()

    def __enter__(self) -> SocketPhone:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
