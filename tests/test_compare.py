"""``companion simulate --compare``: the same games under two sets of options, compared pair by pair.

* B equal to A plays the very same games: every difference is 0 and its interval holds 0;
* a rule with a known direction is found with the right sign (no salary: less cash in play, less rent);
* the figures are those of the records (paired means, the delta method's relative interval, the ratio of sums);
* the command prints the table and the sentences, the JSON holds everything, ``--plot`` draws an SVG; its mistakes
  are one line; any number of workers gives the same figures.
"""

from __future__ import annotations

import io
import json
import math
import statistics
from xml.etree import ElementTree

import pytest

from companion.cli import main
from companion.sim import GameSpec
from companion.sim.command import compare
from companion.sim.compare import describe, paired, ratio_of_sums, relative_words

PAIRS = 24


def run(changes: dict, baseline: dict | None = None, pairs: int = PAIRS, workers: int = 1):
    a = GameSpec("classic", 4, seed=3, options=baseline or {}, pace=40.0)
    b = GameSpec("classic", 4, seed=3, options={**(baseline or {}), **changes}, pace=40.0)
    return compare(a, b, changes, pairs, workers)


def test_b_equal_to_a_plays_the_same_games_and_every_interval_holds_zero() -> None:
    result = run({"salary": 200})  # the board's own value: the same rules
    for (a, b) in result.pairs:
        assert (a.turns, a.winner_seat, a.tally.cash, a.tally.rent) == \
            (b.turns, b.winner_seat, b.tally.cash, b.tally.rent)
    for name, fig in result.figures().items():
        if fig.get("ci95") is not None:
            low, high = fig["ci95"]
            assert fig["difference"] == 0 and low <= 0 <= high, name
        if "relative" in fig:
            assert fig["relative"] == 0 and fig["relative_ci95"][0] <= 0 <= fig["relative_ci95"][1], name
    assert "no clear difference" in result.sentences()[0]


def test_no_salary_makes_cash_in_play_fall() -> None:
    figures = run({"salary": 0}).figures()
    cash = figures["cash_in_play"]
    assert cash["b"] < cash["a"] and cash["ci95"][1] < 0 and cash["relative_ci95"][1] < 0  # the right sign, clearly
    assert figures["rent_paid"]["difference"] < 0


def test_the_free_parking_pool_is_reported_when_b_has_it() -> None:
    result = run({"free_parking": "fees-and-seed", "free_parking_seed": 500})
    figures = result.figures()
    payouts, size = figures["payouts_free-parking"], figures["payout_size_free-parking"]
    assert payouts["a"] == 0 and payouts["b"] > 0 and size["a"] is None and size["b"] >= 500  # a seed at least
    total = sum(b.tally.pool_payouts["free-parking"] for _, b in result.pairs)
    count = sum(b.tally.pool_payout_count["free-parking"] for _, b in result.pairs)
    assert size["b"] == total / count
    assert any("Free parking pays out 0.00 →" in s for s in result.sentences())
    assert result.sentences()[0].startswith("Free parking fees and seed, free parking seed $500: ")


def test_paired_figures_as_worked_out_by_hand() -> None:
    fig = paired([10, 20, 30], [12, 21, 36])
    assert fig["a"] == 20 and fig["b"] == 23 and fig["difference"] == 3
    half = 1.96 * statistics.stdev([2, 1, 6]) / math.sqrt(3)
    assert fig["ci95"] == pytest.approx([3 - half, 3 + half])
    lin = [(y - 1.15 * x) / 20 for x, y in ((10, 12), (20, 21), (30, 36))]
    half_r = 1.96 * statistics.stdev(lin) / math.sqrt(3)
    assert fig["relative"] == pytest.approx(0.15)
    assert fig["relative_ci95"] == pytest.approx([0.15 - half_r, 0.15 + half_r])
    sizes = ratio_of_sums([100, 0, 300], [1, 0, 2], [0, 0, 0], [0, 0, 0])
    assert sizes["a"] == pytest.approx(400 / 3) and sizes["b"] is None and sizes["difference"] is None


