"""The live streams' fan-out: after each input, one place writes the new events to every phone that is up to date.

A stream's own thread (one of the server's) sends its phone the first state and whatever the phone is behind, then
hands its socket to the :class:`FanOut` (:meth:`FanOut.follow`) and sleeps until a keep-alive is due, or until it
is handed back: one thread watches every following connection for its phone closing it (:class:`Hangups`). After each input the thread that published it (right after the
journal's commit, under the table's lock, before the reply's and the OLED's work) works out each distinct event once
— for what the phones hold, as whom they see it and at which point of a shared compressor they are
(:mod:`.packed_stream`) — its bytes with the HTTP chunk's framing, and writes them to each following socket with one
send that never blocks. So one input wakes no stream thread, and eight phones seeing the same cost one view, one
compression and eight ``send`` calls.

A phone leaves the fan-out, and its own thread is woken to carry on as before (:class:`Tail`), when its socket took
less than the whole event (a slow reader: its thread writes the rest, as patiently as any stream write), when it
would be sent anything else than what changed (its view changed — a seat freed, host rights taken — or it lags
beyond the kept frames: the whole state), when the write failed (the phone has gone), or when the feed closes. A
phone that stops reading therefore costs the others one failed ``send`` at most, never a wait.
"""

from __future__ import annotations

import logging
import os
import select
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from companion.engine import Event, State

from .packed_stream import Packed

log = logging.getLogger(__name__)

Builder = Callable[[State, Sequence[Event]], State]
Viewer = Hashable  # whom a view is for (:class:`.feed.Viewer`)
#: One publish's event for the phones at one point: its bytes as sent, the compressor after them, what they then hold.
Sending = tuple[bytes, Packed | None, tuple[Any, Viewer]]
#: The events worked out in one publish, by what the phones hold, as whom, their compressor and framing.
Made = dict[tuple[int, Viewer, int, Callable[[bytes], bytes]], Sending | None]


class Frame(Protocol):
    """A state the table published (:class:`.feed.Frame`: the feed imports this module, not the other way)."""

    state: State


class Source(Protocol):
    """What the fan-out follows (:class:`.feed.Feed`)."""

    closed: bool

    def latest(self) -> Any: ...

    def changes_since(self, held: Any, latest: Any, viewer: Any, build: Builder) -> str | None: ...


def chunk(data: bytes) -> bytes:
    """``data`` as one HTTP/1.1 chunk, framed as cheroot frames a response's chunk."""
    return b"%x\r\n%s\r\n" % (len(data), data)


