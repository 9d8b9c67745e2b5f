"""The phone page in a real browser: Playwright driving Debian's Chromium at a phone's viewport.

Skipped on a developer's machine without Chromium; with ``CI`` set they fail instead, so that
CI never passes without having run them. Screenshots go to ``test-artifacts/web/``.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.journal import Journal
from companion.table import Table
from companion.web import Access, WebServer, create_app, make_server

from .conftest import CODE, PIN, ticking

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
ARTIFACTS = Path(__file__).parents[2] / "test-artifacts" / "web"
TIMEOUT = 10_000  # ms: generous for a loaded CI machine; tests never assert on speed


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    with Journal(tmp_path / "games.sqlite3") as journal:
        t = Table(journal)
        t.new_game({"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 5})
        yield t


@pytest.fixture
def server(table: Table) -> Iterator[WebServer]:
    app: Flask = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
    with make_server(app, "127.0.0.1", 0) as running:
        yield running


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A function opening a new phone (browser context) at a URL (``options``: the context's others, a phone's
    locale and headers); every context is closed at the end."""
    contexts: list[Any] = []

    def open_phone(url: str, **options: Any) -> Any:
        context = browser.new_context(**PHONE, **options)
        context.set_default_timeout(TIMEOUT)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        page.goto(url)
        page.wait_for_selector("#live.on")  # the live stream is open
        return page

    yield open_phone
    for context in contexts:
        context.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def cash(page: Any, name: str) -> Any:
    return page.locator(f'[data-cash="{name}"]')


def join(page: Any, player: str) -> None:
    page.select_option("#join-player", player)
    page.click("#join-form button")
    expect_text(page.locator("#who"), player)


def expect_text(locator: Any, text: str) -> None:
    from playwright.sync_api import expect

    expect(locator).to_have_text(text, timeout=TIMEOUT)


def test_the_same_state_sent_whole_keeps_the_dice_half_chosen(server: WebServer, table: Table, phone: Any) -> None:
    """A state built by the stream's patches holds its keys in another order than the same state sent whole (on a
    reconnect, a change of rights): the panels compared their keys as JSON text, so the whole state rebuilt Bob's
    dice entry under his fingers and his die 1 went back to 1 (the scenario test saw Bob on Reading Railroad, 1 + 4,
    instead of Jail, 6 + 4, when the machine was loaded)."""
    page = phone(server.url + f"/join#code={CODE}")
    join(page, "Bob")
    table.submit({"roll": [1, 2]}, source="roller")
    table.submit({"answer": "yes"}, source="roller")
    die = page.locator('#act-prompt select[aria-label="die 1"]')
    die.select_option("6")
    resent = page.evaluate("""async () => {
      const href = [...document.querySelectorAll("link[rel=modulepreload]")].map((l) => l.href)
        .find((h) => h.endsWith("/stream.js"));
      const stream = await import(href);
      const { app } = await import(href.replace(/stream\\.js$/, "state.js"));
      const before = Object.keys(app.state.prompt);
      const whole = JSON.parse(JSON.stringify(app.state));
      whole.prompt = Object.fromEntries(Object.entries(whole.prompt).reverse());  // the same prompt, keys reordered
      stream.render(whole, app.game);
      return [before, Object.keys(app.state.prompt)];
    }""")
    assert len(resent[0]) > 1 and resent[1] == resent[0][::-1]  # the page drew the whole state, keys reordered
    assert die.input_value() == "6"
    page.locator('#act-prompt select[aria-label="die 2"]').select_option("4")
    page.click("#act-prompt button:text('Enter dice')")
    expect_text(page.locator("[data-now=move] strong"), "Jail, just visiting")
    assert page.errors == []


