"""Time for the devices: the real monotonic clock, or a simulated one for tests and the scripted demo.

Debouncing, hold detection, roller timeouts and display back-off all read an injected
``clock()`` (seconds, monotonic) and wait with an injected ``sleep(seconds)``. The real ones are
:func:`time.monotonic` and :func:`time.sleep`; :class:`SimClock` provides both for a table that
runs on simulated time, so its behaviour does not depend on how fast the machine is.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]
Sleep = Callable[[float], None]

monotonic: Clock = time.monotonic
sleep: Sleep = time.sleep


class SimClock:
    """A clock that only moves when told to: ``clock()`` reads it, ``sleep(s)`` and ``advance(s)`` move it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        """What the devices call to wait: time passes at once."""
        self.advance(seconds)

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self.now += seconds
        return self.now
