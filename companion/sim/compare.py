"""``companion simulate --compare``: the same games under two sets of options, and what the change does.

Pair ``i`` plays game ``i`` of the run twice, under options A (the board's, or ``--baseline``) and B (A with
``--compare``): the same seed, so the same shuffles and the same dice in the same order (the bots' dice come from
their own per-game generator, which nothing else draws from: common random numbers). Each figure is a per-game
number; its difference B − A is taken game by game, so the luck of the dice that both games share cancels out, and
its 95% confidence interval is the paired one (1.96 standard errors of the mean difference). A relative difference
(B / A − 1, of the means) has its interval from the delta method: the standard error of the mean of
``(b − r·a) / mean(a)``, with ``r`` the ratio of the means. The mean size of a pool's payouts is a ratio of sums
(paid out / payouts), compared the same way.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import companion.engine
import companion.sim
from companion.engine import find_ruleset
from companion.words import ENGLISH, N_, Words

from .game import GameRecord, GameSpec, play_game
from .summary import figure
from .tally import CASH_STEP

Z95 = 1.96
#: The ways a game ends, as GameRecord.ended names them, and how the report says them.
ENDINGS = {"bankruptcy": N_("one player left (bankruptcies)"),
           "bankruptcy limit": N_("the bankruptcy limit (worth wins)"),
           "time limit": N_("the time limit (worth wins)"), "turn cap": N_("cut by the turn cap (no winner)")}
#: How the sentences say a relative change (relative_words): the lead, more, less, the same.
LONGER = (N_("games last"), N_("longer"), N_("shorter"), N_("as long"))
MORE_HELD = (N_("on average"), N_("more"), N_("less"), N_("as much"))
MORE = ("", N_("more"), N_("less"), N_("as much"))
#: Curves of the cash in play stop where fewer games than this share of the pairs are still going.
CURVE_SHARE = 0.1


def play_arms(specs: Sequence[GameSpec], index: int) -> tuple[GameRecord, ...]:
    """Game ``index`` under A and under each B (the same seed: the same shuffles and dice)."""
    return tuple(play_game(spec, index) for spec in specs)


def paired(a: Sequence[float], b: Sequence[float], *, relative: bool = True) -> dict[str, Any]:
    """The means of A and B, the mean paired difference B − A with its 95% CI, and (``relative``, when A's mean is
    above zero) the relative difference B / A − 1 with its 95% CI by the delta method."""
    n = len(a)
    mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
    diffs = [y - x for x, y in zip(a, b)]
    diff = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.nan
    out: dict[str, Any] = {"a": mean_a, "b": mean_b, "difference": diff, "ci95": [diff - half, diff + half]}
    if relative and mean_a > 0:
        ratio = mean_b / mean_a
        linear = [(y - ratio * x) / mean_a for x, y in zip(a, b)]
        half_r = Z95 * statistics.stdev(linear) / math.sqrt(n) if n > 1 else math.nan
        out.update(relative=ratio - 1, relative_ci95=[ratio - 1 - half_r, ratio - 1 + half_r])
    return out


def ratio_of_sums(y_a: Sequence[float], x_a: Sequence[float], y_b: Sequence[float],
                  x_b: Sequence[float]) -> dict[str, Any]:
    """ΣY / ΣX for A and B (a mean per payout: None where X never happened) and their paired difference, its 95% CI
    from each game's linearised share ``(y − R·x) / mean(x)``."""
    def arm(y: Sequence[float], x: Sequence[float]) -> tuple[float | None, list[float]]:
        if not sum(x):
            return None, [0.0] * len(x)
        ratio, mean_x = sum(y) / sum(x), statistics.fmean(x)
        return ratio, [(yi - ratio * xi) / mean_x for xi, yi in zip(x, y)]

    (r_a, lin_a), (r_b, lin_b) = arm(y_a, x_a), arm(y_b, x_b)
    out: dict[str, Any] = {"a": r_a, "b": r_b, "difference": None, "ci95": None}
    if r_a is not None and r_b is not None and len(lin_a) > 1:
        diff = r_b - r_a
        half = Z95 * statistics.stdev([q - p for p, q in zip(lin_a, lin_b)]) / math.sqrt(len(lin_a))
        out.update(difference=diff, ci95=[diff - half, diff + half])
    return out


