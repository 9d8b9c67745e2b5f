"""The phone page as a banker (issue 21): me first, priced acts, money-safe taps, errors where one tapped.

Playwright on Debian's Chromium, at 390×844 and 320×568; screenshots in ``test-artifacts/web/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.table import Table
from companion.web import Access, create_app, make_server

from .conftest import CODE, PIN
from .engines import until
from .pages import A11Y, opened
from .test_browser import ARTIFACTS, PHONE, TIMEOUT, browser, expect_text, join, shot  # noqa: F401 - browser: a fixture

SMALL = {**PHONE, "viewport": {"width": 320, "height": 568}}
SIZES = {"390": PHONE, "320": SMALL}
PRICED = re.compile(r"[+\u2212]\$\d+$")  # "Mortgage +$50", "Lift mortgage −$55"


@contextmanager
def seated(browser: Any, tmp_path: Path, start: dict[str, Any], size: dict[str, Any] = PHONE,
           players: tuple[str, ...] = ("Ann", "Bob")) -> Iterator[tuple[Any, Table]]:
    """A classic game set up with ``start`` (a game in progress), and Ann's phone joined; yields it and the table."""
    with Journal(tmp_path / "banker.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": list(players), "seed": 3, "start": start})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server, opened(browser, server.url + f"/join#code={CODE}", size) as page:
            page.wait_for_selector("#live.on")
            join(page, "Ann")
            yield page, table


def screen(page: Any, name: str) -> None:
    """What the phone's screen shows (not the whole page): the README's pictures come from these."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-screen.png"))


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]


@pytest.mark.parametrize("size", SIZES)
def test_a_newly_joined_players_own_cash_is_first(browser: Any, tmp_path: Path, size: str) -> None:
    """Ann's cash was 1.4 screens down, under a column of Mortgage buttons; now it is in the header, largest."""
    with seated(browser, tmp_path, {"players": {"Ann": {"cash": 940}}, "spaces": {
            "park-place": {"owner": "Ann"}, "boardwalk": {"owner": "Ann"}}}, SIZES[size]) as (page, table):
        expect_text(page.locator("#me-cash"), "$940")
        assert in_view(page, "#me-cash") and in_view(page, "#who")
        largest = page.evaluate("""() => Math.max(...[...document.querySelectorAll('main *')]
            .filter((e) => e.offsetParent && e.childNodes.length && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
            .map((e) => parseFloat(getComputedStyle(e).fontSize)))""")
        assert float(page.eval_on_selector("#me-cash", "e => parseFloat(getComputedStyle(e).fontSize)")) > largest
        expect_text(page.locator("#me-now"), "Your move: Ann, roll the dice")
        page.mouse.wheel(0, 2000)
        page.wait_for_timeout(200)
        assert in_view(page, "#me-cash")  # sticky: still there after scrolling
        page.evaluate("scrollTo(0, 0)")
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["viewport"]["width"]
        shot(page, f"me-first-{size}")
        screen(page, f"me-first-{size}")
        assert page.errors == []


def test_every_act_on_a_deed_says_what_it_does_to_the_cash(browser: Any, tmp_path: Path) -> None:
    with seated(browser, tmp_path, {"spaces": {
            "mediterranean-avenue": {"owner": "Ann"},
            "oriental-avenue": {"owner": "Ann"}, "vermont-avenue": {"owner": "Ann"},
            "connecticut-avenue": {"owner": "Ann", "houses": 1},
            "reading-railroad": {"owner": "Ann", "mortgaged": True}}}) as (page, table):
        from playwright.sync_api import expect

        deed = page.locator('[data-deed="oriental-avenue"]')
        expect_text(deed.locator('[data-verb="build"]'), "Build house \u2212$50")
        expect_text(page.locator('[data-deed="mediterranean-avenue"] [data-verb="mortgage"]'), "Mortgage +$30")
        expect_text(page.locator('[data-deed="connecticut-avenue"] [data-verb="sell"]'), "Sell house +$25")
        expect_text(page.locator('[data-deed="reading-railroad"] [data-verb="unmortgage"]'), "Lift mortgage \u2212$110")
        # Evenly: Oriental and Vermont Avenue come first; Connecticut's Build is there, disabled, with why on its line.
        blocked = page.locator('[data-deed="connecticut-avenue"] [data-verb="build"]')
        expect(blocked).to_be_disabled(timeout=TIMEOUT)
        expect_text(page.locator('[data-deed="connecticut-avenue"] .why'),
                    "Build house: build evenly, the other streets of the light-blue group come first")
        for button in page.locator("#mine [data-verb]:visible:enabled").all():
            assert PRICED.search(button.inner_text()), button.inner_text()
        shot(page, "priced-deeds")
        assert page.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_two_taps_on_mortgage_mortgage_once_and_never_lift(browser: Any, tmp_path: Path, size: str) -> None:
    """Two taps 0.4 s apart on "Mortgage" mortgaged Oriental Avenue and lifted it again: $5 interest for nothing."""
    with seated(browser, tmp_path, {"spaces": {"oriental-avenue": {"owner": "Ann"}}}, SIZES[size]) as (page, table):
        button = page.locator('[data-deed="oriental-avenue"] [data-verb="mortgage"]')
        expect_text(button, "Mortgage +$50")
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        seq = table.state["seq"]
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(300)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect_text(page.locator("#toast span"), "Mortgaged Oriental Avenue: +$50")
        page.wait_for_timeout(1000)  # whatever the second tap did has been done by now
        assert table.state["spaces"]["oriental-avenue"]["mortgaged"] is True
        assert table.state["seq"] == seq + 1  # one input: no lift, no refusal
        assert table.state["players"][0]["cash"] == 1550
        expect_text(page.locator('[data-deed="oriental-avenue"] [data-verb="unmortgage"]'), "Lift mortgage \u2212$55")
        shot(page, f"mortgaged-once-{size}")
        assert page.errors == []