def test_a_refused_action_explains_itself(server: WebServer, table: Table, phone: Any) -> None:
    page = phone(server.url + f"/join#code={CODE}")
    join(page, "Ann")
    table.submit({"roll": [1, 2]}, source="roller")
    table.submit({"answer": "yes"}, source="roller")
    from playwright.sync_api import expect

    # Half a group: no house is offered (the page asks /api/acts); a refusal the page cannot foresee is explained.
    expect(page.locator('[data-deed="baltic-avenue"] [data-verb="build"]')).to_be_hidden(timeout=TIMEOUT)
    page.click("#trade-new summary")
    page.select_option("#trade-with", "Bob")
    page.fill("#give-cash", "5000")
    page.click("#trade-form button")
    expect_text(page.locator("#trade-form .error"), "Ann has only $1440")  # where the offer was made
    assert table.state["trade"] is None
    page.click('[data-deed="baltic-avenue"] [data-verb="mortgage"]')
    expect_text(cash(page, "Ann"), "$1470")
    page.click('[data-deed="baltic-avenue"] [data-verb="unmortgage"]')
    expect_text(cash(page, "Ann"), "$1437")




def test_a_host_who_joined_as_a_player_acts_for_a_player_without_a_phone(server: WebServer, table: Table,
                                                                        phone: Any) -> None:
    """One friend runs the host page on the phone they play on: "Act for" starts at their own seat, and another
    player picked there is the one the page acts for (the seat used to win: "Ann decides." and no dice)."""
    page = phone(server.url + f"/join#code={CODE}")
    join(page, "Bob")
    page.goto(server.url + "/host")
    page.fill("#host-pin", PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#host-tools:not([hidden])")
    assert page.input_value("#act-as") == "Bob"
    page.select_option("#act-as", "Ann")
    page.wait_for_selector('#act-prompt select[aria-label="die 1"]')  # Ann's roll, from the host's phone
    page.select_option('#act-prompt select[aria-label="die 2"]', "2")
    page.click("#act-prompt button:text('Enter dice')")
    page.click('[data-answer="no"]')  # Ann leaves Baltic Avenue to the auction
    page.wait_for_selector("#auction-panel:not([hidden]) #bid-form:not([hidden])")
    page.fill("#bid-amount", "30")
    page.click("#bid-button")
    expect_text(page.locator("#auction-text"), "Baltic Avenue: Ann bids $30 · waiting for Bob, Cy")
    assert table.state["auction"]["bidder"] == "Ann"
    page.select_option("#act-as", "Bob")  # and back to the host's own seat
    page.fill("#bid-amount", "40")
    page.click("#bid-button")
    expect_text(page.locator("#auction-text"), "Baltic Avenue: Bob bids $40 · waiting for Ann, Cy")
    assert page.errors == []


def test_a_new_game_of_the_same_players_replaces_the_old_one_on_every_page(server: WebServer, table: Table,
                                                                           phone: Any) -> None:
    """A new game of the same ruleset and players starts at seq 0 too: every page dropped it as an older state of
    the game it showed and kept the old game until reloaded (the host's own "New game" as well)."""
    looker = phone(server.url + "/")
    host = phone(server.url + "/host")
    host.fill("#host-pin", PIN)
    host.click("#pin-form button")
    host.wait_for_selector("#host-tools:not([hidden])")
    table.submit({"roll": [1, 2]}, source="roller")
    table.submit({"answer": "yes"}, source="roller")
    for page in (looker, host):
        expect_text(cash(page, "Ann"), "$1440")
    host.click("summary:text('New game')")
    host.select_option("#new-ruleset", "classic")
    host.fill("#new-players", "Ann, Bob, Cy")
    host.once("dialog", lambda dialog: dialog.accept())  # a game in progress: "Start a new one?" (issue 38)
    host.click("#new-form button")
    for page in (looker, host):
        expect_text(cash(page, "Ann"), "$1500")
        assert page.get_attribute("body", "data-seq") == "0"
    table.submit({"roll": [1, 2]}, source="roller")
    host.click('[data-answer="yes"]')  # acted on the new game (an input naming the old one is refused as stale)
    for page in (looker, host):
        expect_text(cash(page, "Ann"), "$1440")
    assert looker.errors == [] and host.errors == []


def test_a_phone_gives_up_its_seat_and_another_takes_it(server: WebServer, table: Table, phone: Any) -> None:
    ann = phone(server.url + f"/join#code={CODE}")
    join(ann, "Ann")
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.click("#leave-button")
    expect_text(ann.locator("#who"), "")
    assert ann.locator("#leave-button").is_hidden()
    other = phone(server.url + f"/join#code={CODE}")
    join(other, "Ann")  # the seat is free again
    assert ann.errors == [] and other.errors == []


def test_a_player_out_of_the_game_is_offered_no_acts(server: WebServer, table: Table, phone: Any) -> None:
    """A bankrupt player's phone still offered "Propose a trade" and "Go bankrupt": every tap was refused."""
    ann = phone(server.url + f"/join#code={CODE}")
    join(ann, "Ann")
    ann.wait_for_selector("#more-actions button:text('Go bankrupt')", state="attached")  # under "More"
    table.submit({"act": {"player": "Ann", "do": "bankrupt"}}, source="test")
    from playwright.sync_api import expect

    expect(ann.locator("#mine-panel")).to_be_hidden(timeout=TIMEOUT)  # its acts, "Go bankrupt" among them
    expect(ann.locator("#trade-new")).to_be_hidden()
    assert "out of the game" in ann.locator('.player.out[data-player="Ann"] .where').inner_text()
    assert ann.errors == []




def test_a_refused_stream_is_opened_again(server: WebServer, table: Table, browser: Any) -> None:
    """A stream refused with 429 (every slot held) was never reopened by the browser: the page said
    "reconnecting…" for good and stopped following the game."""
    slots = server.app.extensions["companion"].streams
    slots.total = 0  # every slot is held
    context = browser.new_context(**PHONE)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    with page.expect_response(lambda response: "/api/stream" in response.url and response.status == 429):
        page.goto(server.url + "/")
    expect_text(page.locator("#live"), "reconnecting…")
    slots.total = 32  # a slot is free again
    table.submit({"roll": [1, 2]}, source="roller")
    page.wait_for_selector("#live.on")
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-seq", "1", timeout=TIMEOUT)
    context.close()




def test_addon_both_boards_and_a_subway_ride_picked_on_the_map(browser: Any, phone: Any, tmp_path: Path) -> None:
    with Journal(tmp_path / "addon.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 1,
                        "start": {"players": {"Ann": {"space": "inner-community-chest"}}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            assert page.locator("#board svg [data-space]").count() == 64  # the outer 40 and the inner 24
            assert page.locator("#board svg line.link").count() == 2  # the elevator pairs
            page.select_option('[aria-label="die 1"]', "1")
            page.select_option('[aria-label="die 2"]', "1")
            page.click("#act-prompt button:text('Enter dice')")
            expect_text(page.locator("#prompt"), "Ann, take the subway to any space")
            assert page.locator("#board .cell.pick").count() == 63
            shot(page, "addon-subway")
            page.click('#board [data-space="boardwalk"]')  # tap the destination on the map: it is picked, not sent
            expect_text(page.locator("#answer-choose"), "Choose Boardwalk")
            assert table.state["players"][0]["space"] == "subway"  # type: ignore[index]
            page.click("#answer-choose")
            from playwright.sync_api import expect

            expect(page.locator('.player[data-player="Ann"] .where')).to_contain_text("on Boardwalk", timeout=TIMEOUT)
            assert table.state["players"][0]["space"] == "boardwalk"
            assert page.errors == []


def test_magie_1924_chance_cube_entered_beside_the_dice(browser: Any, phone: Any, tmp_path: Path) -> None:
    """After doubles the 1924 game needs the chance cube: the phone's dice entry offers it (5 to 30)."""
    with Journal(tmp_path / "magie.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9,
                        "start": {"players": {"Ann": {"cards": ["wayback", "slambang-trolley"]}}}})
        table.submit({"roll": [1, 1]}, source="test")
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            expect_text(page.locator("#prompt"), "Doubles: Ann, throw the dice and the chance cube")
            page.select_option('[aria-label="die 1"]', "2")
            page.select_option('[aria-label="die 2"]', "1")
            page.select_option('[aria-label="chance cube"]', "25")
            page.click("#act-prompt button:text('Enter dice')")
            from playwright.sync_api import expect

            expect(page.locator("#story")).to_contain_text("the cube shows 25", timeout=TIMEOUT)
            assert table.game.export().splitlines()[-1] == '{"roll": [2, 1], "cube": 25}'  # type: ignore[union-attr]
            assert page.errors == []


def test_a_players_own_qr_code_joins_their_seat_at_once(browser: Any, phone: Any, table: Table) -> None:
    """The URL in a player's QR code (the OLED's join pages) holds their code and name: no form to fill."""
    access = Access(host_pin=PIN, join_code=CODE)
    app = create_app(table, access=access, phone_dice="manual")
    with make_server(app, "127.0.0.1", 0) as server:
        page = phone(access.player_join_url(server.url, "Bob"))
        expect_text(page.locator("#who"), "Bob")
        assert "code=" not in page.url  # the code leaves the browser's history at once
        assert access.seats() == ["Bob"]
        assert page.errors == []


def test_magie_1904_a_loan_offer_is_shown_and_accepted_on_the_phone(browser: Any, phone: Any, tmp_path: Path) -> None:
    """A player's loan offer broke every page (the offer has no give/get) and could not be answered; a deed row
    read "null" where the ruleset has no build button."""
    with Journal(tmp_path / "magie.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "magie-1904", "players": ["Ann", "Bob"], "seed": 4,
                        "start": {"players": {"Ann": {"space": "lot-21"}}, "spaces": {"lot-19": {"owner": "Ann"}}}})
        table.submit({"act": {"player": "Bob", "do": "loan", "to": "Ann", "amount": 100, "interest": 7,
                              "spaces": ["lot-19"], "terms": "back in two laps"}}, source="test")
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            from playwright.sync_api import expect

            expect(page.locator("#trade-offer")).to_contain_text("Bob offers Ann a loan of $100 at $7 each wages",
                                                                 timeout=TIMEOUT)
            expect(page.locator("#trade-offer")).to_contain_text("(terms: back in two laps)")  # agreed by both
            assert "null" not in page.locator("#mine").inner_text()
            page.click("#trade-offer button:text('Accept')")
            expect(cash(page, "Ann")).to_have_text("$600", timeout=TIMEOUT)
            assert table.state["players"][0]["cash"] == 600  # type: ignore[index]
            expect(page.locator("#bank")).to_contain_text("Ann owes Bob $100 ($7 each wages) on Lot 19; terms: back in two laps")
            assert page.errors == []


def test_the_airplane_stays_in_one_tap(browser: Any, phone: Any, tmp_path: Path) -> None:
    with Journal(tmp_path / "addon.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
                        "options": {"airplane": "free-parking", "airplane_fare": 50},
                        "start": {"players": {"Ann": {"space": "st-james-place", "cards": []}, "Bob": {"cards": []}}}})
        table.submit({"roll": [3, 1]}, source="test")  # onto the airplane's space
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            page.click("#act-prompt button:text('Stay on Free Parking')")
            expect_text(page.locator("#prompt"), "Bob, roll the dice")
            assert table.state["airplane"] == "free-parking" and table.state["players"][0]["cash"] == 1500  # type: ignore[index]
            assert page.errors == []


