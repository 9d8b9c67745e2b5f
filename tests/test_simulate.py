"""``companion simulate``: bots play complete games through the engine; the run is summed up.

* the same seed gives the same results whatever the number of worker processes;
* every game ends with a winner or is reported as cut by the turn cap;
* the statistics of a small run add up, and agree with an independent replay of each game's
  inputs as a game file (``companion.gamefile.replay``: JSON lines, the same path as a journal);
* the bots find an accepted input at every prompt of every ruleset, with and without options;
* the command line prints the report, the JSON and the heat map.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest

from companion.cli import main
from companion.engine import apply, find_ruleset, new_game, public_state, ruleset_ids
from companion.gamefile import replay
from companion.sim import GameSpec, play_game
from companion.sim.command import Progress, run_games, simulate
from companion.sim.plot import heat_map_svg, label_lines, layout
from companion.sim.property import PropertyStrategy, _picker
from companion.sim.registry import strategy_for
from companion.sim.strategy import Strategy
from companion.sim.summary import percentile, summarise
from companion.sim.tally import Tally, cause_of_bankruptcy

OPTIONS = {
    "classic": [{}, {"start_cash": 500}, {"end_after_bankruptcies": 1}],
    "addon": [{}, {"transition": "even_step", "backwards": "rotate", "travel_with_dice": True},
              {"airplane": "free-parking", "bridge": ["marvin-gardens", "lombard-street"], "bridge_moves": True,
               "double_trouble": "doubles", "pool": "taxes", "one_card_each": True, "subway_fare": 50}],
}


def test_same_seed_same_results_whatever_the_workers() -> None:
    spec = GameSpec("classic", 4, seed=42)
    alone = simulate(spec, 6, workers=1)
    shared = simulate(spec, 6, workers=3)
    assert alone.results() == shared.results()
    assert [r.seed for r in alone.records] == [r.seed for r in shared.records]
    assert simulate(GameSpec("classic", 4, seed=43), 6).results() != alone.results()


def test_never_more_workers_than_games() -> None:
    few = simulate(GameSpec("chambers", 2, seed=1), 2, workers=8)
    assert few.workers == 2 and len(few.records) == 2


def test_game_seeds_depend_on_the_master_seed_and_the_index_only() -> None:
    spec = GameSpec("addon", 3, seed=5)
    first = play_game(spec, 4)
    again = play_game(spec, 4)
    assert (first.turns, first.inputs, first.winner_seat, first.tally) == \
        (again.turns, again.inputs, again.winner_seat, again.tally)
    assert len({spec.game_seed(i) for i in range(50)}) == 50


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_game_ends_or_is_reported_cut(ruleset: str) -> None:
    players = min(4, find_ruleset(ruleset).board.max_players)
    records, _ = run_games(GameSpec(ruleset, players, seed=3, turn_cap=25), 6)
    for r in records:
        assert r.cut == (r.winner_seat is None)
        assert r.turns <= 25
    summary = summarise(GameSpec(ruleset, players, seed=3, turn_cap=25), find_ruleset(ruleset).board, records, 1.0)
    res = summary.results()
    assert res["finished"] + res["cut"] == res["games"] == 6
    assert res["cut_games"] == [r.index for r in records if r.cut]
    assert res["cut"] > 0, "25 turns are too few for every game to end"
    full, _ = run_games(GameSpec(ruleset, players, seed=3), 6)
    assert all(r.winner_seat is not None and not r.cut for r in full), "a game hit the default turn cap"


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_bots_answer_every_prompt_without_refusals(ruleset: str) -> None:
    board = find_ruleset(ruleset).board
    for options in OPTIONS.get(ruleset, [{}]):
        for players in sorted({board.min_players, min(board.max_players, 4), board.max_players}):
            records, _ = run_games(GameSpec(ruleset, players, seed=9, options=options), 3)
            for r in records:
                assert r.rejected == 0, f"{ruleset} {options} {players}: {r.first_rejection}"


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_statistics_add_up_and_match_a_replay_of_the_game_files(ruleset: str) -> None:
    players = min(4, find_ruleset(ruleset).board.max_players)
    spec = GameSpec(ruleset, players, seed=17)
    games = []
    for index in range(4):
        lines: list[dict] = []
        record = play_game(spec, index, lines)
        games.append((record, lines))
    summary = summarise(spec, find_ruleset(ruleset).board, [r for r, _ in games], 1.0)
    res = summary.results()
    assert sum(res["wins_by_seat"].values()) == res["finished"] == 4
    assert res["inputs"] == sum(len(lines) - 1 for _, lines in games)
    assert res["landings_total"] == sum(res["landings"].values()) > 0
    assert set(res["landings"]) == {s.id for s in find_ruleset(ruleset).board.spaces}
    assert res["turns"]["min"] <= res["turns"]["median"] <= res["turns"]["p90"] <= res["turns"]["max"]
    assert res["triple_play_paid"] == sum(int(k) * v for k, v in res["triple_play_prizes"].items())
    landings: Counter[str] = Counter()
    pools: Counter[str] = Counter()
    for record, lines in games:
        played = replay([json.dumps(line) for line in lines])  # a simulated game is a game file like any other
        final = public_state(played.state)
        assert final["winner"] == spec.seats()[record.winner_seat]
        assert final["turn"]["number"] == record.turns
        assert played.inputs == record.inputs
        for _, event in played.events:
            if event["kind"] == "move" and event.get("to"):
                landings[event["to"]] += 1
            if event["kind"] == "pay" and event["payer"] in final["pools"]:
                pools[event["payer"]] += event["amount"]
        out = [p for p in final["players"] if p["bankrupt"]]
        assert len(record.tally.bankruptcies) == len(out)
    assert {k: v for k, v in res["landings"].items() if v} == dict(landings)
    assert res["pool_payouts"] == dict(sorted(pools.items()))
    assert sum(res["bankruptcies"].values()) == sum(len(r.tally.bankruptcies) for r, _ in games)


def test_the_bots_remembered_building_sites_are_those_of_the_state() -> None:
    """A bot remembers each street group's next building between inputs: at every state of a game, for every
    player, it answers what a bot that never saw the game before reads from that state."""
    lines: list[dict] = []
    play_game(GameSpec("classic", 4, seed=2), 0, lines)
    ruleset = find_ruleset("classic")
    remembering = PropertyStrategy(ruleset, random.Random(0))
    state, _ = new_game(lines[0]["setup"])
    builders = 0
    for line in lines[1:]:
        state, _ = apply(state, line)
        for player in state["players"]:
            fresh = PropertyStrategy(ruleset, random.Random(0)).sites(state, player["name"])
            assert remembering.sites(state, player["name"]) == fresh
            builders += bool(fresh)
    assert builders > 0  # the game had somewhere to build


def test_the_bots_holdings_are_read_from_the_spaces() -> None:
    """Who owns what, which street groups are whole, which one street is missing and from whom: at every state
    of a game, what the bot reads equals what the spaces say, worked out here the plain way."""
    lines: list[dict] = []
    play_game(GameSpec("classic", 4, seed=2), 0, lines)
    ruleset = find_ruleset("classic")
    bot = PropertyStrategy(ruleset, random.Random(0))
    street_groups = [tuple(members) for members in ruleset.board.groups.values()
                     if all(ruleset.board.by_id[m].kind == "street" for m in members)]
    state, _ = new_game(lines[0]["setup"])
    seen_wanted = seen_complete = 0
    for line in lines[1:]:
        state, _ = apply(state, line)
        spaces = state["spaces"]
        held = bot.holdings(state)
        for name in (p["name"] for p in state["players"]):
            assert held.owned.get(name, []) == [sid for sid, rec in spaces.items() if rec["owner"] == name]
            complete = [g for g in street_groups if all(spaces[m]["owner"] == name for m in g)]
            wanted = [(m, spaces[m]["owner"]) for g in street_groups for m in g
                      if spaces[m]["owner"] not in (None, name)
                      and all(spaces[k]["owner"] == name for k in g if k != m)]
            assert sorted(held.complete.get(name, [])) == sorted(complete)
            assert sorted(held.wanted.get(name, [])) == sorted(wanted)
            seen_complete += bool(complete)
            seen_wanted += bool(wanted)
    assert seen_complete and seen_wanted  # the game had whole groups and streets to trade for


def test_the_bots_raise_cash_as_documented() -> None:
    """At every debt of a few games, the bot's sale or mortgage is the one docs/simulate.md describes, worked out
    here the plain way: mortgage a property outside the groups held whole (cheapest first), then sell a building
    where its group's are highest (the cheapest houses first), then mortgage the rest; bankrupt when nothing is left."""
    board = find_ruleset("classic").board
    by_id = board.by_id
    groups = {g: m for g, m in board.groups.items() if all(by_id[x].price for x in m)}
    group_of = {m: g for g, members in groups.items() for m in members}

    def level(rec: dict) -> int:
        return 5 if rec.get("hotel") else rec.get("houses", 0)

    def documented(spaces: dict, name: str) -> dict:
        owned = [sid for sid, rec in spaces.items() if rec["owner"] == name]
        built = [sid for sid in owned if level(spaces[sid])]
        built_groups = {group_of[sid] for sid in built}
        free = [sid for sid in owned if not spaces[sid]["mortgaged"] and group_of.get(sid) not in built_groups]
        whole = {g for g, members in groups.items() if all(spaces[m]["owner"] == name for m in members)}
        loose = [sid for sid in free if group_of.get(sid) not in whole]
        if loose:
            return {"do": "mortgage", "space": min(loose, key=lambda sid: (by_id[sid].mortgage, sid))}
        if built:
            top = [sid for sid in built if level(spaces[sid]) == max(level(spaces[m]) for m in groups[group_of[sid]])]
            return {"do": "sell", "space": min(top, key=lambda sid: (by_id[sid].house, sid))}
        if free:
            return {"do": "mortgage", "space": min(free, key=lambda sid: (by_id[sid].mortgage, sid))}
        return {"do": "bankrupt"}

    kinds: Counter[str] = Counter()
    for seed in (2, 3, 4):
        lines: list[dict] = []
        play_game(GameSpec("classic", 4, seed=seed), 0, lines)
        state, _ = new_game(lines[0]["setup"])
        for line in lines[1:]:
            prompt = state["prompt"]
            if prompt and prompt["kind"] == "debt" and not state.get("trade"):
                said = line["act"] if "act" in line else {"do": line["answer"]}
                expected = documented(state["spaces"], prompt["player"])
                assert {k: v for k, v in said.items() if k != "player"} == expected
                kinds[expected["do"]] += 1
            state, _ = apply(state, line)
    assert kinds["mortgage"] and kinds["sell"] and kinds["bankrupt"], kinds  # every branch was taken


