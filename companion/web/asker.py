"""Who asks: one request's phone, or one websocket message's (its session, its address, its words), without Flask's
request around it, and the rate limits counted on it (issue 43).

A request's asker is made from Flask's request (:meth:`Asker.of_request`); a websocket's messages each have one made
from what the socket's handshake found once (:mod:`.socket_api`). What the limits and the input's checks ask of it
more than once (its host rights, its seat, whether the engine takes its input now) is found once per asker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import request, session

from companion.engine import State, find_ruleset
from companion.words import Words

from .acting import check_allowed, check_shape
from .addresses import device, is_own
from .context import WebContext, context
from .guard import host_rights, json_body, seated_player
from .phone_words import phone_words
from .rates import Limit, parse


class Asker:
    """One request's (or websocket message's) phone: ``kept``, its session as its cookie holds it; ``address``, where
    it asks from; ``words()``, its language's words (asked only for a refusal: choosing them may change a request's
    session); ``read()``, the body as a JSON object (400 or 415 if it is none)."""

    __slots__ = ("ctx", "kept", "address", "words", "_read", "_body", "_host", "_player", "_taken", "_looked")

    def __init__(self, ctx: WebContext, kept: Mapping[str, Any], address: str | None, words: Callable[[], Words],
                 read: Callable[[], dict[str, Any]]) -> None:
        self.ctx, self.kept, self.address, self.words, self._read = ctx, kept, address, words, read
        self._body: dict[str, Any] | None = None
        self._host: bool | None = None
        self._player: tuple[str | None] | None = None
        self._taken: bool | None = None
        self._looked: tuple[State | None] | None = None  # the table's state when the limits looked (:meth:`look`)

    @classmethod
    def of_request(cls) -> Asker:
        """The phone of Flask's request."""
        return cls(context(), session._get_current_object(), request.remote_addr,  # type: ignore[attr-defined]
                   phone_words, json_body)

    def body(self) -> dict[str, Any]:
        """The body, read once (an unreadable one raises again each time)."""
        if self._body is None:
            self._body = self._read()
        return self._body

    def host(self) -> bool:
        """This session is the host's now (checked on the table: a copied cookie, a logged-out host stops too)."""
        if self._host is None:
            self._host = host_rights(self.ctx.access, self.kept)
        return self._host

    def player(self) -> str | None:
        """The player whose seat this session holds now, in the current game."""
        if self._player is None:
            self._player = (seated_player(self.ctx.access, self.ctx.table.state, self.kept),)
        return self._player[0]

    def phone(self) -> str:
        """What a phone's own limits count under: its session (whichever address it comes from)."""
        return "phone:" + str(self.kept.get("sid", ""))

    def device(self) -> str:
        """What the rate limits count a request under: its device (an IPv6 /64 is one device: :mod:`.addresses`)."""
        return "device:" + device(self.address)

    def own_device(self) -> bool:
        """It asks from the Pi itself (its loopback: a browser on the Pi, the tests), not the table's Wi-Fi."""
        return is_own(self.address)

    def input_taken_now(self) -> bool:
        """Whether the engine would take this body's input line now, from this phone: a dry run on the pure engine,
        which changes nothing (the limit on refusals lets such an input through, whatever came before it). A line
        the phone may not send is not taken, so a refusal of it never depends on the engine (hidden cards stay
        hidden). Found once (both limits on refusals, per device and per phone, ask; on a Pi each dry run is
        milliseconds)."""
        if self._taken is None:
            self._taken = self._dry_run()
        return self._taken

    def look(self) -> None:
        """Keep the table's state now, when the limits are checked: the dry run, asked later (only for an input
        refused, or held back: :meth:`.rates.Limiter.check`), is made on it as it was then."""
        self._looked = (self.ctx.table.state,)

    def _dry_run(self) -> bool:
        try:
            line = check_shape(self.body().get("input"))
            state = self._looked[0] if self._looked is not None else self.ctx.table.state
            if state is None:
                return False
            check_allowed(state, line, self.player(), host=self.host(), phone_dice=self.ctx.phone_dice)
            find_ruleset(state["ruleset"]).apply(state, line)
        except Exception:  # a dry run decides nothing but this: refused, or not understood (the view says why)
            return False
        return True


def route_limits(view: Any) -> list[Limit]:
    """The limits a view declares (``api.limit``, ``api.accepted_limit``): inputs the table took per phone and per
    device but the Pi's own, the host never; other limits per device, and a limit on refused inputs per phone too,
    counted only on refusals and not for an input the engine takes now."""
    limits: list[Limit] = []
    accepted = getattr(view, "rate_accepted", None)
    if accepted is not None:
        took = (200).__eq__
        limits += [Limit(parse(accepted), Asker.phone, (Asker.host,), took),
                   Limit(parse(accepted), Asker.device, (Asker.host, Asker.own_device), took)]
    rate = getattr(view, "rate_limit", None)
    if rate is not None:
        if getattr(view, "rate_refusals_only", False):
            refused = (422).__eq__
            taken = (Asker.input_taken_now,)  # a dry run: asked only for a refusal or a full window
            limits += [Limit(parse(rate), Asker.device, (Asker.host,), refused, taken),
                       Limit(parse(rate), Asker.phone, (Asker.host,), refused, taken)]
        else:
            limits.append(Limit(parse(rate), Asker.device))
    return limits
