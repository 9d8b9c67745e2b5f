"""Every phone in its own language at the same table (issue 41): a German, a Spanish and an English phone, each from
its browser's Accept-Language; the page's words and amounts in each (the board's currency where the language puts
it), the English phone as before; a phone's choice on the page kept with its seat (its session) over a reload; the
engine's sentence for a refusal and the table's own words untouched in English. Screenshots at 390x844 in
test-artifacts/web/languages-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from companion.table import Table
from companion.web import WebServer

from .conftest import CODE
from .test_browser import browser, expect_text, join, phone, server, shot, table  # noqa: F401 - fixtures

NBSP = "\u00a0"


@pytest.fixture
def phone_in(phone: Any) -> Any:  # noqa: F811 - the fixture of test_browser
    """A function opening a phone whose browser asks for ``language`` (its locale and Accept-Language)."""
    return lambda url, language, accept: phone(url, locale=language, extra_http_headers={"Accept-Language": accept})


def test_a_german_a_spanish_and_an_english_phone_at_one_table(server: WebServer, table: Table,  # noqa: F811
                                                             phone_in: Any) -> None:
    url = server.url + f"/join#code={CODE}"
    german = phone_in(url, "de-DE", "de-DE,de;q=0.9,en;q=0.5")
    spanish = phone_in(url, "es-ES", "es-ES,es;q=0.9")
    english = phone_in(url, "en-GB", "en-GB,en;q=0.8")
    join(german, "Ann")
    join(spanish, "Bob")
    join(english, "Cy")
    assert german.locator("html").get_attribute("lang") == "de"
    expect_text(german.locator("#players-h"), "Spieler")
    expect_text(spanish.locator("#players-h"), "Jugadores")
    expect_text(english.locator("#players-h"), "Players")
    # Each phone's cash, as its language writes an amount on this board ($, classic): 1500 for each player.
    expect_text(german.locator('[data-cash="Ann"]'), f"1.500{NBSP}$")
    expect_text(spanish.locator('[data-cash="Ann"]'), f"1.500{NBSP}$")
    expect_text(english.locator('[data-cash="Ann"]'), "$1500")
    expect_text(german.locator("#turn"), "Runde 1: Ann")
    expect_text(spanish.locator("#turn"), "Turno 1: Ann")
    expect_text(english.locator("#turn"), "Turn 1: Ann")
    expect_text(german.locator("#leave-button"), "Platz von Ann verlassen")
    # The engine's question in each phone's language (said by the server, one renderer); English as the state says it.
    expect_text(german.locator("#prompt"), "Ann, würfle")
    expect_text(english.locator("#prompt"), table.state["prompt"]["text"])
    assert spanish.locator("#prompt").inner_text() not in ("", table.state["prompt"]["text"])
    # What just happened, in each phone's language: the start money paid by the bank.
    assert "Bank" in german.locator("#now").inner_text() and "The bank" not in german.locator("#now").inner_text()
    assert "The bank" in english.locator("#now").inner_text()
    shot(german, "languages-de")
    shot(spanish, "languages-es")
    shot(english, "languages-en")
    assert not german.errors and not spanish.errors and not english.errors


def test_a_phones_choice_of_language_stays_with_its_seat(server: WebServer, table: Table,  # noqa: F811
                                                        phone_in: Any) -> None:
    page = phone_in(server.url + f"/join#code={CODE}", "en-US", "en-US,en;q=0.9")
    join(page, "Bob")
    page.select_option("#language", "fr")
    page.wait_for_selector("#live.on")
    expect_text(page.locator("#players-h"), "Joueurs")
    page.goto(server.url + "/")  # no ?lang= now: the session remembers it, with Bob's seat
    page.wait_for_selector("#live.on")
    expect_text(page.locator("#players-h"), "Joueurs")
    expect_text(page.locator("#who"), "Bob")
    assert page.locator("#language").input_value() == "fr"
    assert not page.errors
