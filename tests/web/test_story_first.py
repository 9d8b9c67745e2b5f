"""The table tells what just happened, on every phone (issue 38): the "Just now" panel under the header.

Playwright on Debian's Chromium at 390×844 and 320×568: what a player needs after a roll, a card or a trade is in the
first screen, without scrolling. Screenshots of the panel in ``test-artifacts/web/just-now-*.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.table import Table

from .conftest import CODE
from .pages import opened
from .test_banker import SIZES, in_view
from .test_browser import ARTIFACTS, browser, expect_text, join  # noqa: F401 - browser: a fixture
from .test_scenarios import served

CLASSIC = {"ruleset": "classic", "players": ["Ann", "Bob", "Cleo"], "seed": 5}


@contextmanager
def table_with_phones(browser: Any, tmp_path: Path, setup: dict[str, Any], players: tuple[str, ...],
                      size: dict[str, Any], *lines: dict[str, Any]) -> Iterator[tuple[Table, list[Any]]]:
    """A table at ``setup`` played up to ``lines``, a phone joined for each of ``players``."""
    with served(setup, tmp_path, *lines) as (table, server):
        with opened(browser, server.url + f"/join#code={CODE}", size) as first, \
                opened(browser, server.url + f"/join#code={CODE}", size) as second:
            phones = [first, second][: len(players)]
            for page, name in zip(phones, players):
                page.wait_for_selector("#live.on")
                join(page, name)
                page.evaluate("scrollTo(0, 0)")
            yield table, phones


def panel_shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#now-panel").screenshot(path=str(ARTIFACTS / f"just-now-{name}.png"))
    page.screenshot(path=str(ARTIFACTS / f"just-now-{name}-screen.png"))


@pytest.mark.parametrize("size", SIZES)
def test_after_bobs_roll_his_first_screen_holds_the_dice_and_where_to_move(browser: Any, tmp_path: Path,
                                                                            size: str) -> None:
    """Bob tapped Roll and his page jumped to "Cleo, roll the dice": the dice and the move were 6,126 px down."""
    with table_with_phones(browser, tmp_path, CLASSIC, ("Bob",), SIZES[size],
                           {"roll": [1, 2]}, {"answer": "yes"}) as (table, (bob,)):
        bob.select_option('[aria-label="die 1"]', "6")
        bob.select_option('[aria-label="die 2"]', "4")
        bob.click("#act-prompt button:has-text('Enter dice')")
        expect_text(bob.locator("[data-now=move] strong"), "Jail, just visiting")
        bob.evaluate("scrollTo(0, 0)")
        for face in ("6", "4"):
            assert in_view(bob, f'[data-now=dice] .die[data-face="{face}"]')
        expect_text(bob.locator("[data-now=dice] .total"), "10")
        assert in_view(bob, "[data-now=dice] .total") and in_view(bob, "[data-now=move]")
        assert bob.locator("[data-now=move]").inner_text().replace("\n", " ") == "Bob \u2192 Jail, just visiting"
        assert in_view(bob, "#me-cash")  # beside his own cash
        assert in_view(bob, "#prompt")  # and the question the table waits on (Cleo's roll)
        expect_text(bob.locator('.player[data-player="Bob"] .where'), "on Jail · just visiting")
        panel_shot(bob, f"roll-{size}")
        assert bob.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_a_card_is_shown_as_a_card_and_stays_until_the_next_input(browser: Any, tmp_path: Path, size: str) -> None:
    with table_with_phones(browser, tmp_path, CLASSIC, ("Cleo",), SIZES[size],
                           {"roll": [1, 2]}, {"answer": "yes"}, {"roll": [6, 4]}) as (table, (cleo,)):
        table.submit({"roll": [3, 4]}, source="roller")  # Cleo to Chance: poor tax
        card = cleo.locator("[data-now=card]")
        expect_text(card.locator("p"), "Pay poor tax of $15.")
        expect_text(card.locator("figcaption"), "Chance · Cleo")
        expect_text(cleo.locator("[data-now=pay]"), "Cleo \u2192 the bank $15 for the card")
        assert in_view(cleo, "[data-now=card] p") and in_view(cleo, "#me-cash")
        panel_shot(cleo, f"card-{size}")
        cleo.reload()  # after a reload the story of the last input is still told
        expect_text(cleo.locator("[data-now=card] p"), "Pay poor tax of $15.")
        table.submit({"roll": [1, 1]}, source="roller")  # the next input replaces it
        expect_text(cleo.locator("[data-now=dice] .total"), "2")
        assert cleo.locator("[data-now=card]").count() == 0
        assert cleo.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_a_trades_acceptance_shows_the_hand_over_on_both_phones(browser: Any, tmp_path: Path, size: str) -> None:
    setup = {**CLASSIC, "players": ["Ann", "Bob"], "start": {"spaces": {"baltic-avenue": {"owner": "Ann"}}}}
    with table_with_phones(browser, tmp_path, setup, ("Ann", "Bob"), SIZES[size]) as (table, (ann, bob)):
        table.submit({"act": {"player": "Ann", "do": "trade", "with": "Bob",
                              "give": {"cash": 0, "spaces": ["baltic-avenue"], "cards": []},
                              "get": {"cash": 100, "spaces": [], "cards": []}}}, source="phone:Ann")
        bob.locator("#trade-offer button:has-text('Accept')").click()
        for page in (ann, bob):
            expect_text(page.locator("[data-now=hand]"), "Ann gives Bob the deed of Baltic Avenue")
            expect_text(page.locator("[data-now=pay]"), "Bob \u2192 Ann $100 in the trade")
            page.evaluate("scrollTo(0, 0)")
            assert in_view(page, "[data-now=hand]") and in_view(page, "[data-now=pay]")
        panel_shot(bob, f"trade-{size}")
        assert ann.errors == [] and bob.errors == []


def test_an_elevator_is_told_with_both_ends(browser: Any, tmp_path: Path) -> None:
    setup = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
             "start": {"players": {"Ann": {"space": "virginia-avenue"}}}}
    with table_with_phones(browser, tmp_path, setup, ("Ann",), SIZES["390"]) as (table, (ann,)):
        table.submit({"roll": [4, 2]}, source="roller")
        expect_text(ann.locator("[data-now=move] strong"), "Tax Refund (inner board)")
        expect_text(ann.locator("[data-now=move] .via"),
                    "Take the elevator: Pennsylvania Railroad (outer board) \u2192 West Elevator (inner board)")
        assert in_view(ann, "[data-now=move] .via")
        panel_shot(ann, "elevator-390")
        assert ann.errors == []


def test_a_bankruptcy_is_told_on_every_phone(browser: Any, tmp_path: Path) -> None:
    setup = {**CLASSIC, "players": ["Bob", "Ann", "Cleo"], "start": {
        "players": {"Bob": {"cash": 20, "space": "park-place"}},
        "spaces": {"park-place": {"owner": "Ann"}, "boardwalk": {"owner": "Ann"}, "baltic-avenue": {"owner": "Bob"}}}}
    with table_with_phones(browser, tmp_path, setup, ("Ann", "Bob"), SIZES["390"]) as (table, (ann, bob)):
        table.submit({"roll": [1, 1]}, source="roller")  # Boardwalk: $100 rent, and Bob has $20
        expect_text(bob.locator("#debt-short"), "Short $80")
        bob.once("dialog", lambda dialog: dialog.accept())
        bob.click('[data-answer="bankrupt"]')
        for page in (ann, bob):
            expect_text(page.locator("[data-now=news]").first, "Bob is bankrupt: everything goes to Ann")
            assert in_view(page, "[data-now=news]")
        panel_shot(ann, "bankruptcy-390")
        assert ann.errors == [] and bob.errors == []
