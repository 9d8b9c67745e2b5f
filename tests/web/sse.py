"""A small client of server-sent events over http.client, for tests and the benchmark."""

from __future__ import annotations

import http.client
import json
import time
from typing import Any


WITHIN = 20.0  # seconds a test waits for an event by default, keep-alives or not


class NoEventInTime(AssertionError):
    """No event came in time: a failure of the test, never taken for the stream's end (not an ``OSError``)."""


class EventStream:
    """An open ``GET /api/stream``; :meth:`next_state` returns the next ``state`` event."""

    def __init__(self, host: str, port: int, *, last_event_id: str | None = None, timeout: float = 10.0,
                 cookie: str | None = None, source: str | None = None) -> None:
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
            if event.get("event") == "state":
                return event["id"], json.loads(event["data"])

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
