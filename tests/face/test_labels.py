"""Labels that keep the difference: every space, kept card and option a player picks is on the option rows whole (a
long one on two rows: no "Play Travel fwd 4 sp" to decode); the header and the players list say places as printed
(no "St. Charles Pl"); ``fit_label``, which still shortens the rare third row of an option, keeps labels apart."""

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
    check(places, PLACE)  # fit_label keeps them apart
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


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_header_and_the_players_say_every_place_as_printed(ruleset: str) -> None:
    """The header and MENU's players list shortened places to fit one row ("St. Charles Pl", "Reading RR", "Lake
    Shore Dr"): now a place is said as the OLED names it everywhere else, or (the header, beside a long name and
    cash) not at all; the players list gives it the row below when it does not fit beside the cash."""
    rules = find_ruleset(ruleset)
    labels = space_labels(rules)
    state, _ = new_game({"ruleset": ruleset, "players": ["Ann", "Christopher"], "seed": 1})
    shown = set()
    for space in rules.board.spaces:
        place = labels.spaces[space.id]
        for name, cash in (("Ann", 1500), ("Christopher", 15000)):
            player = {**next(p for p in state["players"] if p["name"] == name), "space": space.id, "cash": cash,
                      "in_jail": False}
            seen = {**state, "players": [player], "turn": {**state["turn"], "player": name}}
            head = screens.header(seen, labels).text
            assert len(head) <= screens.COLS["small"] and "~" not in head
            right = head[len(f"{name} ${cash}"):].strip()
            assert right in ("", place), f"{head!r}: {place!r} shortened"
            shown.add(bool(right))
            rows = [r.text for r in screens.players_screen(seen, labels).rows[1:-1]]
            assert all(len(r) <= screens.COLS["small"] for r in rows)
            assert place in " ".join(r.strip() for r in rows if r.strip()), f"{place!r} not whole in {rows}"
    assert shown == {True, False} or ruleset == "chambers"  # most places fit beside a short name
