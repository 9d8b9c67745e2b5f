"""The OLED's work per phone's input (issue 43): what the station's tick spends drawing a money action made on a phone.
Prints figures; asserts nothing.

The game of bench/phones_bench.py (classic, eight players each owning two deeds, Ann to roll) on a mock station (the
real journal, gpiozero MockFactory pins, luma's dummy OLED, simulated time); the same money actions (mortgage, lift
the mortgage, in turn round the table) submitted to the table as a phone's, and after each the station's step (the
controller's tick: the update drained, the cursor found again, the screen laid out, painted and handed to the
display) timed with the thread's CPU clock. Printed: the step's CPU per input (mean and median, after a warm-up),
the parts of it (each timed alone: drain, screen, paint, show; each part's timer adds ~1 us), and how many times the
engine was tried per input (the buttons' choices trying acts: the deeds entry, the cards, a fine). ``--paged``: the
OLED opened as ``companion run`` opens it on a Pi (the paged SSD1306 driver on luma's I2C interface, a virtual bus in
place of the Pi's), so that its pages and changed columns are worked out as there; else luma's dummy device, as
bench/phones_bench.py's ``companion run`` with mock pins has it.

``--gap SECONDS``: each step after that long asleep, as at a table's pace (every input drawn, its code and data gone
cold while the table was quiet: the figure ``phones_bench.py --pace`` sees; use fewer actions and warm-up).

    .venv/bin/python bench/oled_bench.py [--actions 600] [--runs 3] [--paged] [--gap SECONDS]

Run it beside another commit's (``git archive`` it, run its copy with this venv's Python) and compare.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from phones_bench import DEEDS, NAMES, setup  # noqa: E402

from companion.drivers.clock import SimClock  # noqa: E402
from companion.drivers.display import Display  # noqa: E402
from companion.drivers.pins import load_pins  # noqa: E402
from companion.drivers.virtual import VirtualI2CBus, virtual_smbus  # noqa: E402
from companion.engine import find_ruleset  # noqa: E402
from companion.face.controller import TableController  # noqa: E402
from companion.face.draw import Painter  # noqa: E402
from companion.startup.mock import mock_station  # noqa: E402
from companion.startup.parts import oled_opener  # noqa: E402

#: The parts timed: the update drained (the choices found again), the screen laid out, painted (``painted`` since the
#: painter hands the display a frame's bytes and pages, its image made only if the device wants one: with luma's
#: dummy the image is made in ``show`` then; ``frame`` before, ``paint`` before that), handed to the display.
PARTS = ((TableController, "_drain"), (TableController, "screen"),
         (Painter, "painted" if hasattr(Painter, "painted") else "frame" if hasattr(Painter, "frame") else "paint"), (Display, "show"))


@contextmanager
def timed(parts: dict[str, float], cls: type, name: str) -> Iterator[None]:
    """``cls.name`` timed (thread CPU) into ``parts[name]`` while the block runs."""
    real = getattr(cls, name)

    def timing(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return real(*args, **kwargs)
        finally:
            parts[name] += time.thread_time() - started

    setattr(cls, name, timing)
    try:
        yield
    finally:
        setattr(cls, name, real)


@contextmanager
def counted(counts: collections.Counter[str], cls: type, name: str) -> Iterator[None]:
    real: Callable[..., Any] = getattr(cls, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return real(*args, **kwargs)

    setattr(cls, name, counting)
    try:
        yield
    finally:
        setattr(cls, name, real)


def run(actions: int, players: int, *, with_parts: bool, paged: bool = False,
        gap: float = 0.0) -> tuple[list[float], dict[str, float], int]:
    """The step's CPU time after each of ``actions`` phone's money actions (``gap`` seconds of real sleep before each
    step: a table's pace, the step's code and data gone cold); the parts' totals; the engine's tries."""
    sim = SimClock()
    steps: list[float] = []
    parts: dict[str, float] = collections.defaultdict(float)
    tries: collections.Counter[str] = collections.Counter()
    with tempfile.TemporaryDirectory() as folder, \
            mock_station(journal_path=Path(folder) / "games.sqlite3", dice="software", clock=sim, sleep=sim.sleep,
                         setup=setup(players), new_seed=lambda: 5) as (station, _, _), \
            virtual_smbus(VirtualI2CBus()):
        if paged:
            station.controller.display = Display(oled_opener("ssd1306", load_pins()), clock=sim)
        station.step(sim())
        rules = type(find_ruleset("classic"))
        mortgaged: dict[str, bool] = collections.defaultdict(bool)
        for i in range(actions):
            name = NAMES[i % players]
            deed = DEEDS[2 * (i % players) + (i // players) % 2]
            verb = "unmortgage" if mortgaged[deed] else "mortgage"
            station.table.submit({"act": {"player": name, "do": verb, "space": deed}}, source="phone:bench")
            mortgaged[deed] = not mortgaged[deed]
            sim.sleep(0.02)
            if gap:
                time.sleep(gap)
            with counted(tries, rules, "apply"):
                if with_parts:
                    with timed(parts, *PARTS[0]), timed(parts, *PARTS[1]), timed(parts, *PARTS[2]), \
                            timed(parts, *PARTS[3]):
                        started = time.thread_time()
                        station.step(sim())
                else:
                    started = time.thread_time()
                    station.step(sim())
                steps.append(time.thread_time() - started)
    return steps, parts, tries["apply"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm-up", type=int, default=50)
    parser.add_argument("--paged", action="store_true", help="the Pi's paged SSD1306 driver on a virtual I2C bus")
    parser.add_argument("--gap", type=float, default=0.0, metavar="SECONDS",
                        help="sleep this long before each step, as at a table's pace (a cold step; use fewer actions)")
    args = parser.parse_args()
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    device = "the paged SSD1306 driver on a virtual I2C bus" if args.paged else "luma's dummy device"
    print(f"the OLED per phone's money action ({args.actions} actions, 8 players, {device}, {args.runs} runs; "
          f"load {load})" + (f", {args.gap:g} s asleep before each step" if args.gap else ""))
    for _ in range(args.runs):
        steps, _, tries = run(args.actions, 8, with_parts=False, paged=args.paged, gap=args.gap)
        kept = steps[args.warm_up:]
        print(f"  station step: mean {1e6 * statistics.mean(kept):.0f} us, median {1e6 * statistics.median(kept):.0f} "
              f"us of CPU; the engine tried {tries / args.actions:.2f} times per input")
    _, parts, _ = run(args.actions, 8, with_parts=True, paged=args.paged, gap=args.gap)
    print("  its parts (mean, each timed alone): " + ", ".join(
        f"{name} {1e6 * parts[name] / args.actions:.0f} us" for _, name in PARTS))


if __name__ == "__main__":
    main()
