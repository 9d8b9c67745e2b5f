"""``GET /api/socket``: the phone page's one two-way connection, a websocket (issue 43; docs/web.md, "The socket").

The handshake is an ordinary request of the app's: the Host check, the session's cookie (who the phone is, as for
the live stream), the permission to look, a slot among the live streams. Its ``Origin`` must be this table's page:
the cookie goes with any page's request, the Origin a page cannot choose, so a foreign page cannot act through it
(what the CSRF token does for a POST). After the ``101`` the connection's thread serves it (:mod:`.websocket`): the
live stream's events come as text frames holding each event's text as the stream sends it (compressed when the
phone offers permessage-deflate, as every browser does: shared as the stream's gzip is), and each text message is
an input, answered by ``POST /api/input``'s own work (:func:`.inputs.take_input`: its limits, checks and refusals)
without a request around it (:class:`Inputs`).
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request, session

from companion.words import N_, Words

from .access import AccessDenied, Permission
from .api import behind, following
from .asker import Asker
from .context import MAX_INPUT_BODY, WebContext, context
from .errors import BadRequest
from .guard import parsed, requires
from .inputs import PATH, take_input
from .phone_words import language_of
from .refusals import error_text, refusal
from .server import UPGRADE

log = logging.getLogger(__name__)

socket_api = Blueprint("socket", __name__, url_prefix="/api")

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
    inputs = Inputs.of_request(current_app)

    def serve() -> None:
        try:
            sock, held = upgrade()
            PhoneSocket(sock, held, tail, ctx.feed.fanout, answer=inputs.answer,
                        behind=lambda: behind(ctx.feed, tail, ctx.feed.latest()), closed=lambda: ctx.feed.closed,
                        keepalive=ctx.stream_keepalive, max_message=MAX_INPUT_BODY,
                        deflate=deflate[1] if deflate is not None else None).run()
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
    """A websocket's messages, each answered as ``POST /api/input`` with that body (:func:`.inputs.take_input`: its
    limits and their counting, its checks, its refusals' answers), for the phone the handshake found: its session
    as its cookie held it (the table's side of it, host rights and seat, looked at for every message: a session
    replaced or revoked since is refused as its POST would be; past its cookie's lifetime it is no one's), its
    address, its language. No request is made around a message: the Host was checked by the handshake, the body's
    bound is the socket's (a larger message closes it), the CSRF token's place is taken by the handshake's Origin,
    and an HTTP answer's headers, gzip and cookie have no place in a frame. The reply is ``{"id": ..., "status":
    ..., "body": ...}``: the message's ``id`` (a number or a string the page matches the reply by), the status and
    body the POST would be answered with."""

    def __init__(self, ctx: WebContext, kept: Mapping[str, Any], address: str | None, words: Words,
                 expires: float) -> None:
        """``kept``: the handshake's session; ``expires``: when its cookie ends (:data:`math.inf`: never)."""
        self.ctx, self.kept, self.address, self.expires = ctx, dict(kept), address, expires
        self.words = lambda: words

    @classmethod
    def of_request(cls, app: Flask) -> Inputs:
        """The inputs of the phone of this request (the handshake)."""
        signed_at = getattr(session, "signed_at", 0.0)
        lifetime = app.permanent_session_lifetime.total_seconds()
        language = language_of(session, request.headers.get("Accept-Language"))
        return cls(context(), session, request.remote_addr, Words.for_language(language),
                   signed_at + lifetime if signed_at else math.inf)

    def answer(self, data: bytes) -> bytes:
        """The reply (UTF-8 JSON) to the message ``data`` (its UTF-8 text)."""
        kept = self.kept if time.time() <= self.expires else {}
        ident, status, body = self.respond(Asker(self.ctx, kept, self.address, self.words, partial(parsed, data)))
        return f'{{"id":{json.dumps(ident)},"status":{status},"body":{body}}}'.encode()

    def respond(self, asker: Asker) -> tuple[Any, int, str]:
        """The message's id (None if it has none or cannot be read), and the status and body of its input's answer
        (the message is the input's body)."""
        ident: Any = None
        try:
            ident = message_id(asker.body())
            status, body, _ = take_input(asker)
        except Exception as error:  # as Flask's own dispatch: the error handlers' answer, else 500
            status, body = self.refused(error)
        return ident, status, body

    def refused(self, error: Exception) -> tuple[int, str]:
        found = refusal(error, self.words(), self.ctx.table.state, PATH)
        if found is not None:
            return found[0], error_text(*found[1:])
        log.exception("an input over the websocket failed")
        return 500, error_text("internal", "the table failed this input")


def message_id(body: dict[str, Any]) -> Any:
    """A message's ``id``: a number or a string (or none)."""
    ident = body.get("id")
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int | str)):
        raise BadRequest(N_("id must be a number or a string, not {value}"), value=repr(ident))
    return ident
