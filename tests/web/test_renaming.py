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
