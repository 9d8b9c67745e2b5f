"""Each phone's language on the server's side: the page in it (Accept-Language, then kept in the session; ``?lang=``
changes it), the refusals the server makes itself and the engine's refusals said in it, the prompt in a view for it;
English phones get every byte as before."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.table import Table
from companion.web import Access, create_app

from .conftest import join, post, send

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def test_the_page_is_in_the_browsers_language_then_in_the_chosen_one(client: FlaskClient) -> None:
    page = client.get("/", headers=GERMAN).get_data(as_text=True)
    assert '<html lang="de">' in page and "Spieler" in page and "Gerade eben" in page
    page = client.get("/?lang=es", headers=GERMAN).get_data(as_text=True)
    assert '<html lang="es">' in page and "Jugadores" in page
    page = client.get("/", headers=GERMAN).get_data(as_text=True)  # kept with the session
    assert '<html lang="es">' in page


def test_an_english_phone_gets_the_page_in_english(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en">' in page and ">Players<" in page and ">Just now<" in page


def test_the_servers_own_refusal_and_the_engines_in_the_phones_language(client: FlaskClient, table: Table) -> None:
    client.get("/", headers=GERMAN)  # the phone's language, kept in its session
    join(client, "Bob")
    state = table.state
    assert state is not None and state["prompt"]["player"] != "Bob"
    refused = send(client, {"answer": "yes"})
    assert refused.status_code == 403
    assert refused.get_json()["message"].startswith("die Frage ist für "), refused.get_json()
    other = send(client, {"act": {"player": "Bob", "do": "build", "space": "boardwalk"}})
    assert other.status_code == 422
    message = other.get_json()["message"]
    english = post(client, "/api/input?lang=en", {"input": {"act": {"player": "Bob", "do": "build",
                                                                    "space": "boardwalk"}},
                                                  "seq": table.state["seq"]}).get_json()["message"]
    assert message != english and message, (message, english)


def test_a_view_for_a_german_phone_says_the_prompt_in_german(client: FlaskClient, table: Table) -> None:
    client.get("/", headers=GERMAN)
    view = client.get("/api/state").get_json()
    assert view["prompt"]["text"] == table.state["prompt"]["text"]  # the state as it is
    assert view["said"]["prompt"].endswith("würfle"), view["said"]
    english = client.get("/api/state", headers={"Accept-Language": "en"})
    assert "said" in english.get_json()  # the session keeps German: Accept-Language is asked once


def test_the_deeds_refusals_are_said_in_the_phones_language(client: FlaskClient, table: Table) -> None:
    table.submit({"roll": [1, 2]}, source="test")  # Ann to Baltic Avenue, buys it
    table.submit({"answer": "yes"}, source="test")
    english = client.get("/api/acts?player=Ann", headers={"Accept-Language": "en"}).get_json()["refused"]
    for language, accept in (("de", GERMAN), ("fr", {"Accept-Language": "fr-FR"}), ("es", {"Accept-Language": "es"})):
        client.get(f"/?lang={language}", headers=accept)
        said = client.get("/api/acts?player=Ann").get_json()["refused"]
        assert [r["act"] for r in said] == [r["act"] for r in english]
        for ours, theirs in zip(said, english):
            assert ours["why"] and ours["why"] != theirs["why"], (language, ours, theirs)
            assert "cannot" not in ours["why"] and "Baltic Avenue" in ours["why"], (language, ours)
    client.get("/?lang=en")
    assert client.get("/api/acts?player=Ann").get_json()["refused"] == english  # English as the engine says it


def _play(table: Table) -> None:
    """A few inputs of every sort: a roll, a purchase, rent, a card or tax as they fall."""
    for line in ({"roll": [1, 2]}, {"answer": "yes"}, {"roll": [1, 2]}, {"roll": [3, 4]}, {"answer": "yes"},
                 {"roll": [2, 5]}, {"answer": "no"}):
        prompt = table.state["prompt"]
        if ("roll" in line) == (prompt["kind"] == "roll"):
            table.submit(line, source="test")


def _no_english_left(said: list[str], english: list[str], language: str) -> None:
    assert len(said) == len(english), (said, english)
    for ours, theirs in zip(said, english):
        assert ours and ours != theirs, (language, ours, theirs)


def test_the_story_is_told_in_the_phones_language_and_the_state_keeps_its_english(client: FlaskClient,
                                                                                  table: Table) -> None:
    _play(table)
    log = table.state["log"]
    assert len(log) >= 6
    english = client.get("/api/state", headers={"Accept-Language": "en"}).get_json()
    assert english["log"] == log and "said" not in english  # an English phone: not a byte more
    for language in ("de", "fr", "es"):
        client.get(f"/?lang={language}")  # the page, in the phone's language (kept in its session)
        view = client.get("/api/state").get_json()
        assert view["log"] == log  # the state as it is
        _no_english_left(view["said"]["log"], log, language)


def test_the_story_of_a_game_resumed_after_a_restart_is_told_in_the_phones_language(table: Table,
                                                                                    access: Access) -> None:
    _play(table)
    log = table.state["log"]
    resumed = Table(table.journal)  # the server started again: the events of the game are known only by its journal
    resumed.resume()
    client = create_app(resumed, access=access, phone_dice="manual", secret_key="test-secret").test_client()
    client.get("/", headers=GERMAN)
    view = client.get("/api/state").get_json()
    assert view["log"] == log
    _no_english_left(view["said"]["log"], log, "de")
