"""What a player does with the phone page, written once and run on both engines (``engines.py``): Chromium through
Playwright, and WebKit (every iPhone's engine) through Selenium and WebKitGTK's WebKitWebDriver under Xvfb.

Without an engine they skip, or fail when ``CI`` is set. Screenshots of every main view, side by side: see
``engines.py`` (``test-artifacts/engines/`` by default).
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.table import Table
from companion.web import Access, WebServer, create_app, make_server

from .conftest import CODE, PIN, ticking
from .engines import (ENGINES, QUIET_SELENIUM, Phone, Role, engine_named, shot, until, wait_contains, wait_hidden, wait_live,
                      wait_text, wait_visible)

OpenPhone = Callable[[str], Phone]
pytestmark = QUIET_SELENIUM


@pytest.fixture(scope="module", params=ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One engine for the whole module: every scenario on Chromium, then every scenario on WebKit."""
    with engine_named(request.param, tmp_path_factory.mktemp(request.param)) as running:
        yield running


@pytest.fixture
def phone(engine: Any) -> Iterator[OpenPhone]:
    """Opens a new phone (its own cookies) at a URL and waits for the live stream; all are closed at the end."""
    phones: list[Phone] = []

    def open_phone(url: str) -> Phone:
        opened: Phone = engine.open()
        phones.append(opened)
        opened.goto(url)
        wait_live(opened)
        return opened

    yield open_phone
    for opened in phones:
        opened.close()


@contextmanager
def served(setup: dict[str, Any], tmp_path: Path, *lines: dict[str, Any]) -> Iterator[tuple[Table, WebServer]]:
    """A table on a real journal, with ``setup`` played up to ``lines``, served on a loopback port."""
    with Journal(tmp_path / "games.sqlite3") as journal:
        table = Table(journal)
        table.new_game(setup)
        for line in lines:
            table.submit(line, source="test")
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            yield table, server


CLASSIC = {"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 5}


@pytest.fixture
def classic(tmp_path: Path) -> Iterator[tuple[Table, WebServer]]:
    with served(CLASSIC, tmp_path) as running:
        yield running


def cash(name: str) -> str:
    return f'[data-cash="{name}"]'


def join(page: Phone, player: str) -> None:
    page.select("#join-player", player)
    page.click(Role("button", "Join"))
    wait_text(page, "#who", player)


def host_login(page: Phone) -> None:
    page.fill("#host-pin", PIN)
    page.click(Role("button", "Enter"))
    wait_visible(page, "#host-tools")


def no_errors(*phones: Phone) -> None:
    for page in phones:
        assert page.errors() == [], f"{page.engine}: {page.errors()}"


def test_balances_and_a_live_update(classic: tuple[Table, WebServer], phone: OpenPhone) -> None:
    table, server = classic
    page = phone(server.url + "/")
    for name in ("Ann", "Bob", "Cy"):
        wait_text(page, cash(name), "$1500")
    assert page.count("#board svg [data-space]") == 40
    assert page.count("#board [data-token]") == 3
    table.submit({"roll": [1, 2]}, source="buttons")  # another device moves the game on
    table.submit({"answer": "yes"}, source="buttons")
    wait_text(page, cash("Ann"), "$1440")
    wait_text(page, '.player[data-player="Ann"] .deed', "Baltic Avenue")
    assert page.text("#story li:first-child") == "Give Ann the deed of Baltic Avenue"
    shot(page, "live-update")
    no_errors(page)


def test_a_button_press_on_the_demo_table_reaches_the_page(phone: OpenPhone, tmp_path: Path) -> None:
    """`companion demo`'s table: MockFactory pins, luma's dummy OLED, the page served by the station."""
    from companion.drivers import clock as clocks
    from companion.drivers.virtual import VirtualButtons
    from companion.startup.mock import mock_station

    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}
    with mock_station(journal_path=tmp_path / "demo.sqlite3", dice="software", clock=clocks.monotonic,
                      sleep=clocks.sleep, setup=setup, new_seed=lambda: 3,
                      web=("127.0.0.1", 0)) as (station, factory, pins):
        with ticking(station):
            page = phone(station.web.url + "/")
            wait_text(page, "#prompt", "Ann, roll the dice")
            VirtualButtons(factory, pins.buttons, clocks.sleep).press("ROLL")  # the Pi rolls (software dice)
            wait_contains(page, "#story", "Ann rolls")
            assert station.table.state["seq"] >= 1
            shot(page, "demo-button")
            no_errors(page)


