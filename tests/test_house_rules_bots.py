"""The bots under each house rule (RULES.md §1, "House rules and the official short game"): whole games with no input
refused (a bot that may not bid does not bid; one that must build evenly does not try otherwise), and the play each
rule asks for: uneven building where it pays, the hotel after ``houses_before_hotel`` houses, leaving jail at once
when a jailed owner collects no rent. The two games of a pair throw the same dice whatever the rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import apply, find_ruleset, new_game
from companion.sim import GameSpec, play_game
from companion.sim.property import PropertyStrategy

HOUSE_RULES: dict[str, dict[str, Any]] = {
    "free parking": {"free_parking": "fees"},
    "free parking seeded": {"free_parking": "fees-and-seed"},
    "GO bonus": {"go_landing_bonus": True},
    "no auctions": {"auctions": False},
    "no rent in jail": {"rent_in_jail": False},
    "uneven building": {"even_build": False},
    "buy after the first lap": {"buy_after_first_lap": True},
    "official short game": {"deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2},
}
LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")


@pytest.mark.parametrize("ruleset", ["classic", "addon"])
@pytest.mark.parametrize("rule", HOUSE_RULES)
def test_bots_play_every_house_rule_without_a_refused_input(ruleset: str, rule: str) -> None:
    spec = GameSpec(ruleset, 4, seed=5, options=HOUSE_RULES[rule], turn_cap=400)
    for index in range(3):
        record = play_game(spec, index)
        assert record.rejected == 0, record.first_rejection
        assert record.cut or record.winner_seat is not None


def bot_input(options: dict[str, Any], start: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The bot's first input in a classic game set up so (Ann to roll), and the state it was chosen in."""
    state, _ = new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "options": options,
                         "start": start})
    rules = find_ruleset("classic")
    return PropertyStrategy(rules, random.Random(1)).next_input(state), state


def light_blue(*levels: int) -> dict[str, Any]:
    """Ann holds the light-blue group with these many houses (5: a hotel)."""
    return {"spaces": {sid: ({"owner": "Ann", "hotel": True} if level == 5 else {"owner": "Ann", "houses": level})
                       for sid, level in zip(LIGHT_BLUE, levels)}}


def test_an_even_bot_builds_on_the_lowest_street_and_an_uneven_bot_where_it_pays_most() -> None:
    # Oriental Avenue's third house raises its rent by $180 for $50; a first house elsewhere by $18.
    even, _ = bot_input({}, light_blue(2, 1, 1))
    uneven, state = bot_input({"even_build": False}, light_blue(2, 1, 1))
    assert even["act"]["do"] == "build" and even["act"]["space"] != "oriental-avenue"
    assert uneven["act"] == {"player": "Ann", "do": "build", "space": "oriental-avenue"}
    after, _ = apply(state, uneven)  # the engine takes it
    assert after["spaces"]["oriental-avenue"]["houses"] == 3


def test_a_bot_builds_the_hotel_after_houses_before_hotel_houses() -> None:
    line, state = bot_input({"houses_before_hotel": 3}, light_blue(3, 3, 3))
    after, _ = apply(state, line)
    assert after["spaces"][line["act"]["space"]]["hotel"] is True
    assert after["bank"]["houses"] == 32 - 6  # the three houses of that street went back


def test_a_jailed_owner_leaves_at_once_when_rent_waits_for_nobody_in_jail() -> None:
    # Most deeds owned: a bot stays in jail as long as it can, unless staying costs it its rent.
    start = {"players": {"Ann": {"in_jail": True}},
             "spaces": {s.id: {"owner": "Bob"} for s in find_ruleset("classic").board.ownable()[:20]}}
    start["spaces"]["boardwalk"] = {"owner": "Ann"}
    stay, _ = bot_input({}, start)
    leave, _ = bot_input({"rent_in_jail": False}, start)
    assert "roll" in stay
    assert leave["act"] == {"player": "Ann", "do": "pay-fine"}


@pytest.mark.parametrize("rule", ["free parking seeded", "no auctions", "official short game"])
def test_the_games_of_a_pair_throw_the_same_dice(rule: str) -> None:
    """Common random numbers: under other rules the same game throws the same dice in the same order (the bots'
    picks among options have their own generator), so a comparison measures the rules, not the dice."""
    def dice(options: dict[str, Any]) -> list[list[int]]:
        lines: list[dict[str, Any]] = []
        play_game(GameSpec("classic", 4, seed=9, options=options), 0, lines)
        return [line["roll"] for line in lines[1:] if "roll" in line]

    book, ruled = dice({}), dice(HOUSE_RULES[rule])
    common = min(len(book), len(ruled))
    assert common > 50 and book[:common] == ruled[:common]