def bid_by_bid(self: Strategy, state: dict, prompt: dict) -> dict | None:
    """The bots' auction play before the bidding was played out at once: one raise (or pass) per input."""
    auction = state.get("auction")
    if not auction:
        return None
    others = [n for n in prompt["waiting"] if n != auction["bidder"]]
    for name in others:
        amount = self.next_bid(state, name, auction)
        if amount is not None:
            return {"act": {"player": name, "do": "bid", "amount": amount}}
    return {"act": {"player": others[0], "do": "pass"}}


def played_out(spec: GameSpec, index: int) -> tuple[object, dict, list[dict]]:
    """A bot game: its record, its final state but ``seq`` (the count of inputs), and its input lines."""
    lines: list[dict] = []
    record = play_game(spec, index, lines)
    rules = find_ruleset(spec.ruleset)
    state, _ = new_game(lines[0]["setup"])
    for line in lines[1:]:
        state, _ = rules.apply(state, line, table=False)
    return record, {k: v for k, v in state.items() if k != "seq"}, lines


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1924"])
def test_the_bots_bid_at_once_what_their_bidding_would_end_at(ruleset: str, monkeypatch) -> None:
    """The bots send the last bid of the bidding war they would play bid by bid, and the passes: the same games
    (winner, length, every count, the final state), with fewer inputs."""
    quick = {ruleset: strategy_for(ruleset)}
    slow = {ruleset: type("BidByBid", (quick[ruleset],), {"on_auction": bid_by_bid})}
    bids = {"quick": 0, "slow": 0}
    for players in (3, 4):
        spec = GameSpec(ruleset, players, seed=23)
        for index in range(8):
            games = {}
            for way, strategies in (("quick", quick), ("slow", slow)):
                monkeypatch.setattr("companion.sim.game.strategy_for", strategies.__getitem__)
                record, final, lines = played_out(spec, index)
                bids[way] += sum(1 for line in lines if line.get("act", {}).get("do") == "bid")
                tally = record.tally
                games[way] = (record.winner_seat, record.turns, record.cut, record.rejected, tally.landings,
                              tally.switches, tally.track_changes, tally.pool_payouts, tally.prizes, tally.bankruptcies,
                              final)
            assert games["quick"] == games["slow"], f"{ruleset}, {players} players, game {index}"
    assert 0 < bids["quick"] < bids["slow"] / 2, bids


