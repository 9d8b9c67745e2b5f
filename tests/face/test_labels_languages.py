"""The OLED's labels never cut a word in any language (tests/face/test_labels.py is English's): every space, kept
card and option a player picks, said in German, French and Spanish over every bundled board, is on the option rows
whole (two rows at most), and ``fit_label`` keeps the places apart with the language's own shortenings, no cut."""

from __future__ import annotations

import pytest

from companion.engine import apply, find_ruleset, new_game
from companion.face import screens
from companion.face.choices import prompt_choices, space_labels
from companion.sim import GameSpec, play_game
from companion.words import LANGUAGES, Words

from .test_labels import PLACE, RULESETS, check_whole

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def check(labels: list[str], cols: int, language: str) -> None:
    shortened = {label: screens.fit_label(label, cols, language) for label in labels}
    for label, short in shortened.items():
        assert len(short) <= cols and "~" not in short, f"{language}: {label!r} → {short!r}"
    assert len(set(shortened.values())) == len(shortened), "two labels became one"


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_space_and_card_fits_whole_in_every_language(ruleset: str, language: str) -> None:
    rules = find_ruleset(ruleset)
    labels = space_labels(rules, Words.for_language(language, rules.board))
    places = list(dict.fromkeys(labels.spaces.values()))
    check_whole(places)
    check(places, PLACE, language)
    played = {labels.words.t("Play {card}", card=labels.cards[c]) for c, info in rules.board.cards.items()
              if info.params.get("use")}
    check_whole(sorted(played))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_of_a_bot_game_fits_whole_in_every_language(ruleset: str, language: str) -> None:
    rules = find_ruleset(ruleset)
    labels = space_labels(rules, Words.for_language(language, rules.board))
    lines: list[dict] = []
    play_game(GameSpec(ruleset, 3, seed=7), 0, lines)
    state, _ = new_game(lines[0]["setup"])
    seen = 0
    for line in lines[1:150]:
        choices = [c.label for c in prompt_choices(state, labels)]
        check_whole(choices)
        seen += len(choices)
        state, _ = apply(state, line)
    assert seen >= 20


def test_the_deeds_entry_keeps_a_german_nouns_capital() -> None:
    """str.capitalize() made "Bauen, hypothek" of "Bauen, Hypothek"; only the first letter is made a capital."""
    from companion.face.choices import deeds_entry

    rules = find_ruleset("classic")
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "start": {
        "spaces": {"mediterranean-avenue": {"owner": "Ann"}, "baltic-avenue": {"owner": "Ann"}}, "turn": "Ann"}}
    state, _ = new_game(setup)
    said = {lang: deeds_entry(state, "Ann", space_labels(rules, Words.for_language(lang, rules.board)))[0].label
            for lang in LANGUAGES}
    assert said["en"] == "Build, mortgage" and said["de"] == "Bauen, Hypothek", said


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_buy_hint_fits_its_row_for_every_price(ruleset: str, language: str) -> None:
    """"YES: kaufen 100 $ NO: ve~" cut a word on the German demo's buy question: a hint too long with its price says
    it without (the question above it has the price)."""
    rules = find_ruleset(ruleset)
    words = Words.for_language(language, rules.board)
    for price in sorted({s.price for s in rules.board.ownable() if s.price}):
        for ticket in (False, True):
            said = screens.hint({"prompt": {"kind": "buy", "options": ["yes", "no"], "price": price,
                                            "ticket": ticket}}, None, "software", words)
            assert len(said) <= screens.COLS["small"] and "~" not in said, said
