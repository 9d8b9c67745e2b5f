"""The socket's lean read of a browser's usual message (:mod:`companion.web.one_frame`) against wsproto alone.

Two :class:`PhoneSocket` of the same connection's kind (permessage-deflate agreed as a browser's offer gets it, real
socket pairs) are given the same reads of a client's frames, one with the lean path, one reading every byte with
wsproto: the messages answered, every byte written back (replies, pongs, close frames) and how each ends must be the
same, for random messages and sizes, compressed or not, fragmented, with pings and closes between, split over reads
or several in one, and for frames wsproto refuses (bad UTF-8, a broken deflate stream, a length not in its shortest
form, an unmasked frame). The lean path must take every whole compressed text frame read alone, and nothing else.
The other direction (the server's frames, built by :func:`.websocket.text_frame` and ``deflated_frame``) is read
back by wsproto's client here too: the replies and the events the fan-out frames.
"""

from __future__ import annotations

import os
import socket
import struct
import zlib
from types import SimpleNamespace

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from wsproto import ConnectionType
from wsproto.connection import Connection
from wsproto.events import CloseConnection, Message, Ping, TextMessage
from wsproto.extensions import PerMessageDeflate

from companion.web.fanout import FanOut, Tail
from companion.web.one_frame import payload_at, unmasked, whole_frames
from companion.web.packed_stream import deflating
from companion.web.websocket import Closing, PhoneSocket, deflate_accepted, deflated_frame, text_frame

BOUND = 2048  # the message's bound in these tests (small, so that the bound's close is reached too)


def agreed() -> tuple[Connection, PerMessageDeflate]:
    """A client's wsproto and the server's extension, permessage-deflate agreed as a browser's offer gets it."""
    offer = PerMessageDeflate()
    accepted = deflate_accepted(f"{offer.name}; {offer.offer()}")
    assert accepted is not None
    offer.finalize(accepted[0])
    return Connection(ConnectionType.CLIENT, [offer]), accepted[1]


def server(deflate: PerMessageDeflate, *, lean: bool) -> tuple[PhoneSocket, socket.socket, list[bytes]]:
    """A server's PhoneSocket; the phone's end of their socket pair; the messages the server answered (in order)."""
    ours, phone = socket.socketpair()
    phone.setblocking(False)
    answered: list[bytes] = []

    def answer(data: bytes) -> bytes:
        answered.append(data)
        return b'{"id":%d,"status":200,"body":{}}' % len(answered)

    fanout = FanOut(SimpleNamespace(closed=False, latest=lambda: None))
    tail = Tail(lambda state: "anyone", lambda viewer: lambda state, events: state, None)
    served = PhoneSocket(ours, b"", tail, fanout, answer=answer, behind=lambda: None, closed=lambda: False,
                         keepalive=3600.0, max_message=BOUND, deflate=deflate, lean=lean)
    return served, phone, answered


def received(phone: socket.socket) -> bytes:
    chunks = []
    try:
        while data := phone.recv(65536):
            chunks.append(data)
    except BlockingIOError:
        pass
    return b"".join(chunks)


def run(reads: list[bytes], *, lean: bool) -> tuple[list[bytes], bytes, object, int]:
    """What a server answers, writes back and how it ends, given these reads; and how many the lean path took."""
    served, phone, answered = server(agreed()[1], lean=lean)
    taken = 0
    one = served.lean
    if one is not None:
        take = one.take

        def counted(data: bytes) -> bytes | None:
            nonlocal taken
            message = take(data)
            taken += message is not None
            return message

        one.take = counted  # type: ignore[method-assign]
    ended: object = None
    try:
        for data in reads:
            if served._receive(data):
                ended = "closed"
                break
    except Closing as closing:
        served._close(closing.code, closing.reason)
        ended = (int(closing.code), closing.reason)
    try:
        return answered, received(phone), ended, taken
    finally:  # its thread's end, which these calls of its reads stand in for, closes its ends
        for fd in (served._wake_read, served._wake_write):
            os.close(fd)
        served.sock.close()
        phone.close()


