"""The buzzer: a short tune for each cue (:data:`.cues.SOUNDS`), on a piezo (gpiozero's ``TonalBuzzer``) or, off the
Pi, on the computer's speaker; never while muted or in quiet hours (:class:`Hush`).

:class:`Buzzer` listens to the cues and plays on a thread of its own: the table never waits for a tune. A cue that
comes while two are still waiting replaces the older (a burst of inputs is not replayed a second later).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time

from companion.drivers.faults import Kept
from companion.drivers.tunes import Note, Tunes
from companion.seats import Seat

from .cues import Cues

log = logging.getLogger(__name__)

#: The cues' tunes, within the piezo's range (A3-A7: :class:`~companion.drivers.tunes.PiezoTunes`). Rising for good news and your turn,
#: falling for money out and jail.
TUNES: dict[str, tuple[Note, ...]] = {
    "your-turn": (("E6", 0.07), ("A6", 0.12)),
    "doubles": (("C7", 0.06), (None, 0.04), ("C7", 0.06)),
    "money-in": (("C6", 0.06), ("E6", 0.06), ("G6", 0.1)),
    "money-out": (("G5", 0.06), ("E5", 0.06), ("C5", 0.1)),
    "jail": (("A4", 0.15), ("F4", 0.15), ("D4", 0.3)),
    "auction": (("G5", 0.08), ("G5", 0.08), ("D6", 0.2)),
    "game-over": (("C5", 0.12), ("E5", 0.12), ("G5", 0.12), ("C6", 0.35)),
}


@dataclass
class Hush:
    """Whether the buzzer and the voice keep quiet: muted from the host menu, or in the config's quiet hours (local
    time; they may run past midnight)."""

    muted: bool = False
    quiet_hours: tuple[time, time] | None = None
    now: Callable[[], datetime] = datetime.now

    def silent(self) -> bool:
        if self.muted:
            return True
        if self.quiet_hours is None:
            return False
        start, end = self.quiet_hours
        at = self.now().time()
        return start <= at < end if start <= end else at >= start or at < end


class Buzzer:
    """Listens to the cues; plays their tunes on a thread of its own through a kept :class:`Tunes`."""

    def __init__(self, tunes: Kept[Tunes], hush: Hush, *, start: bool = True) -> None:
        self.tunes, self.hush = tunes, hush
        # the cues waiting for the thread (None: close), under one lock: a queue.Queue took its lock three times a
        # cue (its size, the oldest dropped, the new one put: issue 43)
        self._waiting: deque[str | None] = deque()
        self._ready = threading.Condition()
        self.played: list[str] = []  # every cue played, in order
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        if start:
            self._thread.start()

    def on_cues(self, cues: Cues, seats: list[Seat]) -> None:
        if self.hush.silent():
            return
        if not cues.sounds:
            return
        with self._ready:
            for name in cues.sounds:
                if len(self._waiting) >= 2:  # a burst of inputs: the oldest waiting tune goes
                    self._waiting.popleft()
                self._waiting.append(name)
            self._ready.notify()

    def play(self, name: str) -> bool:
        """Play the tune of cue ``name`` now (on the caller's thread); False if the buzzer is away."""
        done = self.tunes.use(lambda tunes: tunes.play(TUNES[name]))
        if done:
            self.played.append(name)
        return done

    def play_waiting(self) -> None:
        """Play the cues waiting, on the caller's thread (a buzzer made with ``start=False``)."""
        while True:
            with self._ready:
                if not self._waiting:
                    return
                name = self._waiting.popleft()
            if name is None:
                return
            self.play(name)

    def _run(self) -> None:
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._waiting)
                name = self._waiting.popleft()
            if name is None:
                return
            self.play(name)

    def close(self) -> None:
        with self._ready:
            self._waiting.append(None)
            self._ready.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.tunes.close()