def test_a_joined_player_buys(classic: tuple[Table, WebServer], phone: OpenPhone) -> None:
    table, server = classic
    page = phone(server.url + f"/join#code={CODE}")
    assert page.run("return location.hash") == ""  # the code left the URL (and the history) at once
    assert page.value("#join-code") == CODE
    shot(page, "join")
    join(page, "Ann")
    table.submit({"roll": [1, 2]}, source="roller")
    page.click('[data-answer="yes"]')
    wait_text(page, cash("Ann"), "$1440")
    wait_text(page, '[data-deed="baltic-avenue"] .deed', "Baltic Avenue")
    assert table.state["spaces"]["baltic-avenue"]["owner"] == "Ann"  # type: ignore[index]
    assert page.run("return [app.stream.constructor.name, app.stream.count]") == ["Socket", 1]  # over the websocket
    shot(page, "joined-buys")
    no_errors(page)


def on_first_screen(page: Phone, selector: str) -> bool:
    """Whether the element is within the phone's screen with the page scrolled to its top."""
    return bool(page.run(f"""scrollTo(0, 0); const box = document.querySelector({selector!r}).getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;"""))


def test_after_a_roll_from_the_phone_its_first_screen_says_the_dice_and_where_to(classic: tuple[Table, WebServer],
                                                                                 phone: OpenPhone) -> None:
    """Issue 38: Bob's page jumped to Cy's roll; the dice and his move were only in the story, far down."""
    table, server = classic
    bob = phone(server.url + f"/join#code={CODE}")
    join(bob, "Bob")
    table.submit({"roll": [1, 2]}, source="roller")
    table.submit({"answer": "yes"}, source="roller")
    bob.select('[aria-label="die 1"]', "6")
    bob.select('[aria-label="die 2"]', "4")
    bob.click(Role("button", "Enter dice"))
    wait_text(bob, "[data-now=move] strong", "Jail, just visiting")
    wait_text(bob, "[data-now=dice] .total", "10")
    for shown in ('[data-now=dice] .die[data-face="6"]', '[data-now=dice] .die[data-face="4"]',
                  "[data-now=dice] .total", "[data-now=move] strong", "#me-cash", "#prompt"):
        assert on_first_screen(bob, shown), f"{bob.engine}: {shown} is not on the first screen"
    shot(bob, "just-now-roll")
    table.submit({"roll": [3, 4]}, source="roller")  # Cy to Chance: a card, on Bob's first screen too
    wait_text(bob, "[data-now=card] p", "Pay poor tax of $15.")
    assert on_first_screen(bob, "[data-now=card] p"), f"{bob.engine}: the card is not on the first screen"
    shot(bob, "just-now-card")
    no_errors(bob)


def test_an_auction_and_a_trade_between_two_phones(classic: tuple[Table, WebServer], phone: OpenPhone) -> None:
    table, server = classic
    ann = phone(server.url + f"/join#code={CODE}")
    join(ann, "Ann")
    bob = phone(server.url + f"/join#code={CODE}")
    join(bob, "Bob")
    table.submit({"roll": [1, 2]}, source="roller")
    ann.click('[data-answer="no"]')  # Baltic Avenue goes to auction
    wait_visible(bob, "#bid-form")
    bob.fill("#bid-amount", "30")
    bob.click("#bid-button")
    wait_text(ann, "#auction-text", "Baltic Avenue: Bob bids $30 · waiting for Ann, Cy")
    ann.fill("#bid-amount", "40")
    ann.click("#bid-button")
    wait_text(bob, "#auction-text", "Baltic Avenue: Ann bids $40 · waiting for Bob, Cy")
    shot(bob, "auction")
    bob.click("#pass-button")
    wait_contains(ann, "#story li:first-child", "Bob passes")  # before Cy's pass, or Bob's would come too late
    table.submit({"act": {"player": "Cy", "do": "pass"}}, source="host")
    wait_text(ann, '[data-deed="baltic-avenue"] .deed', "Baltic Avenue")
    wait_text(ann, cash("Ann"), "$1460")

    ann.click("#trade-new summary")
    ann.select("#trade-with", "Bob")
    ann.check('#give-items input[value="space:baltic-avenue"]')
    ann.fill("#get-cash", "100")
    shot(ann, "trade-form")
    ann.click("#trade-form button")
    wait_text(bob, "#trade-offer .offer p", "Ann offers Bob: Baltic Avenue for $100")
    shot(bob, "trade-offer")
    bob.click(Role("button", "Accept"))
    wait_text(bob, '[data-deed="baltic-avenue"] .deed', "Baltic Avenue")
    wait_text(ann, cash("Ann"), "$1560")
    wait_text(ann, cash("Bob"), "$1400")
    assert table.state["spaces"]["baltic-avenue"]["owner"] == "Bob"  # type: ignore[index]
    for page in (ann, bob):  # the acceptance and its hand-over, first on both phones (issue 38)
        wait_text(page, "[data-now=news]", "Bob accepts: trade done")
        wait_text(page, "[data-now=hand]", "Ann gives Bob the deed of Baltic Avenue")
        assert on_first_screen(page, "[data-now=hand]"), f"{page.engine}: the hand-over is not on the first screen"
    shot(ann, "trade-done")
    no_errors(ann, bob)


