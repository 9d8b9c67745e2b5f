"""The phone helps where the table asks most of a player (issue 38): a debt, an auction, a trade, the end.

Playwright on Debian's Chromium at 390×844 and 320×568; screenshots in ``test-artifacts/web/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.bids import BID_STEPS, quick_bids

from .test_banker import SIZES, in_view
from .test_browser import ARTIFACTS, browser, expect_text  # noqa: F401 - browser: a fixture
from .test_story_first import CLASSIC, panel_shot, table_with_phones

DEBT = {"ruleset": "classic", "players": ["Cleo", "Ann", "Bob"], "seed": 5, "start": {
    "players": {"Cleo": {"cash": 20, "space": "short-line"}},
    "spaces": {"oriental-avenue": {"owner": "Cleo"}, "reading-railroad": {"owner": "Cleo"},
               "baltic-avenue": {"owner": "Cleo", "mortgaged": True}}}}


@pytest.mark.parametrize("size", SIZES)
def test_a_debt_shows_the_ways_to_raise_the_money_first_and_bankruptcy_last(browser: Any, tmp_path: Path,
                                                                           size: str) -> None:
    """The debt view offered only "Go bankrupt"; the mortgages were further down, priced without the debt."""
    with table_with_phones(browser, tmp_path, DEBT, ("Cleo",), SIZES[size]) as (table, (cleo,)):
        table.submit({"roll": [1, 2]}, source="roller")  # Luxury Tax: $75, and Cleo has $20
        expect_text(cleo.locator("#debt-short"), "Short $55")
        ways = cleo.locator("#debt-ways [data-way]")
        expect_text(ways.first, "Mortgage Reading Railroad: +$100 toward $55")  # what it brings, the most first
        expect_text(ways.nth(1), "Mortgage Oriental Avenue: +$50 toward $55")
        assert ways.count() == 2  # a mortgaged deed has nothing to raise
        expect_text(cleo.locator("#prompt"), "You owe the bank $75 and have $20")
        buttons = cleo.locator("#act-prompt button").all_inner_texts()
        assert buttons[-1] == "Go bankrupt"  # last
        cleo.evaluate("scrollTo(0, 0)")
        assert in_view(cleo, "#debt-short") and in_view(cleo, "#debt-ways [data-way]:first-child")
        panel_shot(cleo, f"debt-{size}")
        cleo.locator("#turn-panel").screenshot(path=str(ARTIFACTS / f"debt-help-{size}.png"))
        ways.nth(1).click()  # Oriental Avenue: $70, still short
        expect_text(cleo.locator("#debt-short"), "Short $5")
        expect_text(cleo.locator("#debt-ways [data-way]").first, "Mortgage Reading Railroad: +$100 toward $5")
        cleo.locator("#debt-ways [data-way]").first.click()  # the debt is paid by itself
        expect_text(cleo.locator("#me-cash"), "$95")
        assert table.state["prompt"]["kind"] != "debt"  # type: ignore[index]
        assert cleo.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_an_auction_in_two_taps_and_the_leader_told_why_they_cannot_pass(browser: Any, tmp_path: Path,
                                                                         size: str) -> None:
    """The bid box started at $1 with no steps; the leader saw "Bid $41" (outbidding himself) and a greyed Pass."""
    lines = ({"roll": [1, 2]}, {"answer": "no"}, {"act": {"player": "Cleo", "do": "bid", "amount": 30}})
    with table_with_phones(browser, tmp_path, CLASSIC, ("Ann", "Bob"), SIZES[size], *lines) as (table, (ann, bob)):
        quick = bob.locator("#quick-bids [data-bid]")
        expect_text(quick.nth(0), "Bid $40 (+$10)")  # the steps over the high bid, as the table's buttons
        expect_text(quick.nth(1), "Bid $80 (+$50)")
        expect_text(quick.nth(2), "Bid $130 (+$100)")
        assert quick.count() == len(BID_STEPS)  # the OLED's list, no other (companion.bids)
        assert [int(b.get_attribute("data-bid") or 0) for b in quick.all()] == quick_bids(30)
        assert bob.input_value("#bid-amount") == "40"  # the box starts at the next sensible bid, not at $1
        bob.evaluate("scrollTo(0, 0)")
        assert in_view(bob, "#quick-bids [data-bid=\"130\"]")  # on the first screen
        panel_shot(bob, f"auction-{size}")
        quick.nth(1).click()  # one tap: $80
        expect_text(bob.locator("#auction-lead strong"), "You lead at $80")
        expect_text(bob.locator("#auction-lead .where"),
                    "You cannot pass while you lead: the lot is yours once the others pass.")
        assert bob.locator("#bid-form").is_hidden()  # no bid over his own, no greyed Pass
        expect_text(bob.locator("#me-now"), "You lead the auction at $80")
        assert table.state["auction"]["bid"] == 80 and table.state["auction"]["bidder"] == "Bob"  # type: ignore[index]
        expect_text(ann.locator("#quick-bids [data-bid]").first, "Bid $90 (+$10)")
        assert ann.input_value("#bid-amount") == "90"
        assert ann.errors == [] and bob.errors == []


def test_mortgaged_deeds_are_marked_in_the_trade_form_with_their_ten_percent(browser: Any, tmp_path: Path) -> None:
    setup = {**CLASSIC, "players": ["Ann", "Bob"], "start": {"spaces": {
        "reading-railroad": {"owner": "Bob", "mortgaged": True}, "baltic-avenue": {"owner": "Ann", "mortgaged": True},
        "oriental-avenue": {"owner": "Bob"}}}}
    with table_with_phones(browser, tmp_path, setup, ("Ann", "Bob"), SIZES["390"]) as (table, (ann, bob)):
        ann.click("#trade-new summary")
        ann.select_option("#trade-with", "Bob")
        taken = ann.locator('#get-items label:has(input[value="space:reading-railroad"])')
        expect_text(taken, "Reading Railroad mortgaged: you pay the bank $10 (10%)")
        expect_text(ann.locator('#get-items label:has(input[value="space:oriental-avenue"])'), "Oriental Avenue")
        expect_text(ann.locator('#give-items label:has(input[value="space:baltic-avenue"])'),
                    "Baltic Avenue mortgaged: the taker pays the bank $3 (10%)")
        ann.check('#get-items input[value="space:reading-railroad"]')
        ann.fill("#give-cash", "50")
        ann.click("#trade-form button")
        expect_text(bob.locator("#trade-offer .offer p"), "Ann offers Bob: $50 for Reading Railroad (mortgaged: 10% is $10)")
        bob.locator("#trade-offer button:has-text('Accept')").click()
        for page in (ann, bob):  # the acceptance and what changes hands, on both phones
            expect_text(page.locator("[data-now=news]"), "Bob accepts: trade done")
            expect_text(page.locator("[data-now=hand]"), "Bob gives Ann the deed of Reading Railroad")
        assert ann.errors == [] and bob.errors == []


def test_after_the_game_no_acts_and_a_deed_card_only_what_that_deed_could_ever_have(browser: Any,
                                                                                   tmp_path: Path) -> None:
    setup = {**CLASSIC, "players": ["Ann", "Bob"], "start": {"players": {"Bob": {"cash": 10, "space": "short-line"}},
             "spaces": {"reading-railroad": {"owner": "Ann"}, "boardwalk": {"owner": "Ann"}}}}
    with table_with_phones(browser, tmp_path, setup, ("Ann",), SIZES["390"]) as (table, (ann,)):
        ann.click('[data-deed="reading-railroad"] .deed')  # a railroad's card: mortgage, never a building
        card = ann.locator("#deed-card")
        expect_text(card.locator('[data-verb="mortgage"]'), "Mortgage +$100")
        assert card.locator('[data-verb="build"], [data-why="build"], [data-why="sell"]').count() == 0
        card.locator("button:has-text('Close')").click()
        table.submit({"act": {"player": "Bob", "do": "bankrupt"}}, source="test")  # Bob resigns: Ann wins
        expect_text(ann.locator("#over-winner"), "Ann wins!")
        assert ann.locator("#mine-panel").is_hidden()  # no "Build house: Ann won" on every deed
        expect_text(ann.locator("[data-now=news]").first, "Bob is bankrupt: property returns to the bank")
        ann.click('.player[data-player="Ann"] [aria-haspopup="dialog"] >> nth=0')
        assert ann.locator("#deed-card [data-verb], #deed-card .why").count() == 0
        assert ann.errors == []


def test_the_game_over_charts_axis_says_both_ends_in_dollars_whole(browser: Any, tmp_path: Path) -> None:
    """The axis read "16560" at the top (its "$" cut off by the chart's edge) and "$400" at the bottom."""
    setup = {**CLASSIC, "players": ["Ann", "Bob"], "start": {"players": {"Ann": {"cash": 16560}, "Bob": {"cash": 400}}}}
    with table_with_phones(browser, tmp_path, setup, ("Ann",), SIZES["320"]) as (table, (ann,)):
        table.submit({"act": {"player": "host", "do": "end-game"}}, source="test")
        expect_text(ann.locator("#over-winner"), "Ann wins!")
        ticks = ann.locator("#over-chart text.tick:not(.name)")
        expect_text(ticks.first, "$16560")
        assert ticks.evaluate_all("ts => ts.map((t) => t.textContent)")[:2] == ["$16560", "$400"]
        chart = ann.locator("#over-chart svg").bounding_box()
        for box in (ticks.nth(0).bounding_box(), ticks.nth(1).bounding_box()):
            assert box["x"] >= chart["x"]  # whole, inside the chart
        assert ann.errors == []
