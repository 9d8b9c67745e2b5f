"""The phone helps where the table asks most of a player (issue 38): a debt, an auction, a trade, the end.

Playwright on Debian's Chromium at 390×844 and 320×568; screenshots in ``test-artifacts/web/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .test_banker import SIZES, in_view
from .test_browser import browser, expect_text  # noqa: F401 - browser: a fixture
from .test_story_first import panel_shot, table_with_phones

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
        ways.nth(1).click()  # Oriental Avenue: $70, still short
        expect_text(cleo.locator("#debt-short"), "Short $5")
        expect_text(cleo.locator("#debt-ways [data-way]").first, "Mortgage Reading Railroad: +$100 toward $5")
        cleo.locator("#debt-ways [data-way]").first.click()  # the debt is paid by itself
        expect_text(cleo.locator("#me-cash"), "$95")
        assert table.state["prompt"]["kind"] != "debt"  # type: ignore[index]
        assert cleo.errors == []
