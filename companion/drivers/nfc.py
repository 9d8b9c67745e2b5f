"""The NFC reader: a PN532 (:mod:`.pn532`) asked for a card again and again, each card put on it one tap.

:class:`NfcReader` is polled by the table's tick (every 10 ms) and never blocks: one I2C transfer a poll at
most. It wakes the PN532 (GetFirmwareVersion, which also checks the chip is one), sets it up (SAMConfiguration:
normal mode; RFConfiguration: two activation retries, so that a search without a card ends by itself), then
searches for one ISO 14443A target (InListPassiveTarget) every ``interval``. A card left on the reader is one
tap; it taps again once it has been away for ``gone_after`` (a card resting on the reader is seen every ~0.1 s).

Faults (no ACK, a response that does not come, a checksum or an I2C error) start it over after ``retry_after``.
A reader that has answered and stops is told once through ``on_fault(text)`` (a standing notice), and
``on_fault(None)`` when it answers again; a reader that never answered since the start is said once, in a
fading notice through ``on_notice`` (a table without one plays on buttons), and looked for again now and then.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from dataclasses import dataclass

from .clock import Clock
from .pn532 import GET_FIRMWARE_VERSION, IN_LIST_PASSIVE_TARGET, PN532, RF_CONFIGURATION, SAM_CONFIGURATION, \
    PN532Error, parse_targets

log = logging.getLogger(__name__)

STOPPED = "NFC reader stopped: check its cable"  # the buttons still do everything: the game goes on
MISSING = "No NFC reader: buttons only"  # said in the table's language (its msgid: companion/face/vocabulary.py)


class ReaderTimeout(PN532Error):
    """The PN532 did not acknowledge, or did not answer, in time."""


@dataclass(frozen=True)
class Tap:
    """A card put on the reader: its UID (lowercase hex) and when it was seen."""

    uid: str
    at: float


Steps = Generator[None, None, bytes]


class NfcReader:
    """Cards on the reader become :class:`Tap` events for ``on_tap``; call :meth:`poll` every tick."""

    def __init__(self, chip: PN532, on_tap: Callable[[Tap], None], *, clock: Clock,
                 on_fault: Callable[[str | None], None] = lambda text: None,
                 on_notice: Callable[[str], None] = lambda text: None,
                 interval: float = 0.08, ack_timeout: float = 0.05, response_timeout: float = 0.5,
                 gone_after: float = 0.25, retry_after: float = 1.0, look_again: float = 10.0,
                 faults: int = 3) -> None:
        self.chip, self.on_tap, self.clock = chip, on_tap, clock
        self.on_fault, self.on_notice = on_fault, on_notice
        self.interval, self.ack_timeout, self.response_timeout = interval, ack_timeout, response_timeout
        self.gone_after, self.retry_after, self.look_again, self.faults = gone_after, retry_after, look_again, faults
        self.firmware: bytes | None = None  # IC, version, revision, support (once it has answered)
        self.failures = 0  # in a row
        self.answered = False  # since the start
        self.stopped = False  # a standing notice is up
        self._told_missing = False
        self._session: Generator[None, None, None] | None = None
        self._resume_at = 0.0
        self._present: dict[str, float] = {}  # UID -> last seen

    def poll(self) -> None:
        """One step: at most one I2C transfer."""
        now = self.clock()
        if now < self._resume_at:
            return
        if self._session is None:
            self._session = self._run()
        try:
            next(self._session)
        except OSError as error:  # PN532Error too: checksums, NACKs, time-outs
            self._session = None
            self._failed(error, now)
        except Exception as error:  # noqa: BLE001 - a bug must not stop the table's tick: the reader starts over
            log.exception("NFC reader")
            self._session = None
            self._failed(OSError(str(error)), now)

    # ------------------------------------------------------------------ the conversation
    def _run(self) -> Generator[None, None, None]:
        firmware = yield from self._command(GET_FIRMWARE_VERSION)
        if len(firmware) < 4 or firmware[0] != 0x32:
            raise PN532Error(f"not a PN532 (firmware {firmware.hex(' ')})")
        self.firmware = firmware
        yield from self._command(SAM_CONFIGURATION, b"\x01\x14\x00")  # normal mode, 1 s virtual card time, no IRQ
        yield from self._command(RF_CONFIGURATION, b"\x05\xff\x01\x02")  # MaxRetries: ATR, PSL, 2 activations
        self._working()
        while True:
            data = yield from self._command(IN_LIST_PASSIVE_TARGET, b"\x01\x00")  # one target, 106 kbps type A
            self._working()
            self._seen([t.uid.hex() for t in parse_targets(data)])
            until = self.clock() + self.interval
            while self.clock() < until:
                yield

    def _command(self, code: int, params: bytes = b"") -> Steps:
        """Send, wait for the ACK, wait for the response; the response's data (after its code)."""
        self.chip.send(code, params)
        deadline = self.clock() + self.ack_timeout
        yield
        while not self.chip.ack():
            if self.clock() > deadline:
                raise ReaderTimeout(f"no ACK to command {code:#04x}")
            yield
        deadline = self.clock() + self.response_timeout
        while (data := self.chip.response()) is None:
            if self.clock() > deadline:
                self.chip.abort()
                raise ReaderTimeout(f"no response to command {code:#04x}")
            yield
        return data

    # ------------------------------------------------------------------ cards
    def _seen(self, uids: list[str]) -> None:
        now = self.clock()
        for uid, last in list(self._present.items()):  # away long enough: put down again, it is a new tap
            if now - last >= self.gone_after:
                del self._present[uid]
        for uid in uids:
            if uid not in self._present:
                log.info("card %s", uid)
                self.on_tap(Tap(uid, now))
            self._present[uid] = now

    # ------------------------------------------------------------------ faults
    def _working(self) -> None:
        self.failures, self.answered = 0, True
        if self.stopped:
            self.stopped = False
            self.on_fault(None)

    def _failed(self, error: OSError, now: float) -> None:
        self.failures += 1
        log.info("NFC reader: %s (%d in a row)", error, self.failures)
        self._present.clear()
        if self.failures < self.faults:
            self._resume_at = now + self.retry_after / 10  # a glitch on the bus: again soon
            return
        self._resume_at = now + (self.retry_after if self.answered else self.look_again)
        if self.answered and not self.stopped:
            self.stopped = True
            self.on_fault(STOPPED)
        elif not self.answered and not self._told_missing:
            self._told_missing = True
            self.on_notice(MISSING)  # said once, not standing: a table without a reader plays on
