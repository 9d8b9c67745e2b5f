"""The production WSGI server: cheroot, in-process, one thread per connection from a fixed pool.

cheroot writes every chunk a response yields straight to the socket (its writer flushes on
each write), so server-sent events leave at once; a live stream holds one pool thread, so the
pool is sized for the phones of a full table plus the requests between them. A worker thread reads
each request's head itself, so slow heads are bounded (:class:`HeadWatch`): a device sending its
headers a line at a time cannot hold every thread. See docs/web.md for the comparison with
waitress and gunicorn.
"""

from __future__ import annotations

import logging
import select
import socket
import threading
import time
from functools import partial
from typing import Any

from cheroot import server, wsgi
from flask import Flask

from .feed import LOOPBACK

log = logging.getLogger(__name__)

THREADS = 48  # 16+ live streams (a phone may hold two while it reconnects) and the requests beside them
HEAD_SECONDS = 5.0  # a request's line and headers, from their first byte (a phone sends them in one packet)
HEADS_PER_ADDRESS = 8  # heads being read at once from one device (a browser opens at most 6 connections)
MAX_HEAD_BYTES = 16 * 1024  # cheroot's max_request_header_size: the request line and headers


class HeadWatch:
    """The connections whose request head a worker is reading: at most ``per_address`` from one device at once
    (the Pi itself, loopback, has no such limit), and none for longer than ``seconds``: a watcher shuts the
    socket of a late one, which frees its thread (cheroot's own ``timeout`` bounds each read, not the head)."""

    def __init__(self, seconds: float = HEAD_SECONDS, per_address: int = HEADS_PER_ADDRESS) -> None:
        self.seconds, self.per_address = seconds, per_address
        self._deadlines: dict[Any, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def enter(self, conn: Any) -> bool:
        """Watch ``conn`` while its head is read; False if its address already has ``per_address`` being read."""
        address = getattr(conn, "remote_addr", None) or ""
        with self._lock:
            reading = sum(getattr(c, "remote_addr", None) == address for c in self._deadlines)
            if address not in LOOPBACK and reading >= self.per_address:
                return False
            self._deadlines[conn] = time.monotonic() + self.seconds
            return True

    def leave(self, conn: Any) -> None:
        with self._lock:
            self._deadlines.pop(conn, None)

    def run(self) -> None:
        """Shut the late heads' sockets, twice a second, until :meth:`stop`."""
        while not self._stop.wait(0.5):
            now = time.monotonic()
            with self._lock:
                for conn in [c for c, deadline in self._deadlines.items() if deadline < now]:
                    del self._deadlines[conn]
                    try:
                        conn.socket.shutdown(socket.SHUT_RDWR)  # the worker's read returns at once: the head ends
                    except OSError:
                        pass  # already gone

    def stop(self) -> None:
        self._stop.set()


class _Request(server.HTTPRequest):
    """cheroot's request, its head read under the server's :class:`HeadWatch`."""

    def parse_request(self) -> None:
        watch: HeadWatch = getattr(self.server, "head_watch")
        if not watch.enter(self.conn):
            self.simple_response("503 Service Unavailable", "Too many requests from this address at once.")
            return
        try:
            super().parse_request()
        finally:
            watch.leave(self.conn)


class _Connection(server.HTTPConnection):
    RequestHandlerClass = _Request


#: The environ key of a callable telling whether the client has closed the connection (see :class:`Gateway`).
CLIENT_GONE = "companion.client_gone"


class Gateway(wsgi.Gateway_10):
    """cheroot's WSGI 1.0 gateway, adding ``environ[CLIENT_GONE]``: a live stream asks it while it waits, so a gone
    phone's stream ends (and gives its slot back) at once, not when a write to it fails a keep-alive or two later."""

    def get_environ(self) -> dict[str, Any]:  # type: ignore[override]  # cheroot's stub types the base's as None
        environ: dict[str, Any] = super().get_environ()
        environ[CLIENT_GONE] = partial(peer_closed, self.req.conn.socket)
        return environ


def peer_closed(sock: socket.socket) -> bool:
    """Whether the other end has closed ``sock``: it reads as ended (a stream's client sends nothing after its
    request), or it was reset."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


class WebServer:
    """A cheroot server for the app; :meth:`start` serves in a background thread."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 8080, *, threads: int = THREADS) -> None:
        self.app = app
        self._server = wsgi.Server((host, port), app, numthreads=threads, max=threads,
                                   server_name="companion", request_queue_size=32, shutdown_timeout=2)
        self._server.max_request_header_size = MAX_HEAD_BYTES
        self._server.ConnectionClass = _Connection
        self.head_watch = HeadWatch()
        self._server.head_watch = self.head_watch  # type: ignore[attr-defined]  # read by _Request
        self._server.gateway = Gateway
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return str(self._server.bind_addr[0])

    @property
    def port(self) -> int:
        """The port served (the one the system chose when created with ``port=0``, once started)."""
        return int(self._server.bind_addr[1])

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::") else "127.0.0.1"
        return f"http://{host}:{self.port}"

    def start(self) -> WebServer:
        """Bind and serve in a daemon thread; returns self."""
        self._server.prepare()
        self._watch_heads()
        self._thread = threading.Thread(target=self._server.serve, name="web", daemon=True)
        self._thread.start()
        log.info("serving the phone page on %s", self.url)
        return self

    def serve_forever(self) -> None:
        """Bind and serve in this thread until interrupted."""
        self._watch_heads()
        try:
            self._server.safe_start()
        finally:
            self.head_watch.stop()
            self._close_streams()

    def stop(self) -> None:
        """Release the live streams, stop accepting and wait for the pool."""
        self._close_streams()
        self.head_watch.stop()
        self._server.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _watch_heads(self) -> None:
        threading.Thread(target=self.head_watch.run, name="web-heads", daemon=True).start()

    def _close_streams(self) -> None:
        context: Any = self.app.extensions.get("companion")
        if context is not None:
            context.feed.close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8080, *, threads: int = THREADS) -> WebServer:
    """A server for ``app``, not started yet."""
    return WebServer(app, host, port, threads=threads)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, *, threads: int = THREADS) -> None:
    """Serve ``app`` until interrupted (Ctrl-C)."""
    WebServer(app, host, port, threads=threads).serve_forever()
