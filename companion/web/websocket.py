"""A phone's websocket (RFC 6455) once its handshake is answered: its one two-way connection (issue 43).

The phone sends its inputs as text messages and is sent, on the same connection, each input's reply and the live
stream's events. The frames are read and written by wsproto (python-hyper's sans-IO protocol: it parses the
client's masked frames, checks their UTF-8, joins fragments and answers close frames); this module does the I/O.
A browser's usual message, one whole compressed text frame in one read, is read by :mod:`.one_frame` instead of
wsproto's general parser (through wsproto's own deflate extension; the same answer, a third of the instructions);
everything else is wsproto's.

The connection's thread (one of the server's, as a live stream's) reads the phone's frames; meanwhile, while its
phone is up to date, the feed's fan-out writes the events to it (:mod:`.fanout`), built once per distinct view and
compressor for every phone that gets the same (a server's frames are not masked: the bytes are the same for all;
compressed with permessage-deflate when the phone offers it, from the streams' shared compressor chain). The
thread's own frames (a reply, a pong, a ping) go between the fan-out's events (:meth:`.FanOut.write`), so frames
never interleave; a phone the fan-out hands back (slow, behind, its view changed) is caught up by its thread as a
live stream's is, before the fan-out takes it again.

Each text message is an input, answered by a function it is given (the same route as ``POST /api/input``). What the
phone may not send ends the connection with a close frame saying why, having changed nothing: a binary message
(1003), a message over the body's bound (1009, as soon as it is over), what is not a websocket frame, an unmasked
frame, text that is not UTF-8 (wsproto's 1002 and 1007). A fragmented message is a message (RFC 6455 allows it).
"""

from __future__ import annotations

import base64
import binascii
import os
import select
import socket
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from urllib.parse import urlsplit

from wsproto import ConnectionType
from wsproto.connection import Connection, ConnectionState
from wsproto.events import BytesMessage, CloseConnection, Ping, TextMessage
from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import CloseReason, ParseFailed
from wsproto.utilities import generate_accept_token

from .fanout import FanOut, Tail
from .one_frame import OneFrame
from .packed_stream import WINDOW_BITS

VERSION = "13"  # RFC 6455's, the only one browsers speak
READ_BYTES = 4 * 1024  # a read from the phone (an input is a few hundred bytes; a compressed one inflates at most
#                       ~1000-fold before the message's bound is checked)
FLUSHED = b"\x00\x00\xff\xff"  # how a flushed deflate block ends
LOOK = 1.0  # seconds between looks at the feed while the fan-out does not write to this phone (no game yet)


def text_frame(data: bytes) -> bytes:
    """``data`` (UTF-8 text) as one text frame of a server's (unmasked): the same bytes for every phone."""
    return _framed(0x81, data)


def deflated_frame(data: bytes) -> bytes:
    """An event's text compressed after the phone's events before it, flushed (:mod:`.packed_stream`), as one text
    frame of permessage-deflate (RFC 7692: RSV1 set, the flush's closing ``00 00 ff ff`` left off)."""
    return _framed(0xC1, data[:-4] if data.endswith(FLUSHED) else data)


def _keepable(param: str) -> bool:
    """Whether an offer's parameter lets the server keep its compressor between messages, with its window."""
    name, _, value = (part.strip() for part in param.partition("="))
    if name == "server_no_context_takeover":
        return False
    return name != "server_max_window_bits" or (value.isdigit() and int(value) >= WINDOW_BITS)


def _framed(first: int, payload: bytes) -> bytes:
    """A frame whose first byte is ``first`` (FIN, RSV and opcode), unmasked (RFC 6455, 5.2)."""
    length = len(payload)
    if length < 126:
        return bytes((first, length)) + payload
    if length < 1 << 16:
        return bytes((first, 126)) + length.to_bytes(2, "big") + payload
    return bytes((first, 127)) + length.to_bytes(8, "big") + payload


def deflate_accepted(offers: str | None) -> tuple[str, PerMessageDeflate] | None:
    """The ``Sec-WebSocket-Extensions`` answer taking the client's permessage-deflate offer, and wsproto's extension
    for its messages (which it may compress too); None when it offers none we can keep to: the events are compressed
    once for every phone at the same point, after what each phone had before (context takeover, a 4 KB window)."""
    for offer in (offers or "").split(","):
        params = [p.strip() for p in offer.split(";")]
        if params[0] != PerMessageDeflate.name or not all(map(_keepable, params[1:])):
            continue
        extension = PerMessageDeflate()
        answer = extension.accept(offer.strip())
        if not isinstance(answer, str):
            continue
        return (f"{extension.name}; {answer}" if answer else extension.name), extension
    return None


