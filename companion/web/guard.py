"""Declared permissions and the request helpers every route shares."""

from __future__ import annotations

import json

import secrets
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any, TypeVar

from flask import g, request, session
from werkzeug.exceptions import UnsupportedMediaType

from companion.engine import State
from companion.localfiles import nesting
from companion.words import N_

from .access import Access, AccessDenied, Permission
from .context import context
from .errors import BadRequest

F = TypeVar("F", bound=Callable[..., Any])


class NotAllowed(AccessDenied):
    """No session (or the wrong one) for this route: 401 with what to do."""

    def __init__(self, code: str, message: str, /, **args: Any) -> None:
        super().__init__(message, **args)
        self.code = code


def requires(permission: Permission) -> Callable[[F], F]:
    """Declare (and enforce) the permission a route needs."""

    def decorate(view: F) -> F:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            check(permission)
            return view(*args, **kwargs)

        guarded.permission = permission  # type: ignore[attr-defined]
        return guarded  # type: ignore[return-value]

    return decorate


def check(permission: Permission) -> None:
    permitted(permission, context().access, session, is_host, current_player)


def declares(permission: Permission) -> Callable[[F], F]:
    """Declare the permission a route needs, which its view enforces itself (:func:`permitted`, after its limits:
    ``POST /api/input``'s work, shared with the websocket's messages)."""

    def mark(view: F) -> F:
        view.permission = permission  # type: ignore[attr-defined]
        return view

    return mark


def permitted(permission: Permission, access: Access, kept: Mapping[str, Any], host: Callable[[], bool],
              player: Callable[[], str | None]) -> None:
    """Raise :class:`NotAllowed` unless the session ``kept`` (whose host rights and seat ``host()`` and ``player()``
    tell, asked only when needed) may do what ``permission`` allows."""
    if permission is Permission.OPEN or host():
        return
    if access.table_code is not None and not kept.get("looker"):
        raise NotAllowed("table-code", N_("enter the table code first"))
    if permission is Permission.PLAY and player() is None:
        raise NotAllowed("not-joined", N_("join the game first (the code is on the table's screen)"))
    if permission is Permission.HOST:
        raise NotAllowed("host-pin", N_("this needs the host PIN"))


def is_host() -> bool:
    """This session entered the PIN and has not logged out (checked on the table: a copied cookie stops too)."""
    return host_rights(context().access, session)


def host_rights(access: Access, kept: Mapping[str, Any]) -> bool:
    """Whether the session ``kept`` (this request's, or one a live stream holds) is the host's now."""
    return bool(kept.get("host")) and access.is_host_session(kept.get("sid"))


def session_id() -> str:
    """This phone's random session id (created on first need)."""
    if "sid" not in session:
        session["sid"] = secrets.token_urlsafe(18)
        session.permanent = True
    return str(session["sid"])


def renewed_session(renew: Callable[[str | None, str], None]) -> str:
    """Give this phone a fresh session id (joining, logging in or out, leaving): ``renew(old, new)`` moves on the
    table what the old id held (:meth:`Access.renew`); only once it has (it may refuse) does the cookie carry the
    new id, so an id planted in the phone before, or a copy of its cookie, is worth nothing from now on."""
    old, new = session.get("sid"), secrets.token_urlsafe(18)
    renew(str(old) if old else None, new)
    session["sid"] = new
    session.permanent = True
    return new


def current_player() -> str | None:
    """The player this phone has joined as, if that player is in the current game."""
    ctx = context()
    return seated_player(ctx.access, ctx.table.state, session)


def seated_player(access: Access, state: State | None, kept: Mapping[str, Any]) -> str | None:
    """The player the session ``kept`` holds the seat of now, if that player is in ``state``."""
    name = access.seat_of(kept.get("sid"))
    if name is None or state is None or all(p["name"] != name for p in state["players"]):
        return None
    return name


def _not_json(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number")


def json_body(data: bytes | None = None) -> dict[str, Any]:
    """The request's JSON object; 415 if it is not JSON, 400 if it is malformed or not an object (:func:`parsed`).

    (Its size is bounded before the CSRF check reads it: ``context.body_limit``.) Parsed once a request (``g``).
    ``data``: the body when the caller holds it already, else the request's is read."""
    if "json_body" in g:
        kept: dict[str, Any] = g.json_body
        return kept
    if data is None:
        if not request.is_json:
            raise UnsupportedMediaType(N_("send JSON (Content-Type: application/json)"))
        data = request.get_data(cache=True)
    body = g.json_body = parsed(data)
    return body


def parsed(data: bytes) -> dict[str, Any]:
    """``data`` (a body, a websocket's message) as a JSON object; 400 if it is malformed or not an object."""
    try:
        body = json.loads(data, parse_constant=_not_json)
    except RecursionError:
        raise BadRequest(N_("the body is nested too deeply")) from None
    except UnicodeDecodeError:
        raise BadRequest(N_("the body must be UTF-8 text")) from None
    except ValueError as error:  # malformed JSON, or a number beyond Python's digit limit
        raise BadRequest(N_("the body is not valid JSON ({error})"), error=error) from None
    if not isinstance(body, dict):
        raise BadRequest(N_("the body must be a JSON object"))
    if nesting(body, MAX_NESTING) > MAX_NESTING:
        raise BadRequest(N_("the body is nested too deeply (more than {n} levels)"), n=MAX_NESTING)
    return body


#: What a field of each type must be, as a refusal says it.
MUST_BE: dict[tuple[type, ...], str] = {(str,): N_("{name} must be a string, not {value}"), (int,): N_("{name} must be a whole number, not {value}")}

#: Deeper than any request of the API (an input line nests four levels): more is an attack, not a game.
MAX_NESTING = 32


def field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], *, required: bool = True) -> Any:
    """One field of a JSON body, checked for its type (``bool`` is never taken for an ``int``)."""
    if name not in body:
        if required:
            raise BadRequest(N_("missing field {name}"), name=repr(name))
        return None
    value = body[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        wanted = MUST_BE.get(kinds)
        if wanted is not None:
            raise BadRequest(wanted, name=repr(name), value=repr(value))
        names = " or ".join(k.__name__ for k in kinds)
        raise BadRequest(N_("{name} must be a {names}, not {value}"), name=repr(name), names=names, value=repr(value))
    return value
