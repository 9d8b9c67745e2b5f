"""The host's cards: which deeds' stickers and players' cards the table's NFC reader knows, and registering them
from the phone (the next tag tapped on the reader is the card the host picked; the walk goes on from there, as
the OLED's "Register cards" does)."""

from __future__ import annotations

from typing import Any, Protocol

from flask import Blueprint, jsonify

from .access import Permission
from .context import context
from .errors import Conflict
from .guard import field, json_body, requires

cards = Blueprint("cards", __name__, url_prefix="/api/host/cards")


class CardDesk(Protocol):
    """What the page needs of the table's controller (``TableController``), which owns the reader."""

    def cards_status(self) -> dict[str, Any]: ...

    def register_from(self, kind: str, name: str) -> None: ...

    def stop_registering(self) -> None: ...


NO_READER: dict[str, Any] = {"reader": False, "edition": None, "asking": None, "cards": []}


def _desk() -> CardDesk:
    desk = context().cards()
    if desk is None:
        raise Conflict("this table has no card reader")
    return desk


@cards.get("")
@requires(Permission.HOST)
def get_cards() -> Any:
    """Every deed (board order) and player of the game, registered or not, and what the reader waits for."""
    desk = context().cards()
    return jsonify(desk.cards_status() if desk is not None else NO_READER)


@cards.post("/register")
@requires(Permission.HOST)
def post_register() -> Any:
    """``{"kind": "deeds" | "players", "id": space id or name}``: the next tag tapped on the reader is that card."""
    body = json_body()
    desk = _desk()
    desk.register_from(field(body, "kind", str), field(body, "id", str))
    return jsonify(desk.cards_status())


@cards.post("/stop")
@requires(Permission.HOST)
def post_stop() -> Any:
    """The reader stops waiting for a card to register."""
    desk = _desk()
    desk.stop_registering()
    return jsonify(desk.cards_status())
