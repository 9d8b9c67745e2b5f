"""Errors of the web adapter and their JSON form: ``{"error": CODE, "message": SENTENCE}``.

The web server's own refusals are said in the phone's language: an error made from a msgid of the table's catalogue
(marked ``N_``) and its arguments, ``BadRequest(N_("missing field {name}"), name="'seq'")``, keeps both
(:class:`SaidError`); its ``str()`` is the English, and the app's error handlers say it in the phone's language."""

from __future__ import annotations

from typing import Any

from companion.engine import CompanionError


class SaidError(CompanionError):
    """An error whose message is a msgid (the English template, ``{placeholders}`` filled by ``args``: said
    already, a name, a number, a quoted value) to be said in the language of whoever reads it."""

    def __init__(self, msgid: str, /, **args: Any) -> None:
        super().__init__(msgid.format(**args) if args else msgid)
        self.msgid, self.params = msgid, args

    def said(self, words: Any) -> str:
        """The message in ``words`` (a :class:`companion.words.Words`)."""
        return str(words.t(self.msgid, **self.params))


class BadRequest(SaidError, ValueError):
    """A request the API cannot read (malformed JSON, wrong types, missing keys): 400."""

    status = 400
    code = "bad-request"


class NotFound(SaidError, LookupError):
    """An unknown game, player or ruleset: 404."""

    status = 404
    code = "not-found"


class Conflict(SaidError, RuntimeError):
    """The request is well formed but not possible now (no game running, seat taken): 409."""

    status = 409
    code = "conflict"


class TooMany(SaidError, RuntimeError):
    """More at once than the table serves (live streams from one address): 429."""

    status = 429
    code = "too-many"


def error_body(code: str, message: str) -> dict[str, str]:
    return {"error": code, "message": message}
