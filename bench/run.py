"""The benchmark of issue 8: one command, one table, every figure with the machine it ran on.

    .venv/bin/python bench/run.py            # about 40 s
    .venv/bin/python bench/run.py --quick    # a few seconds, rougher figures

* a ``companion simulate --compare`` run (classic, Free Parking with fees and a seed against the book), one core:
  seconds per pair of games, and what the default number of pairs costs on one core;
* bot play per ruleset, 4 bots, one core (the simulator's bots: the same inputs as a table, through
  ``companion.engine.apply``): player-turns, landings and complete games per second, on the build this
  process runs (the engine and the bots, each compiled or pure: the rows say which) and, when anything is
  compiled, on the pure engine and bots too (a child process);
* classic's engine alone, on each of those builds: the inputs of bot games replayed through the simulation path
  with no bot choosing, in player-turns per second: the ceiling the bots' play rate stays under;
* ``apply`` time per input, p50 and p99 (the inputs of recorded bot games, replayed one by one, each
  input timed three times and its fastest kept);
* replay speed: inputs per second rebuilding those games from their set-up;
* journal append-and-sync (``StoredGame.submit``: SQLite WAL, ``synchronous=FULL``), p50 and p99;
* ``companion demo --headless``: start-up to the first OLED frame, and its peak RSS;
* peak RSS of a process playing a long game (the longest of 20 bot games) through the journal.

Figures are printed, never asserted (tests do not time things). A part that cannot run yet
(a module still being written) prints a note instead of a figure.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.engine import BUILD, apply, find_ruleset, ruleset_ids  # noqa: E402
from companion.sim import BUILD as BOTS_BUILD  # noqa: E402
from companion.sim import GameSpec, play_game  # noqa: E402
from companion.sim.command import DEFAULT_PACE, DEFAULT_PAIRS, compare  # noqa: E402

PLAYERS = 4
LONG_GAMES = 20


@dataclass
class Row:
    """One line of the table: a figure, its unit, the target it is measured against."""

    what: str
    value: str
    target: str = ""
    verdict: str = ""


def machine() -> str:
    """CPU model, cores, OS and Python: printed with every figure."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = ", load average {:.2f}".format(os.getloadavg()[0])
    return (f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()} {platform.machine()}, "
            f"{platform.python_implementation()} {platform.python_version()}{load}; "
            f"reference loop {reference_loop():.1f} µs")


def reference_loop() -> float:
    """Microseconds for ``sum(range(1000))`` (best of 5, as ``python -m timeit`` reports it): a yardstick
    for comparing these figures with another machine's, where the CPU model says little (virtual machines)."""
    import timeit

    return min(timeit.repeat("sum(range(1000))", number=20_000, repeat=5)) / 20_000 * 1e6


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def judge(value: float, target: float, higher_is_better: bool) -> str:
    met = value >= target if higher_is_better else value <= target
    return "met" if met else "MISSED"


# ============================================================================ the engine
@dataclass
class PlayRate:
    """Bot play on one core, per second: complete games, and the units of play (games differ in length)."""

    games: int
    games_per_second: float
    turns_per_second: float
    landings_per_second: float
    inputs_per_second: float

    def text(self) -> str:
        return (f"{self.turns_per_second:,.0f} turns/s, {self.landings_per_second:,.0f} landings/s, "
                f"{self.games_per_second:.1f} games/s ({self.games} games, {self.inputs_per_second:,.0f} inputs/s)")


def play_rate(ruleset: str, seconds: float, minimum: int) -> PlayRate:
    """Bots play games of ``ruleset`` for at least ``seconds`` and ``minimum`` games, on this core."""
    spec = GameSpec(ruleset, PLAYERS, seed=8)
    started = time.perf_counter()
    games = inputs = turns = landings = 0
    while games < minimum or time.perf_counter() - started < seconds:
        record = play_game(spec, games)
        inputs, turns = inputs + record.inputs, turns + record.turns
        landings += sum(record.tally.landings.values())
        games += 1
    elapsed = time.perf_counter() - started
    return PlayRate(games, games / elapsed, turns / elapsed, landings / elapsed, inputs / elapsed)


#: Player-turns per second of classic, 4 bots, one core (issue 26), by engine build.
TURN_TARGETS = {"compiled": 65_000, "pure": 40_000}