def ended_by(ending: str, record: GameRecord) -> float:
    """1 for a game that ended so (a GameRecord.ended), else 0."""
    return float(record.ended == ending)


def payouts(pool: str, record: GameRecord) -> float:
    """How many times ``pool`` paid out in the game."""
    return record.tally.pool_payout_count.get(pool, 0)


def paid_out(pool: str, record: GameRecord) -> float:
    """How much ``pool`` paid out in the game, in all."""
    return record.tally.pool_payouts.get(pool, 0)


def cash_in_play(record: GameRecord) -> float:
    """The cash the players in the game held, on average over the game's samples (one every CASH_STEP turns)."""
    return statistics.fmean(record.tally.cash) if record.tally.cash else 0.0


def curve(records: Sequence[GameRecord], least: int) -> tuple[list[float], list[int]]:
    """The mean cash in play at each sample over the games still going then, and how many were, while at least
    ``least`` were."""
    means, counts = [], []
    for k in range(max((len(r.tally.cash) for r in records), default=0)):
        going = [r.tally.cash[k] for r in records if len(r.tally.cash) > k]
        if len(going) < least:
            break
        means.append(statistics.fmean(going))
        counts.append(len(going))
    return means, counts


def words(value: Any, said: Words = ENGLISH) -> str:
    """An option's name or value in words ("free parking", "fees and seed", "on"; on and off in ``said``'s
    language, the names as the ruleset spells them)."""
    if isinstance(value, bool):
        return said.t("on") if value else said.t("off")
    return str(value).replace("_", " ").replace("-and-", " and ").replace("-", " ")


def describe(ruleset: str, options: Mapping[str, Any], said: Words = ENGLISH) -> str:
    """Options as a group reads them: a preset by its name ("Official short game"), else each "name value"."""
    if not options:
        return said.t("the book's rules")
    for preset in find_ruleset(ruleset).presets:
        if dict(preset.options) == dict(options):
            return preset.text.split(":")[0]
    text = ", ".join(f"{words(k)} {'$' if isinstance(v, int) and not isinstance(v, bool) and 'seed' in k else ''}"
                     f"{words(v, said)}" for k, v in options.items())
    return text[:1].upper() + text[1:]


