"""The production WSGI server: cheroot, in-process, one thread per connection from a fixed pool.

cheroot writes every chunk a response yields straight to the socket (its writer flushes on
each write), so server-sent events leave at once; a live stream holds one pool thread, so the
pool is sized for the phones of a full table plus the requests between them. A worker thread reads
each request's head and body itself, so both are bounded in time and per device (:class:`ReadWatch`): a
device sending a request a byte at a time cannot hold every thread; and bodies are bounded in size before
they are read, whatever their framing (:class:`ChunkedBody`). See docs/web.md for the comparison with
waitress and gunicorn, and for what is cheroot's own and what is ours.
"""

from __future__ import annotations

import logging
import re
import select
import socket
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from cheroot import server, wsgi
from cheroot.makefile import MakeFile
from flask import Flask
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from companion.words import N_

from .addresses import device, is_own
from .doorway import Doorway
from .line_reader import make_file

log = logging.getLogger(__name__)

THREADS = 48  # 16+ live streams (a phone may hold two while it reconnects) and the requests beside them
HEAD_SECONDS = 5.0  # a request's line and headers, from their first byte (a phone sends them in one packet)
BODY_SECONDS = 5.0  # a request's body, from the end of its head (256 KB at most: a second on a poor Wi-Fi)
READS_PER_ADDRESS = 8  # heads and bodies being read at once from one device (a browser opens at most 6 connections)
MAX_HEAD_BYTES = 16 * 1024  # cheroot's max_request_header_size: the request line and headers
KEEP_ALIVE = 256  # connections kept open idle between requests (cheroot's keep_alive_conn_limit; its default is 10)
MAX_BODY_BYTES = 256 * 1024  # cheroot's max_request_body_size: the largest body of any route (an imported game)
CHUNK_LINE_BYTES = 64  # a chunk's size line, extensions and CRLF included (``2000\r\n`` is 6)
DRAIN_BYTES = 16 * 1024  # a body the app left unread is read and dropped up to this, to keep the connection; more
#                          closes it (cheroot would read a whole unread body in one buffer)