def test_a_refusal_is_said_beside_the_control_that_sent_it(browser: Any, tmp_path: Path) -> None:
    with seated(browser, tmp_path, {"players": {"Ann": {"cash": 207}}, "spaces": {
            "oriental-avenue": {"owner": "Ann"}}}) as (page, table):
        page.click("#trade-new summary")
        page.select_option("#trade-with", "Bob")
        page.fill("#give-cash", "5000")
        page.click("#trade-form button")
        expect_text(page.locator("#trade-form .error"), "Ann has only $207")
        assert "$207" not in page.locator("#notice").inner_text()  # not at the top of the page
        assert table.state["trade"] is None
        shot(page, "refusal-beside")
        page.fill("#give-cash", "5")
        page.click("#trade-form button")  # the next action clears it
        from playwright.sync_api import expect

        expect(page.locator(".error")).to_have_count(0, timeout=TIMEOUT)
        assert page.errors == []


def test_boardwalks_deed_card_reads_as_printed(browser: Any, tmp_path: Path) -> None:
    """Rows showed no price, rent or mortgage value; a tap on a deed or a board space opens its title deed."""
    with seated(browser, tmp_path, {"players": {"Ann": {"cash": 940}}, "spaces": {
            "park-place": {"owner": "Ann"}, "boardwalk": {"owner": "Ann", "houses": 0}}}) as (page, table):
        from playwright.sync_api import expect

        expect_text(page.locator('[data-deed="boardwalk"] [data-verb="build"]'), "Build house \u2212$200")
        page.click('[data-deed="boardwalk"] .deed')
        card = page.locator("#deed-card")
        expect(card).to_be_visible()
        expect_text(card.locator("h2"), "Boardwalk")
        printed = dict(zip(card.locator("th").all_inner_texts(), card.locator("td").all_inner_texts()))
        assert [printed[k] for k in ("Rent", "With 1 house", "With 2 houses", "With 3 houses", "With 4 houses",
                                     "With a hotel")] == ["$50", "$200", "$600", "$1400", "$1700", "$2000"]
        assert printed["Mortgage value"] == "$200" and printed["Price"] == "$400" and printed["Houses cost"] == "$200 each"
        expect(card.locator(".group")).to_have_text("Dark blue group")
        expect(card.locator(".status")).to_contain_text("Owner: Ann")
        expect_text(card.locator('[data-verb="build"]'), "Build house \u2212$200")
        expect(card.locator('[data-why="unmortgage"]')).to_contain_text("it is not mortgaged")
        shot(page, "deed-card-boardwalk")
        screen(page, "deed-card-boardwalk")
        card.locator('[data-verb="build"]').click()  # acts from the card, confirmed as from the row
        expect_text(page.locator("#toast span"), "Built a house on Boardwalk: \u2212$200")
        expect(card.locator(".status")).to_contain_text("1 house")
        assert table.state["spaces"]["boardwalk"]["houses"] == 1
        card.locator("button:text('Close')").click()
        expect(card).to_be_hidden()
        page.click('#board [data-space="reading-railroad"]')  # a board space: the railroad's card
        expect_text(card.locator("h2"), "Reading Railroad")
        expect(card.locator("tr", has_text="With 4 owned")).to_contain_text("$200")
        expect(card.locator(".status")).to_contain_text("Owner: nobody yet")
        shot(page, "deed-card-railroad")
        assert page.errors == []