def both(reads: list[bytes]) -> int:
    """The two servers' answers, bytes and ends are the same; how many reads the lean path took."""
    plain = run(reads, lean=False)
    lean = run(reads, lean=True)
    assert lean[:3] == plain[:3]
    assert plain[3] == 0
    return lean[3]


def masked(first: int, payload: bytes, *, mask: bool = True, long: bool = False) -> bytes:
    """A client's frame byte by byte (``first``: FIN, RSV and opcode); ``long``: its length in 8 bytes."""
    length = len(payload)
    bit = 0x80 if mask else 0
    if long:
        head = bytes([first, bit | 127]) + struct.pack("!Q", length)
    elif length < 126:
        head = bytes([first, bit | length])
    else:
        head = bytes([first, bit | 126]) + struct.pack("!H", length)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + unmasked(key, payload)


# ---------------------------------------------------------------------- random conversations
texts = st.text(st.characters(codec="utf-8"), max_size=300) | st.text("{}\":,0123456789abc",
                                                                                          min_size=100, max_size=3000)


@st.composite
def conversations(draw: st.DrawFn) -> list[bytes]:
    """A client's frames as wsproto's client sends them (compressed, its context kept), some fragmented, pings and
    uncompressed frames among them, then cut into reads anywhere (or several frames in one)."""
    client, _ = agreed()
    frames: list[bytes] = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["message", "message", "message", "fragments", "ping", "plain"]))
        text = draw(texts)
        if kind == "message":
            frames.append(bytes(client.send(Message(data=text))))
        elif kind == "fragments":
            cut = draw(st.integers(0, len(text)))
            frames.append(bytes(client.send(Message(data=text[:cut], message_finished=False))))
            if draw(st.booleans()):
                frames.append(bytes(client.send(Ping(b"between"))))
            frames.append(bytes(client.send(Message(data=text[cut:]))))
        elif kind == "ping":
            frames.append(bytes(client.send(Ping(text.encode()[:100]))))
        else:
            frames.append(masked(0x81, text.encode()))  # uncompressed (RSV1 clear: permessage-deflate allows it)
    if draw(st.booleans()):
        frames.append(bytes(client.send(CloseConnection(code=1000, reason="bye"))))
    stream = b"".join(frames)
    if draw(st.booleans()):
        return frames  # one read a frame, as a browser's frames come
    cuts = sorted(draw(st.lists(st.integers(1, max(1, len(stream) - 1)), max_size=6, unique=True)))
    return [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)]) if stream[a:b]]


@settings(max_examples=150, deadline=None)
@given(conversations())
def test_the_lean_path_answers_and_writes_as_wsproto_alone(reads: list[bytes]) -> None:
    event("the lean path took a read" if both(reads) else "wsproto read every byte")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.characters(codec="utf-8"), max_size=400), min_size=1, max_size=10))
def test_a_browsers_messages_each_read_alone_all_go_the_lean_way(messages: list[str]) -> None:
    client, _ = agreed()
    reads = [bytes(client.send(Message(data=text))) for text in messages]  # at most 1,600 bytes: within the bound
    assert both(reads) == len(reads)


def test_after_a_read_wsproto_holds_part_of_the_lean_path_ends_and_wsproto_reads_on() -> None:
    client, _ = agreed()  # a new client for each conversation (its compressor's context)
    first, second, third = (bytes(client.send(Message(data=f'{{"id":{n}}}'))) for n in range(3))
    assert both([first, second[:3], second[3:], third]) == 1  # the first only: then wsproto held part of a frame
    client, _ = agreed()
    fragment = bytes(client.send(Message(data='{"id":', message_finished=False)))
    rest, after = bytes(client.send(Message(data="4}"))), bytes(client.send(Message(data='{"id":5}')))
    assert both([fragment, rest, after]) == 0  # a message begun: wsproto's to the end
    client, _ = agreed()
    pong = masked(0x8A, b"pong")
    ping = bytes(client.send(Ping(b"?")))
    last = bytes(client.send(Message(data='{"id":6}')))
    assert both([pong + ping, last]) == 1  # whole control frames leave wsproto holding nothing