def test_a_picker_reads_a_tuple_whatever_the_number_of_keys() -> None:
    spaces = {"a": {"owner": "Ann"}, "b": {"owner": None}}
    assert _picker(("a",))(spaces) == ({"owner": "Ann"},)
    assert _picker(("b", "a"))(spaces) == ({"owner": None}, {"owner": "Ann"})
    assert _picker((2, 0))(("Ann", "Bob", None)) == (None, "Ann")


def test_classic_games_end_with_every_other_player_bankrupt() -> None:
    records, _ = run_games(GameSpec("classic", 4, seed=21), 5)
    for r in records:
        assert len(r.tally.bankruptcies) == 3
        assert all(cause in {"rent", "tax", "income tax", "card", "jail fine", "mortgage interest",
                             "payment to a player", "payment to the bank"} for cause in r.tally.bankruptcies)


def test_means_carry_their_95_percent_confidence_interval() -> None:
    summary = simulate(GameSpec("addon", 4, seed=2), 5)
    res = summary.results()
    turns = [r.turns for r in summary.records]
    mean = sum(turns) / 5
    sd = (sum((t - mean) ** 2 for t in turns) / 4) ** 0.5  # sample standard deviation, worked out by hand
    assert res["turns"]["mean_ci95"] == round(1.96 * sd / 5 ** 0.5, 2) > 0
    pool = res["pool_payouts_per_game"]["tax-pool"]
    assert pool["mean"] == round(res["pool_payouts"]["tax-pool"] / 5, 2) and pool["ci95"] > 0
    assert res["triple_play_paid_per_game"]["mean"] == round(res["triple_play_paid"] / 5, 2)
    assert f"mean {res['turns']['mean']} ± {res['turns']['mean_ci95']:.2f} (95% CI)" in summary.as_text()
    one = simulate(GameSpec("chambers", 2, seed=1), 1)  # one game: no interval (not "± 0.0", which reads as certain)
    assert one.results()["turns"]["mean_ci95"] is None and "± n/a (95% CI)" in one.as_text()


