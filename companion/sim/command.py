"""``companion simulate``: many bot games over worker processes, summed up.

Game ``i`` of a run depends only on the master seed and ``i``; workers take games in
chunks and the parent collects the records in game order, so any ``--workers`` gives the
same results. The progress bar goes to standard error, the report to standard output.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TextIO, TypeVar

from companion.engine import CompanionError, find_ruleset, new_game, ruleset_ids
from companion.words import ENGLISH, N_, Words

from .compare import Comparison, Comparisons, play_arms
from .game import DEFAULT_TURN_CAP, GameRecord, GameSpec, play_game
from .plot import comparison_svg, heat_map_svg
from .summary import Summary, summarise

T = TypeVar("T")
#: Games of a plain run, and pairs of a --compare run, unless --games says otherwise (docs/simulate.md: how many
#: pairs give a useful interval).
DEFAULT_GAMES = 100
DEFAULT_PAIRS = 500
#: Seconds a player-turn takes at a table, for the minutes of --compare and option end_at_minutes (--pace).
DEFAULT_PACE = 40.0


class Interrupted(CompanionError):
    """The run was stopped (Ctrl-C) after ``done`` games."""

    def __init__(self, done: int) -> None:
        super().__init__(f"interrupted after {done} games")
        self.done = done


class Progress:
    """A one-line progress bar with the games per second, redrawn at most ten times a second."""

    def __init__(self, stream: TextIO | None, total: int, label: str, width: int = 30) -> None:
        self.stream, self.total, self.label, self.width = stream, total, label, width
        self.live = stream is not None and stream.isatty()  # redraw in place; else one line at the end
        self.started = time.perf_counter()
        self._drawn = 0.0

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if self.stream is None or (done < self.total and (not self.live or now - self._drawn < 0.1)):
            return
        self._drawn = now
        filled = self.width * done // max(self.total, 1)
        rate = done / (now - self.started) if now > self.started else 0.0
        self.stream.write(("\r" if self.live else "") + f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] "
                          f"{done}/{self.total} games, {rate:.1f} games/s")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def run_games(spec: GameSpec, games: int, workers: int = 1,
              on_progress: Callable[[int], None] | None = None) -> tuple[list[GameRecord], float]:
    """Play games ``0 .. games-1``; returns their records in game order and the seconds taken."""
    return run_indexed(partial(play_game, spec), games, workers, on_progress)


def run_indexed(play: Callable[[int], T], games: int, workers: int = 1,
                on_progress: Callable[[int], None] | None = None) -> tuple[list[T], float]:
    """``play(i)`` for ``i`` in ``0 .. games-1`` over ``workers`` processes; the results in order, and the seconds."""
    started = time.perf_counter()
    records: list[T] = []
    if workers <= 1 or games <= 1:
        stream: Iterator[T] = map(play, range(games))
        records = _collect(stream, on_progress)
    else:
        chunk = max(1, min(50, games // (workers * 8)))
        context = multiprocessing.get_context("spawn" if sys.platform != "linux" else "fork")
        held = _hold_interrupts()  # a Ctrl-C while the workers start would kill one before it ignores them
        try:
            pool = context.Pool(workers, initializer=_leave_interrupts_to_the_parent)
        except BaseException:
            _release_interrupts(held)
            raise
        with pool:  # ends the workers however the run ends
            _release_interrupts(held)  # a Ctrl-C held back is raised here
            records = _collect(pool.imap(play, range(games), chunksize=chunk), on_progress)
    return records, time.perf_counter() - started


def _hold_interrupts() -> set[int | signal.Signals] | None:
    """Block SIGINT (where the OS can) and return the mask before, for :func:`_release_interrupts`."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _release_interrupts(held: set[int | signal.Signals] | None) -> None:
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _leave_interrupts_to_the_parent() -> None:
    """In a worker: Ctrl-C reaches the whole process group; the parent stops the pool (no worker tracebacks)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _collect(stream: Iterator[T], on_progress: Callable[[int], None] | None) -> list[T]:
    records: list[T] = []
    try:
        for record in stream:
            records.append(record)
            if on_progress is not None:
                on_progress(len(records))
    except KeyboardInterrupt:
        raise Interrupted(len(records)) from None
    return records


def simulate(spec: GameSpec, games: int, workers: int = 1, progress: TextIO | None = None) -> Summary:
    """Run ``games`` games of ``spec`` and sum them up (never more worker processes than games)."""
    workers = max(1, min(workers, games))
    board = find_ruleset(spec.ruleset).board
    bar = Progress(progress, games, f"{spec.ruleset} ×{spec.players}")
    records, seconds = run_games(spec, games, workers, bar.update if progress is not None else None)
    return summarise(spec, board, records, seconds, workers)


def compare(spec_a: GameSpec, spec_b: GameSpec, changes: Mapping[str, Any], pairs: int, workers: int = 1,
            progress: TextIO | None = None) -> Comparison:
    """Play ``pairs`` games under A and again under B (the same seeds and dice), and compare them pair by pair."""
    return compare_many(spec_a, [(spec_b, changes)], pairs, workers, progress)[0]


def compare_many(spec_a: GameSpec, arms: Sequence[tuple[GameSpec, Mapping[str, Any]]], pairs: int, workers: int = 1,
                 progress: TextIO | None = None) -> list[Comparison]:
    """Play ``pairs`` games under A and under each B of ``arms`` (a spec and the options it changes): A's games once,
    each on the same seeds and dice; a comparison of A with each B."""
    workers = max(1, min(workers, pairs))
    each = 1 + len(arms)
    bar = Progress(progress, each * pairs, f"{spec_a.ruleset} ×{spec_a.players} A/B")
    specs = [spec_a, *(spec for spec, _ in arms)]
    results, seconds = run_indexed(partial(play_arms, specs), pairs, workers,
                                   (lambda done: bar.update(each * done)) if progress is not None else None)
    return [Comparison(spec_a, spec, changes, [(games[0], games[k]) for games in results], seconds, workers)
            for k, (spec, changes) in enumerate(arms, start=1)]


def parse_option(text: str) -> tuple[str, Any]:
    """``k=v`` with ``v`` read as JSON when it is JSON (``true``, ``3``, ``[..]``), else as a string."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def add_parser(sub: Any, words: Words = ENGLISH) -> None:
    """Add ``simulate`` to the ``companion`` command's sub-commands, its help in ``words``' language."""
    t = words.t
    p = sub.add_parser("simulate", help=t("let bots play many complete games and report the statistics"),
                       description=t("Bots play complete games through the engine (the same inputs as a table) and "
                                     "the run is summed up. Same --seed, same results, whatever --workers."))
    p.add_argument("--ruleset", required=True, choices=ruleset_ids())
    p.add_argument("--players", type=int, default=4, help=t("bots at the table (default 4)"))
    p.add_argument("--games", type=int, help=t("games to play (default {games}; with --compare, pairs of games, "
                                               "default {pairs})", games=DEFAULT_GAMES, pairs=DEFAULT_PAIRS))
    p.add_argument("--seed", type=int, default=0, help=t("master seed; each game's seeds derive from it (default 0)"))
    p.add_argument("--option", action="append", type=parse_option, default=[], metavar="NAME=VALUE",
                   help=t("a ruleset option, e.g. transition=even_step (repeatable)"))
    p.add_argument("--workers", type=int, default=usable_cores(),
                   help=t("worker processes (default: the cores this process may use, here %(default)s)"))
    p.add_argument("--turn-cap", type=int, default=DEFAULT_TURN_CAP,
                   help=t("cut a game after this many turns; cut games are reported (default {cap})",
                          cap=DEFAULT_TURN_CAP))
    p.add_argument("--compare", nargs="+", type=parse_option, action="append", metavar="NAME=VALUE",
                   help=t("play every game twice, as A (the board's options, or --baseline) and as B (A with these), "
                          "on the same dice, and report each figure's difference B - A with its 95%% confidence "
                          "interval; given again, one more B against the same A (a table, a row per B)"))
    p.add_argument("--baseline", nargs="+", type=parse_option, default=[], metavar="NAME=VALUE",
                   help=t("with --compare: options of A other than the board's (B has them too)"))
    p.add_argument("--pace", type=float, metavar="SECONDS",
                   help=t("seconds a player-turn takes at a table: the minutes --compare reports (default {pace}), "
                          "and when option end_at_minutes ends a game", pace=f"{DEFAULT_PACE:g}"))
    p.add_argument("--json", action="store_true", help=t("print the results as JSON"))
    p.add_argument("--plot", metavar="FILE", help=t("write the landing frequencies as an SVG heat map of the board "
                                                    "(with --compare: the game lengths and the cash in play of A "
                                                    "and B)"))
    p.add_argument("--quiet", action="store_true", help=t("no progress bar"))
    p.set_defaults(func=cmd_simulate)


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity where the OS tells it, else all of them)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class Report(Protocol):
    """What a run is reported as: a :class:`~.summary.Summary` (one run) or a :class:`~.compare.Comparison`."""

    def as_json(self) -> dict[str, Any]: ...

    def as_text(self, *, words: Words = ENGLISH) -> str: ...


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    """One run (or, with ``--compare``, pairs of games) reported as text or JSON, and the SVG of ``--plot``."""
    words = getattr(args, "words", ENGLISH)  # the command's language (companion.startup.speaking)
    unit = "pairs" if args.compare else "games"
    args.games = (DEFAULT_PAIRS if args.compare else DEFAULT_GAMES) if args.games is None else args.games
    try:
        report, svg, drawn = (run_compare if args.compare else run_one)(args)
    except (Interrupted, KeyboardInterrupt) as stop:  # Ctrl-C: one line, no report of a run cut short
        done = f" after {stop.done} of {args.games} {unit}" if isinstance(stop, Interrupted) else ""
        print(f"\ncompanion simulate: interrupted{done}; nothing reported", file=sys.stderr)
        return 130
    except (CompanionError, ValueError) as error:
        print(f"companion simulate: {error}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(report.as_json(), out, indent=1)
        out.write("\n")
    else:
        out.write(report.as_text(words=words) + "\n")
    if args.plot:  # after the report: a plot that cannot be written never loses the run
        try:
            Path(args.plot).write_text(svg(), "utf-8")
        except OSError as error:
            print(f"companion simulate: {args.plot}: {error.strerror}", file=sys.stderr)
            return 1
        if not args.json:
            out.write(f"  {words.t(drawn)} {args.plot}\n")
    return 0


def run_one(args: argparse.Namespace) -> tuple[Report, Callable[[], str], str]:
    """One run of ``--games`` games: its summary, its heat map (made when asked for) and what the map shows."""
    if args.baseline:
        raise ValueError("--baseline goes with --compare (A's options); for one run, give --option")
    spec = GameSpec(args.ruleset, args.players, args.seed, dict(args.option), args.turn_cap, args.pace or 0.0)
    _check(spec, args)
    summary = simulate(spec, args.games, args.workers, None if args.quiet else sys.stderr)
    title = f"{spec.ruleset}: landings in {len(summary.records)} games of {spec.players} bots"
    return summary, lambda: heat_map_svg(summary.board, summary.results()["landings"], title), N_("heat map written to")


def run_compare(args: argparse.Namespace) -> tuple[Report, Callable[[], str], str]:
    """``--compare``: ``--games`` pairs of games under A and B (or each B), compared; the charts of one comparison;
    what the charts show."""
    options_a = {**dict(args.option), **dict(args.baseline)}
    pace = DEFAULT_PACE if args.pace is None else args.pace
    spec_a = GameSpec(args.ruleset, args.players, args.seed, options_a, args.turn_cap, pace)
    arms = [(GameSpec(args.ruleset, args.players, args.seed, {**options_a, **dict(given)}, args.turn_cap, pace),
             dict(given)) for given in args.compare]
    if args.games < 2:
        raise ValueError("--compare needs at least 2 pairs of games (--games) for an interval")
    if pace <= 0:
        raise ValueError("--pace is the seconds a player-turn takes: more than 0")
    if args.plot and len(arms) > 1:
        raise ValueError("--plot draws one comparison: give --compare once")
    for spec in (spec_a, *(spec for spec, _ in arms)):
        _check(spec, args)
    results = compare_many(spec_a, arms, args.games, args.workers, None if args.quiet else sys.stderr)
    report: Report = results[0] if len(results) == 1 else Comparisons(results)
    return report, lambda: comparison_svg(results[0].results()), N_("game lengths and cash in play drawn in")


def _check(spec: GameSpec, args: argparse.Namespace) -> None:
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    board = find_ruleset(spec.ruleset).board
    if not board.min_players <= spec.players <= board.max_players:
        raise ValueError(f"{spec.ruleset} is for {board.min_players} to {board.max_players} players, not {spec.players}")
    if not 0 <= spec.seed < 2 ** 64:
        raise ValueError(f"--seed is a whole number from 0 to 2**64 - 1 (the games' seeds are 64-bit), not {spec.seed}")
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if spec.turn_cap < 1:
        raise ValueError("--turn-cap must be at least 1")
    if spec.pace < 0:
        raise ValueError("--pace is the seconds a player-turn takes: not below 0")
    if spec.options.get("end_at_minutes") and not spec.pace:
        raise ValueError("option end_at_minutes is the table's clock: the bots play without one (give --pace, the "
                         "seconds a player-turn takes, or use --turn-cap)")
    if args.plot:
        plot = Path(args.plot)
        if plot.suffix.lower() != ".svg":
            raise ValueError(f"--plot writes an SVG {'picture' if args.compare else 'heat map'}: name the file .svg, "
                             f"not {plot.name!r}")
        if not plot.resolve().parent.is_dir():
            raise ValueError(f"--plot: there is no folder {str(plot.parent)!r}")
    new_game({"ruleset": spec.ruleset, "players": spec.seats(), "options": dict(spec.options)})  # names the bad one
