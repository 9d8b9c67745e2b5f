"""Benchmark of the table (issue 6): button edge → frame handed to the OLED, and I2C bytes per screen change.

Plays a scripted game on gpiozero MockFactory pins with the real clock: each press is a pin
edge; the controller notes the time of the edge and the time its frame is handed to the
display. The display is opened as ``companion run`` opens it (the PagedSSD1306 on luma's real
``i2c(port=...)`` interface), with a recording bus in place of ``smbus2.SMBus``, so the bytes
counted are the ones the Pi would put on the wire (luma sends each data run as one ``i2c_rdwr``
message on a bus it opened); luma's stock ssd1306 on the same frames gives the comparison.
Prints figures; asserts nothing.

    .venv/bin/python bench/table_bench.py [--presses 200] [--mixes 3]

The presses pick YES, NO and NEXT at random, and the median of bytes per change moves with that
mix (a NEXT at a question costs two rows, a result six or seven), so the bench plays several
games, each with its own seed, and prints the pooled figures and each game's median.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory  # noqa: E402
from luma.core.interface.serial import i2c  # noqa: E402
from luma.oled.device import ssd1306  # noqa: E402

from companion.drivers.display import PAGES_OF, page_bytes  # noqa: E402
from companion.drivers.pins import load_pins  # noqa: E402
from companion.drivers.virtual import VirtualButtons, VirtualI2CBus, virtual_smbus  # noqa: E402
from companion.engine import IllegalInput  # noqa: E402
from companion.face.press_guard import GUARD  # noqa: E402
from companion.face.dice import SoftwareDice  # noqa: E402
from companion.startup import parts  # noqa: E402
from companion.startup.parts import oled_opener  # noqa: E402
from companion.startup.station import build_station  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frame_watch import Mark, Watch, Window  # noqa: E402

FULL_FRAME = 1024


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def differing_bytes(frames: list, shown_before: Any = None) -> list[int]:
    """Per screen change, the controller bytes (8-pixel columns of a page) that differ from the
    frame before: what any encoder must send at least, before addresses and window commands."""
    counts: list[int] = []
    before = None if shown_before is None else [page_bytes(shown_before, p) for p in range(shown_before.height // PAGES_OF)]
    for image in frames:
        pages = [page_bytes(image, page) for page in range(image.height // PAGES_OF)]
        if before is None:
            counts.append(sum(len(p) for p in pages))
        else:
            counts.append(sum(a != b for old, new in zip(before, pages) for a, b in zip(old, new)))
        before = pages
    return counts


@dataclass
class Mix:
    """One scripted game: what each screen change cost on the bus and which layout it showed."""

    seed: int
    presses: int
    inputs: int
    elapsed: float
    per_change: list[int]  # bytes on the wire per screen change (address + control + data)
    kinds: list[str]  # per change: the layout shown ("ack" is a press's cue)
    frames: list[Any]
    shown_before: Any  # on the panel when the presses start (not counted)
    latencies: list[float]  # ms, edge -> first frame
    result_latencies: list[float]  # ms, edge -> frame of the input's result
    slow: list[tuple[float, str, str]]
    windows: list[tuple[float, str, str, Window, Window]]  # per press: ms, button, prompt, edge -> frame, before it
    #                                                         (from the press before's end to the edge)


def play(seed: int, presses_wanted: int) -> Mix:
    """A three-player classic game whose presses pick YES, NO and NEXT at random from ``seed``."""
    pins = load_pins()
    factory = MockFactory()
    bus = VirtualI2CBus()
    per_change: list[int] = []
    frames: list[Any] = []
    kinds: list[str] = []
    built: list = []  # the station, once built (frames arrive while it is being built)
    watch = Watch()

    def on_frame(image) -> None:  # the bytes this frame cost
        per_change.append(bus.wire_bytes())
        bus.reset()
        frames.append(image)
        shown = built[0].controller.shown if built else None
        kinds.append(shown.name if shown is not None else "")

    rng = random.Random(seed)
    clock = time.perf_counter
    with tempfile.TemporaryDirectory() as scratch, virtual_smbus(bus):
        gc.disable()  # as `companion run` starts (cli.cmd_run, startup/pi.py): no collections while the table is built,
        station = build_station(journal_path=Path(scratch) / "bench.sqlite3", pins=pins, pin_factory=factory,
                                open_device=oled_opener("ssd1306", pins), dice="software", clock=clock,
                                sleep=time.sleep, setup={"ruleset": "classic", "players": ["Ann", "Bob", "Cy"],
                                                         "seed": 6},
                                new_seed=lambda: 6, on_frame=on_frame, **paced(pins))
        gc.freeze()  # then what the start made frozen, and the collections resume
        gc.enable()
        built.append(station)
        station.controller.latencies = Marked(watch)  # each press's first frame marked as the controller times it
        station.controller.software = SoftwareDice(randbelow=rng.randrange)
        station.journal.snapshot_every = 50
        bus.reset()
        per_change.clear()
        shown_before = frames[-1] if frames else None
        frames.clear()
        kinds.clear()
        buttons = VirtualButtons(factory, pins.buttons, time.sleep, after_step=station.tick)
        buttons.wait(GUARD + 0.05)  # the players read the first question before pressing, as after every new one
        presses = 0
        slow: list[tuple[float, str, str]] = []
        windows: list[tuple[float, str, str, Window, Window]] = []
        earlier = watch.mark()
        started = clock()
        while presses < presses_wanted:
            state = station.table.public()
            if state["winner"]:
                break
            prompt = state["prompt"]
            if prompt["kind"] == "auction":  # every phone passes: no bids, so no bid screens in the figures
                for name in prompt["waiting"]:
                    if name != prompt["bidder"]:
                        try:
                            station.table.submit({"act": {"player": name, "do": "pass"}}, source="web")
                        except IllegalInput:
                            pass
                buttons.wait(GUARD + 0.05)  # the players look at what the phones did before pressing (see GUARD)
                continue
            button = "ROLL" if prompt["kind"] == "roll" else rng.choice(["YES", "NO", "NEXT", "YES"])
            if prompt["kind"] == "debt":
                button = "YES"
            before, seq = len(station.controller.latencies), state["seq"]
            edge = watch.mark()
            buttons.press(button, down=0.025, gap=0.03)
            latencies = station.controller.latencies
            if len(latencies) > before:
                ms = latencies[-1] * 1000
                slow.append((ms, button, prompt["kind"]))
                windows.append((ms, button, prompt["kind"], watch.between(edge, latencies.marks[before]),
                                watch.between(earlier, edge)))
            earlier = watch.mark()  # the press done: what the process does until the next edge
            presses += 1
            if station.table.public()["seq"] != seq:  # a new question: read before pressing (a press sooner is
                buttons.wait(GUARD + 0.05)  # refused as meant for the screen before)
        elapsed = clock() - started
        mix = Mix(seed, presses, station.table.public()["seq"], elapsed, per_change, kinds, frames, shown_before,
                  [s * 1000 for s in station.controller.latencies],
                  [s * 1000 for s in station.controller.result_latencies], slow, windows)
        station.close()
    watch.close()
    factory.reset()
    return mix


class Marked(list):
    """The controller's button edge -> frame latencies, each marked (:class:`Watch`) as it is taken: the frame's
    moment, for what the process did since the edge."""

    def __init__(self, watch: Watch) -> None:
        super().__init__()
        self.watch = watch
        self.marks: list[Mark] = []

    def append(self, latency: float) -> None:
        self.marks.append(self.watch.mark())
        super().append(latency)


def paced(pins: Any) -> dict[str, float]:
    """The panel's pace as ``companion run`` has it (the frame time of pins.toml's bus), where this copy of the
    project has it (docs/table.md, "The panel's pace"); nothing before."""
    return {"frame_time": parts.oled_frame_time(pins)} if hasattr(parts, "oled_frame_time") else {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200, help="button presses per game")
    parser.add_argument("--mixes", type=int, default=3,
                        help="games, each with its own random choice of presses (seeds 1, 2, ...)")
    parser.add_argument("--detail", type=int, default=4,
                        help="the slowest first frames told in detail (what the process did edge -> frame)")
    args = parser.parse_args()

    pins = load_pins()
    stock_bus = VirtualI2CBus()
    with virtual_smbus(stock_bus):
        stock = ssd1306(i2c(port=pins.i2c_bus, address=pins.i2c_address))
    mixes = [play(seed, args.presses) for seed in range(1, args.mixes + 1)]
    per_change = [b for m in mixes for b in m.per_change]
    kinds = [k for m in mixes for k in m.kinds]
    latencies = [ms for m in mixes for ms in m.latencies]
    results = [ms for m in mixes for ms in m.result_latencies]
    slow = [s for m in mixes for s in m.slow]
    inputs = sum(m.inputs for m in mixes)
    stock_per_change: list[int] = []
    for image in (f for m in mixes for f in m.frames):  # what luma's stock driver would have sent for the same frames
        stock_bus.reset()
        stock.display(image)
        stock_per_change.append(stock_bus.wire_bytes())

    print(f"table bench: {len(mixes)} games x {args.presses} button presses, {inputs} inputs journaled, "
          f"{len(per_change)} screen changes, {sum(m.elapsed for m in mixes):.1f} s of real time "
          f"(python {sys.version.split()[0]})")
    print(f"button edge -> frame handed to the display: median {statistics.median(latencies):.2f} ms, "
          f"p99 {percentile(latencies, 0.99):.2f} ms, max {max(latencies):.2f} ms over {len(latencies)} frames "
          "(target p99 <= 5 ms)")
    print("slowest first frames: " + ", ".join(f"{ms:.1f} ms ({b} at {k})" for ms, b, k in sorted(slow)[-4:]))
    for ms, b, k, window, before in sorted((w for m in mixes for w in m.windows), key=lambda w: w[0])[-args.detail:]:
        print(f"  {ms:.1f} ms ({b} at {k}): edge -> frame {window.said()}; in the {1000 * before.wall:.0f} ms "
              f"from the press before to the edge {before.said(cause=False)}")
    windows = [w[3] for m in mixes for w in m.windows]
    if windows:
        print(f"  every press: the CPU edge -> frame median {1000 * statistics.median(w.cpu for w in windows):.2f} "
              f"ms, max {1000 * max(w.cpu for w in windows):.2f} ms; {sum(w.throttled_periods > 0 for w in windows)} "
              f"of {len(windows)} throttled between edge and frame; "
              f"{sum(bool(w.collections) for w in windows)} with a collection")
    print(f"button edge -> frame of the input's result (after the journal's synced commit): median "
          f"{statistics.median(results):.2f} ms, p99 {percentile(results, 0.99):.2f} ms")
    median_bytes = statistics.median(per_change)
    print(f"I2C bytes per screen change (address + control + data): median {median_bytes:.0f}, "
          f"p90 {percentile(per_change, 0.9):.0f}, max {max(per_change)}; "
          f"{100 * median_bytes / FULL_FRAME:.0f}% of the 1 KB frame (target <= 40%)")
    medians = [(m.seed, statistics.median(m.per_change)) for m in mixes]
    print("  each game alone (the median moves with the mix of presses): " + ", ".join(
        f"seed {seed} {median:.0f} B ({100 * median / FULL_FRAME:.0f}%)" for seed, median in medians))
    by_layout: dict[str, list[int]] = {}
    for sent, kind in zip(per_change, kinds):
        by_layout.setdefault(kind or "?", []).append(sent)
    print("  by layout: " + ", ".join(
        f"{kind} {len(sent)} x median {statistics.median(sent):.0f} B" for kind, sent in sorted(by_layout.items())))
    cues = [b for b, k in zip(per_change, kinds) if k == "ack"]
    others = [b for b, k in zip(per_change, kinds) if k != "ack"]
    if cues and others:
        print(f"  of which press cues (the answered row says the press was taken): {len(cues)}, median "
              f"{statistics.median(cues):.0f} bytes; the input's result and every other change: {len(others)}, "
              f"median {statistics.median(others):.0f} bytes ({100 * statistics.median(others) / FULL_FRAME:.0f}%)")
    print(f"  all changes together: {sum(per_change) / max(inputs, 1):.0f} bytes per input journaled "
          f"(luma's stock driver: {sum(stock_per_change) / max(inputs, 1):.0f})")
    least = [b for m in mixes for b in differing_bytes(m.frames, m.shown_before)]
    least_results = [b for b, k in zip(least, kinds) if k != "ack"]
    print(f"  bytes that differ from the frame before (no driver writing the panel RAM sends less): median {statistics.median(least):.0f} "
          f"({100 * statistics.median(least) / FULL_FRAME:.0f}%); of the results alone "
          f"{statistics.median(least_results):.0f} ({100 * statistics.median(least_results) / FULL_FRAME:.0f}%)")
    print(f"luma's stock ssd1306 on the same frames: median {statistics.median(stock_per_change):.0f} bytes "
          f"per change ({100 * statistics.median(stock_per_change) / FULL_FRAME:.0f}% of 1 KB)")


if __name__ == "__main__":
    main()