def accept_token(key: str) -> str | None:
    """The ``Sec-WebSocket-Accept`` answering the client's ``Sec-WebSocket-Key``; None if that is not 16 bytes in
    base64 (RFC 6455, 4.2.1)."""
    try:
        if len(base64.b64decode(key.strip(), validate=True)) != 16:
            return None
    except (binascii.Error, ValueError):
        return None
    return generate_accept_token(key.strip().encode()).decode()


def same_origin(origin: str | None, host: str) -> bool:
    """Whether ``origin`` (the handshake's ``Origin``, which every browser sends and no page can forge) is the page
    of this ``host`` (the request's, as the Host check took it): a page of another site may not open a websocket
    with this phone's cookie."""
    if not origin:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def upgrade_asked(upgrade: str | None, connection: str | None) -> bool:
    """Whether a request's ``Upgrade`` and ``Connection`` headers ask for a websocket."""
    tokens = {word.strip().lower() for word in (connection or "").split(",")}
    return (upgrade or "").strip().lower() == "websocket" and "upgrade" in tokens


class Closing(Exception):
    """End the connection with a close frame: ``code`` (RFC 6455, 7.4) and why, in words."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


class PhoneSocket:
    """One phone's websocket, served by the thread that answered its handshake (see the module's text)."""

    def __init__(self, sock: socket.socket, held: bytes, tail: Tail, fanout: FanOut, *,
                 answer: Callable[[bytes], bytes], behind: Callable[[], str | None], closed: Callable[[], bool],
                 keepalive: float, max_message: int, deflate: PerMessageDeflate | None = None,
                 answering: Callable[[], AbstractContextManager[None]] = nullcontext, lean: bool = True) -> None:
        """``sock``: the connection's (its 101 sent), ``held``: what the client sent after its head; ``tail``: the
        phone's end of the fan-out; ``answer``: an input message's reply; ``behind``: the events the phone lacks
        (None: it is up to date); ``closed``: the feed closed (the server stops); ``keepalive``: seconds without a
        frame sent before a ping; ``max_message``: the bytes of an input message at most; ``deflate``: the
        extension agreed on (the events compressed from ``tail``'s compressor, the phone's messages inflated);
        ``answering``: held around each message's answer and its reply's write while that never waits (the table's
        :meth:`~companion.table.Table.answering`: the OLED's thread woken once the reply is out); ``lean``: a
        browser's usual message (one whole compressed text frame in one read) read by :class:`.one_frame.OneFrame`,
        not wsproto's general parser (False: wsproto reads every byte; the tests compare the two)."""
        self.sock, self.tail, self.fanout = sock, tail, fanout
        self.answer, self.behind, self.closed = answer, behind, closed
        self.keepalive, self.max_message = keepalive, max_message
        self.answering = answering
        self.conn = Connection(ConnectionType.SERVER, [deflate] if deflate is not None else None)
        self.frame = deflated_frame if deflate is not None else text_frame
        self.lean = OneFrame(deflate) if deflate is not None and lean else None
        self._held = held
        self._following = False
        self._parts: list[bytes] = []  # a message's fragments before its last
        self._size = 0
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)
        self._open = True  # the pipe's ends are open (a slot may end from any thread, even as the thread ends)
        self._lock = threading.Lock()

    def run(self) -> None:
        """Serve the phone until either side closes the connection."""
        self.tail.attach(self.sock, self.frame)
        self.tail.on_wake = self._poke
        try:
            self._serve()
        except Closing as closing:
            self._close(closing.code, closing.reason)
        except OSError:
            pass  # the phone has gone (a reset, a write that took no step forward for the socket's patience)
        finally:
            self.fanout.leave(self.tail)
            self.tail.on_wake = lambda: None
            self.tail.close()
            with self._lock:
                self._open = False
                os.close(self._wake_read)
                os.close(self._wake_write)

    def _serve(self) -> None:
        if self._held and self._receive(self._held):
            return
        while True:
            if self.tail.ended():
                raise Closing(CloseReason.POLICY_VIOLATION, "this phone's session was replaced: open the page anew")
            if self.closed():
                raise Closing(CloseReason.GOING_AWAY, "the table is stopping")
            if not self._following or self.tail.woken.is_set():
                self._catch_up()
            wait = self.tail.sent_at + self.keepalive - time.monotonic()
            if not self._following:
                wait = min(wait, LOOK)
            readable, _, _ = select.select([self.sock.fileno(), self._wake_read], [], [], max(0.0, wait))
            if self._wake_read in readable:
                os.read(self._wake_read, 64)
            if self.sock.fileno() in readable:
                data = self._read()
                if data == b"" or (data is not None and self._receive(data)):
                    return  # gone without a word, or closed
            elif not readable and time.monotonic() >= self.tail.sent_at + self.keepalive:
                self._write(self.conn.send(Ping()))

    def _read(self) -> bytes | None:
        """What the phone sent (b"": it closed the connection; None: nothing after all). One ``read``: the socket's
        own ``recv`` would ``poll`` it first (it has a timeout), which the ``select`` above has just done."""
        try:
            return os.read(self.sock.fileno(), READ_BYTES)  # the socket is non-blocking underneath its timeout
        except BlockingIOError:
            return None

    def _catch_up(self) -> None:
        """Write what the fan-out left unwritten and what the phone lacks, then let the fan-out write to it."""
        self._following = False
        while True:
            if self.tail.pending and not self.tail.write_pending(self.sock):
                raise OSError("the phone has gone")
            text = self.behind()
            if text is None:
                break
            self._send(self.frame(self.tail.pack(text)))
        self._following = self.fanout.follow(self.tail)  # False: no game yet, or it changed meanwhile (looked again)

    def _receive(self, data: bytes) -> bool:
        """Take what the phone sent; True once the connection is closed."""
        lean = self.lean
        if lean is not None:
            try:
                message = lean.take(data)
            except ParseFailed as failed:  # as wsproto's own parse fails (its close code and words)
                raise Closing(failed.code, str(failed) or "not a websocket frame") from None
            if message is not None:
                self._message(message, True)
                return False
            lean.given(data)
        self.conn.receive_data(data)
        for event in self.conn.events():
            if isinstance(event, TextMessage):
                self._message(event.data.encode(), event.message_finished)  # encoded once: the bound counts bytes
            elif isinstance(event, BytesMessage):
                raise Closing(CloseReason.UNSUPPORTED_DATA, "send text: an input as JSON")
            elif isinstance(event, Ping):
                self._write(self.conn.send(event.response()))
            elif isinstance(event, CloseConnection):
                if self.conn.state is not ConnectionState.REMOTE_CLOSING:  # wsproto could not read the frames
                    raise Closing(event.code, event.reason or "not a websocket frame")
                self._write(self.conn.send(event.response()))
                return True
        return False

    def _message(self, data: bytes, finished: bool) -> None:
        """A text message's UTF-8 bytes, or a fragment's (``finished``: its last), answered once whole."""
        self._size += len(data)
        if self._size > self.max_message:
            raise Closing(CloseReason.MESSAGE_TOO_BIG, f"a message is {self.max_message} bytes at most")
        if not finished:
            self._parts.append(data)
            return
        if self._parts:  # a fragmented message (RFC 6455 allows it; browsers send one frame)
            data, self._parts = b"".join([*self._parts, data]), []
        self._size = 0
        with self.answering():  # what the input wakes (the OLED's thread) woken once the reply is out
            reply = text_frame(self.answer(data))
            if self._following and self.fanout.write(self.tail, reply):  # it never waits
                return
        self._write(reply)  # out of the block: waiting for a slow phone delays only this thread

    def _write(self, data: bytes) -> None:
        """Write ``data`` from this thread, never inside another frame: between the fan-out's writes while it holds
        the phone (what the socket did not take is then this thread's to write, :meth:`_catch_up`), else itself."""
        if self._following and self.fanout.write(self.tail, data):
            return
        self._following = False
        if self.tail.pending and not self.tail.write_pending(self.sock):
            raise OSError("the phone has gone")
        self._send(data)

    def _send(self, data: bytes) -> None:
        self.sock.sendall(data)
        self.tail.sent_at = time.monotonic()

    def _close(self, code: int, reason: str) -> None:
        """Say why the connection ends, if it is still open, and end it."""
        self.fanout.leave(self.tail)
        self._following = False  # the close frame is the last: written by this thread
        try:
            if self.conn.state is ConnectionState.OPEN:
                self._write(self.conn.send(CloseConnection(code=code, reason=reason)))
            self.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # gone already

    def _poke(self) -> None:
        """The fan-out handed this phone back (or its slot ended): wake the thread from its wait."""
        with self._lock:
            if not self._open:
                return
            try:
                os.write(self._wake_write, b".")
            except BlockingIOError:
                pass  # woken already
