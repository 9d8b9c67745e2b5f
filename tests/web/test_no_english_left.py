"""No English left on a phone reading German, French or Spanish (issue 41): every sentence of the page's and the
table's catalogues said otherwise than in English, every refusal the deeds panel shows (each act the engine refuses
in every state of every game file, all five rulesets) and every refusal the web server makes itself said in each
language, none equal to its English. A word the languages share ("PIN", "API", "Wi-Fi", "no") is not a sentence."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from companion.engine import IllegalInput, apply, find_ruleset
from companion.errors import IllegalInput as Refusal
from companion.table import Table
from companion.web.phone_words import refusal_said
from companion.words import catalogue_path

from .conftest import CODE, PIN, csrf, join

ROOT = Path(__file__).parents[2]
GAME_FILES = sorted((ROOT / "tests" / "gamefiles").glob("*/*.jsonl"))
LANGUAGES = ("de", "fr", "es")


def sentence(text: str) -> bool:
    """Three words or more (placeholders aside; a key path such as ``setup.start.loans`` is none): a sentence, which
    no two of these languages write alike."""
    return sum(bool(re.search(r"[^\W\d_]{2}", word)) for word in re.sub(r"\{[^}]*\}", "", text).split()) >= 3


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ("page", "table", "engine"))
def test_no_sentence_of_a_catalogue_is_left_in_english(language: str, domain: str) -> None:
    with catalogue_path(language, domain).open("rb") as file:
        catalogue = read_po(file, locale=language)
    same = []
    for message in catalogue:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        same += [msgid for msgid, text in zip(ids, texts) if msgid and sentence(msgid) and text == msgid]
    assert not same, same


def shape(message: Any) -> Any:
    """A message's kind: its msgid and those of the messages inside it (a reason, a why), not its names or sums."""
    if isinstance(message, dict) and "msg" in message:
        inner = {k: shape(v) for k, v in sorted((message.get("args") or {}).items()) if shape(v) is not None}
        return [message["msg"], message.get("plural"), inner]
    if isinstance(message, list):
        return [shape(item) for item in message]
    return None


@lru_cache(maxsize=1)
def deeds_refusals() -> dict[str, tuple[str, Refusal]]:
    """Every refusal the deeds panel shows in the game files (the acts the engine refuses the player whose turn it
    is, after every input), each kind of message once: its English and the refusal itself."""
    found: dict[str, tuple[str, Refusal]] = {}
    for path in GAME_FILES:
        state = None
        for text in path.read_text().splitlines():
            try:
                state, _ = apply(state, json.loads(text))
            except (IllegalInput, ValueError):
                if state is None:
                    break
                continue
            if state.get("winner") is not None:
                continue
            ruleset = find_ruleset(state["ruleset"])
            for _, refusal in ruleset.judged_acts(state, state["turn"]["player"])[1]:
                key = json.dumps([state["ruleset"], shape(refusal.message)])
                found.setdefault(key, (state["ruleset"], refusal))
    return found


def test_the_game_files_show_the_deeds_panel_many_refusals() -> None:
    rulesets = {ruleset for ruleset, _ in deeds_refusals().values()}
    # chambers has no voluntary acts on deeds (no verbs): the four others
    assert find_ruleset("chambers").verbs() == []
    assert len(deeds_refusals()) >= 45 and rulesets == {"classic", "addon", "magie-1904", "magie-1924"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_of_the_deeds_panel_is_said_in_the_language(language: str) -> None:
    left = []
    for ruleset, refusal in deeds_refusals().values():
        board = find_ruleset(ruleset).board
        english, said = refusal_said(refusal, "en", board), refusal_said(refusal, language, board)
        assert english == str(refusal)  # English as the engine says it
        if not said or said == english:
            left.append(english)
    assert not left, left


def _refusals(client: FlaskClient) -> list[tuple[str, int, str]]:
    """The web server's own refusals, one request each: (what, status, message)."""
    token = {"X-CSRFToken": csrf(client)}

    def posted(path: str, body: Any = None, **kwargs: Any) -> Any:
        return client.post(path, json=body, headers=token, **kwargs)

    answers = {
        "acts, nobody named": client.get("/api/acts"),
        "acts, no such player": client.get("/api/acts?player=Zed"),
        "board, no such ruleset": client.get("/api/board?ruleset=nope"),
        "join, wrong code": posted("/api/join", {"code": "000000", "player": "Ann"}),
        "join, no such player": posted("/api/join", {"code": CODE, "player": "Zed"}),
        "join, a field missing": posted("/api/join", {"code": CODE}),
        "join, a number for a name": posted("/api/join", {"code": CODE, "player": 5}),
        "resume, not the host": posted("/api/host/resume", {"game": 1}),
        "join, a list": posted("/api/join", [1]),
        "join, not JSON": client.post("/api/join", data="code=1", headers=token),
        "join, bad JSON": client.post("/api/join", data="{bad", headers={**token, "Content-Type": "application/json"}),
        "leave, no seat": posted("/api/leave", {}),
        "input, not joined": posted("/api/input", {"input": {"answer": "yes"}, "seq": 0}),
        "login, wrong PIN": posted("/api/host/login", {"pin": "000000"}),
        "export, not the host": client.get("/api/host/export"),
        "an address that is not": client.get("/api/nope"),
        "no CSRF token": client.post("/api/join", json={"code": CODE, "player": "Ann"}),
    }
    return [(what, answer.status_code, answer.get_json()["message"]) for what, answer in answers.items()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_of_the_web_server_is_said_in_the_language(app: Any, language: str) -> None:
    english_phone, phone = app.test_client(), app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.20"  # another phone: the join's rate limit is each address's
    english_phone.get("/?lang=en")
    phone.get(f"/?lang={language}")  # the phone's language, kept in its session
    english, said = _refusals(english_phone), _refusals(phone)
    assert [status for _, status, _ in english] == [status for _, status, _ in said]
    left = [(what, ours) for (what, _, theirs), (_, _, ours) in zip(english, said) if not ours or ours == theirs]
    assert not left, left


def test_the_web_servers_refusals_in_english_as_before(client: FlaskClient) -> None:
    said = {what: (status, message) for what, status, message in _refusals(client)}
    assert said["join, a field missing"] == (400, "missing field 'player'")
    assert said["join, a number for a name"] == (400, "'player' must be a string, not 5")
    assert said["login, wrong PIN"] == (403, "wrong PIN")
    assert said["no CSRF token"] == (400, "The CSRF token is missing. Reload the page and try again.")
    assert said["an address that is not"][1].startswith("The requested URL was not found on the server.")
