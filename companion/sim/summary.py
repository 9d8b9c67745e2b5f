"""A run's results: the games' records summed up, as a table for people or JSON for tools.

``results`` holds what the seed decides (identical for any number of workers); ``timing``
holds what the machine decides (games per second).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import companion.engine
import companion.sim
from companion.engine.board import Board

from .game import GameRecord, GameSpec


def ci95(values: Sequence[float]) -> float | None:
    """Half the width of the 95% confidence interval of the mean (1.96 standard errors; None below two values).

    Two runs (say ``transition=even_step`` against ``even_total``) whose intervals do not overlap differ by more
    than the luck of the dice.
    """
    if len(values) < 2:
        return None
    return round(1.96 * statistics.stdev(values) / len(values) ** 0.5, 2)


def plus_minus(ci: float | None, digits: int = 1) -> str:
    """A confidence interval as the report prints it ("± 2.3"; "± n/a" from a single game)."""
    return "± n/a" if ci is None else f"± {ci:.{digits}f}"


def mean_and_ci(values: Sequence[float]) -> dict[str, float | None]:
    return {"mean": round(statistics.fmean(values), 2) if values else 0.0, "ci95": ci95(values)}


def percentile(values: Sequence[int], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (0 for none)."""
    if not values:
        return 0
    ordered = sorted(values)
    rank = max(1, -(-int(fraction * 1000) * len(ordered) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class Summary:
    """Everything ``companion simulate`` reports about one run."""

    spec: GameSpec
    board: Board
    records: Sequence[GameRecord]
    seconds: float
    workers: int = 1

    @property
    def finished(self) -> list[GameRecord]:
        return [r for r in self.records if not r.cut]

    def results(self) -> dict[str, Any]:
        """The figures the seed decides, as plain JSON data."""
        records, finished = self.records, self.finished
        seats = self.spec.seats()
        turns = [r.turns for r in finished]
        landings: Counter[str] = Counter()
        pools: Counter[str] = Counter()
        prizes: Counter[int] = Counter()
        causes: Counter[str] = Counter()
        switches = track_changes = 0
        for r in records:
            landings.update(r.tally.landings)
            pools.update(r.tally.pool_payouts)
            prizes.update(r.tally.prizes)
            causes.update(r.tally.bankruptcies)
            switches += r.tally.switches
            track_changes += r.tally.track_changes
        total_landings = sum(landings.values())
        games = len(records)
        return {
            "ruleset": self.spec.ruleset,
            "players": self.spec.players,
            "games": games,
            "seed": self.spec.seed,
            "options": dict(self.spec.options),
            "turn_cap": self.spec.turn_cap,
            "finished": len(finished),
            "cut": len(records) - len(finished),
            "cut_games": [r.index for r in records if r.cut],
            # No finished game, no length: null (the text says n/a), never a 0 that reads like a figure.
            "turns": {
                "mean": round(statistics.fmean(turns), 2),
                "mean_ci95": ci95(turns),
                "median": float(statistics.median(turns)),
                "p90": percentile(turns, 0.9),
                "min": min(turns),
                "max": max(turns),
            } if turns else {"mean": None, "mean_ci95": None, "median": None, "p90": None, "min": None, "max": None},
            "inputs": sum(r.inputs for r in records),
            "wins_by_seat": {seat: sum(1 for r in finished if r.winner_seat == i) for i, seat in enumerate(seats)},
            "landings": {s.id: landings.get(s.id, 0) for s in self.board.spaces},
            "landings_total": total_landings,
            "board_switches": switches,
            "board_switches_per_game": round(switches / games, 3) if games else 0,
            "track_changes": track_changes,
            "track_changes_per_game": round(track_changes / games, 3) if games else 0,
            "pool_payouts": dict(sorted(pools.items())),
            "pool_payouts_per_game": {pool: mean_and_ci([r.tally.pool_payouts.get(pool, 0) for r in records])
                                      for pool in sorted(pools)},
            "triple_play_prizes": {str(k): v for k, v in sorted(prizes.items())},
            "triple_play_paid": sum(k * v for k, v in prizes.items()),
            "triple_play_paid_per_game": mean_and_ci([sum(k * v for k, v in r.tally.prizes.items()) for r in records]),
            "bankruptcies": dict(causes.most_common()),
            "rejected_inputs": sum(r.rejected for r in records),
            "first_rejection": next((r.first_rejection for r in records if r.first_rejection), None),
        }

    def timing(self) -> dict[str, Any]:
        """What the machine decides."""
        seconds = self.seconds

        def rate(count: float, digits: int | None = None) -> float | None:
            return round(count / seconds, digits) if seconds else None

        return {
            "seconds": round(seconds, 3),
            "workers": self.workers,
            "games_per_second": rate(len(self.records), 1),
            # Player-turns and landings are the units of play: games per second alone depends on how long games last.
            "turns_per_second": rate(sum(r.turns for r in self.records)),
            "landings_per_second": rate(sum(sum(r.tally.landings.values()) for r in self.records)),
            "inputs_per_second": rate(sum(r.inputs for r in self.records)),
            # Which build played: each compiled by Cython or from its sources (companion.compiled; the figures differ).
            "engine": companion.engine.BUILD.describe(),
            "bots": companion.sim.BUILD.describe(),
        }

    def as_json(self) -> dict[str, Any]:
        return {"results": self.results(), "timing": self.timing()}

    def as_text(self, top: int = 10) -> str:
        """The readable report."""
        res, tim = self.results(), self.timing()
        by_id = self.board.by_id
        out = [
            f"{res['ruleset']}: {res['games']} games of {res['players']} bots, seed {res['seed']}"
            + (f", options {res['options']}" if res["options"] else ""),
            f"  speed        {tim['games_per_second']} games/s, {tim['turns_per_second']} player-turns/s, "
            f"{tim['landings_per_second']} landings/s ({tim['inputs_per_second']} inputs/s, "
            f"{tim['workers']} worker{'s' if tim['workers'] != 1 else ''}, {tim['seconds']} s)",
            f"  build        engine {tim['engine']}; bots {tim['bots']}",
            f"  finished     {res['finished']}; cut by the {res['turn_cap']}-turn cap: {res['cut']}",
            (f"  turns        mean {res['turns']['mean']} {plus_minus(res['turns']['mean_ci95'], 2)} (95% CI), "
             f"median {res['turns']['median']}, p90 {res['turns']['p90']} "
             f"(finished games; min {res['turns']['min']}, max {res['turns']['max']})") if res["finished"] else
            "  turns        n/a (no game finished)",
            "  wins by seat " + ", ".join(f"{i + 1}. {seat} {n} ({100 * n / max(res['finished'], 1):.1f}%)"
                                          for i, (seat, n) in enumerate(res["wins_by_seat"].items())),
        ]
        if res["bankruptcies"]:
            out.append("  bankruptcies " + ", ".join(f"{cause} {n}" for cause, n in res["bankruptcies"].items()))
        if res["board_switches"]:
            out.append(f"  board switches {res['board_switches_per_game']} per game (elevators, bridge); "
                       f"{res['track_changes_per_game']} changes of board in all (cards, subway, airplane, jail too)")
        for pool, paid in res["pool_payouts"].items():
            per_game = res["pool_payouts_per_game"][pool]
            out.append(f"  {pool} paid out {paid} in all, {per_game['mean']:.1f} {plus_minus(per_game['ci95'])} per game")
        if res["triple_play_prizes"]:
            prizes = ", ".join(f"{n}× ${amount}" for amount, n in res["triple_play_prizes"].items())
            per_game = res["triple_play_paid_per_game"]
            out.append(f"  triple play  {prizes} (${res['triple_play_paid']} in all, "
                       f"{per_game['mean']:.1f} {plus_minus(per_game['ci95'])} per game)")
        if res["rejected_inputs"]:
            out.append(f"  bot inputs refused by the engine: {res['rejected_inputs']} (first: {res['first_rejection']})")
        total = res["landings_total"] or 1
        names = Counter(s.name for s in self.board.spaces)
        label = {s.id: s.name if names[s.name] == 1 else f"{s.name} ({s.id})" for s in self.board.spaces}
        ranked = sorted(res["landings"].items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(f"  landings     {res['landings_total']} in all; most landed on:")
        for sid, n in ranked[:top]:
            out.append(f"    {label[sid]:<32} {100 * n / total:5.2f}%")
        out.append("  landing frequency per space (board order):")
        tracks: dict[str, list[str]] = {}
        for space in self.board.spaces:
            tracks.setdefault(space.track, []).append(space.id)
        for track, ids in tracks.items():
            if len(tracks) > 1:
                out.append(f"    [{track}]")
            for sid in ids:
                n = res["landings"][sid]
                out.append(f"    {by_id[sid].index:>3} {label[sid]:<32} {n:>8} {100 * n / total:5.2f}%")
        return "\n".join(out)


def summarise(spec: GameSpec, board: Board, records: Sequence[GameRecord], seconds: float, workers: int = 1) -> Summary:
    """The summary of a run, its records in game order."""
    return Summary(spec, board, sorted(records, key=lambda r: r.index), seconds, workers)
