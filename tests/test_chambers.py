"""``chambers`` beyond the bundled board's game files: deck order, editions with other paths, board checks."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import BoardError, find_ruleset, public_state
from companion.engine.rules import load_ruleset
from companion.gamefile import replay

CARDS = """
[[cards]]
id = "a-exchange"
deck = "a"
do = "exchange"
[[cards]]
id = "a-safe"
deck = "a"
do = "keep"
use = "snare"
[[cards]]
id = "a-safe-2"
deck = "a"
do = "keep"
use = "snare"
[[cards]]
id = "b-safe"
deck = "b"
do = "keep"
use = "snare"
"""


def edition(tmp_path: Path, a: str, b: str, *, extra: str = CARDS, tables: str = "") -> Path:
    """A board file with chambers ``a`` and ``b`` whose spaces are given as kind letters (s start, . step, x snare)."""
    kinds = {"s": "start", ".": "step", "x": "snare"}
    rows = [f'  {{ id = "{c}-{i}", kind = "{kinds[k]}", track = "{c}" }},'
            for c, letters in (("a", a), ("b", b)) for i, k in enumerate(letters)]
    text = "\n".join([
        "spaces = [", *rows, '  { id = "door", kind = "door", track = "door" },', "]", extra,
        '[game]\nruleset = "chambers"\nplayers = [2, 4]',
        '[chambers]\na = "chamber A"\nb = "chamber B"',
        "[die]\ndraw = [1]\ndraw_or_move = [6]",
        tables,
    ])
    path = tmp_path / "edition.toml"
    path.write_text(text)
    return path


def run(rules, setup: dict, *lines: dict) -> dict:
    state, _ = rules.new_game({"ruleset": "chambers", "players": ["Ann", "Bob"], "seed": 1, **setup})
    for line in lines:
        state, _ = rules.apply(state, line)
    return state


def test_a_played_exchange_goes_under_before_the_cards_it_sends_back() -> None:
    state = run(find_ruleset("chambers"),
                {"stack": {"keys": ["keys-exchange"]},
                 "start": {"players": {"Ann": {"space": "keys-4", "cards": ["keys-safe"]}, "Bob": {"space": "chess-1"}}}},
                {"roll": [1]})
    assert state["decks"]["keys"][-2:] == ["keys-exchange", "keys-safe"]
    assert [p["space"] for p in state["players"]] == ["chess-1", "keys-4"]


def test_cards_go_back_in_the_order_they_were_drawn() -> None:
    state = run(find_ruleset("chambers"),
                {"start": {"players": {"Ann": {"space": "keys-7", "cards": ["keys-safe-2", "keys-safe"]}}}},
                {"roll": [5]})
    assert state["players"][0]["space"] == "chess-0"  # chess-2 is a snare, and the keys cards are gone
    assert state["decks"]["keys"][-2:] == ["keys-safe-2", "keys-safe"]


def test_a_safe_step_onto_another_snare_takes_another_safe_card(tmp_path: Path) -> None:
    rules = load_ruleset("chambers", edition(tmp_path, "s.xx.", "s."))
    state = run(rules, {"deal": {"Ann": ["a-safe", "a-safe-2"]}}, {"roll": [2]})
    ann = state["players"][0]
    assert ann["space"] == "a-4" and ann["cards"] == []
    assert state["decks"]["a"][-2:] == ["a-safe", "a-safe-2"]


def test_a_safe_step_onto_a_snare_without_another_card_goes_back(tmp_path: Path) -> None:
    rules = load_ruleset("chambers", edition(tmp_path, "s.xx.", "s."))
    state = run(rules, {"deal": {"Ann": ["a-safe"]}}, {"roll": [2]})
    assert state["players"][0]["space"] == "a-0" and state["players"][0]["cards"] == []


def test_a_safe_step_out_of_the_chamber_returns_the_cards(tmp_path: Path) -> None:
    rules = load_ruleset("chambers", edition(tmp_path, "s..x", "s."))
    state = run(rules, {"deal": {"Ann": ["a-safe", "a-safe-2"]}}, {"roll": [3]})
    ann = state["players"][0]
    assert (ann["space"], ann["chamber"], ann["cards"]) == ("b-0", "b", [])
    assert state["decks"]["a"] == ["a-exchange", "a-safe", "a-safe-2"]


def test_a_safe_step_onto_the_door_wins(tmp_path: Path) -> None:
    rules = load_ruleset("chambers", edition(tmp_path, "s.", "s.x"))
    state = run(rules, {"start": {"players": {"Ann": {"space": "b-0", "cards": ["b-safe"]}}}}, {"roll": [2]})
    assert state["winner"] == "Ann" and state["players"][0]["space"] == "door"
    assert state["decks"]["b"] == ["b-safe"]


def test_drawing_from_an_empty_deck_does_nothing(tmp_path: Path) -> None:
    rules = load_ruleset("chambers", edition(tmp_path, "s..", "s..."))
    state = run(rules, {"start": {"players": {"Ann": {"space": "b-0", "cards": ["b-safe"]}}}}, {"roll": [1]})
    assert state["players"][0]["space"] == "b-0" and state["players"][0]["cards"] == ["b-safe"]
    assert state["decks"]["b"] == [] and state["turn"]["player"] == "Bob"


def test_a_board_decides_the_star_faces(tmp_path: Path) -> None:
    path = edition(tmp_path, "s.......", "s.")
    path.write_text(path.read_text().replace("draw = [1]\ndraw_or_move = [6]", "draw = []\ndraw_or_move = [1, 6]"))
    rules = load_ruleset("chambers", path)
    state = run(rules, {}, {"roll": [1]})
    assert state["prompt"]["kind"] == "star" and state["prompt"]["steps"] == 1


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace('[chambers]\na = "chamber A"\nb = "chamber B"', ""), "[chambers] must name each chamber"),
    (lambda t: t.replace('b = "chamber B"', 'b = "chamber B"\nc = "chamber C"'), "differ from [chambers]"),
    (lambda t: t.replace('{ id = "a-0", kind = "start"', '{ id = "a-0", kind = "step"'), "must open with its one start"),
    (lambda t: t.replace('{ id = "door", kind = "door", track = "door" },', ""), "must be the final door"),
    (lambda t: t.replace("[game]", '[[cards]]\nid = "c-x"\ndeck = "c"\ndo = "danger"\n[game]'),
     "deck 'c' is not a chamber"),
    (lambda t: t.replace('deck = "b"', 'deck = "a"'), "chamber 'b' has no skill cards"),
    (lambda t: t.replace("draw_or_move = [6]", "draw_or_move = [1]"), "both die.draw and die.draw_or_move"),
    (lambda t: t.replace("draw_or_move = [6]", "draw_or_move = [7]"), "die.draw_or_move must list faces 1 to 6"),
    (lambda t: t.replace('use = "snare"\n[[cards]]\nid = "b-safe"', '[[cards]]\nid = "b-safe"'), "a kept card is a safe"),
])
def test_board_mistakes_are_named(tmp_path: Path, change, message: str) -> None:
    path = edition(tmp_path, "s.x.", "s.x")
    path.write_text(change(path.read_text()))
    with pytest.raises(BoardError) as caught:
        load_ruleset("chambers", path)
    assert message in str(caught.value)
    assert "edition.toml" in str(caught.value)


def test_chambers_and_their_spaces_must_follow_one_another(tmp_path: Path) -> None:
    path = edition(tmp_path, "s.x.", "s.x")
    text = path.read_text().replace('  { id = "door"', '  { id = "a-8", kind = "step", track = "a" },\n  { id = "door"')
    path.write_text(text)
    with pytest.raises(BoardError, match="must follow one another"):
        load_ruleset("chambers", path)


def test_the_bundled_board_is_the_one_of_rules_md() -> None:
    board = find_ruleset("chambers").board
    snares = {c: [board.by_id[s].index for s in board.tracks[c] if board.by_id[s].kind == "snare"]
              for c in ("keys", "chess", "potions")}
    assert snares == {"keys": [3, 6, 8], "chess": [2, 5, 7, 10], "potions": [3, 5, 8]}
    assert [len(board.tracks[c]) for c in ("keys", "chess", "potions")] == [10, 12, 10]
    assert board.spaces[-1].id == "final-door"
    assert {d: sorted(ids) for d, ids in board.decks.items()} == {
        c: sorted([f"{c}-exchange", f"{c}-danger", f"{c}-danger-2", f"{c}-safe", f"{c}-safe-2"])
        for c in ("keys", "chess", "potions")}


def test_replay_command_tells_a_chambers_game(tmp_path: Path) -> None:
    game = Path(__file__).parent / "gamefiles" / "chambers" / "final-door-no-exact-count.jsonl"
    out = io.StringIO()
    assert main(["replay", str(game)], out=out) == 0
    story = out.getvalue()
    assert "Move Bob's token 3 spaces forward to the final door" in story
    assert "Bob leaves the potions chamber: put Square bottle back at the bottom of its deck" in story
    assert "Winner: Bob" in story
    out = io.StringIO()
    assert main(["replay", str(game), "--json"], out=out) == 0
    state = json.loads(out.getvalue())
    assert state["winner"] == "Bob" and state["players"][1]["space"] == "final-door"
    assert state == public_state(replay(game.read_text().splitlines()).state)
