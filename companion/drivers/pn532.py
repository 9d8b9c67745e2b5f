"""The PN532 NFC controller on I2C: its frames, as NXP's user manual (UM0701-02, §6.2 and §6.2.4) gives them.

A frame, either way::

    00 | 00 FF | LEN | LCS | TFI | PD0 ... PDn | DCS | 00
    preamble, start code, length of TFI+PD (LEN + LCS = 0 mod 256), D4 host→PN532 or D5 PN532→host,
    the command code and its data (a response's code is the command's + 1), DCS (TFI + PD + DCS = 0 mod 256),
    postamble.

The host writes a frame; the PN532 answers first with an ACK frame (``00 00 FF 00 FF 00``), then with the
response when it has one. On I2C the host cannot know when: every read begins with a status byte, 0x01 once
the PN532 has something to say (and the frame follows in the same read), 0x00 before (the rest is noise, to be
read again later). An ACK written by the host aborts the command in progress (a target search waiting for a
card). A syntax error in what the PN532 was asked is answered with the error frame ``00 00 FF 01 FF 7F 81 00``.

This module only builds, sends and checks frames (:class:`PN532`); waiting, polling and faults are the
reader's (:mod:`.nfc`). Nothing blocks: every call is one I2C transfer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from companion.engine import CompanionError

ADDRESS = 0x24  # 7-bit (0x48 write, 0x49 read in the manual's 8-bit notation)
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
ACK = bytes((0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00))
NACK = bytes((0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00))
ERROR_FRAME = bytes((0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00))
READY = 0x01

# Commands used (UM0701-02 §7)
GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

#: A response read in one transfer: the status byte and a frame of up to this many bytes of TFI and data (the
#: longest used, a target found, is 19 bytes plus an ISO 14443-4 card's ATS).
MAX_DATA = 48


class PN532Error(CompanionError, OSError):
    """A frame the PN532 should not have sent (bad checksums, a NACK, an error frame, another command's answer)."""


class I2CBus(Protocol):
    """What is used of ``smbus2.SMBus``: combined transfers of ``smbus2.i2c_msg`` messages."""

    def i2c_rdwr(self, *messages: Any) -> None: ...


def frame(data: bytes, tfi: int = HOST_TO_PN532) -> bytes:
    """A normal information frame carrying ``data`` (the command code and its parameters)."""
    if len(data) + 1 > 255:
        raise ValueError("a normal frame carries at most 254 bytes of data")
    length = len(data) + 1
    body = bytes((tfi, *data))
    return bytes((0x00, 0x00, 0xFF, length, -length & 0xFF, *body, -sum(body) & 0xFF, 0x00))


def parse_frame(raw: bytes, tfi: int = PN532_TO_HOST) -> bytes:
    """The data of the frame at the start of ``raw`` (after any leading 0x00 preamble bytes): its checksums,
    its TFI checked. Raises :class:`PN532Error` for an ACK, a NACK, an error frame or anything broken."""
    start = raw.find(b"\x00\xff")
    if start < 0:
        raise PN532Error(f"no start code in {raw[:12].hex(' ')}")
    head = raw[start + 2:]
    if len(head) < 2:
        raise PN532Error("frame cut short before its length")
    length, lcs = head[0], head[1]
    if (length, lcs) == (0x00, 0xFF):
        raise PN532Error("an ACK where a response was expected")
    if (length, lcs) == (0xFF, 0x00):
        raise PN532Error("a NACK from the PN532")
    if (length + lcs) & 0xFF:
        raise PN532Error(f"length checksum wrong (LEN {length:#04x}, LCS {lcs:#04x})")
    body = head[2:2 + length]
    if len(body) < length or len(head) < 3 + length:
        raise PN532Error(f"frame cut short: {length} bytes announced, {max(0, len(head) - 3)} read")
    if (sum(body) + head[2 + length]) & 0xFF:
        raise PN532Error("data checksum wrong")
    if length == 1 and body[0] == 0x7F:
        raise PN532Error("the PN532 answered with an error frame (it did not understand the command)")
    if body[0] != tfi:
        raise PN532Error(f"frame identifier {body[0]:#04x}, expected {tfi:#04x}")
    return bytes(body[1:])


def is_ack(raw: bytes) -> bool:
    """Whether ``raw`` starts with an ACK frame."""
    return raw[:len(ACK)] == ACK


@dataclass(frozen=True)
class Target:
    """A card found by InListPassiveTarget at 106 kbps type A (ISO 14443A: NTAG, MIFARE)."""

    uid: bytes  # NFCID1: 4, 7 or 10 bytes
    sens_res: int  # ATQA
    sel_res: int  # SAK


def parse_targets(data: bytes) -> list[Target]:
    """The targets in an InListPassiveTarget response's data (after its response code 0x4B)."""
    if not data:
        raise PN532Error("InListPassiveTarget answered without a target count")
    count, rest, found = data[0], data[1:], []
    for _ in range(count):
        if len(rest) < 5:
            raise PN532Error("target data cut short")
        sens_res, sel_res, uid_len = rest[1] << 8 | rest[2], rest[3], rest[4]
        if uid_len not in (4, 7, 10) or len(rest) < 5 + uid_len:
            raise PN532Error(f"target UID of {uid_len} bytes")
        found.append(Target(bytes(rest[5:5 + uid_len]), sens_res, sel_res))
        rest = rest[5 + uid_len:]
        if sel_res & 0x20 and rest:  # ISO 14443-4 compliant: its ATS follows, first byte its length
            rest = rest[rest[0]:]
    return found


class PN532:
    """One PN532 on an I2C bus: write a command, read its ACK and its response, one transfer at a time."""

    def __init__(self, bus: I2CBus, address: int = ADDRESS) -> None:
        self.bus, self.address = bus, address
        self.command: int | None = None  # the command written last, whose response is awaited

    def _write(self, raw: bytes) -> None:
        from smbus2 import i2c_msg

        self.bus.i2c_rdwr(i2c_msg.write(self.address, raw))

    def _read(self, length: int) -> bytes | None:
        """One read: the frame that follows the status byte, or None while the PN532 is not ready."""
        from smbus2 import i2c_msg

        message = i2c_msg.read(self.address, 1 + length)
        self.bus.i2c_rdwr(message)
        raw = bytes(message)
        return raw[1:] if raw[0] & READY else None

    def send(self, command: int, params: bytes = b"") -> None:
        """Write a command frame; its ACK and then its response are read with :meth:`ack` and :meth:`response`."""
        self._write(frame(bytes((command, *params))))
        self.command = command

    def ack(self) -> bool:
        """Whether the PN532 has acknowledged the command (False: not ready yet, read again)."""
        raw = self._read(len(ACK))
        if raw is None:
            return False
        if not is_ack(raw):
            raise PN532Error(f"expected an ACK, read {raw.hex(' ')}")
        return True

    def response(self) -> bytes | None:
        """The response's data after its code, or None while the PN532 is still working."""
        raw = self._read(7 + MAX_DATA)
        if raw is None:
            return None
        data = parse_frame(raw)
        if self.command is None or not data or data[0] != self.command + 1:
            raise PN532Error(f"a response {data[:1].hex()} to command {self.command}")
        self.command = None
        return data[1:]

    def abort(self) -> None:
        """Write an ACK: the PN532 drops the command in progress."""
        self._write(ACK)
        self.command = None