class ReadWatch:
    """The connections a worker is reading a request from (its head, then its body): at most ``per_address`` from
    one device at once (the Pi itself has no such limit), and none for longer than its deadline: a watcher shuts
    the socket of a late one, which frees its thread (cheroot's own ``timeout`` bounds each read, not the whole)."""

    def __init__(self, seconds: float = HEAD_SECONDS, per_address: int = READS_PER_ADDRESS) -> None:
        self.seconds, self.per_address = seconds, per_address
        self._deadlines: dict[Any, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def enter(self, conn: Any) -> bool:
        """Watch ``conn`` while its head is read; False if its device already has ``per_address`` being read."""
        address = device(getattr(conn, "remote_addr", None))
        with self._lock:
            reading = sum(device(getattr(c, "remote_addr", None)) == address for c in self._deadlines)
            if not is_own(address) and reading >= self.per_address:
                return False
            self._deadlines[conn] = time.monotonic() + self.seconds
            return True

    def extend(self, conn: Any, seconds: float) -> None:
        """Go on watching ``conn`` (its body is to be read) for ``seconds`` from now."""
        with self._lock:
            if conn in self._deadlines:
                self._deadlines[conn] = time.monotonic() + seconds

    def leave(self, conn: Any) -> None:
        with self._lock:
            self._deadlines.pop(conn, None)

    def reading(self) -> int:
        """How many connections are being read now."""
        with self._lock:
            return len(self._deadlines)

    def run(self) -> None:
        """Shut the late connections' sockets, twice a second, until :meth:`stop`."""
        while not self._stop.wait(0.5):
            now = time.monotonic()
            with self._lock:
                for conn in [c for c, deadline in self._deadlines.items() if deadline < now]:
                    del self._deadlines[conn]
                    try:
                        conn.socket.shutdown(socket.SHUT_RDWR)  # the worker's read returns at once: the read ends
                    except OSError:
                        pass  # already gone

    def stop(self) -> None:
        self._stop.set()


class KnownBody(server.KnownLengthRFile):
    """A body sent with a ``Content-Length`` (cheroot's reader, its length checked against the server's bound with
    the head); calls ``done`` once read whole."""

    def __init__(self, rfile: Any, length: int, done: Callable[[], None]) -> None:
        super().__init__(rfile, length)
        self._done = done
        if length == 0:
            done()

    def read(self, size: int | None = None) -> bytes:
        data: bytes = super().read(size)
        if self.remaining == 0:
            self._done()
        return data

    def readline(self, size: int | None = None) -> bytes:
        data: bytes = super().readline(size)
        if self.remaining == 0:
            self._done()
        return data

    def bound(self, limit: int) -> None:
        """The app's bound for this route: a length over it is refused (413) by the app before anything is read."""

    def unread(self) -> int:
        return int(self.remaining)


_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")


class ChunkedBody(server.ChunkedRFile):
    """A body sent in chunks (``Transfer-Encoding: chunked``), bounded before it is read: cheroot's reader reads a
    chunk's size line whole whatever its length, and the whole chunk it announces before its own bound is checked
    (none by default). Here a size line (extensions included) over ``CHUNK_LINE_BYTES`` is refused, and so is a
    chunk larger than what is left of the bound, as soon as its size line is read: the bound is the server's, or
    the route's once the app has said it (:meth:`bound`). Only the data counts against it, not the framing."""

    def __init__(self, rfile: Any, limit: int, done: Callable[[], None]) -> None:
        super().__init__(rfile, limit)
        self.limit = limit
        self.data_read = 0
        self._done = done

    def bound(self, limit: int) -> None:
        """The app's bound for this route's body (lower than the server's)."""
        self.limit = min(self.limit, limit)

    def unread(self) -> int:
        return 0 if self.closed else self.limit + 1

    def _fetch(self) -> None:
        if self.closed:
            return
        line = self.rfile.readline(CHUNK_LINE_BYTES + 1)
        if not line.endswith(b"\n"):
            if len(line) > CHUNK_LINE_BYTES:
                raise BadRequest(f"a chunk's size line is longer than {CHUNK_LINE_BYTES} bytes")
            raise BadRequest(N_("the body ended before its last chunk"))
        size_text = line.split(b";", 1)[0].strip()
        if not _CHUNK_SIZE.fullmatch(size_text):
            raise BadRequest(f"bad chunk size {size_text[:20]!r}")
        size = int(size_text, 16)
        if size == 0:
            self.closed = True  # trailers, if any, are left to the next head's reading (bounded there)
            self._done()
            return
        if self.data_read + size > self.limit:
            raise RequestEntityTooLarge(f"the body is over {self.limit} bytes")
        chunk = self.rfile.read(size)
        if len(chunk) < size or self.rfile.read(2) != b"\r\n":
            raise BadRequest(N_("the body ended in the middle of a chunk"))
        self.data_read += size
        self.buffer += chunk


class _Request(server.HTTPRequest):
    """cheroot's request, its head and body read under the server's :class:`ReadWatch`, its body bounded."""

    def parse_request(self) -> None:
        watch: ReadWatch = getattr(self.server, "read_watch")
        if not watch.enter(self.conn):
            self.simple_response("503 Service Unavailable", "Too many requests from this address at once.")
            return
        try:
            super().parse_request()
        finally:
            if self.ready and (self.chunked_read or int(self.inheaders.get(b"Content-Length", 0))):
                watch.extend(self.conn, BODY_SECONDS)
            else:
                watch.leave(self.conn)

    def respond(self) -> None:
        """cheroot's ``respond``, with bounded readers of the body (its length was checked with the head)."""
        watch: ReadWatch = getattr(self.server, "read_watch")
        done = partial(watch.leave, self.conn)
        try:
            if self.chunked_read:
                self.rfile = ChunkedBody(self.conn.rfile, self.server.max_request_body_size, done)
            else:
                self.rfile = KnownBody(self.conn.rfile, int(self.inheaders.get(b"Content-Length", 0)), done)
            self.server.gateway(self).respond()
            if self.ready:
                self.ensure_headers_sent()
            if self.chunked_write:
                self.conn.wfile.write(b"0\r\n\r\n")
        finally:
            done()

    def send_headers(self) -> None:
        if isinstance(self.rfile, KnownBody | ChunkedBody) and self.rfile.unread() > DRAIN_BYTES:
            self.close_connection = True  # rather than read what is left of a body nobody wants
        super().send_headers()


class _Connection(server.HTTPConnection):
    """cheroot's connection, telling the :class:`~.doorway.Doorway` when its thread is done with it and when it
    closes."""

    RequestHandlerClass = _Request

    def __init__(self, server: Any, sock: Any, makefile: Any = MakeFile) -> None:
        super().__init__(server, sock, make_file if makefile is MakeFile else makefile)  # heads read at C speed

    def communicate(self) -> bool:
        try:
            return bool(super().communicate())
        finally:
            doorway(self.server).done(self)

    def close(self) -> None:
        doorway(self.server).closed(self)
        super().close()


class _Server(wsgi.Server):
    """cheroot's WSGI server with the :class:`~.doorway.Doorway` as its connection manager."""

    threads_per_device = 8
    _connections: Any  # cheroot's own (its type stubs leave it out)

    def prepare(self) -> None:
        super().prepare()
        self._connections.close()  # cheroot's own manager, holding nothing yet but the listening socket's key
        self._connections = Doorway(self, threads_per_device=self.threads_per_device)


def doorway(served: Any) -> Doorway:
    """The connection manager of a running :class:`_Server` (set by its ``prepare``)."""
    manager: Doorway = served._connections
    return manager


#: The environ key of a callable telling whether the client has closed the connection (see :class:`Gateway`).
CLIENT_GONE = "companion.client_gone"
#: The environ key of a callable the app calls with its route's bound on the body: the server then refuses a chunk
#: that would go past it as soon as its size line is read (:class:`ChunkedBody`).
BODY_LIMIT = "companion.body_limit"
#: The environ key of a callable setting how long a write may take no step forward before the connection ends
#: (an ordinary answer: :data:`.doorway.NO_PROGRESS_SECONDS`; a live stream sets its own).
PATIENCE = "companion.patience"
#: The environ key of a callable giving the connection's socket and whether the response is sent in chunks, once
#: its head is sent: a live stream hands them to the fan-out (:mod:`.fanout`), which writes to it without its thread.
STREAM_SOCKET = "companion.stream_socket"
#: The environ key of a callable that sends the response's head (a ``101 Switching Protocols``) and hands the app the
#: connection's socket and what its reader holds already (bytes the client sent after its head), the connection to be
#: closed once the response ends: a websocket's thread reads and writes the socket itself (:mod:`.websocket`).
UPGRADE = "companion.upgrade"


def no_bound(limit: int) -> None:
    """No body reader of ours (another server): the app's own reading bounds the body."""


class Gateway(wsgi.Gateway_10):
    """cheroot's WSGI 1.0 gateway, adding ``environ[CLIENT_GONE]``: a live stream asks it while it waits, so a gone
    phone's stream ends (and gives its slot back) at once, not when a write to it fails a keep-alive or two later;
    ``environ[BODY_LIMIT]`` and ``environ[STREAM_SOCKET]``."""

    def get_environ(self) -> dict[str, Any]:  # type: ignore[override]  # cheroot's stub types the base's as None
        environ: dict[str, Any] = super().get_environ()
        environ[CLIENT_GONE] = partial(peer_closed, self.req.conn.socket)
        environ[PATIENCE] = self.req.conn.socket.settimeout
        environ[STREAM_SOCKET] = self._stream_socket
        environ[UPGRADE] = self._upgrade
        body = self.req.rfile
        environ[BODY_LIMIT] = body.bound if isinstance(body, KnownBody | ChunkedBody) else no_bound
        return environ


    def _stream_socket(self) -> tuple[socket.socket, bool]:
        return self.req.conn.socket, bool(self.req.chunked_write)

    def _upgrade(self) -> tuple[socket.socket, bytes]:
        self.req.close_connection = True  # no HTTP request follows on it
        self.req.ensure_headers_sent()
        reader: Any = self.req.conn.rfile  # _pyio's BufferedReader (line_reader.py): its buffer's fields
        with reader._read_lock:
            held = bytes(reader._read_buf[reader._read_pos:])
            reader._read_buf, reader._read_pos = b"", 0
        return self.req.conn.socket, held


def peer_closed(sock: socket.socket) -> bool:
    """Whether the other end has closed ``sock``: it reads as ended (a stream's client sends nothing after its
    request), or it was reset."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


ALL_ADDRESSES = ("0.0.0.0", "::", "")


def listen_host(host: str) -> str:
    """The address to listen on for ``host``: every address (``0.0.0.0`` or ``::``) is IPv6's ``::`` where the
    machine has IPv6, on which cheroot clears ``IPV6_V6ONLY`` so that IPv4 phones are answered too; else IPv4's."""
    if host not in ALL_ADDRESSES:
        return host
    try:
        socket.socket(socket.AF_INET6, socket.SOCK_STREAM).close()
    except OSError:  # a kernel without IPv6
        return "0.0.0.0"
    return "::"


class WebServer:
    """A cheroot server for the app; :meth:`start` serves in a background thread."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 8080, *, threads: int = THREADS) -> None:
        self.app = app
        self._server = _Server((listen_host(host), port), app, numthreads=threads, max=threads,
                               server_name="companion", request_queue_size=32, shutdown_timeout=2)
        self._server.threads_per_device = threads_per_device(threads)
        # cheroot closes every connection after its answer once 10 wait idle in its selector (any 10 devices' idle
        # sockets took keep-alive from every phone); the Doorway bounds the open connections itself.
        self._server.keep_alive_conn_limit = KEEP_ALIVE
        self._server.max_request_header_size = MAX_HEAD_BYTES
        self._server.max_request_body_size = MAX_BODY_BYTES  # a longer Content-Length: 413 with the head
        self._server.ConnectionClass = _Connection
        self.read_watch = ReadWatch()
        self._server.read_watch = self.read_watch  # type: ignore[attr-defined]  # read by _Request
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
        host = self.host if self.host not in ALL_ADDRESSES else "127.0.0.1"
        return f"http://[{host}]:{self.port}" if ":" in host else f"http://{host}:{self.port}"

    def held(self) -> dict[str, int]:
        """The connections open, arriving, waiting their device's turn and served by a thread (``Doorway.held``)."""
        return doorway(self._server).held()

    def start(self) -> WebServer:
        """Bind and serve in a daemon thread; returns self."""
        self._server.prepare()
        self._watch_reads()
        self._thread = threading.Thread(target=self._server.serve, name="web", daemon=True)
        self._thread.start()
        log.info("serving the phone page on %s", self.url)
        return self

    def serve_forever(self) -> None:
        """Bind and serve in this thread until interrupted."""
        self._watch_reads()
        try:
            self._server.safe_start()
        finally:
            self.read_watch.stop()
            self._close_streams()

    def stop(self) -> None:
        """Release the live streams, stop accepting and wait for the pool."""
        self._close_streams()
        self.read_watch.stop()
        self._server.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _watch_reads(self) -> None:
        threading.Thread(target=self.read_watch.run, name="web-reads", daemon=True).start()

    def _close_streams(self) -> None:
        context: Any = self.app.extensions.get("companion")
        if context is not None:
            context.feed.close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def threads_per_device(threads: int) -> int:
    """How many of a pool's threads one device may hold at once: 8 of the page's 48 (a browser's 6 connections and
    its live streams), 1 of the captive portal's 4."""
    return max(1, min(READS_PER_ADDRESS, threads // 4))


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8080, *, threads: int = THREADS) -> WebServer:
    """A server for ``app``, not started yet."""
    return WebServer(app, host, port, threads=threads)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, *, threads: int = THREADS) -> None:
    """Serve ``app`` until interrupted (Ctrl-C)."""
    WebServer(app, host, port, threads=threads).serve_forever()
