"""Errors of the web adapter and their JSON form: ``{"error": CODE, "message": SENTENCE}``."""

from __future__ import annotations

from companion.engine import CompanionError


class BadRequest(CompanionError, ValueError):
    """A request the API cannot read (malformed JSON, wrong types, missing keys): 400."""

    status = 400
    code = "bad-request"


class NotFound(CompanionError, LookupError):
    """An unknown game, player or ruleset: 404."""

    status = 404
    code = "not-found"


class Conflict(CompanionError, RuntimeError):
    """The request is well formed but not possible now (no game running, seat taken): 409."""

    status = 409
    code = "conflict"


class TooMany(CompanionError, RuntimeError):
    """More at once than the table serves (live streams from one address): 429."""

    status = 429
    code = "too-many"


def error_body(code: str, message: str) -> dict[str, str]:
    return {"error": code, "message": message}
