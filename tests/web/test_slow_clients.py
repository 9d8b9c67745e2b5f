"""Slow clients through the real server: connections that send their headers a line at a time cannot take every
thread of the pool from the phones."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from flask import Flask

from companion.web import WebServer, make_server

SLOW = 50  # more than the server's 48 threads


@pytest.fixture
def server(app: Flask) -> Iterator[WebServer]:
    with make_server(app, "127.0.0.1", 0) as running:
        yield running


def slow_connections(server: WebServer, source: str, stop: threading.Event) -> list[socket.socket]:
    """``SLOW`` connections from ``source`` that send a request line, then one header every half second
    (well within any read timeout) until ``stop`` is set; never the blank line that ends the headers."""
    socks = []
    for _ in range(SLOW):
        sock = socket.create_connection((server.host, server.port), source_address=(source, 0))
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: pi\r\n")
        socks.append(sock)

    def drip() -> None:
        while not stop.wait(0.5):
            for sock in socks:
                try:
                    sock.sendall(b"X-Slow: yes\r\n")
                except OSError:
                    pass  # closed by the server: what it should do

    threading.Thread(target=drip, daemon=True).start()
    return socks


@pytest.mark.parametrize("source", ["127.0.0.1", "127.0.0.2"], ids=["same-address", "another-device"])
def test_slow_headers_do_not_take_the_page_from_the_phones(server: WebServer, source: str) -> None:
    stop = threading.Event()
    socks = slow_connections(server, source, stop)
    try:
        time.sleep(0.5)  # every slow connection has its thread, if it is going to get one
        phone = http.client.HTTPConnection(server.host, server.port, timeout=30)  # generous: no timing asserted
        phone.request("GET", "/api/state")
        response = phone.getresponse()
        assert response.status == 200 and b'"seq"' in response.read()
        phone.close()
    finally:
        stop.set()
        for sock in socks:
            sock.close()
