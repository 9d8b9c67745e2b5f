"""The seat lights: a light at each seat, lit in the player's colour while the table waits for them.

:class:`SeatLights` listens to the table's cues (:mod:`.cues`): the seats waited for are lit (steady), blinking while
a debt or an auction waits on them; doubles run a short chase round the table in the roller's colour; between games
every light is off. It works out one colour per seat (:func:`seat_frame`) at each input and when the frame changes by
itself (:meth:`SeatLights.next_change`: the blinking, the chase), and hands a changed frame to its driver
(:mod:`companion.drivers.lights`).

A driver that fails is a notice on the OLED, and opened again later (:class:`~companion.drivers.faults.Kept`); the
game goes on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from companion.drivers.clock import Clock
from companion.drivers.faults import Kept
from companion.drivers.lights import OFF, LightDriver
from companion.seats import RGB, Seat

from .cues import Cues

BLINK = 0.25  # seconds on, then off, while a debt or an auction waits on a seat
CHASE_STEP = 0.08  # seconds on each seat of the doubles' chase
CHASE_ROUNDS = 2  # times round the table


def seat_frame(cues: Cues, seats: Sequence[Seat], count: int, elapsed: float) -> tuple[RGB, ...]:
    """The colour of each of ``count`` seats, ``elapsed`` seconds after the input that gave ``cues``."""
    players = len(seats)
    if cues.chase is not None and players and elapsed < CHASE_STEP * players * CHASE_ROUNDS:
        at = int(elapsed / CHASE_STEP) % players
        colour = seats[cues.chase].rgb
        return tuple(colour if i == (cues.chase + at) % players else OFF for i in range(count))
    blink_on = int(elapsed / BLINK) % 2 == 0
    frame = [OFF] * count
    shown = min(count, players)
    for i, how in cues.lit.items():  # the few seats waited for, not every seat
        if 0 <= i < shown and (how == "steady" or (how == "blink" and blink_on)):
            frame[i] = seats[i].rgb
    return tuple(frame)


class SeatLights:
    """Listens to the cues (:class:`.cues.CueFeed`), shows the seats' colours through a kept driver."""

    def __init__(self, driver: Kept[LightDriver], count: int, *, clock: Clock,
                 on_shown: Callable[[tuple[RGB, ...]], None] | None = None) -> None:
        self.driver, self.count, self.clock, self.on_shown = driver, count, clock, on_shown
        self._lock = threading.Lock()
        self._cues = Cues()
        self._seats: list[Seat] = []
        self._since = clock()
        self._shown: tuple[RGB, ...] | None = None
        self.frame: tuple[RGB, ...] = (OFF,) * count  # what the lights show now

    def on_cues(self, cues: Cues, seats: list[Seat]) -> None:
        with self._lock:
            self._cues, self._seats, self._since = cues, seats, self.clock()
            self._render()

    def tick(self) -> None:
        """Call every 10-20 ms, or at :meth:`next_change`: blinking, the chase, and a driver that failed tried
        again."""
        with self._lock:
            self._render()

    def next_change(self) -> float | None:
        """When the frame changes by itself next (clock time: a blink, a step of the chase), or None while it holds
        still (the lights then wait for the next input's cues); soon again while a failed driver is to be tried."""
        with self._lock:
            now = self.clock()
            if self._shown is None:
                return now + BLINK  # a driver that failed: tried again
            elapsed = now - self._since
            players = len(self._seats)
            if self._cues.chase is not None and players and elapsed < CHASE_STEP * players * CHASE_ROUNDS:
                return self._since + (int(elapsed / CHASE_STEP) + 1) * CHASE_STEP
            if "blink" in self._cues.lit.values():
                return self._since + (int(elapsed / BLINK) + 1) * BLINK
            return None

    def _render(self) -> None:
        frame = seat_frame(self._cues, self._seats, self.count, self.clock() - self._since)
        if frame == self._shown:
            return
        self.frame = frame
        if self.driver.use(lambda driver: driver.show(frame)):
            self._shown = frame
            if self.on_shown is not None:
                self.on_shown(frame)
        else:
            self._shown = None  # a driver opened again shows the whole frame

    def close(self) -> None:
        with self._lock:
            self.driver.use(lambda driver: driver.show((OFF,) * self.count))
            self.driver.close()