def play_build() -> str:
    """What plays the bots' games in this process, as the play rows name it: "compiled engine and bots", "pure
    engine and bots", or one of each ("compiled engine, pure bots": a simulator source edited since compiled)."""
    engine, bots = ("compiled" if build.compiled else "pure" for build in (BUILD, BOTS_BUILD))
    return f"{engine} engine and bots" if engine == bots else f"{engine} engine, {bots} bots"


def play_rows(seconds: float, minimum: int) -> list[Row]:
    """A row per ruleset: its bots' play rate on the build this process runs (the target: the engine's build's)."""
    rows = []
    for ruleset in ruleset_ids():
        rate = play_rate(ruleset, seconds, minimum)
        target = TURN_TARGETS["compiled" if BUILD.compiled else "pure"] if ruleset == "classic" else 0
        rows.append(Row(f"{ruleset}, {PLAYERS} bots, {play_build()}", rate.text(),
                        f"≥ {target:,} turns/s" if target else "",
                        judge(rate.turns_per_second, target, True) if target else ""))
    rows.append(engine_alone_row(*((40, 3) if seconds < 2 else (100, 5))))
    return rows


def engine_alone_row(games: int, rounds: int) -> Row:
    """Classic's engine alone: the inputs of 4-bot games replayed through the simulation path, with no bot choosing
    and no tally counting (best of ``rounds``). The bots' play rate on this build stays under it: when it misses
    the play target, making the bots (or the tally) faster cannot meet it, only fewer inputs or a faster engine."""
    spec = GameSpec("classic", PLAYERS, seed=8)  # the first games of the play row's
    recorded = []
    for index in range(games):
        lines: list[dict[str, Any]] = []
        recorded.append((lines, play_game(spec, index, lines).turns))
    rules = find_ruleset("classic")
    turns, inputs = sum(t for _, t in recorded), sum(len(lines) - 1 for lines, _ in recorded)
    best = 0.0
    for _ in range(rounds):
        started = time.perf_counter()
        for lines, _ in recorded:
            state, _ = apply(None, lines[0])
            for line in lines[1:]:
                state, _ = rules.apply(state, line, table=False)
        best = max(best, turns / (time.perf_counter() - started))
    engine = "compiled" if BUILD.compiled else "pure"
    target = TURN_TARGETS[engine]
    return Row(f"classic, the engine alone (bots' inputs replayed), {engine} engine",
               f"{best:,.0f} turns/s ({best * inputs / turns:,.0f} inputs/s): the bots' play stays under this",
               f"≥ {target:,} turns/s", judge(best, target, True))


def compare_row(pairs: int) -> Row:
    """The cost of ``companion simulate --compare free_parking=fees-and-seed`` on one core: its pairs (two games each,
    every figure tallied, then the paired figures and their intervals worked out), and the default run's."""
    changes = {"free_parking": "fees-and-seed"}
    spec_a = GameSpec("classic", PLAYERS, seed=8, pace=DEFAULT_PACE)
    spec_b = GameSpec("classic", PLAYERS, seed=8, options=changes, pace=DEFAULT_PACE)
    started = time.perf_counter()
    result = compare(spec_a, spec_b, changes, pairs, workers=1)
    result.results()  # the figures, intervals, sentences and curves too
    per_pair = (time.perf_counter() - started) / pairs
    return Row(f"classic --compare free_parking=fees-and-seed, {PLAYERS} bots, {play_build()}",
               f"{per_pair * 1000:,.0f} ms a pair ({pairs} pairs): the default {DEFAULT_PAIRS} pairs take "
               f"~{per_pair * DEFAULT_PAIRS:,.0f} s on one core")


def pure_engine_rows(quick: bool) -> list[Row]:
    """The play rows of the pure engine and bots, from a child process (the builds are chosen at import)."""
    command = [sys.executable, __file__, "--play-rows-child"] + (["--quick"] if quick else [])
    done = subprocess.run(command, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "COMPANION_ENGINE": "pure"})
    if done.returncode != 0:
        return [Row("pure engine and bots play rates", "skipped: " + (done.stderr.strip().splitlines() or ["?"])[-1][:80])]
    return [Row(*fields.split("\t")) for fields in done.stdout.splitlines()]


def recorded_games(ruleset: str, count: int) -> list[list[dict[str, Any]]]:
    """Game files (setup line + inputs) of ``count`` bot games."""
    spec = GameSpec(ruleset, PLAYERS, seed=80)
    games = []
    for index in range(count):
        lines: list[dict[str, Any]] = []
        play_game(spec, index, lines)
        games.append(lines)
    return games


APPLY_REPEATS = 3