def test_addon_counts_board_switches_tax_pool_and_triple_play() -> None:
    res = simulate(GameSpec("addon", 4, seed=2), 4).results()
    assert res["board_switches"] > 0 and res["board_switches_per_game"] == res["board_switches"] / 4
    assert res["pool_payouts"].get("tax-pool", 0) > 0
    assert set(res["triple_play_prizes"]) <= {"50", "200", "1000", "1500"} and res["triple_play_paid"] > 0


def acts_played(ruleset: str, options: dict, verb: str, games: int) -> list[dict]:
    """The acts ``verb`` the bots sent over ``games`` games (each accepted: a refused one is not in the game file)."""
    acts = []
    for index in range(games):
        lines: list = []
        record = play_game(GameSpec(ruleset, 4, seed=5, options=options), index, lines)
        assert record.rejected == 0
        acts += [line["act"] for line in lines[1:] if "act" in line and line["act"]["do"] == verb]
    return acts


def test_addon_bots_add_travel_cards_to_the_throw_with_travel_with_dice() -> None:
    """A house rule the bots ignored would be measured as "no travel cards at all"."""
    added = acts_played("addon", {"travel_with_dice": True}, "travel", 10)
    assert len(added) >= 10
    assert all("steps" in find_ruleset("addon").board.cards[c].params for act in added for c in act["cards"])


