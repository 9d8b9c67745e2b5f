"""The engine's messages in every language (issue 41): English through Words is the engine's English byte for byte,
and German, French and Spanish say every event, prompt and refusal of every ruleset with no msgid left untranslated.

The messages are those the engine makes over every game file and a bot game of each ruleset (tests/
test_engine_catalogue.py's ``made_messages``); each is said through ``Words.for_language(lang, board)``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("babel")

from companion.engine import find_ruleset  # noqa: E402
from companion.engine.messages import english  # noqa: E402
from companion.words import Words  # noqa: E402
from companion.words.engine_messages import say, say_event, say_prompt  # noqa: E402
from tests.test_engine_catalogue import made_messages  # noqa: E402

RULESETS = ("classic", "addon", "magie-1904", "magie-1924", "chambers")
#: Msgids a language rightly writes as the English does (the same word).
SAME_IN = {"de": {"{player} {worth}"}, "fr": {"option {option}"}, "es": set()}


@pytest.fixture(scope="module")
def messages() -> list[tuple[str, dict[str, Any]]]:
    """(ruleset, message) for every message made; the ruleset read off the game each came from."""
    return [(ruleset if ruleset in RULESETS else "classic", message)  # a refused set-up: said by any ruleset
            for ruleset, message in made_messages(with_ruleset=True)]


def test_english_through_words_is_the_engines_english(messages: list[tuple[str, dict[str, Any]]]) -> None:
    words = {r: Words.for_language("en", find_ruleset(r).board) for r in RULESETS}
    for ruleset, message in messages:
        assert say(words[ruleset], message) == english(message, find_ruleset(ruleset)), message


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_every_message_is_said_in_the_language(language: str, messages: list[tuple[str, dict[str, Any]]]) -> None:
    words = {r: Words.for_language(language, find_ruleset(r).board) for r in RULESETS}
    said = set()
    for ruleset, message in messages:
        catalogue = words[ruleset].catalogue._catalog  # gettext's own table: msgid (or (msgid, n)) -> translation
        for msgid, plural in pairs(message):
            translated = catalogue.get((msgid, 1) if plural else msgid)
            assert translated, f"{language}: {msgid!r} has no translation"
            assert translated != (plural or msgid) or _same_word(msgid) or msgid in SAME_IN[language], \
                f"{language}: {msgid!r} left in English"
        text = say(words[ruleset], message)
        assert not re.search(r"\{[a-z_0-9]+\}", text), text  # every placeholder filled
        said.add(text)
    assert len(said) > 300


def pairs(message: dict[str, Any]) -> list[tuple[str, str | None]]:
    """(msgid, plural or None) of a message and of every message nested in its arguments."""
    found = [(message["msg"], message.get("plural"))]
    for value in (message.get("args") or {}).values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and "msg" in item:
                found += pairs(item)
    return found


def _same_word(msgid: str) -> bool:
    """A msgid every language writes alike: placeholders, symbols and the game file's key paths only
    ("{space} ↔ {space_to}", "setup.start.spaces.{name}.hotel")."""
    words = re.sub(r"\{[a-z_0-9]+\}", "", msgid).split()
    return all("." in word or "_" in word or not any(c.isalpha() for c in word) for word in words)


def test_events_and_prompts_have_helpers() -> None:
    ruleset = find_ruleset("classic")
    german = Words.for_language("de", ruleset.board)
    from companion.engine import apply
    state, _ = apply(None, {"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}})
    state, events = apply(state, {"roll": [1, 2]})
    assert say_event(german, events[0]) == "Ann würfelt 1 und 2"
    assert say_prompt(german, state["prompt"]) == "Baltic Avenue für 60\u00a0$ kaufen?"
    state, events = apply(state, {"answer": "yes"})
    assert say_event(german, events[0]) == "Ann zahlt der Bank 60\u00a0$ für Baltic Avenue"
    assert say_event(german, {"kind": "say", "text": "An old game's sentence"}) == "An old game's sentence"
