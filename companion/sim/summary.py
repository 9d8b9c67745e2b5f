"""A run's results: the games' records summed up, as a table for people or JSON for tools.

``results`` holds what the seed decides (identical for any number of workers); ``timing``
holds what the machine decides (games per second).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import companion.engine
import companion.sim
from companion.engine.board import Board
from companion.words import ENGLISH, N_, Words

from .game import GameRecord, GameSpec


def ci95(values: Sequence[float]) -> float | None:
    """Half the width of the 95% confidence interval of the mean (1.96 standard errors; None below two values).

    Two runs (say ``transition=even_step`` against ``even_total``) whose intervals do not overlap differ by more
    than the luck of the dice.
    """
    if len(values) < 2:
        return None
    return round(1.96 * statistics.stdev(values) / len(values) ** 0.5, 2)


def plus_minus(ci: float | None, digits: int = 1, words: Words = ENGLISH) -> str:
    """A confidence interval as the report prints it ("± 2.3"; "± n/a" from a single game)."""
    return "± " + (words.t("n/a") if ci is None else words.decimal(ci, digits))


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

    def as_text(self, top: int = 10, words: Words = ENGLISH) -> str:
        """The readable report, in ``words``' language (English: as it always read; docs/languages.md)."""
        res, tim = self.results(), self.timing()
        w = replace(words, board=self.board)  # the board's currency and its own names of spaces
        by_id = self.board.by_id
        out = [
            w.t("{ruleset}: {games} games of {players} bots, seed {seed}", ruleset=res["ruleset"],
                games=w.number(res["games"]), players=res["players"], seed=res["seed"])
            + (w.t(", options {options}", options=res["options"]) if res["options"] else ""),
            row(w, N_("speed"), w.t("{games} games/s, {turns} player-turns/s, {landings} landings/s ({inputs} "
                                    "inputs/s, {workers}, {seconds} s)",
                                    games=figure(w, tim["games_per_second"]), turns=figure(w, tim["turns_per_second"]),
                                    landings=figure(w, tim["landings_per_second"]),
                                    inputs=figure(w, tim["inputs_per_second"]),
                                    workers=w.nt("{n} worker", "{n} workers", tim["workers"]),
                                    seconds=figure(w, tim["seconds"]))),
            # One line's msgid: "build" alone is the OLED's verb (face/choices.py), not the report's noun.
            "  " + w.t("build        engine {engine}; bots {bots}", engine=tim["engine"], bots=tim["bots"]),
            row(w, N_("finished"), w.t("{finished}; cut by the {cap}-turn cap: {cut}",
                                       finished=w.number(res["finished"]), cap=w.number(res["turn_cap"]),
                                       cut=w.number(res["cut"]))),
            row(w, N_("turns"), w.t("mean {mean} {ci} (95% CI), median {median}, p90 {p90} (finished games; min {min}, "
                                    "max {max})", mean=figure(w, res["turns"]["mean"]),
                                    ci=plus_minus(res["turns"]["mean_ci95"], 2, w),
                                    median=figure(w, res["turns"]["median"]),
                                    p90=figure(w, res["turns"]["p90"]), min=figure(w, res["turns"]["min"]),
                                    max=figure(w, res["turns"]["max"])))
            if res["finished"] else row(w, N_("turns"), w.t("n/a (no game finished)")),
            row(w, N_("wins by seat"), ", ".join(
                w.t("{place}. {seat} {n} ({share}%)", place=i + 1, seat=seat, n=w.number(n),
                    share=w.decimal(100 * n / max(res["finished"], 1), 1))
                for i, (seat, n) in enumerate(res["wins_by_seat"].items()))),
        ]
        if res["bankruptcies"]:
            out.append(row(w, N_("bankruptcies"), ", ".join(f"{cause} {w.number(n)}"
                                                           for cause, n in res["bankruptcies"].items())))
        if res["board_switches"]:
            out.append(row(w, N_("board switches"), w.t(
                "{switches} per game (elevators, bridge); {changes} changes of board in all (cards, subway, airplane, "
                "jail too)", switches=figure(w, res["board_switches_per_game"]),
                changes=figure(w, res["track_changes_per_game"]))))
        for pool, paid in res["pool_payouts"].items():
            per_game = res["pool_payouts_per_game"][pool]
            out.append("  " + w.t("{pool} paid out {paid} in all, {mean} {ci} per game", pool=pool, paid=w.number(paid),
                                  mean=w.decimal(per_game["mean"], 1), ci=plus_minus(per_game["ci95"], 1, w)))
        if res["triple_play_prizes"]:
            prizes = ", ".join(w.t("{n}× {amount}", n=w.number(n), amount=w.money(int(amount)))
                               for amount, n in res["triple_play_prizes"].items())
            per_game = res["triple_play_paid_per_game"]
            out.append(row(w, N_("triple play"), w.t("{prizes} ({paid} in all, {mean} {ci} per game)", prizes=prizes,
                                                    paid=w.money(res["triple_play_paid"]),
                                                    mean=w.decimal(per_game["mean"], 1),
                                                    ci=plus_minus(per_game["ci95"], 1, w))))
        if res["rejected_inputs"]:
            out.append("  " + w.t("bot inputs refused by the engine: {n} (first: {first})",
                                  n=w.number(res["rejected_inputs"]), first=res["first_rejection"]))
        total = res["landings_total"] or 1
        names = Counter(w.space(s.id) for s in self.board.spaces)
        label = {s.id: w.space(s.id) if names[w.space(s.id)] == 1 else f"{w.space(s.id)} ({s.id})"
                 for s in self.board.spaces}
        ranked = sorted(res["landings"].items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(row(w, N_("landings"), w.t("{n} in all; most landed on:", n=w.number(res["landings_total"]))))
        for sid, n in ranked[:top]:
            out.append(f"    {label[sid]:<32} {w.decimal(100 * n / total, 2):>5}%")
        out.append("  " + w.t("landing frequency per space (board order):"))
        tracks: dict[str, list[str]] = {}
        for space in self.board.spaces:
            tracks.setdefault(space.track, []).append(space.id)
        for track, ids in tracks.items():
            if len(tracks) > 1:
                out.append(f"    [{track}]")
            for sid in ids:
                n = res["landings"][sid]
                out.append(f"    {by_id[sid].index:>3} {label[sid]:<32} {w.number(n):>8} "
                           f"{w.decimal(100 * n / total, 2):>5}%")
        return "\n".join(out)


def row(words: Words, label: str, text: str) -> str:
    """A line of the report: its label (a msgid marked ``N_``) in a column of 12, then what it says."""
    return f"  {words.t(label):<12} {text}"


def figure(words: Words, value: float | None) -> str:
    """A figure as the results hold it (already rounded) in the language's digits; English as Python prints it."""
    return str(value) if words.english or value is None else words.number(value)


def summarise(spec: GameSpec, board: Board, records: Sequence[GameRecord], seconds: float, workers: int = 1) -> Summary:
    """The summary of a run, its records in game order."""
    return Summary(spec, board, sorted(records, key=lambda r: r.index), seconds, workers)