def test_addon_bots_move_the_bridge_with_bridge_moves() -> None:
    bridge = {"bridge": ["boardwalk", "canal-street"]}
    moves = acts_played("addon", {**bridge, "bridge_moves": True}, "move-bridge", 10)
    assert len(moves) >= 10
    assert not acts_played("addon", bridge, "move-bridge", 3)  # only who passed over it may: never without the option
    board = find_ruleset("addon").board
    outer = board.spaces[0].track
    assert all(board.by_id[m["outer"]].track == outer != board.by_id[m["inner"]].track for m in moves)


def test_percentile_is_the_nearest_rank() -> None:
    assert percentile(list(range(1, 11)), 0.9) == 9
    assert percentile([5], 0.9) == 5
    assert percentile([], 0.5) == 0
    assert percentile([3, 1, 2, 4], 0.5) == 2


def test_heat_map_places_every_space_once() -> None:
    for ruleset in ruleset_ids():
        board = find_ruleset(ruleset).board
        cells, width, height = layout(board)
        assert set(cells) == {s.id for s in board.spaces}
        assert len(set(cells.values())) == len(cells), f"{ruleset}: two spaces share a cell"
        assert all(0 <= c < width and 0 <= r < height for c, r in cells.values())
    board = find_ruleset("addon").board
    svg = heat_map_svg(board, {"jail": 10, "subway": 3})
    root = ElementTree.fromstring(svg)
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert len(titles) == len(board.spaces)
    assert "Jail: 10 landings (76.92%)" in titles


def test_command_line_report_json_and_plot(tmp_path) -> None:
    out = io.StringIO()
    plot = tmp_path / "landings.svg"
    code = main(["simulate", "--ruleset", "classic", "--players", "3", "--games", "3", "--seed", "4",
                 "--quiet", "--plot", str(plot)], out)
    assert code == 0
    text = out.getvalue()
    assert "classic: 3 games of 3 bots, seed 4" in text and "wins by seat" in text and "Jail" in text
    assert ElementTree.parse(plot).getroot().tag.endswith("svg")
    out = io.StringIO()
    assert main(["simulate", "--ruleset", "addon", "--games", "2", "--quiet", "--json",
                 "--option", "transition=even_step", "--option", "subway_fare=25"], out) == 0
    data = json.loads(out.getvalue())
    assert data["results"]["options"] == {"transition": "even_step", "subway_fare": 25}
    assert data["results"]["games"] == 2 and data["timing"]["games_per_second"] > 0


def test_command_line_names_a_bad_option(capsys) -> None:
    assert main(["simulate", "--ruleset", "classic", "--games", "1", "--quiet", "--option", "salary=lots"],
                io.StringIO()) == 1
    assert "option salary" in capsys.readouterr().err
    assert main(["simulate", "--ruleset", "chambers", "--players", "9", "--games", "1"], io.StringIO()) == 1
    assert "chambers is for 2 to 4 players, not 9" in capsys.readouterr().err
    assert main(["simulate", "--ruleset", "classic", "--players", "13", "--games", "1"], io.StringIO()) == 1
    assert "classic is for 2 to 8 players, not 13" in capsys.readouterr().err  # not the bots' 1 to 12 names
    for seed in ("-1", str(2 ** 64)):  # both would play the games of another seed (2**64 - 1, 0)
        assert main(["simulate", "--ruleset", "classic", "--games", "1", "--seed", seed], io.StringIO()) == 1
        assert "--seed is a whole number from 0 to 2**64 - 1" in capsys.readouterr().err


def test_heat_map_labels_mark_every_cut() -> None:
    assert label_lines("Mediterranean Avenue") == ["Mediterrane…", "Avenue"]
    assert label_lines("Tax on Personal Property 2") == ["Tax on", "Personal Pr…"]
    assert label_lines("Park Place") == ["Park Place"]


def test_progress_without_a_terminal_is_one_plain_line() -> None:
    stream = io.StringIO()
    bar = Progress(stream, 2, "classic ×4")
    bar.update(1)
    bar.update(2)
    assert stream.getvalue().startswith("classic ×4 [") and stream.getvalue().count("\n") == 1
    assert "\r" not in stream.getvalue()


