"""Cross-site request forgery: every request that changes something carries this session's token.

The token is a random value kept in the session (the signed, HttpOnly, SameSite=Strict cookie), handed to the page by
``GET /api/session`` and by the join and login answers; a POST (PUT, PATCH, DELETE) without it in its
``X-CSRFToken`` header, or with another, is refused (400 ``csrf``) before its view runs. Another site's page can
neither read it (the same-origin policy; the API answers no CORS) nor send it. Compared in constant time.

Flask-WTF did the same, handing out a signed and timed copy of the token (its time limit is off here) and checking
the signature on every change: 0.3 ms of CPU a request here for no protection more, and wtforms imported at start-up
for it (issue 43). The session keeps the token under Flask-WTF's key, so a phone joined before keeps its session;
a page still holding a signed copy is refused once and fetches the token again (talk.js).
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, session
from werkzeug.exceptions import BadRequest

from companion.words import N_

from .context import this_request

KEY = "csrf_token"  # in the session, as Flask-WTF kept it
HEADERS = ("X-CSRFToken", "X-CSRF-Token")
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class CSRFError(BadRequest):
    """A change without this session's token (400)."""


def generate_csrf() -> str:
    """This session's token (made on first need)."""
    token = session.get(KEY)
    if not isinstance(token, str) or not token:
        token = secrets.token_hex(20)
        session[KEY] = token
    return token


def protect(app: Flask) -> None:
    """Refuse every change that does not carry this session's token."""

    @app.before_request
    def csrf_protect() -> None:
        asked = this_request()
        if asked.method not in CHANGING or not asked.endpoint:  # no such route (or method): its 404 (405)
            return
        headers = asked.headers
        sent = next((headers[h] for h in HEADERS if headers.get(h)), None)
        if not sent:
            raise CSRFError(N_("The CSRF token is missing."))
        kept = session.get(KEY)
        if not isinstance(kept, str) or not kept:
            raise CSRFError(N_("The CSRF session token is missing."))
        if not hmac.compare_digest(sent.encode(), kept.encode()):
            raise CSRFError(N_("The CSRF tokens do not match."))
