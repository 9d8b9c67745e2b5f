"""What a refusal is answered with: its status, code and message in the phone's words, the same whichever way the
request came (the app's error handlers for HTTP, a websocket's message: :mod:`.inputs`), and its JSON body
(``{"error": CODE, "message": SENTENCE}``, :func:`.errors.error_body`)."""

from __future__ import annotations

import json
import logging
from typing import Any

from werkzeug.exceptions import HTTPException

from companion.engine import CompanionError, IllegalInput, find_ruleset
from companion.table import StaleInput
from companion.words import N_, Words

from .access import AccessDenied, PinWait
from .csrf import CSRFError
from .errors import BadRequest, Conflict, NotFound, TooMany, error_body
from .phone_words import refusal_said

log = logging.getLogger(__name__)

#: Our own errors that say themselves (their ``status`` and ``code``, their message a msgid).
SAYING = (BadRequest, PinWait, NotFound, Conflict, TooMany)
#: What an HTTP error is called, by its status.
HTTP_CODES = {413: "too-large", 429: "too-many", 404: "not-found", 405: "method-not-allowed",
              415: "unsupported-media-type"}
#: What an HTTP error says, ours rather than werkzeug's.
HTTP_SAID = {413: N_("the request body is too large"), 429: N_("too many attempts: wait a minute and try again")}
#: What a phone reading another language than English is told instead of werkzeug's English description.
ELSEWHERE = {404: N_("there is nothing at this address"), 405: N_("this address does not take that method")}
#: An error body's JSON, as Flask's ``jsonify`` writes it outside debug mode (compact, ASCII, a closing newline).
_encode = json.JSONEncoder(separators=(",", ":")).encode


def error_text(code: str, message: str) -> str:
    """An error's JSON body."""
    return _encode(error_body(code, message)) + "\n"


def refusal(error: Exception, words: Words, state: Any, path: str) -> tuple[int, str, str] | None:
    """``error``'s answer (status, code, message in ``words``), as the app's handler of its kind gives it; None for an
    error no handler answers (a fault: 500). ``state``: the table's (the board a refusal names spaces by); ``path``:
    the request's, for the log. The kinds in the order of Flask's choice (the most derived handler first)."""
    if isinstance(error, SAYING):
        return error.status, error.code, error.said(words)
    if isinstance(error, StaleInput):
        return 409, "stale", words.t("{error}: the page shows the new state, look and try again", error=error)
    if isinstance(error, IllegalInput):  # the engine's refusal, its message said by the engine's renderer
        board = find_ruleset(state["ruleset"]).board if state is not None else None
        return 422, "refused", refusal_said(error, words.language, board)
    if isinstance(error, AccessDenied):
        code, message = getattr(error, "code", None), error.said(words)
        return (401, code, message) if code is not None else (403, "forbidden", message)  # 401: guard.NotAllowed
    if isinstance(error, CompanionError):  # the journal cannot record (disk full, damaged game)
        log.error("%s: %s", path, error)
        return 503, "unavailable", words.t("{error}. Nothing was changed.", error=error)
    if isinstance(error, CSRFError):
        return 400, "csrf", words.t("{reason} Reload the page and try again.",
                                    reason=words.t(error.description or ""))
    if isinstance(error, HTTPException):
        status = error.code or 500
        message = HTTP_SAID.get(status, error.description or error.name)
        if status in ELSEWHERE and not words.english:  # werkzeug's English: ours in the phone's words
            message = ELSEWHERE[status]
        return status, HTTP_CODES.get(status, "http-error"), words.t(message)  # ours: a msgid; werkzeug's: as is
    return None
