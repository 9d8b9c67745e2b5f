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

from flask import Flask, jsonify, render_template, request, session
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.config import PhoneDice
from companion.engine import CompanionError, IllegalInput, find_ruleset
from companion.table import StaleInput, Table
from companion.words import N_

from .access import Access, AccessDenied, PinWait
from .addresses import device, is_own
from .api import api, input_is_taken_now
from .assets import serve_assets
from .cards import cards as cards_routes
from .compress import compress_when_asked
from .context import MAX_BODY, MAX_INPUT_BODY, WebContext, context, this_request
from .csrf import CSRFError, protect
from .errors import BadRequest, Conflict, NotFound, TooMany, error_body
from .feed import Feed
from .guard import is_host
from .host import host
from .hosts import answers_to, known_names
from .pages import pages
from .phone_words import phone_words, refusal_said, said
from .rates import Limit, Limiter, parse
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
            app.view_functions[endpoint] = limiter.limit(endpoint, view, limits)
    _register_errors(app)
    _register_headers(app)
    compress_when_asked(app)
    return app


def route_limits(view: Any) -> list[Limit]:
    """The limits a view declares (``api.limit``, ``api.accepted_limit``): inputs the table took per phone and per
    device but the Pi's own, the host never; other limits per device, and a limit on refused inputs per phone too,
    counted only on refusals and not for an input the engine takes now."""
    limits: list[Limit] = []
    accepted = getattr(view, "rate_accepted", None)
    if accepted is not None:
        took = lambda response: response.status_code == 200  # noqa: E731
        limits += [Limit(parse(accepted), requesting_phone, (is_host,), took),
                   Limit(parse(accepted), requesting_device, (is_host, own_device), took)]
    rate = getattr(view, "rate_limit", None)
    if rate is not None:
        if getattr(view, "rate_refusals_only", False):
            refused = lambda response: response.status_code == 422  # noqa: E731
            exempt = (is_host, input_is_taken_now)
            limits += [Limit(parse(rate), requesting_device, exempt, refused),
                       Limit(parse(rate), requesting_phone, exempt, refused)]
        else:
            limits.append(Limit(parse(rate), requesting_device))
    return limits


def requesting_device() -> str:
    """What the rate limits count a request under: its device (an IPv6 /64 is one device: :mod:`.addresses`)."""
    return "device:" + device(request.remote_addr)


def own_device() -> bool:
    """The request comes from the Pi itself (its loopback: a browser on the Pi, the tests), not the table's Wi-Fi."""
    return is_own(request.remote_addr)


def requesting_phone() -> str:
    """What a phone's own limits count under: its session (whichever address it comes from)."""
    return "phone:" + str(session.get("sid", ""))


def _json_error(status: int, code: str, message: str) -> Any:
    response = jsonify(error_body(code, message))
    response.status_code = status
    return response


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
    @app.errorhandler(BadRequest)
    @app.errorhandler(PinWait)  # its message says the wait (Retry-After is the rate limiter's, of its minute)
    @app.errorhandler(NotFound)
    @app.errorhandler(Conflict)
    @app.errorhandler(TooMany)
    def known(error: BadRequest | PinWait | NotFound | Conflict | TooMany) -> Any:
        return _json_error(error.status, error.code, error.said(phone_words()))

    @app.errorhandler(StaleInput)
    def stale(error: StaleInput) -> Any:
        return _json_error(409, "stale", said("{error}: the page shows the new state, look and try again",
                                              error=error))

    @app.errorhandler(IllegalInput)
    def refused(error: IllegalInput) -> Any:
        """The engine's refusal, in the phone's language (its message said by the engine's renderer)."""
        state = context().table.state
        board = find_ruleset(state["ruleset"]).board if state is not None else None
        return _json_error(422, "refused", refusal_said(error, phone_words().language, board))

    @app.errorhandler(AccessDenied)
    def denied(error: AccessDenied) -> Any:
        code, message = getattr(error, "code", None), error.said(phone_words())
        if code is not None:  # guard.NotAllowed: no (suitable) session at all
            return _json_error(401, code, message)
        return _json_error(403, "forbidden", message)

    @app.errorhandler(CompanionError)
    def unavailable(error: CompanionError) -> Any:  # the journal cannot record (disk full, damaged game)
        log.error("%s: %s", request.path, error)
        return _json_error(503, "unavailable", said("{error}. Nothing was changed.", error=error))

    @app.errorhandler(CSRFError)
    def csrf(error: CSRFError) -> Any:
        return _json_error(400, "csrf", said("{reason} Reload the page and try again.",
                                             reason=said(error.description or "")))

    @app.errorhandler(HTTPException)
    def http(error: HTTPException) -> Any:
        if error.code == 404 and wants_a_page():
            return render_template("missing.html", path=request.path), 404
        code = {413: "too-large", 429: "too-many", 404: "not-found", 405: "method-not-allowed",
                415: "unsupported-media-type"}.get(error.code or 500, "http-error")
        message = {
            413: N_("the request body is too large"),
            429: N_("too many attempts: wait a minute and try again"),
        }.get(error.code or 500, error.description or error.name)
        if error.code in ELSEWHERE and not phone_words().english:  # werkzeug's English: ours in the phone's words
            message = ELSEWHERE[error.code]
        message = said(message)  # ours (guard's, the chunked bodies'): a msgid; werkzeug's: as it is
        return _json_error(error.code or 500, code, message)


#: What a phone reading another language than English is told instead of werkzeug's English description.
ELSEWHERE = {404: N_("there is nothing at this address"), 405: N_("this address does not take that method")}


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
