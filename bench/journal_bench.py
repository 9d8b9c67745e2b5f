"""The journal's own cost per input, and the disk's floor under the phones' latency (issue 43); prints figures,
asserts nothing.

* the journal per input: ``StoredGame.submit``'s CPU (``time.thread_time`` around it: SQLite's work and the
  engine's ``apply``, the wait for the disk excluded) and its wall time (the wait included), p50 / p99 and the mean,
  over ``--actions`` money actions (mortgage, lift the mortgage, round the eight players of
  ``bench/phones_bench.py``'s game), the journal as the table opens it (WAL, ``synchronous=FULL``); beside it the
  engine's ``apply`` of the same inputs alone (the rest is the journal's own);
* a bare synced commit: one small row inserted and committed by SQLite in WAL mode with the journal's settings
  (``synchronous=FULL``, a new journal's 1 KB pages), ``--repeat`` times, p50 / p99 (the least a synced input can wait), and its CPU;
* the disk's sync alone: 64 bytes written at the end of a file and ``fdatasync``'d, then the same with ``fsync``,
  ``--repeat`` times each, p50 / p99.

Every figure is of the folder's disk (``--folder``; the system's temporary folder by default, which is this
machine's one disk). The machine is shared: the load average is printed beside the figures.

    .venv/bin/python bench/journal_bench.py [--actions 600] [--repeat 2000] [--folder DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from phones_bench import DEEDS, NAMES, setup  # noqa: E402
from pi_box import percentile  # noqa: E402

from companion.engine import apply, new_game  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.journal.schema import PAGE_SIZE  # noqa: E402


def money_actions(count: int) -> list[dict[str, Any]]:
    """Mortgage, lift the mortgage: each of the eight players in turn, on each of their two deeds in turn."""
    mortgaged = dict.fromkeys(DEEDS, False)
    lines = []
    for i in range(count):
        deed = DEEDS[2 * (i % 8) + (i // 8) % 2]
        lines.append({"act": {"player": NAMES[i % 8], "do": "unmortgage" if mortgaged[deed] else "mortgage",
                              "space": deed}})
        mortgaged[deed] = not mortgaged[deed]
    return lines


def journal_inputs(folder: Path, lines: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of each ``StoredGame.submit`` of ``lines`` (the game of 8 players)."""
    cpu, wall = [], []
    with Journal(folder / "journal.sqlite3", check_all=False) as journal:
        game = journal.new_game(setup(8))
        for line in lines:
            started, started_cpu = time.perf_counter(), time.thread_time()
            game.submit(line, source="host")
            cpu.append(time.thread_time() - started_cpu)
            wall.append(time.perf_counter() - started)
    return cpu, wall


def engine_inputs(lines: list[dict[str, Any]]) -> list[float]:
    """CPU seconds of the engine's ``apply`` alone on the same ``lines`` (the part of ``submit`` that is not the
    journal's)."""
    state, _ = new_game(setup(8))
    cpu = []
    for line in lines:
        started = time.thread_time()
        state, _ = apply(state, json.loads(json.dumps(line)))  # as the journal gives it: decoded from its text
        cpu.append(time.thread_time() - started)
    return cpu


def bare_commits(folder: Path, repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each ``INSERT`` + ``COMMIT`` of one small row, WAL, ``synchronous=FULL`` and the
    journal's pages, as the journal."""
    db = sqlite3.connect(folder / "bare.sqlite3", isolation_level=None)
    try:
        db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("CREATE TABLE records (id INTEGER PRIMARY KEY AUTOINCREMENT, line TEXT NOT NULL)")
        wall, cpu = [], []
        for i in range(repeat):
            started, started_cpu = time.perf_counter(), time.thread_time()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO records (line) VALUES (?)", (f'{{"roll":[{i % 6 + 1},{i % 5 + 1}]}}',))
            db.execute("COMMIT")
            cpu.append(time.thread_time() - started_cpu)
            wall.append(time.perf_counter() - started)
        return wall, cpu
    finally:
        db.close()


def syncs(folder: Path, repeat: int, sync: Callable[[int], None]) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each 64-byte append and ``sync`` of a file (the append gives the sync something to
    write)."""
    fd = os.open(folder / f"sync-{sync.__name__}", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        wall, cpu = [], []
        for _ in range(repeat):
            started, started_cpu = time.perf_counter(), time.thread_time()
            os.write(fd, b"x" * 64)
            sync(fd)
            cpu.append(time.thread_time() - started_cpu)
            wall.append(time.perf_counter() - started)
        return wall, cpu
    finally:
        os.close(fd)


def figures(seconds: list[float]) -> str:
    return (f"p50 {percentile(seconds, 0.5) * 1e6:,.0f} µs, p99 {percentile(seconds, 0.99) * 1e6:,.0f} µs, "
            f"mean {statistics.fmean(seconds) * 1e6:,.0f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=600, help="money actions through the journal")
    parser.add_argument("--repeat", type=int, default=2000, help="bare commits, and syncs of each kind")
    parser.add_argument("--folder", type=Path, help="a folder on the disk to measure (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="companion-journal-bench-", dir=args.folder) as name:
        folder = Path(name)
        print(f"folder: {folder} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        lines = money_actions(args.actions)
        cpu, wall = journal_inputs(folder, lines)
        print(f"journal per input, CPU (StoredGame.submit, {len(cpu)} money actions): {figures(cpu)}")
        print(f"  of which the engine's apply (the same inputs applied alone): {figures(engine_inputs(lines))}")
        print(f"journal per input, wall (the wait for the disk included): {figures(wall)}")
        wall, cpu = bare_commits(folder, args.repeat)
        print(f"bare synced commit (one small row, WAL, synchronous=FULL, {args.repeat} times): {figures(wall)}")
        print(f"  its CPU: {figures(cpu)}")
        for sync in (os.fdatasync, os.fsync):
            wall, cpu = syncs(folder, args.repeat, sync)
            print(f"{sync.__name__} of a 64-byte append alone ({args.repeat} times): {figures(wall)}")
            print(f"  its CPU: {figures(cpu)}")
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
