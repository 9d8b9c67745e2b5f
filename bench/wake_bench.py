"""The OLED's loop beside a burst of phones' inputs (issue 43): what the station's thread costs per input while a
phone's thread submits, and how often it is woken. Prints figures; asserts nothing.

bench/phones_bench.py's game (classic, eight players each owning two deeds) on a mock station (the real journal,
gpiozero MockFactory pins, luma's dummy OLED) at the panel's pace (``frame_time``: 400 kHz's, as `companion run`
has it) and on the real clock; its loop (:meth:`Station.run`) in a thread as `companion run` runs it; another thread
(a phone's, as the socket's thread) submits the money actions one every ``--gap`` seconds inside
:meth:`Table.answering` (the OLED's thread woken once the reply would be out). Printed per input: the loop thread's
CPU (its clock, exact) and how often it was woken (its voluntary context switches), its steps and frames; the
phone's thread's CPU (the journal's sync included: compare its difference, not its size). Without the rest of the
server (no websocket, no fan-out, no bench clients on the same cores), a change to the loop's wakes shows here
beside the whole bench's noise.

    .venv/bin/python bench/wake_bench.py [--actions 300] [--gap 0.0013] [--runs 3]

Run it beside another commit's (its tree with this file copied in, this venv's Python) and compare.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from phones_bench import DEEDS, NAMES, setup  # noqa: E402

from companion.drivers import clock as clocks  # noqa: E402
from companion.drivers.display import frame_time  # noqa: E402
from companion.startup.mock import mock_station  # noqa: E402
from companion.startup.station import Station  # noqa: E402


def woken(native_id: int) -> int:
    """The thread's voluntary context switches so far (each a sleep it was woken from)."""
    status = Path(f"/proc/self/task/{native_id}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("voluntary_ctxt_switches")).split()[1])


def run(actions: int, gap: float, players: int = 8) -> dict[str, float]:
    """One burst on a fresh station: per input, the loop's CPU (µs), wakes, steps and frames; the phone's CPU (µs)."""
    with tempfile.TemporaryDirectory() as folder, \
            mock_station(journal_path=Path(folder) / "games.sqlite3", dice="software", clock=clocks.monotonic,
                         sleep=time.sleep, setup=setup(players), new_seed=lambda: 5,
                         frame_time=frame_time()) as (station, _, _):
        station.reader = None  # polled every 10 ms: `companion run` on mock pins has none
        steps = [0]
        step = station.step

        def counted(now: float) -> None:
            steps[0] += 1
            step(now)

        station.step = counted  # type: ignore[method-assign]
        stop = threading.Event()
        loop = threading.Thread(target=Station.run, args=(station, stop), daemon=True)
        loop.start()
        time.sleep(0.5)  # the loop asleep, as before a burst
        assert loop.native_id is not None and loop.ident is not None
        clock = time.pthread_getcpuclockid(loop.ident)
        mortgaged: dict[str, bool] = collections.defaultdict(bool)
        before = (time.clock_gettime(clock), woken(loop.native_id), steps[0], station.display.frames_sent,
                  time.thread_time())
        due = time.monotonic()
        for i in range(actions):
            time.sleep(max(0.0, due - time.monotonic()))
            due += gap
            name = NAMES[i % players]
            deed = DEEDS[2 * (i % players) + (i // players) % 2]
            verb = "unmortgage" if mortgaged[deed] else "mortgage"
            with station.table.answering():
                station.table.submit({"act": {"player": name, "do": verb, "space": deed}}, source="phone:bench")
            mortgaged[deed] = not mortgaged[deed]
        time.sleep(0.05)  # the last frame held for the panel drawn
        after = (time.clock_gettime(clock), woken(loop.native_id), steps[0], station.display.frames_sent,
                 time.thread_time())
        stop.set()
        station.wake.set()
        loop.join(5)
    spent = [b - a for a, b in zip(before, after)]
    return {"loop": 1e6 * spent[0] / actions, "woken": spent[1] / actions, "steps": spent[2] / actions,
            "frames": spent[3] / actions, "phone": 1e6 * spent[4] / actions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--gap", type=float, default=0.0013, help="seconds between inputs (the phones bench's pace)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"the OLED's loop beside {args.actions} phone's inputs one every {1000 * args.gap:g} ms (the panel's pace: "
          f"{1000 * frame_time():.1f} ms a frame; {args.runs} runs; load average {os.getloadavg()[0]:.1f})")
    runs = [run(args.actions, args.gap) for _ in range(args.runs)]
    for figures in runs:
        print(f"  the loop's thread: {figures['loop']:.1f} µs of CPU per input, woken {figures['woken']:.2f} times, "
              f"{figures['steps']:.2f} steps, {figures['frames']:.3f} frames; the phone's thread {figures['phone']:.0f} "
              f"µs (the journal's sync included)")
    print(f"  median: the loop's thread {statistics.median(r['loop'] for r in runs):.1f} µs per input, woken "
          f"{statistics.median(r['woken'] for r in runs):.2f} times; the phone's thread "
          f"{statistics.median(r['phone'] for r in runs):.0f} µs")


if __name__ == "__main__":
    main()