def test_mortgage_and_build(phone: OpenPhone, tmp_path: Path) -> None:
    """Ann owns the light-blue group and Baltic Avenue: she builds on the group and mortgages Baltic Avenue."""
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3, "start": {"spaces": {
        "baltic-avenue": {"owner": "Ann"}, "oriental-avenue": {"owner": "Ann"}, "vermont-avenue": {"owner": "Ann"},
        "connecticut-avenue": {"owner": "Ann"}}}}
    with served(setup, tmp_path) as (table, server):
        page = phone(server.url + f"/join#code={CODE}")
        join(page, "Ann")
        wait_hidden(page, '[data-deed="baltic-avenue"] [data-verb="build"]')  # half a group: the engine says no
        wait_visible(page, '[data-deed="oriental-avenue"] [data-verb="build"]')
        shot(page, "deeds")
        page.click('[data-deed="oriental-avenue"] [data-verb="build"]')
        wait_text(page, cash("Ann"), "$1450")
        assert table.state["spaces"]["oriental-avenue"]["houses"] == 1  # type: ignore[index]
        page.click('[data-deed="baltic-avenue"] [data-verb="mortgage"]')
        wait_text(page, cash("Ann"), "$1480")
        wait_contains(page, '[data-deed="baltic-avenue"] .deed', "mortgaged")
        page.click('[data-deed="baltic-avenue"] [data-verb="unmortgage"]')
        wait_text(page, cash("Ann"), "$1447")
        shot(page, "mortgage-and-build")
        no_errors(page)


def test_the_hosts_set_up(classic: tuple[Table, WebServer], phone: OpenPhone) -> None:
    """The host logs in with the PIN, acts for a player without a phone, undoes, renews the join code and starts a
    new game from the set-up form."""
    table, server = classic
    page = phone(server.url + "/host")
    shot(page, "host-pin")
    host_login(page)
    wait_text(page, "#join-show .code", CODE)
    assert page.count("#join-show svg") == 1
    table.submit({"roll": [1, 2]}, source="roller")
    page.click('[data-answer="yes"]')  # the host acts for Ann, who has no phone
    wait_text(page, cash("Ann"), "$1440")
    page.click(Role("button", "Undo"))
    wait_text(page, cash("Ann"), "$1500")
    shot(page, "host")
    page.click(Role("button", "New join code"), confirm=True)
    access = server.app.extensions["companion"].access
    until("the join code was never renewed", lambda: access.join_code != CODE and page.text("#join-show .code") == access.join_code)
    assert len(access.join_code) == 6 and access.join_code.isdigit()
    page.click("#host-tools details:has(> #new-form) > summary")
    page.select("#new-ruleset", "classic")
    page.fill("#new-players", "Ann, Bob")
    page.click("#new-form details:has(#new-seed) > summary")  # "Advanced"
    page.fill("#new-seed", "7")
    shot(page, "host-new-game")
    page.click(Role("button", "Start"), confirm=True)  # a game in progress: "Start a new one?" (issue 38)
    until("the new game never started", lambda: table.state["players"][-1]["name"] == "Bob"  # type: ignore[index]
          and len(table.state["players"]) == 2)  # type: ignore[index]
    until("the page never showed the new game", lambda: page.count('.player[data-player="Cy"]') == 0)
    no_errors(page)


