"""The buzzer: a short tune for each cue (:data:`.cues.SOUNDS`), on a piezo (gpiozero's ``TonalBuzzer``) or, off the
Pi, on the computer's speaker; never while muted or in quiet hours (:class:`Hush`).

:class:`Buzzer` listens to the cues and plays on a thread of its own: the table never waits for a tune. A cue that
comes while two are still waiting replaces the older (a burst of inputs is not replayed a second later).
"""

from __future__ import annotations

import logging
import math
import queue
import struct
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any, Protocol

from companion.seats import Seat

from .clock import Sleep
from .cues import Cues
from .faults import Kept

log = logging.getLogger(__name__)

Note = tuple[str | None, float]  # a note ("A5"; None: a rest) and how long, in seconds

#: The cues' tunes, within the piezo's range (A3-A7: :class:`PiezoTunes`). Rising for good news and your turn,
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


class Tunes(Protocol):
    """What plays a tune: a piezo, or a speaker."""

    def play(self, notes: Sequence[Note]) -> None: ...

    def close(self) -> None: ...


class PiezoTunes:
    """A passive piezo on GPIO through gpiozero's ``TonalBuzzer`` (A3 to A7); ``sleep`` times the notes."""

    def __init__(self, pin: int, *, pin_factory: Any = None, sleep: Sleep) -> None:
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone

        self.buzzer = TonalBuzzer(pin, mid_tone=Tone("A5"), octaves=2, pin_factory=pin_factory)
        self.sleep = sleep

    def play(self, notes: Sequence[Note]) -> None:
        try:
            for note, seconds in notes:
                if note is None:
                    self.buzzer.stop()
                else:
                    self.buzzer.play(note)
                self.sleep(seconds)
        finally:
            self.buzzer.stop()

    def close(self) -> None:
        self.buzzer.close()


RATE = 22050  # samples a second of the tunes played on a speaker (the voice's rate too)


def tune_pcm(notes: Sequence[Note], rate: int = RATE) -> bytes:
    """A tune as 16-bit mono PCM: square waves (a piezo's sound), softened at each note's ends."""
    from gpiozero.tones import Tone

    out = bytearray()
    for note, seconds in notes:
        count = int(seconds * rate)
        freq = Tone(note).frequency if note is not None else 0.0
        for i in range(count):
            edge = min(1.0, i / 80, (count - i) / 80)
            high = freq and math.sin(2 * math.pi * freq * i / rate) >= 0
            out += struct.pack("<h", int((6000 if high else -6000 if freq else 0) * edge))
    return bytes(out)


class SpeakerTunes:
    """The tunes on the computer's speaker (the demo's ``--sound``): PCM handed to ``play_pcm``."""

    def __init__(self, play_pcm: Callable[[bytes, int], None]) -> None:
        self.play_pcm = play_pcm

    def play(self, notes: Sequence[Note]) -> None:
        self.play_pcm(tune_pcm(notes), RATE)

    def close(self) -> None:
        pass


class Buzzer:
    """Listens to the cues; plays their tunes on a thread of its own through a kept :class:`Tunes`."""

    def __init__(self, tunes: Kept[Tunes], hush: Hush, *, start: bool = True) -> None:
        self.tunes, self.hush = tunes, hush
        self._queue: queue.Queue[str | None] = queue.Queue()
        self.played: list[str] = []  # every cue played, in order
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        if start:
            self._thread.start()

    def on_cues(self, cues: Cues, seats: list[Seat]) -> None:
        if self.hush.silent():
            return
        for name in cues.sounds:
            if self._queue.qsize() >= 2:  # a burst of inputs: the oldest waiting tune goes
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    pass
            self._queue.put(name)

    def play(self, name: str) -> bool:
        """Play the tune of cue ``name`` now (on the caller's thread); False if the buzzer is away."""
        done = self.tunes.use(lambda tunes: tunes.play(TUNES[name]))
        if done:
            self.played.append(name)
        return done

    def play_waiting(self) -> None:
        """Play the cues waiting, on the caller's thread (a buzzer made with ``start=False``)."""
        while True:
            try:
                name = self._queue.get_nowait()
            except queue.Empty:
                return
            if name is None:
                return
            self.play(name)

    def _run(self) -> None:
        while (name := self._queue.get()) is not None:
            self.play(name)

    def close(self) -> None:
        self._queue.put(None)
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        self.tunes.close()
