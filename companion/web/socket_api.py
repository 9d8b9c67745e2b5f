"""``GET /api/socket``: the phone page's one two-way connection, a websocket (issue 43; docs/web.md, "The socket").

The handshake is an ordinary request of the app's: the Host check, the session's cookie (who the phone is, as for
the live stream), the permission to look, a slot among the live streams. Its ``Origin`` must be this table's page:
the cookie goes with any page's request, the Origin a page cannot choose, so a foreign page cannot act through it
(what the CSRF token does for a POST). After the ``101`` the connection's thread serves it (:mod:`.websocket`): the
live stream's events come as text frames holding each event's text as the stream sends it (compressed when the
phone offers permessage-deflate, as every browser does: shared as the stream's gzip is), and each text message is
an input, answered by ``POST /api/input``'s own view behind its own limits and error handlers (:class:`Inputs`).
"""

from __future__ import annotations

import io
import json
import logging
from typing import Any, cast

from flask import Blueprint, Flask, Response, current_app, request

from companion.words import N_

from .access import AccessDenied, Permission
from .api import behind, following
from .context import MAX_INPUT_BODY, context
from .errors import BadRequest, error_body
from .guard import json_body, requires
from .server import UPGRADE

log = logging.getLogger(__name__)

socket_api = Blueprint("socket", __name__, url_prefix="/api")

INPUT = "api.post_input"  # the route each message goes to
#: What a message's request keeps of the handshake's: who the phone is (its cookie, its address), its language, the
#: name it knows the table by. Not its Accept-Encoding (a reply is a frame, never gzip'd).
KEPT = ("HTTP_HOST", "HTTP_COOKIE", "HTTP_ACCEPT_LANGUAGE", "REMOTE_ADDR", "REMOTE_PORT", "SERVER_NAME",
        "SERVER_PORT", "SERVER_PROTOCOL", "SCRIPT_NAME", "wsgi.version", "wsgi.url_scheme", "wsgi.errors",
        "wsgi.multithread", "wsgi.multiprocess", "wsgi.run_once")


@socket_api.get("/socket")
@requires(Permission.LOOK)
def get_socket() -> Any:
    """A websocket (RFC 6455, version 13; permessage-deflate when offered): the live stream's events and this
    phone's inputs."""
    # wsproto (and h11, which it imports) at the first phone's socket, not at the table's start (~10 % of its
    # instructions: issue 43)
    from .websocket import VERSION, PhoneSocket, accept_token, deflate_accepted, same_origin, upgrade_asked

    headers = request.headers
    if not upgrade_asked(headers.get("Upgrade"), headers.get("Connection")):
        raise BadRequest(N_("this address is a websocket: open it as one (Upgrade: websocket)"))
    if headers.get("Sec-WebSocket-Version") != VERSION:
        raise BadRequest(N_("only websocket version {version} is spoken here"), version=VERSION)
    accept = accept_token(headers.get("Sec-WebSocket-Key", ""))
    if accept is None:
        raise BadRequest(N_("the websocket's key (Sec-WebSocket-Key) is not 16 bytes in base64"))
    origin = headers.get("Origin")
    if not same_origin(origin, request.host):
        raise AccessDenied(N_("a websocket is opened by this table's own page only, not from {origin}"),
                           origin=repr(origin or "nowhere"))
    upgrade = request.environ.get(UPGRADE)
    if upgrade is None:
        raise BadRequest(N_("this server cannot hand its connection over to a websocket: use the live stream"))
    ctx = context()
    deflate = deflate_accepted(headers.get("Sec-WebSocket-Extensions"))  # every browser offers it
    slot, tail = following(ctx.deflater if deflate is not None else None)
    inputs = Inputs(current_app._get_current_object(), request.environ)  # type: ignore[attr-defined]

    def serve() -> None:
        try:
            sock, held = upgrade()
            PhoneSocket(sock, held, tail, ctx.feed.fanout, answer=inputs.answer,
                        behind=lambda: behind(ctx.feed, tail, ctx.feed.latest()), closed=lambda: ctx.feed.closed,
                        keepalive=ctx.stream_keepalive, max_message=MAX_INPUT_BODY,
                        deflate=deflate[1] if deflate is not None else None, answering=ctx.table.answering).run()
        finally:
            ctx.streams.give_back(slot)

    response = Response(status=101, headers={"Upgrade": "websocket", "Connection": "Upgrade",
                                             "Sec-WebSocket-Accept": accept})
    if deflate is not None:
        response.headers["Sec-WebSocket-Extensions"] = deflate[0]
    response.call_on_close(serve)  # after the (empty) body: the 101 is sent, the request's context gone
    return response


# werkzeug routes a request asking for a websocket only to a rule that says it takes one (the rule above answers the
# others with what to do).
socket_api.add_url_rule("/socket", view_func=get_socket, websocket=True)


class Inputs:
    """A websocket's messages, each answered as ``POST /api/input`` with that body: in a request of its own made
    from the handshake's (the phone's cookie and address), through the route's view with its limits, its error
    handlers and what it asks to be done after it (``after_this_request``: the limits' counting). Not the app's
    hooks around a request: the Host was checked by the handshake, the body's bound is the socket's (a larger
    message closes it), the CSRF token's place is taken by the handshake's Origin, and an HTTP answer's headers,
    gzip and cookie have no place in a frame. The reply is ``{"id": ..., "status": ..., "body": ...}``: the
    message's ``id`` (a number or a string the page matches the reply by), the status and body the POST would be
    answered with."""

    def __init__(self, app: Flask, environ: dict[str, Any]) -> None:
        self.app = app
        self.view = app.view_functions[INPUT]
        self.environ = {key: environ[key] for key in KEPT if key in environ}
        self.environ.update(REQUEST_METHOD="POST", PATH_INFO="/api/input", QUERY_STRING="",
                            CONTENT_TYPE="application/json")

    def answer(self, text: str) -> str:
        data = text.encode()
        environ = {**self.environ, "CONTENT_LENGTH": str(len(data)), "wsgi.input": io.BytesIO(data)}
        with self.app.request_context(environ) as asked:
            ident, response = self.respond(data)
            for hook in asked._after_request_functions:  # after_this_request's (the limits' counting); not the
                response = cast(Response, hook(response))  # app's: headers, gzip and cookie are an HTTP answer's
            body = response.get_data(as_text=True)
        return f'{{"id":{json.dumps(ident)},"status":{response.status_code},"body":{body}}}'

    def respond(self, data: bytes) -> tuple[Any, Response]:
        """This request's message's id (None if it has none or cannot be read) and the view's answer to it
        (``data``: the message, the request's body, parsed as it is in hand)."""
        ident: Any = None
        try:
            ident = message_id(json_body(data))
            return ident, self.app.make_response(cast(Any, self.view()))
        except Exception as error:  # as Flask's own dispatch: the app's error handlers answer
            return ident, self.app.make_response(self.handled(error))

    def handled(self, error: Exception) -> Any:
        try:
            return self.app.handle_user_exception(error)
        except Exception:
            log.exception("an input over the websocket failed")
            return Response(json.dumps(error_body("internal", "the table failed this input")), status=500,
                            mimetype="application/json")


def message_id(body: dict[str, Any]) -> Any:
    """A message's ``id``: a number or a string (or none)."""
    ident = body.get("id")
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int | str)):
        raise BadRequest(N_("id must be a number or a string, not {value}"), value=repr(ident))
    return ident
