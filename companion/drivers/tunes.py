"""What plays the buzzer's tunes: a passive piezo on GPIO (gpiozero's ``TonalBuzzer``) or, off the Pi, the
computer's speaker (the tune as PCM). Which tune a cue has, and when it plays, is the face's
(:mod:`companion.face.sounds`)."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .clock import Sleep

Note = tuple[str | None, float]  # a note ("A5"; None: a rest) and how long, in seconds


class Tunes(Protocol):
    """What plays a tune: a piezo, or a speaker."""

    def play(self, notes: Sequence[Note]) -> None: ...

    def close(self) -> None: ...


class PiezoTunes:
    """A passive piezo on GPIO through gpiozero's ``TonalBuzzer`` (A3 to A7); ``sleep`` times the notes.

    A tune's notes are worked out once (each note's frequency, checked against the buzzer's range as
    ``TonalBuzzer.play`` checks it) and kept; playing one is then, at each note, only what ``TonalBuzzer.play`` and
    ``stop`` write to its PWM pin (the frequency, then half duty; frequency ``None`` for silence), with a note after a
    sounding note only its frequency changed (the duty is already half). At a table's pace the thread wakes cold for
    every note (issue 43): each wake-up's work is what costs, not the sleeping, so a note is two writes to the pin,
    not the device's layers around them."""

    def __init__(self, pin: int, *, pin_factory: Any = None, sleep: Sleep) -> None:
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone

        self.buzzer = TonalBuzzer(pin, mid_tone=Tone("A5"), octaves=2, pin_factory=pin_factory)
        self.pin = self.buzzer.pwm_device.pin  # the buzzer's PWM pin, which TonalBuzzer.play and stop write
        self.sleep = sleep
        self._tunes: dict[tuple[Note, ...], tuple[tuple[float | None, float], ...]] = {}

    def frequencies(self, notes: Sequence[Note]) -> tuple[tuple[float | None, float], ...]:
        """The tune as (Hz or None for a rest, seconds) a note, worked out once; ValueError for a note out of range."""
        key = tuple(notes)
        tune = self._tunes.get(key)
        if tune is None:
            from gpiozero.tones import Tone

            low, high = self.buzzer.min_tone.frequency, self.buzzer.max_tone.frequency
            out: list[tuple[float | None, float]] = []
            for note, seconds in key:
                if note is None:
                    out.append((None, seconds))
                    continue
                tone = Tone(note)
                if not low <= tone <= high:
                    raise ValueError(f"{note} is out of the buzzer's range")
                out.append((tone.frequency, seconds))
            tune = self._tunes[key] = tuple(out)
        return tune

    def play(self, notes: Sequence[Note]) -> None:
        pin, sleep = self.pin, self.sleep
        tune = self.frequencies(notes)
        sounding = False
        try:
            for hz, seconds in tune:
                if hz is None:
                    pin.frequency = None  # TonalBuzzer.stop
                    sounding = False
                else:
                    pin.frequency = hz  # TonalBuzzer.play: the frequency, then half duty (kept while it sounds)
                    if not sounding:
                        pin.state = 0.5
                        sounding = True
                sleep(seconds)
        finally:
            pin.frequency = None

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
