"""A small client of server-sent events over http.client, for tests and the benchmark."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any


WITHIN = 20.0  # seconds a test waits for an event by default, keep-alives or not


def fanout_of(app: Any) -> Any:
    """The live streams' fan-out of ``app`` (a Flask app made by companion.web.create_app)."""
    return app.extensions["companion"].feed.fanout


def settled(condition: Any) -> bool:
    """Whether ``condition()`` holds within a few seconds (the streams' threads hand themselves over as they go)."""
    deadline = time.monotonic() + WITHIN
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


class MergedConnection(http.client.HTTPConnection):
    """http.client's connection, sending a request's head and a body given as bytes in one write, as Chromium does
    for a small body. http.client writes them apart: with Nagle's algorithm and the peer's delayed acknowledgement
    the body leaves tens of ms later, and the server's doorway looks again for the rest of a request only every
    0.1 s (companion/web/doorway.py), which a test of many inputs, or a bench, would measure instead of the table."""

    def _send_output(self, message_body: Any = None, encode_chunked: bool = False) -> None:
        if not isinstance(message_body, bytes):
            super()._send_output(message_body, encode_chunked)
            return
        self._buffer.extend((b"", b""))  # type: ignore[attr-defined]
        message = b"\r\n".join(self._buffer) + message_body  # type: ignore[attr-defined]
        del self._buffer[:]  # type: ignore[attr-defined]
        self.send(message)


class Client:
    """One phone's requests over one keep-alive connection, its session cookie and CSRF token kept."""

    def __init__(self, host: str, port: int, *, source: str | None = None, timeout: float = 30.0) -> None:
        self.conn = MergedConnection(host, port, timeout=timeout, source_address=(source, 0) if source else None)
        self.cookie = ""
        self.csrf = ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf, "Content-Type": "application/json"}
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        answer = json.loads(raw) if raw else None
        if isinstance(answer, dict) and "csrf" in answer:
            self.csrf = answer["csrf"]
        return response.status, answer

    def get(self, path: str) -> Any:
        status, answer = self.request("GET", path)
        assert status == 200, answer
        return answer

    def post(self, path: str, body: Any) -> Any:
        if not self.csrf:
            self.get("/api/session")
        status, answer = self.request("POST", path, body)
        assert status == 200, answer
        return answer

    def close(self) -> None:
        self.conn.close()


class NoEventInTime(AssertionError):
    """No event came in time: a failure of the test, never taken for the stream's end (not an ``OSError``)."""


class EventStream:
    """An open ``GET /api/stream``; :meth:`next_state` returns the state after the next ``state`` or ``delta`` event,
    applying what changed to the state held as the page does (:func:`patched`)."""

    def __init__(self, host: str, port: int, *, last_event_id: str | None = None, timeout: float = 10.0,
                 cookie: str | None = None, source: str | None = None, held: dict[str, Any] | None = None) -> None:
        """``last_event_id``: the last event the phone had (resuming), ``held``: the state it holds then."""
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout,
                                               source_address=(source, 0) if source else None)
        headers = {"Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        if cookie:
            headers["Cookie"] = cookie
        self.conn.request("GET", "/api/stream", headers=headers)
        self.response = self.conn.getresponse()
        self.comments = 0
        self.state: dict[str, Any] | None = held
        self.event_id: str | None = last_event_id
        self.kinds: list[str] = []  # each state's event: "state" (the whole state) or "delta"

    def next_event(self, within: float | None = WITHIN) -> dict[str, str]:
        """The next event's fields (``id``, ``event``, ``data``); comments are counted and skipped.

        ``within``: seconds to wait for it while keep-alive comments arrive (:class:`NoEventInTime` after; None:
        for ever), so that a test of something that never comes fails instead of hanging."""
        deadline = None if within is None else time.monotonic() + within
        fields: dict[str, str] = {}
        while True:
            if deadline is not None and time.monotonic() > deadline:
                raise NoEventInTime(f"no event within {within} s")
            raw = self.response.readline()
            if not raw:
                raise EOFError("the stream ended")
            line = raw.decode().rstrip("\n")
            if not line:
                if fields:
                    return fields
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            key, _, value = line.partition(":")
            fields[key] = fields.get(key, "") + value.removeprefix(" ")

    def next_state(self, within: float | None = WITHIN) -> tuple[str, dict[str, Any]]:
        deadline = None if within is None else time.monotonic() + within
        while True:
            event = self.next_event(None if deadline is None else max(0.0, deadline - time.monotonic()))
            kind = event.get("event")
            if kind == "state":
                self.state = json.loads(event["data"])
            elif kind == "delta":  # what changed since the event before (or the one resumed from)
                assert self.state is not None and self.event_id is not None, "a delta before any state"
                assert event["id"].split(":")[0] == self.event_id.split(":")[0], "a delta of another game"
                self.state = patched(self.state, json.loads(event["data"]))
            else:
                continue
            assert self.state is not None and event["id"] == f"{event['id'].split(':')[0]}:{self.state['seq']}"
            self.event_id = event["id"]
            self.kinds.append(kind)
            return event["id"], self.state

    def close(self) -> None:
        self.conn.close()



def keys(pointer: str) -> list[str]:
    """A JSON Pointer's keys (RFC 6901)."""
    return [k.replace("~1", "/").replace("~0", "~") for k in pointer.split("/")[1:]] if pointer else []


def patched(state: Any, ops: list[list[Any]]) -> Any:
    """``state`` with a delta's operations applied, as the page applies them (companion/web/delta.py); the state
    given is left as it was (the parts of it on an operation's path are copied)."""
    root: dict[str, Any] = {"": state}
    copied: set[int] = {id(root)}
    for op in ops:
        node: Any = root
        path: list[Any] = ["", *keys(op[0])]
        for key in path[:-1]:
            key = int(key) if isinstance(node, list) else key
            child = node[key]
            if id(child) not in copied:
                child = list(child) if isinstance(child, list) else dict(child)
                copied.add(id(child))
                node[key] = child
            node = child
        last = int(path[-1]) if isinstance(node, list) else path[-1]
        if len(op) == 1:
            del node[last]
        elif len(op) == 2:
            if isinstance(node, list) and last == len(node):
                node.append(op[1])
            else:
                node[last] = op[1]
        else:
            node[last] = [*node[last][op[2]:], *op[1]]
            copied.add(id(node[last]))
    return root[""]
