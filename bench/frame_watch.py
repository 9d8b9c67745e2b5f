"""What a process did between a button's edge and its frame: for the table bench's slow frames (issue 43's box).

A frame drawn late in the box (bench/pi_box.py: a cgroup given 1 ms of CPU in every ~23 ms) was late for one of a few
reasons, told apart by what the process did in the window: its own CPU (this thread's and the other threads'), the
cgroup's CPU throttle (``cpu.stat``: periods in which the box had spent its quota, and the time it was held), and the
garbage collector (its collections and the wall time inside them, from ``gc.callbacks``). Outside a cgroup with a CPU
limit the throttle reads nothing. Between a press's edge and its frame the thread does not sleep, so the time it was
off the core (the wall time less the CPU) that the box did not hold it was spent waiting for a core busy with other
processes (this shared machine's load).
"""

from __future__ import annotations

import gc
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def cpu_stat_path(proc_cgroup: str = "/proc/self/cgroup", root: Path = Path("/sys/fs/cgroup")) -> Path | None:
    """The ``cpu.stat`` of the cgroup this process's CPU is limited by (v1's ``cpu`` hierarchy, else v2), if any."""
    for line in Path(proc_cgroup).read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        names = controllers.split(",")
        if "cpu" in names:
            for base in (root / controllers, root / "cpu"):
                if (base / path.lstrip("/") / "cpu.stat").exists():
                    return base / path.lstrip("/") / "cpu.stat"
        elif controllers == "" and (root / path.lstrip("/") / "cpu.stat").exists():
            return root / path.lstrip("/") / "cpu.stat"
    return None


def throttled(stat: Path | None) -> tuple[int, float]:
    """The cgroup's throttled periods so far and the seconds it was held (v1 ``throttled_time`` ns, v2 ``_usec``)."""
    if stat is None:
        return 0, 0.0
    fields = dict(line.split() for line in stat.read_text().splitlines() if line.strip())
    if "throttled_time" in fields:
        return int(fields.get("nr_throttled", 0)), int(fields["throttled_time"]) / 1e9
    return int(fields.get("nr_throttled", 0)), int(fields.get("throttled_usec", 0)) / 1e6


@dataclass(frozen=True)
class Mark:
    """One moment: wall, the process's and this thread's CPU, the throttle, the collector's counts."""

    wall: float
    cpu: float
    thread_cpu: float
    throttled_periods: int
    throttled: float
    collections: int
    collecting: float  # seconds spent in collections so far
    generations: tuple[int, ...]  # the oldest generation of each collection so far, in order


@dataclass(frozen=True)
class Window:
    """What happened between two marks."""

    wall: float
    cpu: float
    other_threads_cpu: float
    throttled_periods: int
    throttled: float
    collections: tuple[int, ...]  # the generation of each collection in the window
    collecting: float

    def cause(self) -> str:
        """What made the window long: the box holding the process (its quota spent), other processes on the core,
        the collector, or the work itself."""
        off = self.wall - self.cpu
        if off > 0.002 and self.throttled >= off / 2:
            return "the box's throttle"
        if off > 0.002:
            return "the machine's other processes"
        if self.collecting > self.cpu / 2:
            return "the collector"
        return "its own work"

    def said(self, cause: bool = True) -> str:
        """One line: milliseconds (and their :meth:`cause`, for a window in which the thread does not sleep), the
        throttle, the collector."""
        gcs = ("no collection" if not self.collections else
               f"{len(self.collections)} collection(s) (generation {', '.join(map(str, self.collections))}) "
               f"{1000 * self.collecting:.1f} ms")
        because = f" ({self.cause()})" if cause else ""
        return (f"{1000 * self.wall:.1f} ms of wall time{because}, the process's CPU {1000 * self.cpu:.2f} ms (other threads {1000 * self.other_threads_cpu:.2f}), "
                f"off the core {1000 * max(0.0, self.wall - self.cpu):.1f} ms, of which the box held it "
                f"{1000 * self.throttled:.1f} ms ({self.throttled_periods} period(s) throttled), {gcs}")


class Watch:
    """Marks moments of this process (:meth:`mark`) and says what happened between two (:meth:`between`)."""

    def __init__(self, stat: Path | None = None) -> None:
        self.stat = stat if stat is not None else cpu_stat_path()
        self._collecting = 0.0
        self._started = 0.0
        self._generations: list[int] = []
        self._lock = threading.Lock()
        gc.callbacks.append(self._gc)

    def close(self) -> None:
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            with self._lock:
                self._collecting += time.perf_counter() - self._started
                self._generations.append(int(info["generation"]))

    def mark(self) -> Mark:
        periods, held = throttled(self.stat)
        with self._lock:
            generations, collecting = tuple(self._generations), self._collecting
        return Mark(time.perf_counter(), time.process_time(), time.thread_time(), periods, held, len(generations),
                    collecting, generations)

    @staticmethod
    def between(first: Mark, last: Mark) -> Window:
        cpu = last.cpu - first.cpu
        return Window(last.wall - first.wall, cpu, max(0.0, cpu - (last.thread_cpu - first.thread_cpu)),
                      last.throttled_periods - first.throttled_periods, last.throttled - first.throttled,
                      last.generations[first.collections:], last.collecting - first.collecting)
