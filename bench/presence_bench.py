"""Benchmark of issue 23: input -> seat light changed, and input -> first audio sample of the voice queued.

A bot game of ``classic`` (4 players) is played through a real table: each input is journaled (SQLite, synced) and
applied, and the cues go to the seat lights and the voice as ``companion run`` wires them.

* lights: the WS2812 strip's driver (Adafruit's neopixel-spi, 8 seats x 3 LEDs) on a recording SPI bus; the time is
  from just before ``Table.submit`` to the strip's bytes handed to the bus, for each input that changed a light;
* voice: espeak-ng through the speaker's queue into an audio player (``cat`` into /dev/null: this machine has no
  sound card); the time is from just before ``Table.submit`` to the first PCM handed to the player. The bench waits
  for each input's first sentence before the next input (at a table, speech that a new question made stale is
  dropped, and is not a latency).

Targets (issue 23): lights p99 <= 20 ms, voice p99 <= 150 ms. Prints figures; asserts nothing.

    .venv/bin/python bench/presence_bench.py [--inputs 300] [--spoken 60]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.drivers.audio import AudioOut  # noqa: E402
from companion.drivers.faults import Kept  # noqa: E402
from companion.drivers.lights import StripLights  # noqa: E402
from companion.drivers.speech import EspeakVoice, Mouth  # noqa: E402
from companion.face.cues import CueFeed, Cues  # noqa: E402
from companion.face.seat_lights import SeatLights  # noqa: E402
from companion.face.voice import Speaker  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.seats import Seat  # noqa: E402
from companion.sim import GameSpec, play_game  # noqa: E402
from companion.table import Table  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class RecordingSPI:
    """A CircuitPython SPI bus that notes when bytes are handed to it (the Pi's spidev write would follow)."""

    frequency = 6_400_000

    def __init__(self) -> None:
        self.writes: list[float] = []

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, **_: Any) -> None:
        pass

    def write(self, buf: bytes, *, start: int = 0, end: int | None = None) -> None:
        self.writes.append(time.perf_counter())


def game_lines(inputs: int) -> list[dict[str, Any]]:
    """The input lines of bot games of classic (4 players), set-up first, at least ``inputs`` of them."""
    lines: list[dict[str, Any]] = []
    index = 0
    while len(lines) < inputs + 1:
        game: list[dict[str, Any]] = []
        play_game(GameSpec("classic", 4, seed=23), index, game)
        lines += game if not lines else []
        index += 1
    return lines[:inputs + 1]


def bench_lights(lines: list[dict[str, Any]], folder: Path) -> tuple[list[float], list[float]]:
    """Per input that changed a light: from before ``submit``, and from the cues' arrival (after the journal's sync
    and the engine), to the strip's bytes on the bus."""
    spi = RecordingSPI()
    clock = time.perf_counter
    strip = StripLights(spi, seat_order=range(1, 9), leds_per_seat=3)
    lights = SeatLights(Kept("Seat lights", lambda: strip, clock=clock, notify=print), 8, clock=clock)
    told: list[float] = []
    feed = CueFeed()
    feed.add(lambda cues, seats: told.append(clock()))
    feed.add(lights.on_cues)
    latencies, after_cues = [], []
    with Journal(folder / "lights.sqlite3") as journal:
        table = Table(journal)
        table.subscribe(feed)
        table.new_game(lines[0]["setup"])
        for line in lines[1:]:
            before = len(spi.writes)
            start = clock()
            table.submit(line, source="bench")
            if len(spi.writes) > before:
                latencies.append(spi.writes[before] - start)
                after_cues.append(spi.writes[before] - told[-1])
    return latencies, after_cues


def bench_bare(lines: list[dict[str, Any]], folder: Path) -> list[float]:
    """The baseline, in the same run: ``Table.submit`` with no listener (the journal's synced write, the engine)."""
    latencies = []
    with Journal(folder / "bare.sqlite3") as journal:
        table = Table(journal)
        table.new_game(lines[0]["setup"])
        for line in lines[1:]:
            start = time.perf_counter()
            table.submit(line, source="bench")
            latencies.append(time.perf_counter() - start)
    return latencies


def bench_voice(lines: list[dict[str, Any]], spoken: int, folder: Path) -> tuple[list[float], int]:
    clock = time.perf_counter
    speaker = Speaker(Kept("Voice", lambda: Mouth(EspeakVoice(), AudioOut(command=("cat",))), clock=clock,
                           notify=print), lambda: False, clock)
    marks: list[float] = []

    def told(cues: Cues, seats: list[Seat]) -> None:
        if cues.speech:
            marks.append(clock())

    feed = CueFeed()
    feed.add(told)
    feed.add(speaker.on_cues)
    latencies: list[float] = []
    with Journal(folder / "voice.sqlite3") as journal:
        table = Table(journal)
        table.subscribe(feed)
        table.new_game(lines[0]["setup"])
        for line in lines[1:]:
            heard, told_before = len(speaker.first_audio), len(marks)
            start = clock()
            table.submit(line, source="bench")
            if len(marks) == told_before:
                continue  # nothing to say about this input
            end = time.monotonic() + 10
            while len(speaker.first_audio) == heard and time.monotonic() < end:
                time.sleep(0.001)
            if len(speaker.first_audio) > heard:
                latencies.append(marks[-1] - start + speaker.first_audio[heard])
            while speaker.waiting() and time.monotonic() < end:  # the rest of its sentences said
                time.sleep(0.005)
            if len(latencies) >= spoken:
                break
    speaker.close()
    return latencies, len(speaker.said)


def load() -> str:
    try:
        return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "load average unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=300)
    parser.add_argument("--spoken", type=int, default=60)
    args = parser.parse_args()
    lines = game_lines(args.inputs)
    print(f"machine: {os.cpu_count()} cores, {load()} (shared: figures of a loaded machine)")
    with tempfile.TemporaryDirectory(prefix="presence-bench-") as scratch:
        folder = Path(scratch)
        lit, after_cues = bench_lights(lines, folder)
        ms, own = [v * 1000 for v in lit], [v * 1000 for v in after_cues]
        print(f"input -> light changed       p50 {percentile(ms, 0.5):6.2f} ms  p99 {percentile(ms, 0.99):6.2f} ms  "
              f"({len(ms)} inputs that changed a light of {len(lines) - 1}; target p99 <= 20 ms)")
        print(f"  of which cues -> strip     p50 {percentile(own, 0.5):6.2f} ms  p99 {percentile(own, 0.99):6.2f} ms  "
              f"(the rest: the journal's synced write and the engine)")
        bare = [v * 1000 for v in bench_bare(lines, folder)]
        print(f"baseline: submit, no listener p50 {percentile(bare, 0.5):6.2f} ms  p99 {percentile(bare, 0.99):6.2f} ms"
              f"  (the same inputs, this run)")
        if shutil.which("espeak-ng") is None:
            print("input -> first audio queued: skipped: espeak-ng is not installed")
            return
        heard, said = bench_voice(lines, args.spoken, folder)
        ms = [v * 1000 for v in heard]
        print(f"input -> first audio queued p50 {percentile(ms, 0.5):6.2f} ms  p99 {percentile(ms, 0.99):6.2f} ms  "
              f"({len(ms)} inputs spoken, {said} sentences, espeak-ng; target p99 <= 150 ms)")


if __name__ == "__main__":
    main()
