"""A device the game never waits for: the seat lights, the buzzer, the speaker.

:class:`Kept` opens a device, runs each use of it, and when one fails (a strip unplugged, no SPI, an audio device
gone) tells the table once (a notice on the OLED), drops the device and opens it again with a growing back-off; when
it answers again it says so. The game goes on meanwhile: a use while the device is away is skipped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from .clock import Clock
from .said import N_, Said, reason

log = logging.getLogger(__name__)

Device = TypeVar("Device")
Notify = Callable[[Said], None]


class Kept(Generic[Device]):
    """``open_device`` and its uses, behind fault recovery; ``name`` says what it is in notices ("Seat lights", a
    msgid of the table's catalogue: the notices are :class:`~.said.Said`, said in the table's language)."""

    def __init__(self, name: str, open_device: Callable[[], Device], *, clock: Clock, notify: Notify,
                 close_device: Callable[[Device], None] = lambda device: None,
                 first_retry: float = 1.0, max_retry: float = 30.0) -> None:
        self.name, self.open_device, self.close_device = name, open_device, close_device
        self.clock, self.notify = clock, notify
        self.first_retry, self.max_retry = first_retry, max_retry
        self.device: Device | None = None
        self.faults = 0
        self._lock = threading.Lock()
        self._retry_at = 0.0
        self._delay = first_retry
        self._told = False  # the table was told of the fault now running

    def use(self, action: Callable[[Device], object]) -> bool:
        """Run ``action`` on the device (opened first if it is away and its back-off is over); False if it did not
        run or failed."""
        with self._lock:
            if self.device is None:
                if self.clock() < self._retry_at:
                    return False
                try:
                    self.device = self.open_device()
                except Exception as error:  # noqa: BLE001 - no bus, no device, no permission: all "not now"
                    self._lost(error)
                    return False
            try:
                action(self.device)
            except Exception as error:  # noqa: BLE001 - a library's own errors and OSError alike
                self._lost(error)
                return False
            if self._told:
                self._told = False
                self._delay = self.first_retry
                self.notify(Said(N_("{device}: working again"), {"device": Said(self.name)}))
            return True

    def _lost(self, error: Exception) -> None:
        self.faults += 1
        if not self._told:
            log.warning("%s: %s; the game goes on, retrying", self.name, error)
            self.notify(Said(N_("{device}: {reason}"), {"device": Said(self.name), "reason": reason(error)}))  # 2 rows
            self._told = True
        device, self.device = self.device, None
        if device is not None:
            self._close(device)
        self._retry_at = self.clock() + self._delay
        self._delay = min(self._delay * 2, self.max_retry)

    def _close(self, device: Device) -> None:
        try:
            self.close_device(device)
        except Exception:  # noqa: BLE001 - it is gone already
            pass

    def close(self) -> None:
        with self._lock:
            device, self.device = self.device, None
            if device is not None:
                self._close(device)