def test_a_dropped_stream_resumes_without_reloading(classic: tuple[Table, WebServer], phone: OpenPhone) -> None:
    table, server = classic
    page = phone(server.url + "/")
    page.run("window.marker = 1")
    page.run("app.stream.close(); follow()")  # what the browser does after a dropped connection
    table.submit({"roll": [1, 2]}, source="buttons")
    table.submit({"answer": "yes"}, source="buttons")
    wait_text(page, cash("Ann"), "$1440")
    assert page.run("return window.marker") == 1  # the same page: no reload


def test_a_phone_waking_up_fetches_the_state_and_follows_again(classic: tuple[Table, WebServer],
                                                               phone: OpenPhone) -> None:
    """A phone asleep loses its stream without a word (iOS suspends the tab; the connection is gone, no error is
    seen): when it wakes ("visibilitychange"), the page fetches the state and opens the stream again."""
    table, server = classic
    page = phone(server.url + "/")
    page.run("app.stream.close()")  # asleep: the stream is gone and nothing reopens it
    table.submit({"roll": [1, 2]}, source="buttons")
    table.submit({"answer": "yes"}, source="buttons")
    page.run("document.dispatchEvent(new Event('visibilitychange'))")  # awake (visibilityState is "visible")
    wait_text(page, cash("Ann"), "$1440")
    wait_live(page)
    table.submit({"roll": [3, 4]}, source="buttons")  # and it follows the game again
    wait_contains(page, "#story", "Bob rolls")
    no_errors(page)


def test_the_page_reconnects_after_the_server_restarts(phone: OpenPhone, tmp_path: Path) -> None:
    """The Pi restarts (power cut, update): the phone, still joined, shows the game again and acts, no reload."""
    journal_path, kept = tmp_path / "games.sqlite3", tmp_path / "games.phones.json"

    @contextmanager
    def started(port: int) -> Iterator[tuple[Table, WebServer]]:
        with Journal(journal_path) as journal:
            table = Table(journal)
            if table.resume() is None:
                table.new_game(CLASSIC)
            app = create_app(table, access=Access.kept(kept), phone_dice="manual")
            with make_server(app, "127.0.0.1", port) as server:
                yield table, server

    with socket.socket() as probe:  # a port of its own, bound by both servers (cheroot reuses only a named port)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with started(port) as (table, server):
        code = server.app.extensions["companion"].access.join_code
        page = phone(server.url + f"/join#code={code}")
        join(page, "Ann")
        table.submit({"roll": [1, 2]}, source="roller")
        wait_visible(page, '[data-answer="yes"]')
    until("the page never saw the server go", lambda: page.count("#live.on") == 0)
    with started(port) as (table, server):
        wait_live(page)
        page.click('[data-answer="yes"]')  # still Ann, on the resumed game
        wait_text(page, cash("Ann"), "$1440")
        assert table.state["spaces"]["baltic-avenue"]["owner"] == "Ann"  # type: ignore[index]
        shot(page, "reconnected")
        no_errors(page)


def test_a_travel_card_sits_beside_its_label(phone: OpenPhone, tmp_path: Path) -> None:
    """On WebKit the travel card's checkbox was a large white square on a line of its own, away from its label."""
    setup = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
             "deal": {"Ann": ["travel-forward-2", "triple-play-136"], "Bob": ["travel-back-1", "triple-play-445"]}}
    with served(setup, tmp_path) as (table, server):
        page = phone(server.url + f"/join#code={CODE}")
        join(page, "Ann")
        box = Role("checkbox", "Travel forward 2 spaces")
        wait_visible(page, box)
        shot(page, "travel-card")
        check, label = page.run("""
            const box = document.querySelector('#travel input[type=checkbox]').getBoundingClientRect();
            const label = document.querySelector('#travel label').getBoundingClientRect();
            return [[box.left, box.top, box.width, box.height], [label.left, label.top, label.width, label.height]];""")
        assert check[2] <= 32 and check[3] <= 32, f"the checkbox is {check[2]}x{check[3]} px"
        assert label[1] <= check[1] and check[1] + check[3] <= label[1] + label[3], "the checkbox is off its label's line"
        assert label[3] <= 48, f"the label takes {label[3]} px: the checkbox and its words are on separate lines"
        page.check(box)
        page.click(Role("button", "Travel with these cards"))
        until("Ann never travelled", lambda: "travel-forward-2" not in table.state["players"][0]["cards"])  # type: ignore[index]
        wait_contains(page, "#story li:first-child", "Ann")
        no_errors(page)