def test_going_bankrupt_from_a_debt_asks_first(browser: Any, phone: Any, tmp_path: Path) -> None:
    """The debt prompt's "bankrupt" was one tap on a blue button; now "Go bankrupt", in red, after a confirmation."""
    with Journal(tmp_path / "debt.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "start": {
            "players": {"Ann": {"cash": 10, "space": "short-line"}},
            "spaces": {"park-place": {"owner": "Bob", "hotel": True}, "boardwalk": {"owner": "Bob", "hotel": True}}}})
        table.submit({"roll": [1, 1]}, source="test")
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            button = page.locator("#act-prompt button:text('Go bankrupt')")
            page.once("dialog", lambda dialog: dialog.dismiss())
            button.click()
            page.wait_for_timeout(300)
            assert table.state["prompt"]["kind"] == "debt"  # type: ignore[index]  # dismissed: nothing sent
            page.once("dialog", lambda dialog: dialog.accept())
            button.click()
            expect_text(page.locator("#prompt"), "Bob wins!")
            assert page.errors == []


def test_the_host_sends_a_player_to_jail_by_name(browser: Any, phone: Any, tmp_path: Path) -> None:
    """The host's send-to-jail button sent no target and was always refused ("cannot send None to jail")."""
    with Journal(tmp_path / "magie.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9,
                        "start": {"players": {"Ann": {"cards": ["wayback"]}}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + "/host")
            page.fill("#host-pin", PIN)
            page.click("#pin-form button")
            page.wait_for_selector("#host-tools:not([hidden])")
            page.once("dialog", lambda dialog: dialog.accept())
            page.locator("#host-players .mine-row", has_text="Bob").locator("button:text('Send to jail')").click()
            from playwright.sync_api import expect

            expect(page.locator("#story")).to_contain_text("Bob", timeout=TIMEOUT)
            assert table.state["players"][1]["in_jail"]  # type: ignore[index]
            assert page.errors == []


def test_magie_controls_on_the_phone(browser: Any, phone: Any, tmp_path: Path) -> None:
    """The landlord's games' own verbs had no controls (only a raw JSON form); improvements were shown nowhere."""
    with Journal(tmp_path / "magie.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9,
                        "start": {"players": {"Ann": {"cards": ["wayback", "rubeville"], "cash": 900}}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            page.locator('[data-deed="wayback"] button:text("Improve")').click()
            from playwright.sync_api import expect

            expect(page.locator('[data-deed="wayback"] .deed')).to_contain_text("improved", timeout=TIMEOUT)
            page.locator('[data-deed="rubeville"] button:text("Put sign here")').click()
            expect(page.locator('[data-deed="rubeville"] .deed')).to_contain_text("no trespassing", timeout=TIMEOUT)
            spaces = table.state["spaces"]  # type: ignore[index]
            assert spaces["wayback"]["improvement"] and spaces["rubeville"]["sign"]
            page.click("#trade-new summary")  # the form is filled once opened (trade.js comes then)
            expect(page.locator('#give-items input[value="card:wayback"]')).to_have_count(1, timeout=TIMEOUT)
            assert "wayback" not in [v.split(":")[1] for v in page.locator("#give-items input").evaluate_all(
                "els => els.map(e => e.value)") if v.startswith("space:")]  # offered as the card only
            assert page.errors == []
    with Journal(tmp_path / "m1904.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "magie-1904", "players": ["Ann", "Bob"], "seed": 4,
                        "start": {"players": {"Ann": {"space": "lot-21"}}, "spaces": {"lot-19": {"owner": "Ann"}}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            page.locator('#mine label:has-text("Lot 19") input').check()
            page.click("#mine button:text('Borrow')")
            from playwright.sync_api import expect

            expect(page.locator("#bank")).to_contain_text("Ann owes the bank", timeout=TIMEOUT)
            loan = table.state["loans"][0]  # type: ignore[index]
            page.click("#mine button:text('Repay')")
            expect(page.locator("#bank")).not_to_contain_text("owes", timeout=TIMEOUT)
            assert loan["spaces"] == ["lot-19"] and table.state["loans"] == []  # type: ignore[index]
            bob = phone(server.url + f"/join#code={CODE}")  # Bob lends to Ann on her lot, from his phone
            join(bob, "Bob")
            bob.locator('#mine label:has-text("Lot 19") input').check()
            bob.fill('[aria-label="amount lent"]', "100")
            bob.fill('[aria-label="interest at each of their wages"]', "7")
            bob.click("#mine button:text('Offer the loan')")
            expect(page.locator("#trade-offer")).to_contain_text("Bob offers Ann a loan of $100 at $7", timeout=TIMEOUT)
            page.click("#trade-offer button:text('Accept')")
            expect(page.locator("#bank")).to_contain_text("Ann owes Bob $100", timeout=TIMEOUT)
            assert page.errors == [] and bob.errors == []


def test_cards_are_shown_by_their_names(server: WebServer, table: Table, phone: Any) -> None:
    table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 5,
                    "start": {"players": {"Ann": {"space": "jail", "in_jail": True, "cards": ["chance-get-out-of-jail-free"]}}}})
    page = phone(server.url + f"/join#code={CODE}")
    join(page, "Ann")
    from playwright.sync_api import expect

    expect(page.locator('.player[data-player="Ann"] .cards')).to_have_text("cards: Get out of jail free", timeout=TIMEOUT)
    expect(page.locator("#act-prompt")).to_contain_text("Use Get out of jail free", timeout=TIMEOUT)
    assert page.errors == []


def test_the_logged_in_host_sees_the_prompt_above_the_host_tools(server: WebServer, table: Table, phone: Any) -> None:
    page = phone(server.url + "/host")
    page.fill("#host-pin", PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#host-tools:not([hidden])")
    prompt_top = page.locator("#turn-panel").bounding_box()["y"]
    tools_top = page.locator("#host-panel").bounding_box()["y"]
    assert prompt_top < tools_top  # it sat ~1,100 px below them on a phone
    assert page.errors == []


def test_chambers_shows_no_empty_deed_panel(browser: Any, phone: Any, tmp_path: Path) -> None:
    with Journal(tmp_path / "chambers.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "chambers", "players": ["Ann", "Bob"], "seed": 1})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            expect_text(page.locator("#prompt"), "Ann, roll the die")
            assert page.locator("#mine-panel").is_hidden() and page.locator("#bank-panel").is_hidden()
            assert page.errors == []


def test_the_player_who_passed_the_bridge_moves_it_from_the_phone(browser: Any, phone: Any, tmp_path: Path) -> None:
    """addon's move-bridge had no control (only the JSON form, with the space ids to type)."""
    with Journal(tmp_path / "addon.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
                        "options": {"bridge": ["kentucky-avenue", "market-street"], "bridge_moves": True},
                        "start": {"players": {"Ann": {"space": "free-parking"}}}})
        table.submit({"roll": [1, 1]}, source="test")  # Ann passes over the bridge and may move it
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            page.locator("#mine").get_by_label("Outer end").select_option("illinois-avenue")
            page.locator("#mine").get_by_label("Inner end").select_option("gas-company")
            page.click("#mine button:text('Move the bridge')")
            from playwright.sync_api import expect

            expect(page.locator("#story")).to_contain_text("Move the bridge to Illinois Avenue", timeout=TIMEOUT)
            assert table.state["bridge"] == ["illinois-avenue", "gas-company"]  # type: ignore[index]
            assert page.errors == []


@contextmanager
def deeds_game(tmp_path: Path, phone: Any, spaces: dict[str, Any], cash: int = 1500) -> Iterator[Any]:
    """A classic game where Ann holds ``spaces`` and ``cash``; yields her phone, joined."""
    with Journal(tmp_path / "deeds.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3, "start": {
            "spaces": spaces, "players": {"Ann": {"cash": cash}}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            yield page


def test_the_deeds_offer_only_the_acts_the_engine_takes(phone: Any, tmp_path: Path) -> None:
    """A "Build house" on every street, whole group or not, was a refusal per tap: the page asks /api/acts."""
    with deeds_game(tmp_path, phone, {"baltic-avenue": {"owner": "Ann"}, "oriental-avenue": {"owner": "Ann"},
                                      "vermont-avenue": {"owner": "Ann"}, "connecticut-avenue": {"owner": "Ann"}}) as page:
        from playwright.sync_api import expect

        build = page.locator('#mine [data-verb="build"]:visible:enabled')
        expect(build).to_have_count(3, timeout=TIMEOUT)  # the light blue group, whole; not Baltic Avenue
        assert page.locator('[data-deed="baltic-avenue"] [data-verb="build"]').is_hidden()
        assert page.locator('[data-deed="baltic-avenue"] [data-verb="mortgage"]').is_visible()
        page.click('[data-deed="oriental-avenue"] [data-verb="build"]')
        expect(page.locator('[data-deed="oriental-avenue"] [data-verb="build"]')).to_be_disabled(timeout=TIMEOUT)
        expect(build).to_have_count(2)  # evenly: the next house goes on Vermont or Connecticut first
        assert page.locator('[data-deed="oriental-avenue"] [data-verb="sell"]').is_visible()
        assert page.errors == []


def test_a_deed_says_why_the_button_a_player_looks_for_is_not_there(phone: Any, tmp_path: Path) -> None:
    """The page hid what the engine refuses without a word: "why can't I build?" on a whole group. Now the deed
    says why, in the engine's words; a house on half a group (Baltic Avenue) is not explained on every street."""
    with deeds_game(tmp_path, phone, {
            "baltic-avenue": {"owner": "Ann"}, "oriental-avenue": {"owner": "Ann", "houses": 1},
            "vermont-avenue": {"owner": "Ann"}, "connecticut-avenue": {"owner": "Ann"},
            "reading-railroad": {"owner": "Ann", "mortgaged": True}}, cash=60) as page:
        from playwright.sync_api import expect

        why = page.locator("#mine .why")
        expect(why).to_have_count(4, timeout=TIMEOUT)
        expect_text(page.locator('[data-deed="oriental-avenue"] [data-why="build"]'),
                    "Build house: build evenly, the other streets of the light-blue group come first")
        # Vermont and Connecticut Avenue refuse a mortgage for one cause, Baltic Avenue takes it: each deed says why.
        for street in ("vermont-avenue", "connecticut-avenue"):
            expect_text(page.locator(f'[data-deed="{street}"] [data-why="mortgage"]'),
                        "Mortgage: sell the buildings of the light-blue group first")
            assert page.locator(f'[data-deed="{street}"] [data-verb="mortgage"]').is_disabled()
        expect_text(page.locator('[data-deed="reading-railroad"] [data-why="unmortgage"]'),
                    "Lift mortgage: it costs $110")
        assert page.locator('[data-deed="baltic-avenue"] .why').count() == 0
        shot(page, "deeds-why")
        assert page.locator('[data-deed="vermont-avenue"] [data-verb="build"]').is_visible()  # $50 of Ann's $60
        page.click('[data-deed="vermont-avenue"] [data-verb="build"]')  # $10 left: no house anywhere now
        expect_text(page.locator('[data-deed="connecticut-avenue"] [data-why="build"]'), "Build house: a house costs $50")
        for street in ("oriental-avenue", "vermont-avenue"):  # alike now, but Connecticut Avenue not: on each line
            expect_text(page.locator(f'[data-deed="{street}"] [data-why="build"]'),
                        "Build house: build evenly, the other streets of the light-blue group come first")
        assert page.errors == []


def test_late_answers_about_the_deeds_never_say_a_cause_twice(phone: Any, tmp_path: Path) -> None:
    """The page asks /api/acts at each rebuild of the deeds; an answer that came late to a rebuild of the same deeds
    (a mortgage undone meanwhile) was taken as the current one's, and every cause was said twice."""
    with Journal(tmp_path / "late.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3, "start": {
            "players": {"Ann": {"cash": 10}}, "spaces": {
                "baltic-avenue": {"owner": "Ann"}, "mediterranean-avenue": {"owner": "Ann"},
                "reading-railroad": {"owner": "Ann", "mortgaged": True}}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        acts, calls, late = app.view_functions["api.get_acts"], [0], threading.Event()
        served = threading.Semaphore(0)

        def late_at_first(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            if calls[0] == 1:  # the first answer comes late: when the test says
                late.wait(TIMEOUT / 1000)
            try:
                return acts(*args, **kwargs)
            finally:
                served.release()

        app.view_functions["api.get_acts"] = late_at_first
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            deadline = time.monotonic() + TIMEOUT / 1000
            while calls[0] < 1:  # the first rebuild has asked (and waits)
                assert time.monotonic() < deadline, "the page never asked /api/acts"
                time.sleep(0.02)
            table.submit({"act": {"player": "Ann", "do": "mortgage", "space": "baltic-avenue"}}, source="test")
            from playwright.sync_api import expect

            deed = page.locator('[data-deed="baltic-avenue"] .deed')
            expect(deed).to_contain_text("mortgaged", timeout=TIMEOUT)
            table.submit({"undo": 1}, source="test")  # the deeds as they were: the same key as the first rebuild
            expect(deed).not_to_contain_text("mortgaged", timeout=TIMEOUT)
            late.set()  # the first answer now, then the others (the browser asks the same URL one at a time)
            for _ in range(3):
                assert served.acquire(timeout=TIMEOUT / 1000), f"{calls[0]} answers about the deeds, not 3"
            expect(page.locator("#mine .why")).to_have_count(2, timeout=TIMEOUT)
            time.sleep(0.5)  # the page has read every answer by now
            assert page.locator("#mine .why").all_text_contents() == ["Build house: a house costs $50",
                                                                    "Lift mortgage: it costs $110"]
            assert page.errors == []


def test_one_cause_for_every_deed_is_said_once(phone: Any, tmp_path: Path) -> None:
    with deeds_game(tmp_path, phone, {"baltic-avenue": {"owner": "Ann"}, "mediterranean-avenue": {"owner": "Ann"}},
                    cash=10) as page:
        from playwright.sync_api import expect

        expect(page.locator("#mine .why")).to_have_count(1, timeout=TIMEOUT)
        expect_text(page.locator("#mine > .why"), "Build house: a house costs $50")
        assert page.errors == []


def test_the_landlords_game_says_once_when_land_is_improved(phone: Any, tmp_path: Path) -> None:
    """magie-1924: improvements and signs only in one's own turn, before the throw. Two lines, not two a lot."""
    with Journal(tmp_path / "1924.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 3, "start": {
            "turn": "Bob", "spaces": {lot: {"owner": "Ann"} for lot in ("wayback", "boomtown", "rubeville")}}})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            page = phone(server.url + f"/join#code={CODE}")
            join(page, "Ann")
            from playwright.sync_api import expect

            expect(page.locator("#mine .why")).to_have_count(2, timeout=TIMEOUT)
            expect_text(page.locator('#mine > [data-why="improve"]'),
                        "Improve: improvements are bought in one's own turn, before the throw")
            expect_text(page.locator('#mine > [data-why="sign"]'),
                        "Put sign here: signs are placed in one's own turn, before the throw")
            assert page.errors == []


def test_the_host_registers_a_deeds_sticker_from_the_phone(phone: Any, tmp_path: Path) -> None:
    """The host picks Baltic Avenue on the page; the sticker tapped on the table's reader (the demo's virtual PN532)
    becomes Baltic Avenue's, and the reader asks for the next deed."""
    from companion.drivers import clock as clocks
    from companion.drivers.virtual_nfc import demo_uid
    from companion.startup.mock import mock_station
    from playwright.sync_api import expect

    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}
    with mock_station(journal_path=tmp_path / "demo.sqlite3", dice="software", clock=clocks.monotonic,
                      sleep=clocks.sleep, setup=setup, new_seed=lambda: 3, web=("127.0.0.1", 0)) as (station, _, _):
        with ticking(station):
            page = phone(station.web.url + "/host")
            page.fill("#host-pin", station.controller.join_info().pin)
            page.click("#pin-form button")
            page.click("#host-cards-box summary")
            row = page.locator('[data-card="baltic-avenue"]')
            expect(row).to_contain_text("Baltic Avenue · registered", timeout=TIMEOUT)  # the demo's set
            row.locator("button").click()
            expect(page.locator("#cards-asking")).to_contain_text("Tap the sticker of Baltic Avenue", timeout=TIMEOUT)
            station.nfc_bus.place(demo_uid("a-new-sticker"))
            expect(page.locator("#cards-asking")).to_contain_text("Reading Railroad", timeout=TIMEOUT)
            station.nfc_bus.remove()
            assert station.controller.cards.uid("classic", "deeds", "baltic-avenue") == demo_uid("a-new-sticker")
            shot(page, "host-cards")
            page.click("#cards-asking button:text('Stop')")
            expect(page.locator("#cards-asking")).to_contain_text("Pick a card", timeout=TIMEOUT)
            assert station.controller.overlay is None and page.errors == []