@dataclass
class Comparison:
    """The pairs of a ``--compare`` run and everything reported about them."""

    spec_a: GameSpec
    spec_b: GameSpec
    changes: Mapping[str, Any]  # what B changes (the --compare options)
    pairs: Sequence[tuple[GameRecord, GameRecord]]
    seconds: float
    workers: int = 1

    @property
    def records_a(self) -> list[GameRecord]:
        return [a for a, _ in self.pairs]

    @property
    def records_b(self) -> list[GameRecord]:
        return [b for _, b in self.pairs]

    def per_game(self, figure: Callable[[GameRecord], float]) -> tuple[list[float], list[float]]:
        return [figure(a) for a, _ in self.pairs], [figure(b) for _, b in self.pairs]

    def figures(self) -> dict[str, dict[str, Any]]:
        """Each figure: A, B, the paired difference and its 95% CI (and the relative one where it means something)."""
        pace = self.spec_a.pace
        found: dict[str, dict[str, Any]] = {
            "length_turns": paired(*self.per_game(lambda r: r.turns)),
            "length_minutes": paired(*self.per_game(lambda r: r.turns * pace / 60)),
        }
        for ending in ENDINGS:
            key = f"ends_{ending.replace(' ', '_')}"
            found[key] = paired(*self.per_game(partial(ended_by, ending)), relative=False)
        found["first_player_wins"] = paired(*self.per_game(lambda r: float(r.winner_seat == 0)), relative=False)
        found["cash_in_play"] = paired(*self.per_game(cash_in_play))
        found["rent_paid"] = paired(*self.per_game(lambda r: r.tally.rent))
        pools = sorted({p for r in (*self.records_a, *self.records_b) for p in r.tally.pool_payout_count}
                       | {p for p in find_ruleset(self.spec_a.ruleset).pools(self.options("a"))}
                       | {p for p in find_ruleset(self.spec_b.ruleset).pools(self.options("b"))})
        for pool in pools:
            counts = self.per_game(partial(payouts, pool))
            amounts = self.per_game(partial(paid_out, pool))
            found[f"payouts_{pool}"] = paired(*counts)
            found[f"paid_out_{pool}"] = paired(*amounts)
            found[f"payout_size_{pool}"] = ratio_of_sums(amounts[0], counts[0], amounts[1], counts[1])
        return found

    def options(self, arm: str) -> dict[str, Any]:
        """The full options of arm A or B (the board's with those given)."""
        spec = self.spec_a if arm == "a" else self.spec_b
        return {**find_ruleset(spec.ruleset).board.options, **spec.options}

    def curves(self) -> dict[str, Any]:
        least = max(1, math.ceil(CURVE_SHARE * len(self.pairs)))
        a, a_games = curve(self.records_a, least)
        b, b_games = curve(self.records_b, least)
        return {"turns": [1 + CASH_STEP * k for k in range(max(len(a), len(b)))], "a": a, "b": b,
                "a_games": a_games, "b_games": b_games}

    def sentences(self, figures: Mapping[str, dict[str, Any]] | None = None, words: Words = ENGLISH) -> list[str]:
        """What the figures say, in sentences a group can read aloud (in ``words``' language)."""
        f, w = figures or self.figures(), words
        label = describe(self.spec_b.ruleset, self.changes, w)
        against = "" if not self.spec_a.options else w.t(" (against {a})", a=describe(self.spec_a.ruleset,
                                                                                       self.spec_a.options, w))
        length, minutes = f["length_turns"], f["length_minutes"]
        out = [w.t("{label}{against}: {length}: {a} → {b} minutes at {pace} s a player-turn", label=label,
                   against=against, length=relative_words(length, *LONGER, words=w),
                   a=w.decimal(minutes["a"], 0), b=w.decimal(minutes["b"], 0), pace=pace_words(w, self.spec_a.pace))]
        cash, rent = f["cash_in_play"], f["rent_paid"]
        out.append(w.t("Cash the players hold: {held} ({a} → {b}, mean over each game)",
                       held=relative_words(cash, *MORE_HELD, words=w),
                       a=w.money(round(cash["a"])), b=w.money(round(cash["b"]))))
        out.append(w.t("Rent paid: {change} per game ({a} → {b})",
                       change=relative_words(rent, *MORE, words=w),
                       a=w.money(round(rent["a"])), b=w.money(round(rent["b"]))))
        first = f["first_player_wins"]
        out.append(w.t("The first player wins {a}% → {b}% of games ({verdict}; a fair seat wins {fair}%)",
                       a=w.decimal(100 * first["a"], 1), b=w.decimal(100 * first["b"], 1),
                       verdict=points_words(first, w), fair=w.decimal(100 / self.spec_a.players, 0)))
        ends = [(w.t(ENDINGS[e]), f[f"ends_{e.replace(' ', '_')}"]) for e in ENDINGS]
        endings = "; ".join(w.t("{ending} {a}% → {b}%", ending=name, a=w.decimal(100 * fig["a"], 1),
                                b=w.decimal(100 * fig["b"], 1)) for name, fig in ends if fig["a"] or fig["b"])
        out.append(w.t("Games end by {endings}", endings=endings))
        for key in f:
            if key.startswith("payouts_"):
                pool = key.removeprefix("payouts_")
                count, size = f[key], f[f"payout_size_{pool}"]
                # "none" alone is the OLED's msgid for "done" (face): here it is a pool that never paid out.
                nothing = "none" if w.english else w.t("never paid out")
                sizes = " → ".join(nothing if s is None else w.money(round(s)) for s in (size["a"], size["b"]))
                out.append(w.t("{pool} pays out {a} → {b} times a game, {sizes} each on average",
                               pool=find_ruleset(self.spec_a.ruleset).pool_name(pool), a=w.decimal(count["a"], 2),
                               b=w.decimal(count["b"], 2), sizes=sizes))
        return out

    def results(self, words: Words = ENGLISH) -> dict[str, Any]:
        """Everything about the pairs as JSON data (its ``sentences`` in ``words``' language: English for --json)."""
        figures = self.figures()
        return {
            "ruleset": self.spec_a.ruleset, "players": self.spec_a.players, "pairs": len(self.pairs),
            "seed": self.spec_a.seed, "turn_cap": self.spec_a.turn_cap, "pace_seconds": self.spec_a.pace,
            "a": {"options": dict(self.spec_a.options),
                  "described": describe(self.spec_a.ruleset, self.spec_a.options)},
            "b": {"options": dict(self.spec_b.options), "changes": dict(self.changes),
                  "described": describe(self.spec_b.ruleset, self.changes)},
            "figures": figures, "sentences": self.sentences(figures, words),
            "length_turns": {"a": [r.turns for r in self.records_a], "b": [r.turns for r in self.records_b]},
            "cash_in_play_curve": self.curves(),
            "rejected_inputs": sum(r.rejected for pair in self.pairs for r in pair),
        }

    def timing(self) -> dict[str, Any]:
        games = 2 * len(self.pairs)
        return {"seconds": round(self.seconds, 3), "workers": self.workers,
                "games_per_second": round(games / self.seconds, 1) if self.seconds else None,
                "engine": companion.engine.BUILD.describe(), "bots": companion.sim.BUILD.describe()}

    def as_json(self) -> dict[str, Any]:
        return {"results": self.results(), "timing": self.timing()}

    def as_text(self, words: Words = ENGLISH) -> str:
        """The readable report, in ``words``' language."""
        w = words
        res, tim = self.results(w), self.timing()
        figures = res["figures"]
        out = [w.t("{ruleset}: {pairs} pairs of games of {players} bots, seed {seed}", ruleset=res["ruleset"],
                   pairs=w.number(res["pairs"]), players=res["players"], seed=res["seed"]),
               "  A  " + describe(self.spec_a.ruleset, self.spec_a.options, w)
               + (f" {res['a']['options']}" if res["a"]["options"] else ""),
               f"  B  {describe(self.spec_b.ruleset, self.changes, w)} {res['b']['changes']}",
               "  " + w.t("Each pair: the same game (seed, shuffles, dice) under A and B; B − A is paired, with its "
                          "95% CI."),
               "  " + w.t("speed {games} games/s ({workers}, {seconds} s); engine {engine}; bots {bots}",
                          games=figure(w, tim["games_per_second"]),
                          workers=w.nt("{n} worker", "{n} workers", tim["workers"]), seconds=figure(w, tim["seconds"]),
                          engine=tim["engine"], bots=tim["bots"]),
               "",
               "  " + w.t("figure (per game)").ljust(36) + "A".rjust(10) + "B".rjust(10) + "   "
               + w.t("B − A (95% CI)").ljust(34) + w.t("relative (95% CI)")]
        for key, fig in figures.items():
            if key.startswith("ends_") and not (fig["a"] or fig["b"]):
                continue  # an ending neither rule set reached (in the JSON all the same)
            out.append("  " + table_row(figure_name(key, res["pace_seconds"], w), fig,
                                        percent=key.startswith(("ends_", "first_")), words=w))
        out.append("")
        out += [f"  • {s}" for s in res["sentences"]]
        if res["rejected_inputs"]:
            out.append("  " + w.t("bot inputs refused by the engine: {n}", n=w.number(res["rejected_inputs"])))
        return "\n".join(out)


