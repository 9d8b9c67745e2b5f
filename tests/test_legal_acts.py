"""``Ruleset.legal_acts``: the candidate acts the engine takes now (what the phones and the buttons offer)."""

from __future__ import annotations

from companion.engine import IllegalInput, apply, find_ruleset, new_game
from companion.sim import GameSpec, play_game


def acts(state: dict, name: str) -> list[tuple[str, str]]:
    return [(a["do"], a.get("space", "")) for a in find_ruleset(state["ruleset"]).legal_acts(state, name)]


def test_a_street_is_built_on_only_with_its_whole_group() -> None:
    one, _ = new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1,
                       "start": {"spaces": {"baltic-avenue": {"owner": "Ann"}}}})
    assert acts(one, "Ann") == [("mortgage", "baltic-avenue")]
    both, _ = new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1,
                        "start": {"spaces": {"baltic-avenue": {"owner": "Ann"}, "mediterranean-avenue": {"owner": "Ann"}}}})
    assert sorted(acts(both, "Ann")) == sorted([("build", "mediterranean-avenue"), ("build", "baltic-avenue"),
                                                ("mortgage", "mediterranean-avenue"), ("mortgage", "baltic-avenue")])
    assert acts(both, "Bob") == []


def test_legal_acts_are_exactly_the_candidates_the_engine_takes() -> None:
    """Over the states of bot games of every property ruleset: each legal act is taken, each other candidate refused."""
    for ruleset in ("classic", "addon", "magie-1904", "magie-1924"):
        rules = find_ruleset(ruleset)
        lines: list = []
        play_game(GameSpec(ruleset, 3, seed=4, turn_cap=40), 0, lines)
        state, _ = new_game(lines[0]["setup"])
        offered = 0
        for line in lines[1:60]:
            for p in state["players"]:
                legal = rules.legal_acts(state, p["name"])
                offered += len(legal)
                for act in rules.candidate_acts(state, p["name"]):
                    try:
                        apply(state, {"act": act})
                        taken = True
                    except IllegalInput:
                        taken = False
                    assert taken == (act in legal), (ruleset, act)
            state, _ = apply(state, line)
        assert offered > 0, ruleset  # not vacuous: the games reach states with acts to offer
