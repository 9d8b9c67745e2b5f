"""The host sets a game up with forms, not JSON (issue 21): options from the board file's table, a game in
progress per player and per deed. Playwright on Debian's Chromium at 390×844; screenshots in test-artifacts/web/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.table import Table
from companion.web import Access, create_app, make_server

from .conftest import CODE, PIN
from .pages import A11Y, opened
from .test_browser import browser, expect_text, shot  # noqa: F401 - browser: a fixture


@pytest.fixture
def host_page(browser: Any, tmp_path: Path) -> Iterator[tuple[Any, Table]]:
    with Journal(tmp_path / "setup.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        with make_server(app, "127.0.0.1", 0) as server, opened(browser, server.url + "/host") as page:
            page.fill("#host-pin", PIN)
            page.click("#pin-form button")
            page.wait_for_selector("#host-tools:not([hidden])")
            page.click("#new-form >> xpath=.. >> summary")  # "New game"
            yield page, table


def test_an_addon_game_with_its_options_chosen_in_fields(host_page: tuple[Any, Table]) -> None:
    page, table = host_page
    page.select_option("#new-ruleset", "addon")
    expect_text(page.locator("#new-ruleset-name"), "Inner board add-on (for MONOPOLY® boards) · 2 to 8 players")
    page.fill("#new-players", "Ann, Bob, Cy")
    page.get_by_label("Transition").select_option("even_step")
    page.get_by_label("Refund percent").fill("60")
    refund = page.get_by_label("Refund percent")
    assert (refund.get_attribute("min"), refund.get_attribute("max")) == ("0", "100")
    assert "tax pool" in page.locator("#opt-refund_percent-hint").inner_text()  # its one line, beneath it
    bridge = page.locator('[data-option="bridge"]')
    assert bridge.get_by_label("Outer end").count() == 1 and bridge.get_by_label("Inner end").count() == 1
    assert page.locator("#new-form textarea").count() == 0  # no JSON to type
    page.click("#new-form summary:text('Advanced')")
    page.fill("#new-seed", "7")
    shot(page, "host-new-game-options")
    page.click("#new-form > button")
    expect_text(page.locator("#notice"), "new game started")
    state = table.state
    assert state is not None and state["ruleset"] == "addon" and [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cy"]
    assert state["options"]["transition"] == "even_step" and state["options"]["refund_percent"] == 60
    assert state["options"]["pool"] == "all"  # untouched: the default
    assert page.errors == []


def test_the_official_short_game_is_one_choice_that_sets_its_three_options(host_page: tuple[Any, Table]) -> None:
    page, table = host_page
    page.select_option("#new-ruleset", "classic")
    page.fill("#new-players", "Ann, Bob, Cy")
    page.get_by_label("Official short game").check()
    assert page.get_by_label("Houses before hotel").input_value() == "3"
    assert page.get_by_label("Deal deeds").input_value() == "2"
    assert page.get_by_label("End after bankruptcies").input_value() == "2"
    page.get_by_label("Free parking", exact=True).select_option("fees-and-seed")  # a house rule beside it
    page.get_by_label("Official short game").uncheck()  # back to the book's
    assert page.get_by_label("Houses before hotel").input_value() == "4"
    page.get_by_label("Official short game").check()
    page.locator("#preset-official-short-game").scroll_into_view_if_needed()
    shot(page, "host-new-game-short-game")
    page.click("#new-form > button")
    expect_text(page.locator("#notice"), "new game started")
    state = table.state
    assert state is not None
    assert {k: state["options"][k] for k in ("deal_deeds", "houses_before_hotel", "end_after_bankruptcies",
                                             "free_parking")} == {
        "deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2, "free_parking": "fees-and-seed"}
    assert state["pools"] == {"free-parking": 500}
    assert all(sum(1 for rec in state["spaces"].values() if rec["owner"] == name) == 2 for name in ("Ann", "Bob", "Cy"))
    assert page.errors == []


def test_a_game_in_progress_entered_per_player_and_per_deed(host_page: tuple[Any, Table]) -> None:
    page, table = host_page
    page.fill("#new-players", "Ann, Bob")
    page.click("#new-progress summary")
    ann = page.locator('#new-start [data-player="Ann"]')
    ann.get_by_label("Cash $").fill("940")
    ann.get_by_label("On the space").select_option("jail")
    ann.get_by_label("Cards in hand").select_option(["chance-get-out-of-jail-free"])
    for deed in ("park-place", "boardwalk"):
        page.get_by_label(f"{'Park Place' if deed == 'park-place' else 'Boardwalk'}: owner").select_option("Ann")
        page.select_option(f'[data-built="{deed}"]', "hotel")
    page.select_option('[data-owner="reading-railroad"]', "Bob")
    page.check('[data-mortgaged="reading-railroad"]')
    page.locator('#new-start [data-owner="boardwalk"]').scroll_into_view_if_needed()
    found = page.evaluate(A11Y)  # every field named, text readable, nothing wider than the phone
    assert found["unnamed"] == [] and found["poor"] == [] and found["width"] <= page.viewport_size["width"], found
    shot(page, "host-game-in-progress")
    page.click("#new-form > button")
    expect_text(page.locator("#notice"), "new game started")
    state = table.state
    assert state is not None and state["seq"] == 0
    ann_now = next(p for p in state["players"] if p["name"] == "Ann")
    assert ann_now["cash"] == 940 and ann_now["space"] == "jail" and ann_now["cards"] == ["chance-get-out-of-jail-free"]
    for deed in ("park-place", "boardwalk"):
        assert state["spaces"][deed]["owner"] == "Ann" and state["spaces"][deed]["hotel"] is True
    assert state["spaces"]["reading-railroad"] == {**state["spaces"]["reading-railroad"], "owner": "Bob", "mortgaged": True}
    assert state["spaces"]["baltic-avenue"]["owner"] is None
    assert page.errors == []


def test_the_game_being_played_is_not_offered_to_resume(host_page: tuple[Any, Table]) -> None:
    page, table = host_page
    page.click("summary:text('Stored games')")
    row = page.locator("#games .mine-row")
    expect_text(row.locator(".where"), "playing now")
    assert row.locator("button:text('Resume')").count() == 0
    assert page.errors == []