def figure_name(key: str, pace: float, words: Words = ENGLISH) -> str:
    """A figure's row name in the table (``words``' language); an ending or a pool by its id."""
    w = words
    names = {"length_turns": N_("length (player-turns)"), "first_player_wins": N_("first player wins"),
             "cash_in_play": N_("cash in play (mean over the game)"), "rent_paid": N_("rent paid")}
    if key == "length_minutes":
        return w.t("length (minutes at {pace} s a turn)", pace=pace_words(w, pace))
    if key in names:
        return w.t(names[key])
    if key.startswith("ends_"):
        return w.t("ends: {ending}", ending=key.removeprefix("ends_").replace("_", " "))
    for prefix, what in (("payouts_", N_("payouts")), ("paid_out_", N_("paid out")),
                         ("payout_size_", N_("mean payout"))):
        if key.startswith(prefix):
            return f"{key.removeprefix(prefix)}: {w.t(what)}"
    return key


def pace_words(words: Words, pace: float) -> str:
    """Seconds of a player-turn as the report writes them ("40", "12.5"; as Python's ``:g`` in English)."""
    return f"{pace:g}" if words.english else words.number(float(f"{pace:g}"))


def fixed(words: Words, value: float, digits: int, signed: bool = False) -> str:
    """A number with ``digits`` decimals, with its sign when ``signed`` ("+3.1"; as Python's format in English)."""
    if words.english:
        return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    text = words.decimal(abs(value), digits)
    return ("-" if value < 0 else "+" if signed else "") + text