def test_deeds_by_colour_group_and_a_readable_board(browser: Any, tmp_path: Path) -> None:
    """Deeds were not grouped (docs said they were), tokens looked like ownership dots, names were 6 px."""
    with seated(browser, tmp_path, {"players": {"Bob": {"space": "boardwalk"}}, "spaces": {
            "boardwalk": {"owner": "Ann"}, "park-place": {"owner": "Ann"}, "baltic-avenue": {"owner": "Ann"},
            "reading-railroad": {"owner": "Bob"}}}) as (page, table):
        from playwright.sync_api import expect

        expect(page.locator("#mine .group-name")).to_have_text(["Purple", "Dark blue"], timeout=TIMEOUT)
        expect(page.locator('.player[data-player="Ann"] .gname')).to_have_text(["Purple", "Dark blue"])
        expect(page.locator('[data-token="Bob"] text')).to_have_text("B")  # a lettered disc, not a dot
        assert page.locator("#board .owned").count() == 4
        page.click("#board .zoom")
        page.locator('#board [data-space="boardwalk"]').scroll_into_view_if_needed()
        size = page.eval_on_selector('#board [data-space="boardwalk"] text', "t => t.getBoundingClientRect().height")
        assert size >= 11  # px: readable on a phone
        shot(page, "board-larger")
        assert page.errors == []


def test_the_storys_numbers_are_not_clipped(browser: Any, tmp_path: Path) -> None:
    """ "20." showed as "!0.": the list's markers were wider than its padding, which its scrolling box clips."""
    with seated(browser, tmp_path, {}) as (page, table):
        for _ in range(6):  # more than the 20 lines the state keeps
            table.submit({"roll": [1, 2]}, source="test")
            table.submit({"answer": "no"}, source="test")
            while table.state["prompt"]["kind"] == "auction":
                table.submit({"act": {"player": table.state["prompt"]["waiting"][0], "do": "pass"}}, source="test")
        from playwright.sync_api import expect

        expect(page.locator("#story li")).to_have_count(20, timeout=TIMEOUT)
        room, needed = page.evaluate("""() => {
            const list = document.getElementById('story'), item = list.querySelector('li');
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = getComputedStyle(item).font;
            return [parseFloat(getComputedStyle(list).paddingLeft), ctx.measureText('20. ').width];
        }""")
        assert room >= needed
        assert page.errors == []


def test_the_money_story_and_the_game_over_summary(browser: Any, tmp_path: Path) -> None:
    with seated(browser, tmp_path, {"spaces": {"baltic-avenue": {"owner": "Ann"}}},
                players=("Ann", "Bob", "Cy")) as (page, table):
        from playwright.sync_api import expect

        table.submit({"roll": [1, 2]}, source="test")  # Ann on her own Baltic Avenue
        table.submit({"roll": [1, 2]}, source="test")  # Bob pays her rent
        table.submit({"roll": [2, 3]}, source="test")  # Cy to Reading Railroad, buys it
        table.submit({"answer": "yes"}, source="test")
        page.click("#money-details summary")
        first = page.locator("#money-list li").first
        expect(first).to_contain_text("+$4", timeout=TIMEOUT)
        expect(first).to_contain_text("Bob pays Ann $4 rent for Baltic Avenue")
        page.select_option("#money-who", "Cy")
        expect(page.locator("#money-list li").first).to_contain_text("\u2212$200")
        shot(page, "money-story")
        table.submit({"act": {"player": "host", "do": "end-game"}}, source="test")
        over = page.locator("#over-panel")
        expect(over).to_be_visible(timeout=TIMEOUT)
        winner = table.state["winner"]
        expect_text(page.locator("#over-winner"), f"{winner} wins!")
        expect(page.locator("#over-chart polyline")).to_have_count(3)  # one line per player
        assert sorted(page.locator("#over-chart polyline").evaluate_all("ls => ls.map((l) => l.dataset.line)")) == ["Ann", "Bob", "Cy"]
        ann = page.locator('#over-table tr[data-player="Ann"] td')
        assert ann.all_inner_texts() == ["$1564", "$0", "$4"]  # worth ($1504 and Baltic Avenue), rent paid, received
        expect(page.locator("#over-landed")).to_contain_text("Most landed: Baltic Avenue (2)")
        assert in_view(page, "#over-winner")
        expect(page.locator("#trade-panel")).to_be_hidden()  # no trades once the game is over
        shot(page, "game-over")
        screen(page, "game-over")
        assert page.errors == []


