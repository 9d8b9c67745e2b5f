"""Renaming a player in a game file touches player names only, and the renamed game replays."""

from __future__ import annotations

import json

import pytest

from companion.engine import IllegalInput
from companion.gamefile import replay
from companion.web.renaming import rename_in_game_file

GAME = "\n".join(json.dumps(line) for line in [
    {"setup": {"ruleset": "classic", "players": ["pass", "Bob"], "seed": 2,
               "start": {"players": {"pass": {"cash": 900}}, "spaces": {"boardwalk": {"owner": "pass"}},
                         "turn": "pass"}}},
    {"roll": [1, 2]},
    {"answer": "no"},
    {"act": {"player": "Bob", "do": "bid", "amount": 10}},
    {"act": {"player": "pass", "do": "pass"}},
    {"act": {"player": "pass", "do": "trade", "with": "Bob", "give": {"spaces": ["boardwalk"]}, "get": {"cash": 5}}},
    {"act": {"player": "Bob", "do": "accept"}},
])


def test_a_player_called_pass_is_renamed_and_the_verb_is_not() -> None:
    text = rename_in_game_file(GAME, "pass", "Pat")
    assert '"do": "pass"' in text and '"player": "pass"' not in text
    before, after = replay(GAME.splitlines()).state, replay(text.splitlines()).state
    assert [p["name"] for p in after["players"]] == ["Pat", "Bob"]
    assert after["players"][0]["cash"] == before["players"][0]["cash"]
    assert after["spaces"]["boardwalk"]["owner"] == "Bob" and after["spaces"]["baltic-avenue"]["owner"] == "Bob"


@pytest.mark.parametrize(("old", "new"), [("Zed", "Zoe"), ("pass", "Bob")])
def test_bad_renames(old: str, new: str) -> None:
    with pytest.raises(IllegalInput):
        rename_in_game_file(GAME, old, new)


def test_an_answer_naming_the_player_is_renamed_and_other_answers_are_not() -> None:
    """chambers' exchange is answered with a player's name: left as it was, the renamed game could not be replayed
    (and the host's rename was refused for the rest of the game). A player called "yes" keeps the answer "yes"."""
    game = "\n".join(json.dumps(line) for line in [
        {"setup": {"ruleset": "chambers", "players": ["Ann", "Bob", "Cy"], "seed": 1, "stack": {"keys": ["keys-exchange"]},
                   "start": {"players": {"Bob": {"space": "keys-5"}}}}},
        {"roll": [1]},
        {"answer": "Bob"},
    ])
    text = rename_in_game_file(game, "Bob", "Rob")
    assert '"answer": "Rob"' in text
    assert replay(text.splitlines()).state["players"][0]["space"] == "keys-5"
    classic = rename_in_game_file(GAME.replace('"pass"', '"no"').replace('"do": "no"', '"do": "pass"'), "no", "Nat")
    assert '"answer": "no"' in classic  # a buy question's answer, not the player