def number(value: float | None, percent: bool, signed: bool = False, words: Words = ENGLISH) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return words.t("n/a")
    if percent:
        return fixed(words, 100 * value, 1, True) if signed else fixed(words, 100 * value, 1) + "%"
    return fixed(words, value, 1, signed)


def table_row(name: str, fig: Mapping[str, Any], *, percent: bool, words: Words = ENGLISH) -> str:
    w = words
    ci = fig.get("ci95")
    diff = number(fig.get("difference"), percent, True, w) + (" " + w.t("pts") if percent else "")
    interval = w.t("({lo} to {hi})", lo=number(ci[0], percent, True, w),
                   hi=number(ci[1], percent, True, w)) if ci else ""
    rel = ""
    if "relative" in fig:
        lo, hi = fig["relative_ci95"]
        rel = w.t("{change}% ({lo} to {hi}%)", change=fixed(w, 100 * fig["relative"], 1, True),
                  lo=fixed(w, 100 * lo, 1, True), hi=fixed(w, 100 * hi, 1, True))
    a, b = number(fig["a"], percent, words=w), number(fig["b"], percent, words=w)
    return f"{name:<36}{a:>10}{b:>10}   {diff + ' ' + interval:<34}{rel}"


def relative_words(fig: Mapping[str, Any], lead: str, more: str, less: str, same: str,
                   words: Words = ENGLISH) -> str:
    """"games last 31% longer (95% CI 27–35%)", or "no clear difference (95% CI −2–3%)" when the CI holds 0; the
    words (msgids marked ``N_`` where they are given) in ``words``' language."""
    w = words
    lead = f"{w.t(lead)} " if lead else ""
    more, less, same = w.t(more), w.t(less), w.t(same)
    if "relative" not in fig:
        return w.t("{lead}{same} (A is 0: no relative change)", lead=lead, same=same)
    rel, (lo, hi) = fig["relative"], fig["relative_ci95"]
    if lo <= 0 <= hi:
        change = w.t("{pct}% {more}", pct=fixed(w, abs(100 * rel), 0), more=more if rel >= 0 else less) \
            if round(abs(100 * rel)) else same
        return w.t("no clear difference: {lead}{change} (95% CI {lo}% to {hi}%)", lead=lead, change=change,
                   lo=fixed(w, 100 * lo, 0, True), hi=fixed(w, 100 * hi, 0, True))
    if rel > 0:
        return w.t("{lead}{pct}% {change} (95% CI {lo}–{hi}%)", lead=lead, pct=fixed(w, 100 * rel, 0), change=more,
                   lo=fixed(w, 100 * lo, 0), hi=fixed(w, 100 * hi, 0))
    return w.t("{lead}{pct}% {change} (95% CI {lo}–{hi}%)", lead=lead, pct=fixed(w, -100 * rel, 0), change=less,
               lo=fixed(w, -100 * hi, 0), hi=fixed(w, -100 * lo, 0))