def apply_times(games: list[list[dict[str, Any]]]) -> list[float]:
    """Seconds per ``apply``, input by input: each input applied ``APPLY_REPEATS`` times to the same
    state (``apply`` is pure: every repeat does the same work) and its fastest kept, as ``timeit``
    does, so that the other processes of a shared machine do not decide the percentiles."""
    clock = time.perf_counter_ns
    times = []
    for lines in games:
        state, _ = apply(None, lines[0])
        for line in lines[1:]:
            took = []
            for _ in range(APPLY_REPEATS):
                started = clock()
                after, _ = apply(state, line)
                took.append(clock() - started)
            times.append(min(took) / 1e9)
            state = after
    return times


def replay_rate(games: list[list[dict[str, Any]]], rounds: int) -> float:
    """Inputs per second rebuilding every game from its set-up (best of ``rounds``)."""
    best = 0.0
    count = sum(len(lines) - 1 for lines in games)
    for _ in range(rounds):
        started = time.perf_counter()
        for lines in games:
            state, _ = apply(None, lines[0])
            for line in lines[1:]:
                state, _ = apply(state, line)
        best = max(best, count / (time.perf_counter() - started))
    return best


# ============================================================================ the journal
def journal_times(count: int) -> list[float] | str:
    """Seconds per ``StoredGame.submit`` (append, sync, apply) of a bot game's inputs; a note if no journal."""
    try:
        from companion.journal import Journal
    except ImportError as error:
        return f"skipped: companion.journal is not importable yet ({error})"
    lines = max(recorded_games("classic", 3), key=len)  # one game: another game's inputs would not fit
    times = []
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        with Journal(Path(folder) / "bench.sqlite3") as journal:
            game = journal.new_game(lines[0]["setup"])
            for line in lines[1:count + 1]:
                started = time.perf_counter()
                game.submit(line)
                times.append(time.perf_counter() - started)
    return times


def long_game_child() -> None:
    """In a child process: the longest of ``LONG_GAMES`` bot games, through the journal (a table's whole life)."""
    from companion.journal import Journal

    lines = max(recorded_games("classic", LONG_GAMES), key=len)
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        with Journal(Path(folder) / "long.sqlite3") as journal:
            game = journal.new_game(lines[0]["setup"])
            for line in lines[1:]:
                game.submit(line)
    print(len(lines) - 1)


#: Runs a command and writes its peak RSS (KB) and the moment it started it (``time.monotonic``, the same clock in
#: every process of a Linux machine) to a file. The bench starts commands through it: Linux gives a process started
#: by ``subprocess`` (vfork, then exec) the peak RSS of the process that started it as its own lowest figure, so a
#: command started straight from the bench, grown by its games, would report the bench's peak as its own. Started
#: from this small process, a command's figure is its own (or this process's ~10 MB, whichever is larger).
_MEASURE = """
import resource, subprocess, sys, time
started = time.monotonic()
code = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} {started}")
sys.exit(code)
"""


