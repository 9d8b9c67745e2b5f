"""Who gets one of the server's threads, and when: cheroot's connection manager, changed at the door.

cheroot gives a new connection to a worker thread as soon as it is accepted, and the worker waits (up to its socket
timeout) for the request to arrive: 8 idle connections from each of 8 devices held every thread for 5 s at a time.
:class:`Doorway` (set as the server's connection manager, ``server._connections``) instead keeps every connection in
its selector, without a thread, until its request has arrived: the head whole, and a body of up to
:data:`WHOLE_BODY_BYTES` whole (a phone sends its request in one or two packets). What arrives a little at a time
waits beside the selector (looked at again every :data:`LOOK_EVERY` s, from the kernel's buffer, with ``MSG_PEEK``:
nothing is read) for :data:`ARRIVAL_SECONDS` at most, then is closed. So a thread only ever serves a request that is
there to be read, and its answer.

Then, per device (:func:`.addresses.device`; the Pi's own loopback is not limited): at most ``threads_per_device``
of the pool's threads serve its connections at once, whether reading a request or writing an answer (a device
pipelining requests it never reads held every thread on writes); its other requests wait their turn without a
thread. At most :data:`CONNECTIONS_PER_DEVICE` connections are open from one device (more are closed as they come),
and :data:`CONNECTIONS` in all: beyond, the oldest connection without a thread of the device holding the most is
closed for the newcomer. The write deadline of an ordinary answer is the socket's timeout, set here
(:data:`NO_PROGRESS_SECONDS` without a byte taken by the phone ends the connection); a live stream sets its own
(:data:`.server.PATIENCE`).
"""

from __future__ import annotations

import logging
import re
import selectors
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from cheroot import connections

from .addresses import device, is_own

log = logging.getLogger(__name__)

NO_PROGRESS_SECONDS = 4.0  # a write (or read) of an ordinary answer that moves not a byte for this long ends it
ARRIVAL_SECONDS = 8.0  # a request must have arrived (head, and a body of up to WHOLE_BODY_BYTES) this long after its
#                        first byte was seen; else its connection is closed without a thread ever given to it
LOOK_EVERY = 0.1  # seconds between looks at the requests arriving a little at a time
WHOLE_BODY_BYTES = 32 * 1024  # a body up to this is waited for whole before a thread is given (the kernel's receive
#                               buffer holds it and the head); a longer one (an imported game) is read by the thread,
#                               bounded by the server's ReadWatch
MAX_HEAD_BYTES = 16 * 1024  # as the server's: a head still without its end past this goes to cheroot to be refused
CONNECTIONS_PER_DEVICE = 24  # open at once from one device (a browser opens 6 to a host, plus its live streams)
CONNECTIONS = 512  # open at once in all (file descriptors: the service's limit is 1024)

_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*(\d{1,12})[ \t]*(?=\r\n)")
_CHUNKED = re.compile(rb"\r\ntransfer-encoding[ \t]*:")
_EXPECT = re.compile(rb"\r\nexpect[ \t]*:")


