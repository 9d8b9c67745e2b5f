"""Each phone's language on the server's side: the page in it (Accept-Language, then kept in the session; ``?lang=``
changes it), the refusals the server makes itself and the engine's refusals said in it, the prompt in a view for it;
English phones get every byte as before."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.table import Table

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