def peak_rss_of(command: list[str], timeout: float, first_file: Path | None = None) -> tuple[float, float | None, str]:
    """Run ``command``; returns its peak RSS in MB, the seconds until ``first_file`` appeared, and its output."""
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder, tempfile.TemporaryFile() as log:
        figures = Path(folder) / "rusage"
        proc = subprocess.Popen([sys.executable, "-c", _MEASURE, str(figures), *command], stdout=log,
                                stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        deadline = time.monotonic() + timeout
        appeared = None
        while True:
            if appeared is None and first_file is not None and first_file.exists():
                appeared = time.monotonic()
            if proc.poll() is not None:
                break
            if time.monotonic() > deadline:
                os.killpg(proc.pid, signal.SIGKILL)  # the measuring process and the command it started
                proc.wait()
                break
            time.sleep(0.001 if appeared is None else 0.02)
        log.seek(0)
        output = log.read().decode(errors="replace")
        if not figures.exists():
            return 0.0, None, "FAILED: " + (output or f"no figures after {timeout:.0f} s")
        kilobytes, started = figures.read_text().split()
    first = appeared - float(started) if appeared is not None else None
    return int(kilobytes) / 1024, first, output if proc.returncode == 0 else "FAILED: " + output


def demo_figures(timeout: float) -> list[Row]:
    companion = shutil.which("companion", path=str(Path(sys.executable).parent)) or shutil.which("companion")
    if companion is None:
        return [Row("companion demo --headless", "skipped: no `companion` command beside this Python or on PATH "
                    "(run the bench with the project's .venv/bin/python)")]
    probe = subprocess.run([companion, "demo", "--help"], capture_output=True, text=True, cwd=ROOT)
    if "--headless" not in probe.stdout or "--frames" not in probe.stdout:
        return [Row("companion demo --headless", "skipped: the demo has no --headless/--frames yet")]
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        frames = Path(folder) / "frames"
        rss, first, output = peak_rss_of([companion, "demo", "--headless", "--frames", str(frames)], timeout,
                                         frames / "frame-0001.png")
    if output.startswith("FAILED"):
        return [Row("companion demo --headless", "skipped: it failed: " + output.splitlines()[-1][:80])]
    rows = [Row("demo --headless: start-up to first frame",
                f"{first * 1000:.0f} ms" if first is not None else "no frame written")]
    rows.append(Row("demo --headless: peak RSS", f"{rss:.1f} MB", "≤ 80 MB", judge(rss, 80, False)))
    return rows


# ============================================================================ the table
def run(quick: bool) -> list[Row]:
    seconds, minimum = (1.0, 3) if quick else (6.0, 20)
    rows: list[Row] = []
    rows += play_rows(seconds, minimum)
    rows.append(compare_row(10 if quick else 60))
    if BUILD.compiled or BOTS_BUILD.compiled:
        rows += pure_engine_rows(quick)
    for ruleset in ruleset_ids():
        games = recorded_games(ruleset, 3 if quick else 12)
        times = apply_times(games)
        p50, p99 = percentile(times, 0.5) * 1e6, percentile(times, 0.99) * 1e6
        target = "p50 ≤ 20 µs" if ruleset == "classic" else ""
        rows.append(Row(f"{ruleset}: apply per input p50 / p99", f"{p50:.1f} / {p99:.1f} µs ({len(times)} inputs, "
                        f"best of {APPLY_REPEATS})",
                        target, judge(p50, 20, False) if target else ""))
        rate = replay_rate(games, 2 if quick else 5)
        target = "≥ 50,000" if ruleset == "classic" else ""
        rows.append(Row(f"{ruleset}: replay, inputs/s", f"{rate:,.0f}", target,
                        judge(rate, 50_000, True) if target else ""))
    journal = journal_times(50 if quick else 300)
    if isinstance(journal, str):
        rows.append(Row("journal append-and-sync", journal))
    else:
        p50, p99 = percentile(journal, 0.5) * 1e3, percentile(journal, 0.99) * 1e3
        rows.append(Row("journal append-and-sync p50 / p99", f"{p50:.2f} / {p99:.2f} ms ({len(journal)} inputs)",
                        "p50 ≤ 5 ms", judge(p50, 5, False)))
    rows += demo_figures(120)
    try:
        import companion.journal  # noqa: F401
    except ImportError:
        rows.append(Row("long game: peak RSS", "skipped: companion.journal is not importable yet"))
    else:
        rss, _, output = peak_rss_of([sys.executable, __file__, "--long-game-child"], 600)
        if output.startswith("FAILED"):
            rows.append(Row("long game: peak RSS", "skipped: " + output.splitlines()[-1][:80]))
        else:
            rows.append(Row(f"long game ({output.strip()} inputs, journal): peak RSS", f"{rss:.1f} MB"))
    return rows


def print_table(rows: list[Row], out: Callable[[str], None] = print) -> None:
    width = max(len(r.what) for r in rows)
    vwidth = max(len(r.value) for r in rows)
    out(f"{'figure':<{width}}  {'value':<{vwidth}}  {'target':<12} verdict")
    out("-" * (width + vwidth + 28))
    for r in rows:
        out(f"{r.what:<{width}}  {r.value:<{vwidth}}  {r.target:<12} {r.verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds: fewer games, rougher figures")
    parser.add_argument("--long-game-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--play-rows-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play_rows_child:
        seconds, minimum = (1.0, 3) if args.quick else (6.0, 20)
        for row in play_rows(seconds, minimum):
            print("\t".join((row.what, row.value, row.target, row.verdict)))
        return 0
    if args.long_game_child:
        long_game_child()
        return 0
    random.seed(0)
    print(f"companion benchmark, {time.strftime('%Y-%m-%d %H:%M:%S %Z')}")
    print(f"machine: {machine()}")
    print(f"engine: {BUILD.describe()}")
    print(f"bots: {BOTS_BUILD.describe()}")
    print(f"one core for the engine figures (one process, no workers); {PLAYERS} players\n")
    rows = run(args.quick)
    print_table(rows)
    print(f"\nmachine: {machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
