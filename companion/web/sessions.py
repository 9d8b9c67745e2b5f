"""The phones' sessions: Flask's signed cookie, each cookie's signature checked once, and the cookie signed again only
when the session changed or once a day.

Flask checks the cookie's signature (an HMAC, base64 and zlib) on every request and, for a permanent session, signs
and sends it anew on every answer (``SESSION_REFRESH_EACH_REQUEST``): 0.6 ms of CPU a request here, on the phones'
every input and look (issue 43). A cookie is a string the server signed: once its signature has been checked, the
same string is the same session until it expires, so the sessions opened are kept by their cookie (the last
:data:`KEPT`) with the time it was signed, and its age is still checked on every request; a phone's Cookie header,
the same on each of its requests, is parsed once too. A session changed (joining,
logging in, a new id) is signed and sent as before; one unchanged for a day is sent again (signed anew), so a phone
in use never reaches the cookie's end (its lifetime: ``PERMANENT_SESSION_LIFETIME``, a week).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from flask import Flask, Request, Response
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature

KEPT = 256  # sessions kept opened, by cookie: a table's phones, with room for their cookies' renewals
REFRESH_AFTER = 24 * 3600.0  # seconds after which an unchanged permanent session's cookie is signed and sent anew


class Session(SecureCookieSession):
    """Flask's cookie session, with when its cookie was signed (0: never, a new session)."""

    signed_at = 0.0


class KeptSessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, each cookie's signature checked once (see the module's docstring)."""

    session_class = Session

    def __init__(self, *, clock: Any = time.time) -> None:
        self._opened: OrderedDict[str, tuple[dict[str, Any], float]] = OrderedDict()
        self._cookies: OrderedDict[str, str] = OrderedDict()  # a request's Cookie header -> its session cookie
        self._lock = threading.Lock()
        self._clock = clock

    def open_session(self, app: Flask, request: Request) -> Session | None:
        if not app.secret_key:
            return None
        header = request.environ.get("HTTP_COOKIE", "")
        with self._lock:
            cookie = self._cookies.get(header)
        if cookie is None:  # a Cookie header not seen before: parsed (werkzeug's), its session cookie kept by it
            cookie = request.cookies.get(self.get_cookie_name(app)) or ""
            with self._lock:
                self._cookies[header] = cookie
                while len(self._cookies) > KEPT:
                    self._cookies.popitem(last=False)
        if not cookie:
            return Session()
        max_age = app.permanent_session_lifetime.total_seconds()
        with self._lock:
            found = self._opened.get(cookie)
            if found is not None:
                self._opened.move_to_end(cookie)
        if found is None:
            serializer = self.get_signing_serializer(app)  # made only for a cookie not seen before
            if serializer is None:
                return None
            try:
                data, signed = serializer.loads(cookie, max_age=int(max_age), return_timestamp=True)
            except BadSignature:
                return Session()
            found = (dict(data), signed.timestamp())
            with self._lock:
                self._opened[cookie] = found
                while len(self._opened) > KEPT:
                    self._opened.popitem(last=False)
        elif self._clock() - found[1] > max_age:
            return Session()  # expired since it was opened
        session = Session(found[0])  # a copy: the view may change it
        session.signed_at = found[1]
        return session

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if self.should_set_cookie(app, session):
            super().save_session(app, session, response)
        elif session.accessed:  # what Flask's does then, without first looking up the cookie's every setting
            response.vary.add("Cookie")

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        signed_at = getattr(session, "signed_at", 0.0)
        return bool(session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]
                    and self._clock() - signed_at > REFRESH_AFTER)
