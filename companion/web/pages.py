"""The HTML pages: one small page shell (status, join, host views) and its bundled assets."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from companion.engine import find_ruleset
from companion.seats import PLAYER_COLOURS

from .access import Permission
from .context import context
from .guard import requires
from .phone_words import LANGUAGE_NAMES, page_catalogue, phone_words

pages = Blueprint("pages", __name__)


def _page(view: str) -> Any:
    """The page shell for ``view`` in the phone's language; it carries the players' colours (:mod:`companion.seats`,
    shared with the seat lights) and the page's words (:func:`.phone_words.page_catalogue`) for the script to
    read."""
    words, state = phone_words(), context().table.state
    currency = find_ruleset(state["ruleset"]).board.currency if state is not None else "$"
    return render_template("page.html", view=view, colours=PLAYER_COLOURS, t=words.t, lang=words.language,
                           words=page_catalogue(words.language), currency=currency,
                           languages=list(LANGUAGE_NAMES.items()))


@pages.get("/")
@requires(Permission.OPEN)
def index() -> Any:
    """The table: balances, deeds, board, story; and acting once joined."""
    return _page("table")


@pages.get("/join")
@requires(Permission.OPEN)
def join() -> Any:
    """Join with the code (the QR code's URL carries it in the fragment)."""
    return _page("join")


@pages.get("/host")
@requires(Permission.OPEN)
def host() -> Any:
    """The host page (asks for the PIN first)."""
    return _page("host")
