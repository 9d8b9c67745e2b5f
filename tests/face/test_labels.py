"""Labels that keep the difference: every space, kept card and option a player picks is on the option rows whole (a
long one on two rows: no "Play Travel fwd 4 sp" to decode); the header's place fits its row, shortened word by word
(Avenue → Ave...), never cut inside a word, and labels that differ stay different."""

from __future__ import annotations

import pytest

from companion.engine import apply, find_ruleset, new_game
from companion.face import screens
from companion.face.choices import prompt_choices, space_labels
from companion.sim import GameSpec, play_game

RULESETS = ["classic", "addon", "magie-1904", "magie-1924", "chambers"]
OPTION = screens.COLS["small"] - 4  # between the option row's arrows
PLACE = screens.COLS["small"] - len("Ann $1500") - 1  # the header's room for the place of a usual player


def check_whole(labels: list[str]) -> None:
    """Each label as the option rows draw it, between the arrows: whole, every row within the OLED's width."""
    for label in labels:
        rows = screens.choice_rows(screens.Choice((label, "another")))
        assert all(len(r.text) <= screens.COLS["small"] for r in rows) and len(rows) <= 2, label
        assert " ".join(r.text for r in rows) in (f"< {label} >", f"<{label}>")


def check(labels: list[str], cols: int) -> None:
    shortened = {label: screens.fit_label(label, cols) for label in labels}
    for label, short in shortened.items():
        assert len(short) <= cols and "~" not in short, f"{label!r} → {short!r}"
    assert len(set(shortened.values())) == len(shortened), "two labels became one"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_space_and_card_fits_and_stays_apart(ruleset: str) -> None:
    rules = find_ruleset(ruleset)
    places = list(dict.fromkeys(space_labels(rules).spaces.values()))
    check_whole(places)  # a destination among the subway's or the airplane's
    check(places, PLACE)  # the header
    played = {f"Play {rules.card_name(c)}" for c, info in rules.board.cards.items() if info.params.get("use")}
    check_whole(sorted(played))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_of_a_bot_game_fits_and_stays_apart(ruleset: str) -> None:
    labels = space_labels(find_ruleset(ruleset))
    lines: list[dict] = []
    play_game(GameSpec(ruleset, 3, seed=7), 0, lines)
    state, _ = new_game(lines[0]["setup"])
    for line in lines[1:150]:
        check_whole([c.label for c in prompt_choices(state, labels)])
        state, _ = apply(state, line)


def test_the_difference_survives_where_the_old_cut_lost_it() -> None:
    assert " ".join(r.text for r in screens.choice_rows(screens.Choice(("Play Travel forward 2 spaces", "x")))) == \
        "< Play Travel forward 2 spaces >"  # was "< Play Travel fwd 2 sp >": whole now, on two rows
    assert screens.fit_label("Lake Shore Drive", PLACE) == "Lake Shore Dr"
    assert screens.fit_label("Christopher Webster: accept offer", OPTION) == "Christ~: accept offer"  # the name is cut, not the act
