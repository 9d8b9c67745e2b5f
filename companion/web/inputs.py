"""One input line from a phone, whichever way it comes: ``POST /api/input`` and a websocket's message (issue 43).

:func:`take_input` is the route's whole work, without Flask around it: the route's limits (checked, then counted on
the answer), its permission, the body's checks, the phone's rights, the table's submit (journaled and synced before
it is applied), the reply, and a refusal's answer as the app's error handlers give it (:mod:`.refusals`). It takes
who asks (:class:`.asker.Asker`: a request's, or one made from what a websocket's handshake found) and answers with
the status and body. The route's view (here, on the API's blueprint) and the socket (:mod:`.socket_api`) both call
it: a phone's input is the same whichever way it comes, and a message pays for no request context.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import Response
from werkzeug.exceptions import TooManyRequests

from .access import Permission
from .acting import check_allowed, check_shape
from .api import ACCEPTED_INPUTS, accepted_limit, api, limit, reply_body, running_state, source
from .asker import Asker, route_limits
from .guard import declares, field, permitted
from .rates import retry_after
from .refusals import error_text, refusal

ENDPOINT = "api.post_input"  # the limits' windows are the route's, whichever way an input comes
PATH = "/api/input"


class Answer(NamedTuple):
    """An input's answer: its status and JSON body, and the seconds to wait when it is over a limit (429)."""

    status: int
    body: str
    wait: float | None = None


@limit("30 per minute", refusals_only=True)
@accepted_limit(ACCEPTED_INPUTS)
def take_input(asker: Asker) -> Answer:
    """``asker``'s input answered, behind the limits declared here: an error no handler answers (a fault) is
    raised, for the caller to answer 500."""
    limiter = asker.ctx.limiter
    asker.look()  # the state the limits' dry run is made on, if one is asked (a refusal's count)
    wait, later = limiter.check(ENDPOINT, _LIMITS, asker)
    try:
        if wait is not None:
            raise TooManyRequests()
        status, body = 200, _taken(asker)
    except Exception as error:
        found = refusal(error, asker.words(), asker.ctx.table.state, PATH)
        if found is None:
            raise
        status, body = found[0], error_text(*found[1:])
    if wait is None:
        limiter.count(later, status)
    return Answer(status, body, wait)


_LIMITS = route_limits(take_input)


def _taken(asker: Asker) -> str:
    """One input line (DESIGN.md) made on the state ``seq``: ``{"input": {...}, "seq": 41}``; the reply's body."""
    ctx = asker.ctx
    permitted(Permission.PLAY, ctx.access, asker.kept, asker.host, asker.player)
    body = asker.body()
    line = check_shape(body.get("input"))
    seq, game = field(body, "seq", int), field(body, "game", int, required=False)
    state = running_state(seq, game, table=ctx.table, words=asker.words)
    host, player = asker.host(), asker.player()  # asked once: the check and the journal's source say the same
    check_allowed(state, line, player, host=host, phone_dice=ctx.phone_dice)
    # the game and seq it was made on are checked again under the table's lock, so the permission checked on that
    # state holds for the state it is applied to
    update = ctx.table.submit(line, source=source(host, player), expect_seq=seq, expect_game=game)
    return reply_body(ctx, update, asker.kept)


@api.post("/input")
@declares(Permission.PLAY)  # enforced by take_input, after the limits
def post_input() -> Any:
    """One input line (DESIGN.md) made on the state ``seq``: ``{"input": {...}, "seq": 41}``."""
    answer = take_input(Asker.of_request())
    response = Response(answer.body, status=answer.status, content_type="application/json")
    if answer.wait is not None:
        response.headers["Retry-After"] = retry_after(answer.wait)
    return response
