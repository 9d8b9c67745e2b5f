"""Chance and Community Chest decks in ``classic`` (RULES.md §1): drawn cards go to the bottom, kept cards leave
the deck and return to the bottom when used, the order comes from the seed. The deck order is private state, so
these tests read it from the engine's state rather than from a game file's public expectation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.engine import new_game
from companion.gamefile import replay

GAMEFILES = Path(__file__).parent / "gamefiles" / "classic"


def play(*lines: dict[str, Any]) -> dict[str, Any]:
    return replay([json.dumps(line) for line in lines]).state


def final(name: str) -> dict[str, Any]:
    return replay((GAMEFILES / f"{name}.jsonl").read_text().splitlines()).state


def setup(**extra: Any) -> dict[str, Any]:
    return {"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 5, **extra}}


def test_a_drawn_card_goes_to_the_bottom() -> None:
    before = new_game(setup(stack={"chest": ["chest-beauty"]})["setup"])[0]["decks"]["chest"]
    state = play(setup(stack={"chest": ["chest-beauty"]}, start={"players": {"Ann": {"space": "virginia-avenue"}}}),
                 {"roll": [1, 2]})
    assert before[0] == "chest-beauty"
    assert state["decks"]["chest"] == [*before[1:], "chest-beauty"]
    assert state["players"][0]["cash"] == 1510


def test_a_kept_card_leaves_the_deck_until_used() -> None:
    state = final("card-chance-get-out-of-jail-free")
    assert "chance-get-out-of-jail-free" not in state["decks"]["chance"]
    assert len(state["decks"]["chance"]) == 15
    assert state["players"][0]["cards"] == ["chance-get-out-of-jail-free"]


def test_a_used_card_returns_to_the_bottom() -> None:
    card = "chance-get-out-of-jail-free"
    start = setup(start={"players": {"Ann": {"in_jail": True, "cards": [card]}}})
    dealt = play(start)
    assert card not in dealt["decks"]["chance"] and len(dealt["decks"]["chance"]) == 15
    used = play(start, {"act": {"player": "Ann", "do": "use-card", "card": card}})
    assert used["decks"]["chance"] == [*dealt["decks"]["chance"], card]
    assert used["players"][0]["cards"] == [] and not used["players"][0]["in_jail"]


def test_a_card_used_after_a_trade_returns_to_its_own_deck() -> None:
    card = "chest-get-out-of-jail-free"
    state = play(setup(start={"players": {"Ann": {"cards": [card]}, "Bob": {"in_jail": True}}, "turn": "Bob"}),
                 {"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cards": [card]}, "get": {"cash": 30}}},
                 {"act": {"player": "Bob", "do": "accept"}},
                 {"act": {"player": "Bob", "do": "use-card", "card": card}})
    assert state["decks"]["chest"][-1] == card and len(state["decks"]["chest"]) == 16
    assert [p["cash"] for p in state["players"]] == [1530, 1470]


def test_bankruptcy_to_the_bank_returns_kept_cards_to_the_bottom() -> None:
    state = final("bankrupt-to-bank-auctions")
    assert state["decks"]["chest"][-1] == "chest-get-out-of-jail-free" and len(state["decks"]["chest"]) == 16


def test_bankruptcy_to_a_player_hands_kept_cards_over() -> None:
    state = final("bankrupt-to-player")
    assert "chance-get-out-of-jail-free" not in state["decks"]["chance"]
    assert state["players"][1]["cards"] == ["chance-get-out-of-jail-free"]


def test_deck_order_comes_from_the_seed() -> None:
    def decks(seed: int) -> dict[str, list[str]]:
        return new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": seed})[0]["decks"]

    assert decks(11) == decks(11)
    assert decks(11) != decks(12)
    for seed in (0, 11, 12):
        assert sorted(decks(seed)["chance"]) == sorted(decks(0)["chance"]) and len(decks(seed)["chance"]) == 16


def test_stacked_cards_are_drawn_in_order() -> None:
    state = final("chest-deck-order")
    assert state["decks"]["chest"][-2:] == ["chest-beauty", "chest-xmas"]