def test_sentences_say_the_direction_and_the_interval() -> None:
    longer = {"relative": 0.31, "relative_ci95": [0.27, 0.35]}
    assert relative_words(longer, "games last", "longer", "shorter", "as long") == \
        "games last 31% longer (95% CI 27–35%)"
    shorter = {"relative": -0.2, "relative_ci95": [-0.25, -0.15]}
    assert relative_words(shorter, "games last", "longer", "shorter", "as long") == \
        "games last 20% shorter (95% CI 15–25%)"
    unclear = {"relative": 0.01, "relative_ci95": [-0.02, 0.04]}
    assert relative_words(unclear, "games last", "longer", "shorter", "as long").startswith("no clear difference")
    same = {"relative": 0.001, "relative_ci95": [-0.03, 0.03]}
    assert relative_words(same, "games last", "longer", "shorter", "as long") == \
        "no clear difference: games last as long (95% CI -3% to +3%)"
    assert describe("classic", {"deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2}) == \
        "Official short game"


def test_the_same_figures_whatever_the_workers() -> None:
    assert run({"auctions": False}, pairs=6).figures() == run({"auctions": False}, pairs=6, workers=2).figures()


def test_the_command_prints_the_table_the_json_and_the_plot(tmp_path) -> None:
    out = io.StringIO()
    plot = tmp_path / "compare.svg"
    assert main(["simulate", "--ruleset", "classic", "--games", "4", "--quiet", "--compare", "go_landing_bonus=true",
                 "--baseline", "start_cash=1000", "--pace", "30", "--plot", str(plot)], out) == 0
    text = out.getvalue()
    assert "classic: 4 pairs of games of 4 bots, seed 0" in text and "length (minutes at 30 s a turn)" in text
    assert "Go landing bonus on (against Start cash 1000): " in text and "drawn in" in text
    svg = ElementTree.parse(plot).getroot()
    assert svg.tag.endswith("svg") and len(svg.findall(".//{http://www.w3.org/2000/svg}polyline")) == 4
    out = io.StringIO()
    assert main(["simulate", "--ruleset", "classic", "--games", "3", "--quiet", "--json",
                 "--compare", "auctions=false", "rent_in_jail=false"], out) == 0
    data = json.loads(out.getvalue())["results"]
    assert data["pairs"] == 3 and data["b"]["changes"] == {"auctions": False, "rent_in_jail": False}
    assert data["pace_seconds"] == 40 and len(data["length_turns"]["a"]) == 3
    assert data["cash_in_play_curve"]["turns"][0] == 1
    assert {"length_turns", "length_minutes", "ends_turn_cap", "first_player_wins", "cash_in_play",
            "rent_paid"} <= set(data["figures"])


def test_a_time_limit_ends_games_at_the_pace_given() -> None:
    result = run({"end_at_minutes": 30}, pairs=4)  # 30 minutes at 40 s a player-turn: the clock strikes at turn 46
    longer = [(a, b) for a, b in result.pairs if a.turns > 46]
    assert longer and all(b.ended == "time limit" and b.turns == 46 for _, b in longer)
    assert result.figures()["ends_time_limit"]["b"] == len(longer) / 4


def test_several_b_against_one_a_make_a_table_a_row_each() -> None:
    out = io.StringIO()
    assert main(["simulate", "--ruleset", "classic", "--games", "3", "--quiet", "--compare", "auctions=false",
                 "--compare", "deal_deeds=2", "houses_before_hotel=3", "end_after_bankruptcies=2"], out) == 0
    lines = out.getvalue().splitlines()
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| B ")]
    assert [row.split(" | ")[0] for row in rows] == ["| Auctions off", "| Official short game"]
    assert sum(line.startswith("• Auctions off: ") or line.startswith("• Official short game: ") for line in lines) == 2
    single = run({"auctions": False}, pairs=3)  # the same A games: each B's figures as if compared alone
    out = io.StringIO()
    assert main(["simulate", "--ruleset", "classic", "--games", "3", "--seed", "3", "--quiet", "--json",
                 "--compare", "auctions=false", "--compare", "salary=0"], out) == 0
    both = json.loads(out.getvalue())["comparisons"]
    assert [c["b"]["changes"] for c in both] == [{"auctions": False}, {"salary": 0}]
    assert both[0]["figures"]["length_turns"] == single.figures()["length_turns"]


@pytest.mark.parametrize(("args", "message"), [
    (["--compare", "salary=0", "--games", "1"], "at least 2 pairs"),
    (["--compare", "salary=lots"], "option salary"),
    (["--compare", "salary=0", "--pace", "0"], "--pace is the seconds"),
    (["--baseline", "salary=0"], "--baseline goes with --compare"),
    (["--compare", "salary=0", "--plot", "x.png"], "--plot writes an SVG picture"),
    (["--compare", "salary=0", "--compare", "auctions=false", "--plot", "x.svg"], "--plot draws one comparison"),
])
def test_compare_mistakes_are_one_line(capsys, args: list[str], message: str) -> None:
    assert main(["simulate", "--ruleset", "classic", "--quiet", *args], io.StringIO()) == 1
    assert message in capsys.readouterr().err
