"""The options the OLED's set-up offers for every ruleset, and the setup they make."""

from __future__ import annotations

import pytest

from companion.engine import find_ruleset, new_game, ruleset_ids
from companion.face.screens import COLS
from companion.words import LANGUAGES, Words
from companion.face.setup import OptionSetting, button_options, chosen, ruleset_title, words


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_the_buttons_set_the_yes_no_options_and_those_with_choices(ruleset: str) -> None:
    rules = find_ruleset(ruleset)
    settings = button_options(rules)
    defaults = rules.board.options
    expected = [name for name, value in defaults.items() if name in rules.option_choices or isinstance(value, bool)]
    presets = [p.text.split(":")[0] for p in rules.presets]  # first, each one row
    assert [s.name for s in settings] == presets + expected
    for setting in settings[len(presets):]:
        assert setting.value == defaults[setting.name] and not setting.changed
        allowed = rules.option_choices.get(setting.name, (True, False))
        assert sorted(map(str, setting.values)) == sorted(map(str, allowed))  # every value once


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_value_the_buttons_reach_starts_a_game(ruleset: str) -> None:
    for setting in button_options(find_ruleset(ruleset)):
        for _ in setting.values:
            setting.next()
            state, _ = new_game({"ruleset": ruleset, "players": ["Ann", "Bob"], "seed": 1,
                                 "options": chosen([setting])})
            if setting.sets is None:
                assert state["options"][setting.name] == setting.value
            else:  # a preset: its options when on, the board's when off
                board = find_ruleset(ruleset).board
                given = setting.sets if setting.value else {k: board.options[k] for k in setting.sets}
                assert {k: state["options"][k] for k in setting.sets} == dict(given)


def test_yes_goes_round_the_values_and_only_changed_options_are_sent() -> None:
    transition = OptionSetting("transition", ("even_total", "even_step"))
    flag = OptionSetting("one_card_each", (False, True))
    assert chosen([transition, flag]) == {}
    flag.next()
    assert flag.label() == "one card each: on" and chosen([transition, flag]) == {"one_card_each": True}
    transition.next()
    transition.next()
    assert transition.value == "even_total" and chosen([transition, flag]) == {"one_card_each": True}


@pytest.mark.parametrize("ruleset", ["classic", "addon"])
def test_the_official_short_game_is_one_row_that_sets_its_three_options(ruleset: str) -> None:
    settings = button_options(find_ruleset(ruleset))
    short = settings[0]
    assert short.label() == "Official short game: off" and chosen(settings) == {}
    short.next()
    assert short.label() == "Official short game: on"
    assert chosen(settings) == {"deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2}
    flag = next(s for s in settings if s.name == "go_landing_bonus")
    flag.next()
    assert chosen(settings) == {"deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2,
                                "go_landing_bonus": True}


def test_words() -> None:
    assert words("double_trouble") == "double trouble"
    assert words("even-step") == "even step"
    assert words(False) == "off" and words(True) == "on"


def test_every_ruleset_has_its_own_title_that_fits_a_menu_row() -> None:
    """The whole board names cut to a row made both landlord's games read "The landlord's game, 19~"."""
    for language in LANGUAGES:
        words = Words.for_language(language)
        titles = [ruleset_title(find_ruleset(r), words) for r in ruleset_ids()]
        assert len(set(titles)) == len(titles)
        assert all(len(t) < COLS["small"] - 1 for t in titles), titles  # beside the cursor mark, never cut
        if language != "en":  # said in the language (a historical game's name may keep its English)
            assert ruleset_title(find_ruleset("classic"), words) != ruleset_title(find_ruleset("classic"))
