"""The Flask app factory: configuration, security, error handling and the blueprints.

Routes are thin: each reads the request, calls the table, the journal or the access object,
and returns JSON. Every route declares its permission with :func:`requires`; a test checks
that none is left without one.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.config import PhoneDice
from companion.engine import CompanionError, IllegalInput
from companion.table import StaleInput, Table
from .access import Access, AccessDenied, PinWait
from .api import api
from .asker import Asker, route_limits
from .assets import serve_assets
from .cards import cards as cards_routes
from .compress import compress_when_asked
from .context import MAX_BODY, MAX_INPUT_BODY, WebContext, context, this_request
from .csrf import CSRFError, protect
from .errors import BadRequest, Conflict, NotFound, TooMany
from .feed import Feed
from .host import host
from .hosts import answers_to, known_names
from .pages import pages
from .inputs import post_input  # noqa: F401  (POST /api/input: its module adds it to the api's blueprint)
from .phone_words import phone_words, said
from .rates import Limiter
from .refusals import error_text, refusal
from .server import BODY_LIMIT, no_bound
from .sessions import KeptSessions
from .socket_api import socket_api
from .url_rules import LazyRule

log = logging.getLogger(__name__)


def create_app(
    table: Table,
    *,
    access: Access | None = None,
    phone_dice: PhoneDice = "none",
    secret_key: str | bytes | None = None,
    table_code: str | None = None,
    config: Mapping[str, Any] | None = None,
    cards: Callable[[], Any] | None = None,
) -> Flask:
    """The phone page over ``table`` (see the package docstring for the arguments)."""
    if phone_dice not in ("none", "manual", "software"):
        raise ValueError(f"phone_dice must be none, manual or software, not {phone_dice!r}")
    app = Flask(__name__, static_folder=None)  # static/ is served by .assets, versioned
    app.url_rule_class = LazyRule  # URL builders written when first used, not all at the start
    app.config.update(
        SECRET_KEY=secret_key or (access.secret_key if access is not None else secrets.token_bytes(32)),
        SESSION_COOKIE_NAME="companion",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=False,  # the table's LAN has no TLS
        PERMANENT_SESSION_LIFETIME=7 * 24 * 3600,
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]
    access = access or Access.generate()
    if table_code is not None:
        access.table_code = table_code
    _check_host(app)  # first of all: a name the table does not answer to gets nothing
    _bound_bodies(app)  # before the CSRF check
    protect(app)
    app.session_interface = KeptSessions()
    limiter = Limiter()
    context = WebContext(table, access, Feed(table), phone_dice, limiter)
    if cards is not None:
        context.cards = cards
    access.on_change(context.feed.poke)  # a change of rights reaches the open streams at once, not at the next input
    access.on_retire(context.streams.end_session)  # a session id replaced: its streams end (the page opens anew)
    app.extensions["companion"] = context

    serve_assets(app, Path(__file__).parent / "static")
    app.register_blueprint(pages)
    app.register_blueprint(api)
    app.register_blueprint(socket_api)
    app.register_blueprint(host)
    app.register_blueprint(cards_routes)
    for endpoint, view in list(app.view_functions.items()):
        limits = route_limits(view)
        if limits:
            app.view_functions[endpoint] = limiter.limit(endpoint, view, limits, Asker.of_request)
    _register_errors(app)
    _register_headers(app)
    compress_when_asked(app)
    return app


def _json_error(status: int, code: str, message: str) -> Any:
    return Response(error_text(code, message), status=status, mimetype="application/json")


def _check_host(app: Flask) -> None:
    """Refuse a request made to a name the table does not answer to (DNS rebinding: :mod:`.hosts`)."""

    known = known_names(app.config.get("COMPANION_HOSTS", ()))

    @app.before_request
    def known_host() -> Any:
        asked = this_request()
        if not asked.headers.get("Host"):  # werkzeug would take the server's own name instead
            return _json_error(400, "unknown-host", said("the request names no host (its Host header)"))
        host = asked.host
        if not answers_to(host, known):
            return _json_error(400, "unknown-host", said("this table does not answer to the name {name}: use the "
                                                         "address on its screen, or list the name in web_names in "
                                                         "its config file", name=repr(host)))
        return None


def _bound_bodies(app: Flask) -> None:
    @app.before_request
    def bound() -> None:
        asked = this_request()
        view = app.view_functions.get(asked.endpoint or "")
        limit = getattr(view, "max_body", MAX_INPUT_BODY)
        asked.max_content_length = limit  # a Content-Length over it: 413 before anything is read
        length = asked.content_length
        if (length or 0) > limit:
            raise RequestEntityTooLarge()  # at once, not when the view reads it (the CSRF check reads no body)
        asked.environ.get(BODY_LIMIT, no_bound)(limit)  # chunks over it: 413 from their size line (server.py)
        if length is None and asked.method == "POST":
            read_unsized_body(limit)


def read_unsized_body(limit: int) -> None:
    """Read a body sent without a length (chunked) whole, keeping it for the view; 413 if it is over ``limit``.

    werkzeug stops reading such a stream at the limit and hands on what it read, so a body over it would be cut
    short (and valid JSON in its first ``limit`` bytes applied): one byte more is read to tell the two apart."""
    request.max_content_length = limit + 1
    if len(request.get_data(cache=True)) > limit:
        raise RequestEntityTooLarge()
    request.max_content_length = limit


def _register_errors(app: Flask) -> None:
    """Every refusal answered as :func:`.refusals.refusal` says it, in the phone's words (a websocket's message is
    answered by the same function)."""

    @app.errorhandler(BadRequest)
    @app.errorhandler(PinWait)  # its message says the wait (Retry-After is the rate limiter's, of its minute)
    @app.errorhandler(NotFound)
    @app.errorhandler(Conflict)
    @app.errorhandler(TooMany)
    @app.errorhandler(StaleInput)
    @app.errorhandler(IllegalInput)  # the engine's refusal, its message said by the engine's renderer
    @app.errorhandler(AccessDenied)
    @app.errorhandler(CompanionError)  # the journal cannot record (disk full, damaged game)
    @app.errorhandler(CSRFError)
    @app.errorhandler(HTTPException)
    def refused(error: Exception) -> Any:
        if isinstance(error, HTTPException) and error.code == 404 and wants_a_page():
            return render_template("missing.html", path=request.path), 404
        found = refusal(error, phone_words(), context().table.state, request.path)
        if found is None:  # none of the kinds above is left unanswered
            raise error
        return _json_error(*found)


def wants_a_page() -> bool:
    """A browser asking for a page (an unknown URL typed or followed), not the page's script asking the API."""
    if request.path.startswith("/api/"):
        return False
    accept = request.accept_mimetypes
    return accept.accept_html and accept["text/html"] >= accept["application/json"]


