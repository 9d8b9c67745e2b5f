"""Bodies sent without a length (``Transfer-Encoding: chunked``) through the real server: bounded like the others,
refused whole (413) beyond the limit, never cut short and applied."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from companion.table import Table
from companion.web import WebServer, make_server
from companion.web.app import MAX_INPUT_BODY

from .conftest import PIN


@pytest.fixture
def server(app: Flask) -> Iterator[WebServer]:
    with make_server(app, "127.0.0.1", 0) as running:
        yield running


@pytest.fixture
def host(server: WebServer) -> dict[str, str]:
    """The headers of a host's session: its cookie and CSRF token."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.request("GET", "/api/session")
    response = conn.getresponse()
    cookie = response.getheader("Set-Cookie", "").split(";")[0]
    headers = {"Cookie": cookie, "X-CSRFToken": json.loads(response.read())["csrf"], "Content-Type": "application/json"}
    conn.request("POST", "/api/host/login", body=json.dumps({"pin": PIN}), headers=headers)
    response = conn.getresponse()
    assert response.status == 200, response.read()
    headers["Cookie"] = response.getheader("Set-Cookie", "").split(";")[0]
    headers["X-CSRFToken"] = json.loads(response.read())["csrf"]
    conn.close()
    return headers


def chunked(server: WebServer, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
    """POST ``body`` to /api/input in 4 KB chunks, with no Content-Length. The server may answer 413 and close
    before the body's end (it never reads a refused body whole): the sending then fails, and the answer is read."""
    head = "POST /api/input HTTP/1.1\r\nHost: companion\r\nTransfer-Encoding: chunked\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items()) + "\r\n"
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        try:
            sock.sendall(head.encode())
            for i in range(0, len(body), 4096):
                chunk = body[i:i + 4096]
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the end: the answer waits in the socket
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, json.loads(response.read())


ROLL = b'{"input": {"roll": [1, 2]}, "seq": 0}'


def test_a_small_chunked_body_is_taken(server: WebServer, host: dict[str, str], table: Table) -> None:
    assert chunked(server, host, ROLL)[0] == 200 and table.state["seq"] == 1


def test_a_chunked_body_of_exactly_the_limit_is_taken(server: WebServer, host: dict[str, str], table: Table) -> None:
    assert chunked(server, host, ROLL.ljust(MAX_INPUT_BODY))[0] == 200 and table.state["seq"] == 1


@pytest.mark.parametrize("body", [
    b'{"input": {"answer": "' + b"a" * 200_000 + b'"}, "seq": 0}',
    ROLL.ljust(MAX_INPUT_BODY) + b"this is not JSON at all" * 1000,  # valid JSON within the limit, then more
    ROLL.ljust(MAX_INPUT_BODY + 1),
], ids=["200KB", "json-then-garbage", "one-byte-over"])
def test_a_chunked_body_over_the_limit_is_refused_whole(server: WebServer, host: dict[str, str], table: Table,
                                                        body: bytes) -> None:
    status, reply = chunked(server, host, body)
    assert (status, reply.get("error")) == (413, "too-large"), reply
    assert table.state["seq"] == 0  # nothing applied