def points_words(fig: Mapping[str, Any], words: Words = ENGLISH) -> str:
    w = words
    lo, hi = fig["ci95"]
    verdict = w.t("no clear difference") if lo <= 0 <= hi else w.t("a clear difference")
    return w.t("{verdict}: {diff} points, 95% CI {lo} to {hi}", verdict=verdict,
               diff=fixed(w, 100 * fig["difference"], 1, True), lo=fixed(w, 100 * lo, 1, True),
               hi=fixed(w, 100 * hi, 1, True))


@dataclass
class Comparisons:
    """Several B's against one A (``--compare`` given more than once): A's games played once, each B's on the same
    seeds; one table, a row per B, and each B's sentences."""

    comparisons: Sequence[Comparison]

    def as_json(self) -> dict[str, Any]:
        return {"comparisons": [c.results() for c in self.comparisons], "timing": self.comparisons[0].timing()}

    def as_text(self, words: Words = ENGLISH) -> str:
        """The table and each B's sentences, in ``words``' language."""
        w = words
        first = self.comparisons[0]
        spec = first.spec_a
        out = [w.t("{ruleset}: {pairs} games of {players} bots under A and under each B, seed {seed} (the same seeds "
                   "and dice); B − A paired, relative to A, with its 95% CI", ruleset=spec.ruleset,
                   pairs=w.number(len(first.pairs)), players=spec.players, seed=spec.seed),
               w.t("A: {a}; minutes at {pace} s a player-turn", a=describe(spec.ruleset, spec.options, w),
                   pace=pace_words(w, spec.pace)), "",
               w.t("| B | game length | minutes | cash in play | rent paid | first player wins | pool payouts a game "
                   "|"),
               "|---|---|---|---|---|---|---|"]
        for c in self.comparisons:
            f = c.figures()
            pools = ", ".join(f"{find_ruleset(spec.ruleset).pool_name(k.removeprefix('payouts_'))} "
                              f"{fixed(w, f[k]['a'], 2)} → {fixed(w, f[k]['b'], 2)}"
                              for k in f if k.startswith("payouts_"))
            minutes = f["length_minutes"]
            first_wins = f["first_player_wins"]
            out.append(f"| {describe(spec.ruleset, c.changes, w)} | {relative_cell(f['length_turns'], w)} | "
                       f"{fixed(w, minutes['a'], 0)} → {fixed(w, minutes['b'], 0)} | "
                       f"{relative_cell(f['cash_in_play'], w)} | {relative_cell(f['rent_paid'], w)} | "
                       f"{fixed(w, 100 * first_wins['a'], 1)}% → {fixed(w, 100 * first_wins['b'], 1)}% "
                       f"| {pools or '—'} |")
        for c in self.comparisons:
            out += ["", *(f"• {s}" for s in c.sentences(words=w))]
        return "\n".join(out)


def relative_cell(fig: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """A relative difference and its 95% CI, short: "+12% (8 to 16)"; "n/a" when A is 0."""
    if "relative" not in fig:
        return words.t("n/a")
    lo, hi = fig["relative_ci95"]
    return words.t("{change}% ({lo} to {hi})", change=fixed(words, 100 * fig["relative"], 0, True),
                   lo=fixed(words, 100 * lo, 0, True), hi=fixed(words, 100 * hi, 0, True))
