"""The host's phone (issue 38, item 7): a fresh journal opens the set-up, a new game over one in progress asks first,
and the host PIN is on the host's own phone only, never on the join screen shown around the table.

Playwright on Debian's Chromium at 390×844.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.journal import Journal
from companion.table import Table
from companion.web import Access, WebServer, create_app, make_server

from .conftest import CODE, PIN
from .pages import opened
from .test_browser import ARTIFACTS, browser, expect_text  # noqa: F401 - browser: a fixture


@contextmanager
def serving(tmp_path: Path, setup: dict[str, Any] | None) -> Iterator[tuple[Table, WebServer]]:
    """A table on a fresh journal (``setup`` None: no game at all), served on a loopback port."""
    with Journal(tmp_path / "games.sqlite3") as journal:
        table = Table(journal)
        if setup is not None:
            table.new_game(setup)
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server:
            yield table, server


def log_in(page: Any) -> None:
    page.fill("#host-pin", PIN)
    page.click("#pin-form button")
    page.wait_for_selector("#host-tools:not([hidden])")


def test_a_fresh_journal_opens_the_set_up_on_the_hosts_phone(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path, None) as (table, server), opened(browser, server.url + "/host") as host, \
            opened(browser, server.url + "/") as looker:
        expect_text(host.locator("#prompt"), "The host sets up a game.")
        expect_text(looker.locator("#prompt"), "The host sets up a game.")
        assert host.locator("#pin-form").is_visible()  # the PIN form, where it was nothing but an error before
        log_in(host)
        expect_text(host.locator("#prompt"), "Set up the game below: the ruleset, then the players, then Start.")
        assert host.locator("#new-game").evaluate("d => d.open")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        host.screenshot(path=str(ARTIFACTS / "host-set-up.png"))
        host.select_option("#new-ruleset", "classic")
        host.fill("#new-players", "Ann, Bob")
        host.click("#new-form > button")
        expect_text(host.locator("#turn"), "Turn 1: Ann")
        expect_text(looker.locator("#turn"), "Turn 1: Ann")  # the stream brought the new game to every phone
        assert table.state is not None and [p["name"] for p in table.state["players"]] == ["Ann", "Bob"]
        assert host.errors == [] and looker.errors == []


def test_a_new_game_over_a_game_in_progress_asks_first(browser: Any, tmp_path: Path) -> None:
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 5}
    with serving(tmp_path, setup) as (table, server), opened(browser, server.url + "/host") as host:
        host.wait_for_selector("#live.on")
        log_in(host)
        table.submit({"roll": [1, 2]}, source="roller")
        game = table.game.id  # type: ignore[union-attr]
        host.click("#new-game summary")
        host.fill("#new-players", "Cleo, Dan")
        asked: list[str] = []
        host.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        host.click("#new-form > button")
        host.wait_for_timeout(500)
        assert asked and asked[0].startswith("A game is in progress (turn 1). Start a new one?")
        assert table.game.id == game  # type: ignore[union-attr]  # kept
        host.once("dialog", lambda dialog: dialog.accept())
        host.click("#new-form > button")
        expect_text(host.locator("#turn"), "Turn 1: Cleo")
        assert table.game.id != game  # type: ignore[union-attr]
        assert host.errors == []


def test_the_host_pin_is_on_the_hosts_own_phone_and_never_on_the_join_screen(browser: Any, tmp_path: Path) -> None:
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 5}
    with serving(tmp_path, setup) as (table, server), opened(browser, server.url + "/host") as host, \
            opened(browser, server.url + f"/join#code={CODE}") as ann:
        log_in(host)
        host.wait_for_selector("#join-show .code")
        assert PIN not in host.locator("#join-show").inner_text()  # the screen shown around for joining
        host.click("#pin-box summary")
        expect_text(host.locator("#pin-shown"), PIN)
        ann.wait_for_selector("#live.on")
        assert PIN not in ann.content()
        assert ann.evaluate("fetch('/api/host/join').then((r) => r.status)") == 401
        assert host.errors == [] and ann.errors == []


def test_after_the_game_the_hosts_tools_offer_no_act_on_it_but_undo(browser: Any, tmp_path: Path) -> None:
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 5}
    with serving(tmp_path, setup) as (table, server), opened(browser, server.url + "/host") as host:
        log_in(host)
        expect_text(host.locator("#host-actions"), "UndoEnd the game (worth)")
        table.submit({"act": {"player": "host", "do": "end-game"}}, source="test")
        expect_text(host.locator("#over-winner"), f"{table.state['winner']} wins!")  # type: ignore[index]
        expect_text(host.locator("#host-actions"), "Undo")  # no "End the game" after its end
        assert host.errors == []
