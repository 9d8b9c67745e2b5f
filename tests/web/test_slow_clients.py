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


@pytest.mark.parametrize(("data", "whole"), [
    (b"GET /api/state HTTP/1.1\r\nHost: pi\r\n\r\n", True),
    (b"GET /api/state HTTP/1.1\r\nHost: pi\r\n", False),  # the head's end still to come
    (b"", False),
    (b"POST /api/input HTTP/1.1\r\nHost: pi\r\nContent-Length: 10\r\n\r\n{\"seq\": 1}", True),
    (b"POST /api/input HTTP/1.1\r\nHost: pi\r\nContent-Length: 11\r\n\r\n{\"seq\": 1}", False),
    (b"POST /api/host/import HTTP/1.1\r\nHost: pi\r\ncontent-length: 200000\r\n\r\n{", True),  # read by a thread
    (b"POST /api/join HTTP/1.1\r\nHost: pi\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n", False),
    (b"POST /api/join HTTP/1.1\r\nHost: pi\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", True),
    (b"POST /api/join HTTP/1.1\r\nHost: pi\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n", True),
    (b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 20_000, True),  # over the head's bound: cheroot refuses it
])
def test_a_thread_is_given_once_the_request_has_arrived(data: bytes, whole: bool) -> None:
    from companion.web.doorway import arrived

    assert arrived(data) is whole


def test_one_device_holds_a_few_threads_and_none_before_its_requests_arrive(server: WebServer) -> None:
    """20 connections from one device: 10 idle, 10 pipelining requests for the page's style sheet and reading nothing.
    The device holds at most its share of threads; the idle ones none."""
    # the page's largest file (app.js was 78 KB before the page became modules): ~2 MB of answers that wait to be read
    requests = b"GET /static/app.css HTTP/1.1\r\nHost: pi\r\nAccept-Encoding: identity\r\n\r\n" * 160
    socks = []
    try:
        for n in range(20):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            sock.bind(("127.0.0.2", 0))
            sock.connect((server.host, server.port))
            if n % 2:
                sock.sendall(requests)
            socks.append(sock)
        time.sleep(1)
        held = server.held()
        assert held["working"] <= 8 and held["open"] == 20, held
        assert held["waiting"] >= 2, held  # the reading-nothing ones beyond the device's share wait their turn
        phone = http.client.HTTPConnection(server.host, server.port, timeout=3)  # a phone's patience
        phone.request("GET", "/api/state")
        assert phone.getresponse().status == 200
        phone.close()
        deadline = time.monotonic() + 30  # bounded: the deadline of a write that moves no byte is 4 s
        while server.held()["open"] > 18 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert server.held()["open"] <= 18  # the stalled writes were ended, their threads freed
    finally:
        for sock in socks:
            sock.close()