@pytest.mark.parametrize("size", ["390", "320", "200%"])
def test_names_contrast_and_the_narrowest_phones(browser: Any, tmp_path: Path, size: str) -> None:
    """Every control has a name, text has a contrast of 4.5:1 at least, nothing is wider than the phone: at 320 px
    and with the text at 200% (a 390 px phone zoomed twice: 195 CSS px)."""
    zoomed = {**PHONE, "viewport": {"width": 195, "height": 422}, "device_scale_factor": 4}
    with seated(browser, tmp_path, {"players": {"Ann": {"cash": 60}}, "spaces": {
            "oriental-avenue": {"owner": "Ann"}, "vermont-avenue": {"owner": "Ann"},
            "connecticut-avenue": {"owner": "Ann", "houses": 1}, "reading-railroad": {"owner": "Bob"}}},
            {**SIZES, "200%": zoomed}[size]) as (page, table):
        from playwright.sync_api import expect

        expect(page.locator("#mine .why").first).to_be_visible(timeout=TIMEOUT)
        page.click("#trade-new summary")
        page.click("#money-details summary")
        found = page.evaluate(A11Y)
        assert found["unnamed"] == [] and found["poor"] == [] and found["width"] <= page.viewport_size["width"], found
        page.click('[data-deed="oriental-avenue"] .deed')
        found = page.evaluate(A11Y)
        assert found["unnamed"] == [] and found["poor"] == [] and found["width"] <= page.viewport_size["width"], found
        shot(page, f"a11y-{size.replace('%', 'pc')}")
        assert page.errors == []


def test_what_the_table_waits_for_stays_in_view(browser: Any, tmp_path: Path) -> None:
    """The buttons the table waits on (a bid, an answer to an offer) stay under the header while Ann scrolls."""
    with seated(browser, tmp_path, {"spaces": {"reading-railroad": {"owner": "Bob"}}}) as (page, table):
        from playwright.sync_api import expect

        table.submit({"roll": [1, 2]}, source="test")  # Ann on Baltic Avenue: she lets it go to auction
        table.submit({"answer": "no"}, source="test")
        expect_text(page.locator("#me-now"), "Your move: bid or pass")  # too long for its line: never cut (issue 38)
        page.mouse.wheel(0, 3000)
        page.wait_for_timeout(300)
        assert in_view(page, "#bid-button") and in_view(page, "#pass-button")
        page.fill("#bid-amount", "12")
        expect_text(page.locator("#bid-button"), "Bid $12")
        shot(page, "bid-in-view")
        page.click("#bid-button")
        # Bob passes once Ann's bid is in: sent before, his pass made her bid stale ("someone else acted first").
        until("Ann's bid of $12 reaches the table", lambda: (table.state["prompt"] or {}).get("bidder") == "Ann")
        table.submit({"act": {"player": "Bob", "do": "pass"}}, source="test")
        expect(page.locator("#auction-panel")).to_be_hidden(timeout=TIMEOUT)
        table.submit({"act": {"player": "Bob", "do": "trade", "with": "Ann", "give": {"cash": 0, "spaces": ["reading-railroad"],
                      "cards": []}, "get": {"cash": 150, "spaces": [], "cards": []}}}, source="test")
        expect_text(page.locator("#me-now"), "Bob offers you a trade")
        page.mouse.wheel(0, 3000)
        page.wait_for_timeout(300)
        assert in_view(page, "#trade-offer button:text('Accept')")
        assert page.errors == []


def test_the_host_undoes_from_the_confirmation(browser: Any, tmp_path: Path) -> None:
    """Undo where the engine allows it: the host's (a player's way back is the opposite act, which costs interest)."""
    with Journal(tmp_path / "undo.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3, "start": {
            "spaces": {"oriental-avenue": {"owner": "Ann"}}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server, opened(browser, server.url + "/host") as page:
            from playwright.sync_api import expect

            page.fill("#host-pin", PIN)
            page.click("#pin-form button")
            page.wait_for_selector("#host-tools:not([hidden])")
            page.click('[data-deed="oriental-avenue"] [data-verb="mortgage"]')  # acting for Ann, the first seat
            expect_text(page.locator("#toast span"), "Mortgaged Oriental Avenue: +$50")
            assert table.state["spaces"]["oriental-avenue"]["mortgaged"] is True
            page.click("#toast button:text('Undo')")
            expect(page.locator('[data-deed="oriental-avenue"] [data-verb="mortgage"]')).to_be_visible(timeout=TIMEOUT)
            assert table.state["spaces"]["oriental-avenue"]["mortgaged"] is False
            assert table.state["players"][0]["cash"] == 1500
            assert page.errors == []