# ---------------------------------------------------------------------- what wsproto refuses, refused the same
def compressed(data: bytes) -> bytes:
    deflater = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    return (deflater.compress(data) + deflater.flush(zlib.Z_SYNC_FLUSH))[:-4]


@pytest.mark.parametrize("what, frame", [
    ("text that is not UTF-8", masked(0xC1, compressed(b'{"input": "\xff\xfe"}'))),
    ("text cut inside a character", masked(0xC1, compressed("{é".encode()[:-1]))),
    ("a broken deflate stream", masked(0xC1, b"\xff\xff\xff\xff")),
    ("a length in two bytes that fits in one", bytes([0xC1, 0x80 | 126]) + struct.pack("!H", 10) + os.urandom(4)
     + compressed(b'{"id":1}').ljust(10, b"\x00")),
    ("a length in eight bytes", masked(0xC1, compressed(b"x" * 70000), long=True)),
    ("an unmasked frame", masked(0xC1, compressed(b'{"id":1}'), mask=False)),
    ("a message over the bound", masked(0xC1, compressed(b" " * (BOUND + 1)))),
    ("a compressed binary message", masked(0xC2, compressed(b"\x00\x01"))),
    ("a compressed ping", masked(0xC9, compressed(b"x"))),
    ("RSV2 set", masked(0xE1, compressed(b'{"id":1}'))),
])
def test_what_wsproto_refuses_is_refused_with_its_code_and_words(what: str, frame: bytes) -> None:
    plain = run([frame], lean=False)
    lean = run([frame], lean=True)
    assert lean[:3] == plain[:3], what
    assert isinstance(plain[2], tuple), what  # refused: a close frame sent, its code and words


def test_a_new_message_inside_a_fragmented_one_is_refused_as_wsproto_refuses_it() -> None:
    client, _ = agreed()
    begun = bytes(client.send(Message(data='{"id":', message_finished=False)))
    whole = masked(0xC1, compressed(b'{"id":2}'))  # a whole compressed text frame: not a continuation
    plain, lean = run([begun, whole], lean=False), run([begun, whole], lean=True)
    assert lean[:3] == plain[:3] and lean[3] == 0
    assert isinstance(plain[2], tuple) and plain[2][0] == 1002


def test_only_one_whole_compressed_text_frame_of_the_shortest_length_is_taken() -> None:
    payload = compressed(b"x" * 300)
    assert payload_at(masked(0xC1, b"\x00" * 5)) == 6
    assert payload_at(masked(0xC1, b"\x00" * 200)) == 8
    assert payload_at(masked(0xC1, payload)) == 6 + (2 if len(payload) > 125 else 0)
    for refused in (masked(0x81, b"{}"), masked(0x41, b"{}"), masked(0xC1, b"{}", mask=False),
                    masked(0xC1, b"{}")[:-1], masked(0xC1, b"{}") * 2, masked(0xC1, b"x" * 70000, long=True)):
        assert payload_at(refused) is None
    assert whole_frames(masked(0x1, b"a") + masked(0x89, b"") + masked(0x80, b"b"))
    assert not whole_frames(masked(0x1, b"a") + masked(0x89, b""))
    assert not whole_frames(masked(0x81, b"abc")[:-1])


# ---------------------------------------------------------------------- the server's own frames
@settings(max_examples=100, deadline=None)
@given(st.lists(st.binary(max_size=70000).map(lambda b: b.decode("latin-1")), min_size=1, max_size=4))
def test_the_servers_frames_are_wsprotos_and_read_back_whole(texts_: list[str]) -> None:
    """A reply's frame is byte for byte the one wsproto's server would send; the events' deflated frames (the
    shared compressor's, :mod:`.packed_stream`) read back by a client's wsproto as the same texts."""
    plain = Connection(ConnectionType.SERVER)
    client, _ = agreed()
    at = deflating()
    for text in texts_:
        assert text_frame(text.encode()) == bytes(plain.send(Message(data=text)))
        data, at = at.then(text)
        client.receive_data(deflated_frame(data))
        got = [event for event in client.events()]
        assert len(got) == 1 and isinstance(got[0], TextMessage) and got[0].data == text
