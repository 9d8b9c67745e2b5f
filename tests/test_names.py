"""Names, not ids: every text a person reads (the story and prompts of the OLED, the terminal and the phones, the
undo's words, the summaries of ``demo``, ``replay`` and ``games show``) names spaces, cards, decks and pools as
printed. Bot games of every ruleset are played and every text is searched for ids."""

from __future__ import annotations

import re

import pytest

from companion.account import summary
from companion.engine import IllegalInput, apply, find_ruleset, new_game
from companion.sim import GameSpec, play_game

RULESETS = ["classic", "addon", "magie-1904", "magie-1924", "chambers"]


def id_pattern(ruleset: str, pools: list[str]) -> re.Pattern[str]:
    """The ids no person should read: those of spaces, cards, decks and pools that are not words of a sentence
    ("travel-go", "triple-play-566", "reading-railroad", "tax-pool", "lot-19"; "chance" and "jail" are words)."""
    rules = find_ruleset(ruleset)
    ids = {s.id for s in rules.board.spaces} | set(rules.board.cards) | {c.deck for c in rules.board.cards.values()}
    ids |= set(pools)
    shown = {s.name for s in rules.board.spaces}
    suspicious = sorted((i for i in ids if ("-" in i or any(ch.isdigit() for ch in i)) and i not in shown),
                        key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, suspicious)) + r")(?![\w-])")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_id_in_any_event_text_prompt_or_summary_line(ruleset: str) -> None:
    found: list[str] = []
    for seed in (1, 2, 3):
        lines: list[dict] = []
        play_game(GameSpec(ruleset, 3, seed=seed), 0, lines)
        state, events = new_game(lines[0]["setup"])
        ids = id_pattern(ruleset, list(state.get("pools", {})))
        texts = [e.get("text", "") for e in events]
        for number, line in enumerate(lines[1:]):
            state, events = apply(state, line)
            texts += [e.get("text", "") for e in events]
            texts.append((state.get("prompt") or {}).get("text", ""))
            if number % 7 == 0 and (state.get("undo") or {}).get("inputs"):  # the undo's words, now and then
                try:
                    texts += [e.get("text", "") for e in apply(state, {"undo": 1})[1]]
                except IllegalInput:
                    pass
            if number % 50 == 0:
                texts += summary(state).splitlines()
        texts += summary(state).splitlines()
        found += [f"{m!r} in {t!r}" for t in texts for m in ids.findall(t)]
    assert not found, "\n".join(sorted(set(found))[:20])


def test_the_summary_names_places_cards_pools_and_deeds() -> None:
    setup = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
             "start": {"players": {"Ann": {"space": "community-chest", "cards": ["travel-go", "triple-play-566"]}},
                       "spaces": {"reading-railroad": {"owner": "Ann", "mortgaged": True}}}}
    text = summary(new_game(setup)[0])
    assert "on Community Chest" in text and "cards: Advance to GO, Triple play 5-6-6" in text
    assert "Reading Railroad (mortgaged)" in text and "Tax pool: $0" in text


def test_an_offer_on_the_oled_names_its_cards() -> None:
    from companion.face.choices import space_labels
    from companion.face.screens import offer_text

    labels = space_labels(find_ruleset("addon"))
    offer = {"from": "Ann", "with": "Bob", "give": {"cash": 0, "spaces": ["reading-railroad"], "cards": ["travel-go"]},
             "get": {"cash": 50, "spaces": [], "cards": []}}
    assert offer_text(offer, labels).startswith("Ann offers Bob Reading Railroad, Advance to GO for $50")


@pytest.mark.parametrize(("game_file", "sentence"), [
    ("card-chance-triple-play", "The bank pays Ann $1500 for the card Triple play 1-3-6"),  # was "card 136"
    ("card-chance-lombard", "The bank pays Ann $200 salary for passing the PASS space"),  # was "passing PASS"
    ("card-chest-advance-to-pass-from-inner-board", "The bank pays Ann $200 salary for landing on the PASS space"),
])
def test_prizes_and_salaries_name_cards_and_spaces_as_a_person_says_them(game_file: str, sentence: str) -> None:
    from pathlib import Path

    from companion.gamefile import replay

    path = Path(__file__).parent / "gamefiles" / "addon" / f"{game_file}.jsonl"
    assert sentence in replay(path.read_text().splitlines()).state["log"]
