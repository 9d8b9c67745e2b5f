"""A phone's usual message read without wsproto's general parser: one whole compressed text frame (issue 43).

A browser sends each input as one frame (FIN set, text, masked, compressed with permessage-deflate: RSV1 set), and
on a loopback or a LAN the few hundred bytes come in one read. For exactly that read, while wsproto holds nothing
(no partial frame, no fragmented message begun), :class:`OneFrame` takes the message itself: the header checked
byte by byte, the payload unmasked, inflated through wsproto's own extension (its public hooks, the ones its frame
decoder calls, so its decompressor's context stays the one the next message continues), its UTF-8 checked. Anything
else — a fragment, a control frame (ping, pong, close), an uncompressed or binary frame, a frame split over reads,
two frames in one read, a length not in its shortest form, a 64-bit length — goes to wsproto as it is, and a read
that leaves wsproto holding part of a frame or a message ends the lean path for the connection (wsproto reads the
rest, as it did). Errors end as wsproto ends them: its :class:`~wsproto.frame_protocol.ParseFailed`, with the same
code and words. tests/web/test_one_frame.py proves it byte for byte against wsproto alone.
"""

from __future__ import annotations

from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import CloseReason, FrameDecoder, Opcode, ParseFailed, RsvBits

COMPRESSED_TEXT = 0xC1  # FIN, RSV1 (permessage-deflate), opcode 1: the first byte of the frames taken here
MASKED = 0x80
TWO_BYTE_LENGTH = 126
SHORT = 125  # the longest payload told in the second byte (RFC 6455, 5.2)
RSV1 = RsvBits(True, False, False)


def payload_at(data: bytes) -> int | None:
    """Where the payload of ``data`` starts if ``data`` is exactly one whole compressed text frame of a client's
    (masked, FIN, its length in its shortest form, at most 65,535 bytes); None otherwise."""
    if len(data) < 6 or data[0] != COMPRESSED_TEXT or not data[1] & MASKED:
        return None
    length = data[1] & 0x7F
    start = 6
    if length == TWO_BYTE_LENGTH:
        length = int.from_bytes(data[2:4], "big")
        if length <= SHORT:
            return None  # wsproto refuses it (a length not in its shortest form): it says so
        start = 8
    elif length > TWO_BYTE_LENGTH:
        return None
    return start if len(data) == start + length else None


def unmasked(key: bytes, payload: bytes) -> bytes:
    """``payload`` XORed with the 4-byte ``key`` repeated (RFC 6455, 5.3), as one integer operation."""
    size = len(payload)
    mask = (key * (size // 4 + 1))[:size]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(mask, "little")).to_bytes(size, "little")


def whole_frames(data: bytes) -> bool:
    """Whether ``data`` is whole frames leaving no message begun (wsproto holds nothing after reading it)."""
    at, begun = 0, False
    while at < len(data):
        if at + 2 > len(data):
            return False
        first, second = data[at], data[at + 1]
        length, at = second & 0x7F, at + 2
        if length >= TWO_BYTE_LENGTH:
            size = 2 if length == TWO_BYTE_LENGTH else 8
            if at + size > len(data):
                return False
            length, at = int.from_bytes(data[at:at + size], "big"), at + size
        at += (4 if second & MASKED else 0) + length
        if not first & 0x08:  # a data frame (a control frame may come between a message's fragments)
            begun = not first & 0x80
    return at == len(data) and not begun


class OneFrame:
    """The lean path of one server connection's reads, beside its wsproto (see the module's text)."""

    def __init__(self, deflate: PerMessageDeflate) -> None:
        """``deflate``: the permessage-deflate agreed on, the extension of the connection's wsproto."""
        self.deflate = deflate
        self.side = FrameDecoder(client=False)  # what the extension's hooks ask of their caller: a server's side
        self.idle = True  # wsproto holds nothing: no partial frame, no fragmented message

    def take(self, data: bytes) -> bytes | None:
        """The message (its UTF-8 bytes) if ``data`` is one whole compressed text frame and wsproto holds nothing;
        None: give ``data`` to wsproto (:meth:`given` says so). Raises ParseFailed as wsproto would."""
        start = payload_at(data) if self.idle else None
        if start is None:
            return None
        deflate, side = self.deflate, self.side
        deflate.frame_inbound_header(side, Opcode.TEXT, RSV1, len(data) - start)  # True for RSV1 on a text frame
        text = deflate.frame_inbound_payload_data(side, unmasked(data[start - 4:start], data[start:]))
        if isinstance(text, CloseReason):
            raise ParseFailed("error in extension", text)
        rest = deflate.frame_inbound_complete(side, True)
        if isinstance(rest, CloseReason):
            raise ParseFailed("error in extension", rest)
        if rest:
            text += rest
        if not text.isascii():
            try:
                text.decode("utf-8")
            except UnicodeDecodeError as error:
                raise ParseFailed(str(error), CloseReason.INVALID_FRAME_PAYLOAD_DATA) from None
        return text

    def given(self, data: bytes) -> None:
        """``data`` went to wsproto: the lean path ends if it left wsproto holding part of a frame or message."""
        if self.idle and not whole_frames(data):
            self.idle = False