class Tail:
    """One live stream's end of the connection: what its phone holds (the frame and as whom it saw it), where its
    gzip is (None: plain text), and the socket the fan-out writes to while the stream's thread sleeps.

    Only one side writes at a time: the stream's thread before :meth:`FanOut.follow` and after
    :meth:`FanOut.leave`, the fan-out in between. ``pending`` is what the fan-out could not write whole: the
    stream's thread writes it first."""

    def __init__(self, viewer_of: Callable[[State], Any], build: Callable[[Any], Builder],
                 at: Packed | None, ended: Callable[[], bool] = lambda: False) -> None:
        """``viewer_of``: as whom the phone sees a state now; ``build``: a viewer's view of a state; ``at``: the
        stream's compressor; ``ended``: whether the stream must send nothing more (its slot was taken back)."""
        self.viewer_of, self.build, self.at, self.ended = viewer_of, build, at, ended
        self.held: tuple[Any, Any] | None = None  # a :class:`.feed.Frame` and a :class:`.feed.Viewer`
        self.pending = b""
        self.sent_at = time.monotonic()  # the last event or comment written (a keep-alive is due after a while)
        self.woken = threading.Event()  # set when the fan-out hands the stream back to its thread (:meth:`wake`)
        self.on_wake: Callable[[], None] = lambda: None  # told too (a websocket's thread waits on its socket)
        self.frame: Callable[[bytes], bytes] = chunk  # the transport's framing of an event's bytes (:meth:`attach`)
        self._out: socket.socket | None = None  # a non-blocking twin of the connection's socket, for the fan-out
        #: Its ``send`` (``socket.send``: raises when it would block; the fan-out's one call per phone and event).
        self.send_now: Callable[[bytes, int], int] = _closed_send

    def pack(self, text: str) -> bytes:
        """``text`` as this stream sends it: gzip'd after what it sent before, or encoded."""
        if self.at is None:
            return text.encode()
        data, self.at = self.at.then(text)
        return data

    def attach(self, sock: socket.socket, frame: Callable[[bytes], bytes]) -> None:
        """Let the fan-out write to ``sock`` (the connection's, its response's head sent): a duplicate of it that
        never waits, so the connection's own keeps its timeout. ``frame``: how the transport frames an event's bytes
        (:func:`chunk`; ``bytes``, as they are, for HTTP/1.0; a websocket's text frame)."""
        if self._out is None:
            self._out = socket.socket(fileno=os.dup(sock.fileno()))
            self._out.setblocking(False)
            self.send_now = self._out.send
        self.frame = frame

    def wake(self) -> None:
        """Hand the stream back to its thread."""
        self.woken.set()
        self.on_wake()

    @property
    def attached(self) -> bool:
        return self._out is not None

    @property
    def fileno(self) -> int:
        return self._out.fileno() if self._out is not None else -1

    def send(self, data: bytes) -> int:
        """Write what the socket takes now of ``data``; the bytes written (0: it would block)."""
        try:
            return self.send_now(data, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return 0

    def write_pending(self, sock: socket.socket) -> bool:
        """Write what the fan-out could not (a slow reader's) to the connection's ``sock``, waiting as any write of
        the stream waits (the socket's patience); False if the phone has gone or stayed stuck."""
        try:
            sock.sendall(self.pending)
        except OSError:
            return False
        self.pending, self.sent_at = b"", time.monotonic()
        return True

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
            self.send_now = _closed_send


def _closed_send(data: bytes, flags: int) -> int:
    """A tail's send with no socket attached (or closed): as a closed socket's."""
    raise OSError("the stream's socket is closed")


class Hangups:
    """One thread asleep until a watched connection is closed by its phone (epoll's ``EPOLLRDHUP``, a reset's
    ``EPOLLHUP``/``EPOLLERR``), which it reports by its file descriptor: the following streams' threads need not
    look once a second whether their phone is still there. Linux only (``select.epoll``): elsewhere they look."""

    available = hasattr(select, "epoll")

    def __init__(self, gone: Callable[[int], None]) -> None:
        self._gone = gone
        self._poll = select.epoll()
        self._stop_read, self._stop_write = os.pipe()
        self._poll.register(self._stop_read, select.EPOLLIN)
        threading.Thread(target=self._run, name="stream-hangups", daemon=True).start()

    def watch(self, fd: int) -> None:
        """Report ``fd`` once, when its peer has closed (until :meth:`unwatch`)."""
        self._poll.register(fd, select.EPOLLRDHUP | select.EPOLLONESHOT)

    def unwatch(self, fd: int) -> None:
        try:
            self._poll.unregister(fd)
        except (OSError, ValueError):
            pass  # not watched (it never was, or the watcher stopped)

    def stop(self) -> None:
        os.write(self._stop_write, b".")

    def _run(self) -> None:
        try:
            while True:
                for fd, _ in self._poll.poll():
                    if fd == self._stop_read:
                        return
                    self._gone(fd)
        finally:
            self._poll.close()
            os.close(self._stop_read)
            os.close(self._stop_write)


class FanOut:
    """The streams following the feed without their threads (see the module's text)."""

    def __init__(self, feed: Source) -> None:
        self.feed = feed
        self._following: list[Tail] = []
        self._lock = threading.Lock()
        self._hangups: Hangups | None = None  # started with the first stream that follows
        #: Why streams were handed back to their threads: "ended" (its slot), "gone" (the phone closed), "view"
        #: (changed), "behind" (the whole state), "slow" (the socket took less than the event), "error"; for tests
        #: and the benchmark.
        self.handed_back: Counter[str] = Counter()

    @property
    def watches_hangups(self) -> bool:
        """Whether a following stream's thread is woken when its phone goes (else it looks once a second)."""
        return Hangups.available

    def follow(self, tail: Tail) -> bool:
        """Take over ``tail``'s writes until something needs its thread; False (its thread carries on) if its phone
        does not hold the newest frame as it may see it now (it changed since the thread looked) or the feed closed."""
        with self._lock:
            tail.woken.clear()  # before looking: a slot ended from now on wakes it
            latest = self.feed.latest()
            if (self.feed.closed or tail.ended() or tail.held is None or tail.pending or not tail.attached
                    or latest is None or tail.held[0] is not latest or tail.viewer_of(latest.state) != tail.held[1]):
                return False
            self._following.append(tail)
            if Hangups.available:
                if self._hangups is None:
                    self._hangups = Hangups(self._gone)
                self._hangups.watch(tail.fileno)
            return True

    def sleep(self, tail: Tail, keepalive: float, gone: Callable[[], bool], look: float) -> bool | None:
        """Write to ``tail``'s phone while its thread sleeps here (woken when the phone closes its connection or its
        slot ends; without :class:`Hangups`, looking every ``look`` seconds whether it has gone): True once it is
        handed back (or was not taken: something changed), False when a keep-alive is due (nothing written for
        ``keepalive`` seconds), None as soon as the phone has gone."""
        if not self.follow(tail):
            return True
        look = keepalive if self.watches_hangups else look
        try:
            while not tail.woken.wait(max(0.0, min(look, tail.sent_at + keepalive - time.monotonic()))):
                if gone():
                    return None
                if time.monotonic() >= tail.sent_at + keepalive:
                    return False
            return None if gone() else True  # handed back: maybe because its phone closed the connection
        finally:
            self.leave(tail)

    def leave(self, tail: Tail) -> None:
        """Give ``tail``'s writes back to its thread (once this returns, the fan-out writes nothing more to it)."""
        with self._lock:
            if tail in self._following:
                self._remove(tail)

    def write(self, tail: Tail, data: bytes) -> bool:
        """Write ``data`` (a frame of the stream's own: a websocket's reply) to ``tail``'s phone between the events,
        the stream staying with the fan-out; what the socket does not take at once is left pending and the stream
        handed back (its thread writes the rest). False if the fan-out does not hold it (its thread writes)."""
        with self._lock:
            if tail not in self._following:
                return False
            try:
                sent = tail.send(data)
            except OSError:
                sent = 0
            if sent < len(data):
                tail.pending = data[sent:]
                self._hand_back(tail, "slow")
            else:
                tail.sent_at = time.monotonic()
            return True

    def following(self) -> int:
        with self._lock:
            return len(self._following)

    def close(self) -> None:
        """Hand every stream back to its thread (the feed closed: they end)."""
        with self._lock:
            for tail in list(self._following):
                self._remove(tail)
                tail.wake()
            if self._hangups is not None:
                self._hangups.stop()
                self._hangups = None

    def publish(self) -> None:
        """Write the newest frame (or what a change of rights makes of it) to every following phone; called after
        each update of the feed, and when what phones may see changed."""
        with self._lock:
            if not self._following:
                return
            latest = self.feed.latest()
            if latest is None:
                return
            made: Made = {}
            now = time.monotonic()  # each phone's write is "now" for its keep-alive: one clock for all of them
            for tail in list(self._following):
                try:
                    self._write(tail, latest, made, now)
                except Exception:  # a bug here must not cost the game an input: the stream's thread carries on
                    log.exception("the fan-out failed a stream")
                    self._hand_back(tail, "error")

    def _write(self, tail: Tail, latest: Frame, made: Made, now: float) -> None:
        """Bring ``tail``'s phone to ``latest``: the event its fellows at the same point share (``made``), in one
        send; or hand it back to its thread."""
        held = tail.held
        assert held is not None
        if tail.ended():  # its session id was replaced, or a player's phone took its slot: nothing more to it
            self._hand_back(tail, "ended")
            return
        viewer = tail.viewer_of(latest.state)
        if viewer != held[1]:  # a seat freed, host rights taken or given: the whole state, as it may see it now
            self._hand_back(tail, "view")
            return
        if held[0] is latest:
            return  # nothing new for this phone
        key = (id(held[0]), viewer, id(tail.at), tail.frame)  # the frame and compressor alive while this lasts
        found = made.get(key)
        if found is None and key not in made:  # the first phone at this point: worked out once for all of them
            found = made[key] = self._event(held[0], latest, viewer, tail)
        if found is None:  # it lags beyond the kept frames (or a game began): its thread sends the whole state
            self._hand_back(tail, "behind")
            return
        data, after, now_held = found
        try:
            sent = tail.send_now(data, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            sent, why = 0, "slow"
        except OSError:  # the phone has gone: its thread's write fails too, and the stream ends
            sent, why = 0, "gone"
        else:
            why = "slow"
        tail.held, tail.at = now_held, after
        if sent < len(data):  # a slow reader: its thread writes the rest, as patiently as it writes
            tail.pending = data[sent:]
            self._hand_back(tail, why)
        else:
            tail.sent_at = now

    def _event(self, held: Frame, latest: Frame, viewer: Viewer, tail: Tail) -> Sending | None:
        """The bytes (the transport's framing included) that bring a phone holding ``held`` to ``latest``, its
        compressor after them and what it then holds; None if only the whole state would."""
        text = self.feed.changes_since(held, latest, viewer, tail.build(viewer))
        if text is None:
            return None
        if tail.at is None:
            data, after = text.encode(), None
        else:
            data, after = tail.at.then(text)
        return tail.frame(data), after, (latest, viewer)

    def _gone(self, fd: int) -> None:
        """The phone of the stream writing to ``fd`` closed its connection: its thread ends the stream."""
        with self._lock:
            for tail in [t for t in self._following if t.fileno == fd]:
                self._hand_back(tail, "gone")

    def _remove(self, tail: Tail) -> None:
        self._following.remove(tail)
        if self._hangups is not None:
            self._hangups.unwatch(tail.fileno)

    def _hand_back(self, tail: Tail, why: str) -> None:
        self.handed_back[why] += 1
        if tail in self._following:
            self._remove(tail)
        tail.wake()