def test_a_subway_ride_to_the_other_board_is_a_change_of_board_not_a_switch() -> None:
    """Board switches are the elevators' and the bridge's; cards, the subway, the airplane and jail take a token
    straight across, which the statistic left out (about 10% of the changes of board)."""
    board = find_ruleset("addon").board
    tally = Tally(tracks={s.id: s.track for s in board.spaces})
    state, _ = new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
                         "start": {"players": {"Ann": {"space": "inner-community-chest", "cards": []}, "Bob": {"cards": []}}}})
    for line in ({"roll": [1, 1]}, {"answer": "chance"}):
        after, events = apply(state, line)
        tally.observe(state, line, events)
        state = after
    assert (tally.switches, tally.track_changes) == (0, 1)
    res = simulate(GameSpec("addon", 3, seed=4), 6).results()
    assert res["track_changes"] >= res["board_switches"] > 0


def test_when_every_game_is_cut_there_is_no_length_to_show(capsys) -> None:
    out = io.StringIO()
    assert main(["simulate", "--ruleset", "classic", "--games", "2", "--quiet", "--turn-cap", "3", "--json"], out) == 0
    turns = json.loads(out.getvalue())["results"]["turns"]
    assert turns == {"mean": None, "mean_ci95": None, "median": None, "p90": None, "min": None, "max": None}
    out = io.StringIO()
    assert main(["simulate", "--ruleset", "classic", "--games", "2", "--quiet", "--turn-cap", "3"], out) == 0
    assert "turns        n/a (no game finished)" in out.getvalue()


@pytest.mark.parametrize(("args", "message"), [
    (["--plot", "heat.png"], "--plot writes an SVG heat map"),
    (["--plot", "/nowhere/at/all/heat.svg"], "--plot: there is no folder"),
    (["--option", "end_at_minutes=30"], "the bots play without one"),
])
def test_the_command_refuses_what_it_cannot_do_before_playing(capsys, args: list[str], message: str) -> None:
    assert main(["simulate", "--ruleset", "classic", "--games", "1", "--quiet", *args], io.StringIO()) == 1
    assert message in capsys.readouterr().err


def test_a_property_tax_card_is_a_card_cause() -> None:
    assert cause_of_bankruptcy({"prompt": {"kind": "debt", "player": "Ann", "creditor": "tax-pool"},
                                "queue": [["pay", "Ann", "tax-pool", 300, "in property tax"]], "pools": {"tax-pool": 0}},
                               None, {"player": "Ann"}) == "card"


def test_a_player_taken_out_without_a_prompt_has_the_cause_of_the_payment() -> None:
    """magie-1924 takes out a player with no card to sell at once: 11% of its bankruptcies read "could not pay"."""
    state, _ = new_game({"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9, "start": {"players": {
        "Ann": {"cash": 10}, "Bob": {"cards": ["rubeville"]}}, "spaces": {"rubeville": {"improvement": True}}}})
    line = {"roll": [2, 4]}
    _, events = apply(state, line)
    (out,) = [e for e in events if e["kind"] == "bankrupt"]
    assert cause_of_bankruptcy(state, line, out) == "rent"


def test_ctrl_c_stops_a_run_over_workers_with_one_line() -> None:
    """Ctrl-C reaches the whole process group, workers too: one line and exit 130, never a traceback per process."""
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "simulate", "--ruleset", "classic", "--games",
                             "100000", "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own group, as a terminal's foreground job
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        deadline = time.monotonic() + 60
        while len(children.read_text().split()) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # until both workers are forked (a Ctrl-C as they start is held back until they run)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "companion simulate: interrupted" in err
    assert out == ""


def test_timing_counts_units_of_play() -> None:
    """Speed per player-turn and per landing, not only per game (whose length varies with the rules)."""
    spec = GameSpec("classic", 3, seed=5)
    records = [play_game(spec, i) for i in range(2)]
    summary = summarise(spec, find_ruleset("classic").board, records, seconds=2.0)
    timing, results = summary.timing(), summary.results()
    assert timing["turns_per_second"] == round(sum(r.turns for r in records) / 2.0)
    assert timing["landings_per_second"] == round(results["landings_total"] / 2.0) > 0
    assert f"{timing['turns_per_second']} player-turns/s" in summary.as_text()
