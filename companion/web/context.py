"""What the app factory and its blueprints share: the routes' context and the bodies' limits.

Its own module so that the blueprints never import the app (``app.py`` imports them to register them, as a Flask
app factory does): the imports go one way, ``app`` → blueprints → ``context``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Request, current_app, request

from companion.config import PhoneDice
from companion.table import Table

from .access import Access
from .feed import RETRY, Feed, StreamSlots
from .packed_stream import Packed, StreamPacker, deflating
from .rates import Limiter

MAX_BODY = 256 * 1024  # the largest request: an imported game file
MAX_INPUT_BODY = 8 * 1024  # one input line
MAX_NEW_GAME_BODY = 32 * 1024  # a setup with a game in progress


@dataclass
class WebContext:
    """What the routes work on: ``app.extensions["companion"]``."""

    table: Table
    access: Access
    feed: Feed
    phone_dice: PhoneDice
    limiter: Limiter
    stream_keepalive: float = 15.0
    streams: StreamSlots = field(default_factory=StreamSlots)
    #: The live streams' gzip, shared by those that send the same (:mod:`.packed_stream`).
    packer: StreamPacker = field(default_factory=lambda: StreamPacker(RETRY))
    #: Where the websockets' compression starts (permessage-deflate), shared as the streams' gzip is.
    deflater: Packed = field(default_factory=deflating)
    #: The table's card reader, once the table has one (``companion.web.cards.CardDesk``; None: no reader).
    cards: Callable[[], Any] = lambda: None


def context() -> WebContext:
    """The :class:`WebContext` of the app serving this request."""
    return current_app.extensions["companion"]


def this_request() -> Request:
    """The request itself, for a hook that reads it several times (each read through ``flask.request`` looks it up)."""
    return request._get_current_object()  # type: ignore[attr-defined]


def body_limit(max_bytes: int) -> Any:
    """Declare the largest body a route accepts (default: one input line, ``MAX_INPUT_BODY``)."""

    def mark(view: Any) -> Any:
        view.max_body = max_bytes
        return view

    return mark
