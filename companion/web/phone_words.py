"""Each phone's language: chosen on the page (``?lang=de``, kept in its session with its seat), else its browser's
``Accept-Language`` negotiated against the table's four; and the page's words in it (the ``page`` catalogue, sent
inside the page as a small JSON object: no request of its own, no framework)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask import has_request_context, request, session

from companion.engine.board import Board
from companion.errors import IllegalInput
from companion.words import ENGLISH, LANGUAGES, SOURCE_LANGUAGE, Words, catalogue_path, negotiate
from companion.words.engine_messages import say

KEY = "lang"  # the session's key: the phone's own choice


def phone_language() -> str:
    """This request's language: the one the phone chose (a ``lang`` query sets it), else its browser's."""
    asked = request.args.get(KEY)
    if asked in LANGUAGES:
        if session.get(KEY) != asked:
            session[KEY] = asked
        return str(asked)
    language = language_of(session, request.headers.get("Accept-Language"))
    if language != SOURCE_LANGUAGE and session.get(KEY) != language:  # kept with the seat: the live stream's views
        session[KEY] = language  # are made in it
    return language


def language_of(kept: Mapping[str, Any], accept_language: str | None) -> str:
    """The language of the phone whose session is ``kept``: the one it chose, else its browser's
    (``Accept-Language``) negotiated against the table's."""
    chosen = kept.get(KEY)
    if chosen in LANGUAGES:
        return str(chosen)
    return negotiate(accept_language)


def phone_words() -> Words:
    """This request's phone's words (English outside a request: a test, the server's own log)."""
    return Words.for_language(phone_language()) if has_request_context() else ENGLISH


def said(msgid: str, **args: Any) -> str:
    """The web server's own words to a phone (a refusal it makes itself), in that phone's language."""
    return phone_words().t(msgid, **args)


def refusal_said(error: IllegalInput, language: str, board: Board | None) -> str:
    """The engine's refusal in ``language`` (its message said by the engine's renderer, the spaces and cards of
    ``board`` by their names in it); English, or a room's own ready sentence: as the refusal says it."""
    if language == SOURCE_LANGUAGE or error.literal:
        return str(error)
    return say(Words.for_language(language, board), error.message)


@lru_cache(maxsize=None)
def page_catalogue(language: str) -> dict[str, Any]:
    """What the page's script needs to say its words in ``language``: the ``page`` catalogue's translations (msgid to
    its text, a list for plural forms), the plural categories in the catalogue's order (for ``Intl.PluralRules``), how
    the locale writes money around the board's symbol ("¤" stands for it) and its digit grouping. English sends no
    translations: the msgids are its words."""
    messages: dict[str, Any] = {}
    tags = ["one", "other"]
    money = {"before": "¤", "after": "", "group": ""}
    if language != SOURCE_LANGUAGE:
        from babel import Locale
        from babel.messages.pofile import read_po

        path = catalogue_path(language, "page")
        if path.is_file():
            with path.open("rb") as file:
                for message in read_po(file, locale=language):
                    if message.id and message.string and not message.fuzzy:
                        key = message.id if isinstance(message.id, str) else message.id[0]
                        messages[key] = message.string if isinstance(message.string, str) else list(message.string)
        locale = Locale.parse(language)
        order = ("zero", "one", "two", "few", "many", "other")
        tags = [tag for tag in order if tag in locale.plural_form.tags | {"other"}]
        pattern = locale.currency_formats["standard"].pattern.split(";")[0]
        start = min(pattern.index(c) for c in "#0" if c in pattern)
        end = max(pattern.rindex(c) for c in "#0" if c in pattern) + 1
        symbols = locale.number_symbols.get("latn", locale.number_symbols)
        money = {"before": pattern[:start], "after": pattern[end:].replace("0", "").replace(".", ""),
                 "group": symbols.get("group", ",")}
    return {"lang": language, "messages": messages, "plural": tags, "money": money}


#: The languages by their own names (as ``companion.words.language_name`` says them), for the page's switch.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"}
