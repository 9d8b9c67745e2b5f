"""The OLED: luma.oled drivers that send only what changed, and a wrapper that survives I2C faults.

luma's ``ssd1306.display`` sends the whole 1 KB frame every time. At 400 kHz that is about
25 ms of bus time per frame, for a screen that usually changes in a few rows. The controller's
memory is organised in eight pages of 8 pixel rows × 128 columns; :class:`PagedSSD1306` (and
:class:`PagedSH1106`) keep the last frame sent and, for each page that changed, send only the
runs of columns that changed.

:class:`Display` sits in front of any luma device (a real one, or luma's ``dummy`` in the demo):
it skips a frame equal to the last one, and when the bus fails (display unplugged, loose wire)
it logs once, keeps the newest frame, and reopens the device with exponential back-off; the
game never waits for it. When the display comes back it is initialised again and gets the
whole current frame.

The panel's pace: a frame handed to a panel on I2C takes it a while to take (:func:`frame_time`: a whole 128x64 frame
at 400 kHz, ~25 ms). :class:`Display` remembers when the panel is free again (:meth:`Display.ready`),
so that the controller draws a burst of inputs (phones acting faster than the panel can show) once per frame time,
the newest state, instead of frames nobody sees (docs/table.md, "The panel's pace").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image

from companion.engine import CompanionError

from .clock import Clock, monotonic
from .frame import PAGES_OF, Frame, page_bytes, pages_bytes

__all__ = ["PAGES_OF", "Display", "DisplayUnavailable", "Frame", "PagedSH1106", "PagedSSD1306", "changed_spans",
           "page_bytes", "pages_bytes"]

log = logging.getLogger(__name__)

SPLIT_GAP = 12  # equal columns that cost more than a new window command (about 10 bytes on the bus)
#: The I2C bus's clock when nothing says otherwise: the speed the OLED's wiring guide sets on the Pi
#: (``dtparam=i2c_arm_baudrate=400000``); pins.toml's ``[display] bus_hz`` says another.
I2C_HZ = 400_000
#: Bits on the bus for one byte of a frame: its eight and the panel's acknowledgement.
BITS_PER_BYTE = 9


#: A run of bytes that are not zero: where two pages' XOR differs.
DIFFERING = re.compile(rb"[^\x00]+")


def changed_spans(old: bytes | None, new: bytes, gap: int = SPLIT_GAP) -> list[tuple[int, int]]:
    """The runs of columns that differ between two pages, as ``(first, last)``; runs closer than
    ``gap`` equal columns are merged (a new window costs more than resending a few bytes). The columns
    that differ are found in C (the pages' XOR, its runs of bytes that are not zero), not column by column."""
    if old is None:
        return [(0, len(new) - 1)]
    if old == new:
        return []
    size = len(new)
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(size, "big")
    spans: list[tuple[int, int]] = []
    for run in DIFFERING.finditer(diff):
        first, last = run.start(), run.end() - 1
        if spans and first - spans[-1][1] <= gap:
            spans[-1] = (spans[-1][0], last)
        else:
            spans.append((first, last))
    return spans


class _PagedMixin:
    """Remembers the pages last sent and sends only the changed column span of each page."""

    _sent: list[bytes | None]
    width: int
    height: int

    def forget(self) -> None:
        """Send every page next time (after a reset or when the panel's memory is unknown)."""
        self._sent = [None] * (self.height // PAGES_OF)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size  # type: ignore[attr-defined]
        self._send(pages_bytes(self.preprocess(image)))  # type: ignore[attr-defined]

    def display_frame(self, frame: Frame) -> None:
        """A :class:`~.frame.Frame`: its pages as the painter made them when it has them and the panel is not turned
        (luma's ``rotate``), else its image as :meth:`display` takes it."""
        if frame.pages is not None and not self.rotate and frame.size == self.size:  # type: ignore[attr-defined]
            self._send(frame.pages)
        else:
            self.display(frame.image)

    def _send(self, pages: list[bytes] | tuple[bytes, ...]) -> None:
        if not hasattr(self, "_sent"):
            self.forget()
        sent = self._sent
        for page, new in enumerate(pages):
            old = sent[page]
            if old is new:  # the same row's page as last time: nothing to compare
                continue
            for first, last in changed_spans(old, new):
                self._write(page, first, new[first:last + 1])
            sent[page] = new

    def _write(self, page: int, column: int, data: bytes) -> None:
        raise NotImplementedError


class PagedSSD1306(_PagedMixin, ssd1306):
    """SSD1306 that sends only the changed pages (horizontal addressing: one window per page)."""

    def _write(self, page: int, column: int, data: bytes) -> None:
        start = self._colstart + column
        self.command(self._const.COLUMNADDR, start, start + len(data) - 1, self._const.PAGEADDR, page, page)
        self.data(list(data))


class PagedSH1106(_PagedMixin, sh1106):
    """SH1106 (132-column RAM) that sends only the changed pages (page addressing)."""

    def _write(self, page: int, column: int, data: bytes) -> None:
        start = self._page_address_offset + column
        self.command(0xB0 + page, start & 0x0F, 0x10 | (start >> 4))
        self.data(list(data))


DRIVERS: dict[str, type[Any]] = {"ssd1306": PagedSSD1306, "sh1106": PagedSH1106}


def frame_time(bus_hz: int = I2C_HZ, size: tuple[int, int] = (128, 64), windows: int = 8) -> float:
    """Seconds a panel on an I2C bus of ``bus_hz`` takes to take a whole frame of ``size``: its bytes (a bit per pixel)
    and one window command per page (~10 bytes each), nine bits a byte. 400 kHz, 128x64: 24.8 ms."""
    data = size[0] * size[1] // 8 + 10 * windows
    return data * BITS_PER_BYTE / bus_hz


class DisplayUnavailable(CompanionError, OSError):
    """The OLED cannot be reached now (the table goes on without it)."""


class Display:
    """A luma device behind frame skipping and fault recovery.

    ``open_device`` builds the device (and so sends its initialisation); it is called again
    after a fault. ``on_frame`` is told of every frame handed to the device (the demo draws it
    in the terminal or writes PNGs). Times come from ``clock``. ``frame_time``: the seconds the panel takes to take a
    frame (:func:`frame_time`; 0, the default: a panel that takes any number, as the demo's recorder does):
    :meth:`ready` says when it is free again.
    """

    def __init__(self, open_device: Callable[[], Any], *, clock: Clock = monotonic,
                 on_frame: Callable[[Image.Image], None] | None = None,
                 first_retry: float = 0.5, max_retry: float = 30.0, frame_time: float = 0.0) -> None:
        self.open_device = open_device
        self.clock = clock
        self.on_frame = on_frame
        self.first_retry, self.max_retry = first_retry, max_retry
        self.device: Any = None
        self.frames_sent = 0
        self.frames_skipped = 0
        self.faults = 0
        self._last: bytes | None = None
        self._pending: Frame | None = None
        self._retry_at = 0.0
        self._delay = first_retry
        self.frame_time = frame_time
        self.free_at = float("-inf")  # clock time when the panel has taken the last frame
        self._open()

    @property
    def available(self) -> bool:
        return self.device is not None

    def ready(self, now: float) -> bool:
        """Whether the panel has taken the last frame by ``now`` (a frame drawn sooner would only wait on the bus)."""
        return now >= self.free_at

    def show(self, image: Image.Image | Frame, data: bytes | None = None) -> bool:
        """Hand a frame to the display; False if it was equal to the last one or the display is away. ``image``: a
        :class:`~.frame.Frame` (its bytes and maybe its pages; its image made only if the device or ``on_frame``
        wants one) or an image; ``data``: the image's bytes (``image.tobytes()``), when the caller has them."""
        if isinstance(image, Frame):
            frame = image
        else:  # its bytes once a frame: compared now, kept as the last frame once sent
            frame = Frame(image.tobytes() if data is None else data, image.size, None, image)
        if frame.data == self._last and self._pending is None:
            self.frames_skipped += 1
            return False
        self._pending = frame
        return self._flush()

    def poll(self) -> None:
        """Call regularly: retries a lost display when its back-off has run out."""
        if self._pending is not None and self.device is None and self.clock() >= self._retry_at:
            self._open()
            self._flush()

    def _flush(self) -> bool:
        frame, device = self._pending, self.device
        if frame is None or device is None:
            return False
        try:
            if isinstance(device, _PagedMixin):  # our paged drivers take the frame's pages as the painter made them
                device.display_frame(frame)
            else:
                image = frame.image
                device.display(image if image.mode == device.mode else image.convert(device.mode))
        except Exception as error:  # noqa: BLE001 - luma raises its own errors and OSError alike
            self._lost(error)
            return False
        self._pending = None
        self._last = frame.data
        self.frames_sent += 1
        if self.frame_time:
            self.free_at = self.clock() + self.frame_time
        if self.on_frame is not None:
            self.on_frame(frame.image)
        return True

    def _open(self) -> None:
        try:
            self.device = self.open_device()
        except Exception as error:  # noqa: BLE001 - missing bus, no ACK, permission: all mean "not now"
            self._lost(error)
            return
        if self.faults:
            log.warning("the display is back")
        self._delay = self.first_retry
        self._last = None

    def _lost(self, error: Exception) -> None:
        if self.device is not None or self.faults == 0:
            log.warning("the display does not answer (%s): the game goes on; retrying", error)
        self.faults += 1
        self._close_device()
        self._retry_at = self.clock() + self._delay
        self._delay = min(self._delay * 2, self.max_retry)

    def _close_device(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            try:
                device._serial_interface.cleanup()
            except Exception:  # noqa: BLE001 - it is gone already
                pass

    def close(self) -> None:
        """Blank the panel and release the bus."""
        if self.device is not None:
            try:
                self.device.cleanup()
            except Exception:  # noqa: BLE001
                pass
            self.device = None