def arrived(data: bytes) -> bool:
    """Whether the start of a connection's waiting bytes holds a whole request to give a thread: its head, and its
    body when it is at most :data:`WHOLE_BODY_BYTES` (a chunked one: up to its last chunk). A head over its bound,
    an ``Expect: 100-continue`` (the client waits for the server's word) and a longer body go to a thread at once:
    cheroot refuses the first, answers the second, and the ReadWatch bounds the reading of the third."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return len(data) > MAX_HEAD_BYTES
    head, body = data[:end + 2].lower(), data[end + 4:]
    if _EXPECT.search(head):
        return True
    length = _LENGTH.search(head)
    if length is not None:
        size = int(length.group(1))
        return size > WHOLE_BODY_BYTES or len(body) >= size
    if _CHUNKED.search(head):
        return len(body) > WHOLE_BODY_BYTES or b"\r\n0\r\n\r\n" in b"\r\n" + body or b"\r\n0;" in b"\r\n" + body
    return True


class Doorway(connections.ConnectionManager):
    """cheroot's :class:`~cheroot.connections.ConnectionManager`, giving a worker thread only to a connection whose
    request has arrived, and no more than ``threads_per_device`` to one device (see the module's docstring)."""

    # cheroot's own (its type stubs leave them out)
    _selector: Any
    _stop_requested: bool
    _remove_invalid_sockets: Callable[[], None]
    _from_server_socket: Callable[[socket.socket], Any]
    _expire: Callable[[float], None]

    def __init__(self, server: Any, *, threads_per_device: int) -> None:
        super().__init__(server)
        self.threads_per_device = threads_per_device
        self._lock = threading.Lock()
        self._arriving: dict[Any, float] = {}  # connections out of the selector, their request coming: deadline
        self._turns: dict[str, deque[Any]] = {}  # requests arrived, waiting for one of their device's threads
        self._working: Counter[str] = Counter()  # threads serving each device now
        self._open: dict[Any, str] = {}  # every open connection, its device
        self._last_look = 0.0

    # ------------------------------------------------------------------ the selector's loop
    def _run(self, expiration_interval: float) -> None:
        """cheroot's loop (``ConnectionManager._run``), new connections put in the selector rather than given a
        thread, readable ones given one only once their request has arrived."""
        last_expiration_check = time.time()
        while not self._stop_requested:
            with self._lock:
                waiting = bool(self._arriving)
            try:
                active = list(self._selector.select(timeout=LOOK_EVERY if waiting else expiration_interval))
            except OSError:
                self._remove_invalid_sockets()
                continue
            for sock_fd, conn in active:
                if conn is self.server:
                    new_conn = self._from_server_socket(self.server.socket)
                    if new_conn is not None:
                        self._welcome(new_conn)
                else:
                    self._selector.unregister(sock_fd)
                    self._look(conn, first=True)
            now = time.time()
            if waiting and now - self._last_look >= LOOK_EVERY:
                self._last_look = now
                with self._lock:
                    arriving = list(self._arriving.items())
                for conn, deadline in arriving:
                    if deadline < time.monotonic():
                        self._turn_away(conn)
                    else:
                        self._look(conn, first=False)
            if (now - last_expiration_check) > expiration_interval:
                self._expire(now - self.server.timeout)
                last_expiration_check = now

    def put(self, conn: Any) -> None:
        """A connection back from its thread, kept alive: to the selector, or (a pipelined request already read into
        its buffer) to its device's turn."""
        conn.last_used = time.time()
        if conn.rfile.has_data():
            self._give_thread(conn)
        else:
            self._selector.register(conn.socket.fileno(), selectors.EVENT_READ, data=conn)

    def _welcome(self, conn: Any) -> None:
        key = device(conn.remote_addr)
        with self._lock:
            crowded = not is_own(conn.remote_addr) and sum(k == key for k in self._open.values()) >= \
                CONNECTIONS_PER_DEVICE
            full = len(self._open) >= CONNECTIONS
            if not crowded:
                self._open[conn] = key
        if crowded:
            conn.close()  # this device has enough open already
            return
        if full:
            self._make_room()
        conn.last_used = time.time()
        conn.socket.settimeout(NO_PROGRESS_SECONDS)
        self._selector.register(conn.socket.fileno(), selectors.EVENT_READ, data=conn)

    def _look(self, conn: Any, *, first: bool) -> None:
        """Give ``conn`` a thread if its request has arrived (or it has closed); else let it go on arriving."""
        data: bytes | None
        try:
            conn.socket.settimeout(0)  # a socket with a timeout would wait for data first: never here
            data = conn.socket.recv(MAX_HEAD_BYTES + WHOLE_BODY_BYTES + 1, socket.MSG_PEEK)
        except BlockingIOError:
            data = None  # nothing yet after all
        except OSError:
            data = b""  # reset: the thread finds it closed
        try:
            conn.socket.settimeout(NO_PROGRESS_SECONDS)
        except OSError:
            data = b""
        if data is None:
            with self._lock:
                if conn not in self._arriving:
                    self._arriving[conn] = time.monotonic() + ARRIVAL_SECONDS
            return
        if data == b"" or arrived(data):
            with self._lock:
                self._arriving.pop(conn, None)
            self._give_thread(conn)
        elif first:
            with self._lock:
                self._arriving.setdefault(conn, time.monotonic() + ARRIVAL_SECONDS)

    def _turn_away(self, conn: Any) -> None:
        """A request still not arrived at its deadline: its connection is closed, no thread ever given."""
        with self._lock:
            self._arriving.pop(conn, None)
        try:
            conn.socket.send(b"HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                             socket.MSG_DONTWAIT)
        except OSError:
            pass
        conn.close()

    # ------------------------------------------------------------------ threads per device
    def _give_thread(self, conn: Any) -> None:
        key = device(conn.remote_addr)
        with self._lock:
            if not is_own(conn.remote_addr) and self._working[key] >= self.threads_per_device:
                self._turns.setdefault(key, deque()).append(conn)
                return
            self._working[key] += 1
        self.server.process_conn(conn)

    def done(self, conn: Any) -> None:
        """``conn``'s thread has finished with it (its answer sent, or the connection ended): the next request of
        its device, if one waits, gets the thread's place."""
        key = device(conn.remote_addr)
        with self._lock:
            self._working[key] -= 1
            if self._working[key] <= 0:
                del self._working[key]
            turns = self._turns.get(key)
            following = turns.popleft() if turns else None
            if turns is not None and not turns:
                del self._turns[key]
            if following is not None:
                self._working[key] += 1
        if following is not None:
            self.server.process_conn(following)

    # ------------------------------------------------------------------ open connections
    def closed(self, conn: Any) -> None:
        """``conn`` was closed (by its thread, the expiry of idle ones, or here)."""
        with self._lock:
            self._open.pop(conn, None)
            self._arriving.pop(conn, None)

    def _make_room(self) -> None:
        """Close the oldest connection without a thread (idle, or its request arriving) of the device holding the
        most open, for a newcomer when :data:`CONNECTIONS` are open."""
        with self._lock:
            counts = Counter(key for conn, key in self._open.items() if not is_own(conn.remote_addr))
        idle = {conn for _, conn in self._selector.connections if conn is not self.server}
        with self._lock:
            idle |= set(self._arriving)
        for key, _ in counts.most_common():
            victims = sorted((c for c in idle if device(c.remote_addr) == key), key=lambda c: c.last_used or 0)
            if victims:
                victim = victims[0]
                if victim not in self._arriving:
                    try:
                        self._selector.unregister(victim.socket.fileno())
                    except (KeyError, ValueError, OSError):
                        continue
                self.closed(victim)
                victim.close()
                return

    def close(self) -> None:
        """Close every connection: in the selector (cheroot's), arriving and waiting their turn."""
        with self._lock:
            others = list(self._arriving) + [conn for turns in self._turns.values() for conn in turns]
            self._arriving.clear()
            self._turns.clear()
        for conn in others:
            conn.close()
        super().close()

    def held(self) -> dict[str, int]:
        """How many connections are open, arriving, waiting their turn, and served by a thread (for tests)."""
        with self._lock:
            return {"open": len(self._open), "arriving": len(self._arriving),
                    "waiting": sum(len(t) for t in self._turns.values()), "working": sum(self._working.values())}
