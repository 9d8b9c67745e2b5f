"""The phone's header says the question whole or a shorter sentence (issue 38, words): a place is never cut to "St.
Charles Pla…" at the width of a phone; the question is whole in its panel just below."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .test_banker import SIZES
from .test_browser import ARTIFACTS, TIMEOUT, browser, expect_text  # noqa: F401 - browser: a fixture
from .test_story_first import CLASSIC, table_with_phones


@pytest.mark.parametrize("size", SIZES)
def test_the_header_says_a_long_place_whole(browser: Any, tmp_path: Path, size: str) -> None:
    setup = {**CLASSIC, "start": {"players": {"Ann": {"space": "go"}}, "turn": "Ann"}}
    with table_with_phones(browser, tmp_path, setup, ("Ann",), SIZES[size], {"roll": [5, 6]}) as (table, (ann,)):
        header = ann.locator("#me-now")
        expect_text(ann.locator("#prompt"), "Buy St. Charles Place for $140?")
        from playwright.sync_api import expect

        # The header is Ann's once the page knows its session (it may come after the state): waited for, as a person
        # sees it, then the same two sentences as before.
        expect(header).to_have_text(re.compile(r"Your move: (Buy St\. Charles Place for \$140\?|buy or not)"),
                                    timeout=TIMEOUT)
        assert header.inner_text() in ("Your move: Buy St. Charles Place for $140?", "Your move: buy or not")
        assert header.evaluate("e => e.scrollWidth <= e.clientWidth"), "the header's question is cut"
        players = ann.locator('#players [data-player="Ann"] .where')
        expect_text(players, "on St. Charles Place")
        assert players.evaluate("e => e.scrollWidth <= e.clientWidth")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        ann.evaluate("scrollTo(0, 0)")
        ann.screenshot(path=str(ARTIFACTS / f"header-long-place-{size}.png"))
