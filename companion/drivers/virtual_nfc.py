"""A PN532 on a virtual I2C bus, answering as NXP's user manual (UM0701-02) says, for tests and the demo.

:class:`VirtualPN532` takes ``smbus2.i2c_msg`` transfers, like the Pi's ``/dev/i2c-1``: a written frame with good
checksums is acknowledged (an ACK frame ready at the next read), then answered once its work is done; every read
starts with the status byte (0x01 ready, 0x00 not yet, the rest then zeros); a frame with a bad checksum is
ignored (no ACK), an unknown command gets the error frame, a written ACK aborts the command in progress.
InListPassiveTarget answers with the card on the antenna, or with no target once its activation retries
(RFConfiguration's MaxRetries) are spent; with 0xFF retries it waits for a card.

Cards are put on and taken off with :meth:`place` and :meth:`remove`; :func:`demo_uid` gives the demo's cards
their UIDs from their names. ``plugged = False`` makes every transfer fail as a missing device does
(``EREMOTEIO``); ``mute = True`` makes a hung chip (nothing is ever ready).
"""

from __future__ import annotations

import errno
import hashlib
from dataclasses import dataclass, field
from typing import Any


from .clock import Clock, Sleep
from .pn532 import ACK, ADDRESS, ERROR_FRAME, GET_FIRMWARE_VERSION, HOST_TO_PN532, IN_LIST_PASSIVE_TARGET, \
    PN532_TO_HOST, RF_CONFIGURATION, SAM_CONFIGURATION, PN532Error, frame, parse_frame

I2C_M_RD = 0x0001
FIRMWARE = bytes((0x32, 0x01, 0x06, 0x07))  # PN532, version 1.6, ISO 14443A/B and 18092
ACK_TIME = 0.001  # the manual's ACK comes within about 1 ms
FIND_TIME = 0.004  # a card on the antenna, activated
TRY_TIME = 0.015  # one activation attempt without a card


def demo_uid(name: str) -> str:
    """A 7-byte NTAG-like UID (NXP's 0x04 first) for a demo card called ``name``: the same name, the same UID."""
    return "04" + hashlib.sha256(name.encode()).hexdigest()[:12]


@dataclass
class _Pending:
    command: int
    params: bytes
    since: float
    acked: bool = False


@dataclass
class VirtualPN532:
    """The chip's side of the I2C conversation; ``clock`` says when its work is done."""

    clock: Clock
    address: int = ADDRESS
    plugged: bool = True
    mute: bool = False
    card: str | None = None  # the UID (hex) on the antenna
    retries: int = 0xFF  # MxRtyPassiveActivation, as RFConfiguration set it
    configured: bool = False  # SAMConfiguration received
    commands: list[int] = field(default_factory=list)  # every command acknowledged, in order
    _pending: _Pending | None = None
    _out: bytes | None = None  # the frame the next ready read returns

    # ------------------------------------------------------------------ the table's cards
    def place(self, uid: str) -> None:
        self.card = uid

    def remove(self) -> None:
        self.card = None

    # ------------------------------------------------------------------ the bus
    def i2c_rdwr(self, *messages: Any) -> None:
        if not self.plugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        for message in messages:
            if message.addr != self.address:
                raise OSError(errno.EREMOTEIO, "Remote I/O error")  # nobody acknowledges that address
            if message.flags & I2C_M_RD:
                self._read(message)
            else:
                self._write(bytes(message))

    def close(self) -> None:
        pass

    def _write(self, raw: bytes) -> None:
        if raw == ACK:  # the host aborts the command in progress
            self._pending, self._out = None, None
            return
        try:
            data = parse_frame(raw, tfi=HOST_TO_PN532)
        except PN532Error:
            return  # a broken frame is not acknowledged
        if self.mute or not data:
            return
        self._pending, self._out = _Pending(data[0], data[1:], self.clock()), None

    def _read(self, message: Any) -> None:
        import ctypes

        raw = self._ready()
        out = bytes((0x01, *raw)) if raw is not None else b"\x00"
        out = out[:message.len].ljust(message.len, b"\x00")
        ctypes.memmove(message.buf, out, message.len)

    def _ready(self) -> bytes | None:
        """The frame a read returns now (consumed), or None: the status byte says not ready."""
        pending, now = self._pending, self.clock()
        if pending is None:
            return None
        if not pending.acked:
            if now < pending.since + ACK_TIME:
                return None
            pending.acked, pending.since = True, now
            self.commands.append(pending.command)
            return ACK
        answer = self._answer(pending, now)
        if answer is not None:
            self._pending = None
        return answer

    def _answer(self, pending: _Pending, now: float) -> bytes | None:
        """The response frame to the acknowledged command, once it is done (None: still working)."""
        code, params = pending.command, pending.params
        if code == GET_FIRMWARE_VERSION:
            return self._response(code, FIRMWARE)
        if code == SAM_CONFIGURATION and params[:1] == b"\x01":
            self.configured = True
            return self._response(code, b"")
        if code == RF_CONFIGURATION and params[:1] == b"\x05" and len(params) == 4:
            self.retries = params[3]
            return self._response(code, b"")
        if code == IN_LIST_PASSIVE_TARGET and params == b"\x01\x00" and self.configured:
            if self.card is not None and now >= pending.since + FIND_TIME:
                uid = bytes.fromhex(self.card)
                return self._response(code, bytes((1, 1, 0x00, 0x44, 0x00, len(uid), *uid)))  # NTAG: ATQA 0044
            if self.retries != 0xFF and now >= pending.since + (self.retries + 1) * TRY_TIME:
                return self._response(code, b"\x00")
            return None
        return ERROR_FRAME

    @staticmethod
    def _response(code: int, data: bytes) -> bytes:
        return frame(bytes((code + 1, *data)), tfi=PN532_TO_HOST)


class VirtualCards:
    """Taps named cards on a :class:`VirtualPN532`: each on the antenna ``hold`` seconds, then away."""

    def __init__(self, chip: VirtualPN532, wait: Sleep) -> None:
        self.chip, self.wait = chip, wait

    def tap(self, name: str, hold: float = 0.3, gap: float = 0.4) -> None:
        self.chip.place(demo_uid(name))
        self.wait(hold)
        self.chip.remove()
        self.wait(gap)