#: The page's policy: what it may load and run (only its own files), who may frame it (nobody), where its forms go.
PAGE_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
#: Data (JSON, YAML, the stream, a QR code's PNG) is never a page: opened as one, it may load nothing and be framed by
#: nobody (``frame-ancestors`` is what X-Frame-Options says, in every browser the page supports).
DATA_POLICY = "default-src 'none'; frame-ancestors 'none'"
DATA = frozenset({"application/json", "application/yaml", "text/event-stream", "image/png"})
#: A script or a style sheet: a policy, a frame or referrer policy do nothing there (they govern a document, and the
#: modules' own requests follow the page's), so the page's files carry only nosniff: the browser runs or applies them
#: only as what their type says.
FILES = frozenset({"text/javascript", "application/javascript", "text/css"})


def _register_headers(app: Flask) -> None:
    @app.after_request
    def headers(response: Any) -> Any:
        headers, mimetype = response.headers, response.mimetype
        headers.setdefault("X-Content-Type-Options", "nosniff")
        if request.path.startswith("/api/"):
            headers.setdefault("Cache-Control", "no-store")
        if mimetype in FILES:
            return response
        if mimetype in DATA:
            headers.setdefault("Content-Security-Policy", DATA_POLICY)
            return response
        headers.setdefault("Referrer-Policy", "no-referrer")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Content-Security-Policy", PAGE_POLICY)
        return response
