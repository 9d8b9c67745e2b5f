"""Rate limits on a few routes: fixed windows counted in memory, per device or per phone (issue 43).

What Flask-Limiter did here, without its cost on every request: its before-request check of each request (the
static files, the streams, the host's every input) and its layers of decorators and storage (a timer thread
started at each hit) took ~12 % of the CPU of an input, for limits that only a few routes have and that the host
never meets. Here a route's limits are looked at only when it is called, and not at all for whom they exempt (each
exemption asked once a request); what is counted on the answer is counted by a hook of that request alone. The
limits know no framework: they are checked and counted on whoever asks (``.asker.Asker``, a request's or a
websocket message's), so ``POST /api/input`` and the socket's inputs count in the same windows.

The semantics are Flask-Limiter's fixed window (``limits``' ``FixedWindowRateLimiter`` on memory): a window of a
key starts at its first hit and counts every hit until it ends; a limit counted only on some answers (``deduct``)
is tested before the view and hit after it, when the answer is one it counts. Over a limit: 429 ``too-many``
(the app's error handler), with ``Retry-After`` in seconds until the window ends.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial, wraps
from typing import Any

from flask import Response, after_this_request
from werkzeug.exceptions import TooManyRequests

_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s+per\s+(\d+\s+)?(second|minute|hour|day)s?\s*$")
SWEEP_AT = 4096  # windows kept before the ended ones are swept (one per device or phone and route and rate)


@dataclass(frozen=True)
class Rate:
    """``amount`` hits in ``seconds``."""

    amount: int
    seconds: float


def parse(text: str) -> list[Rate]:
    """``"8 per 5 seconds;60 per minute"`` → two rates; ValueError on anything else."""
    rates = []
    for part in text.split(";"):
        found = _RATE.match(part)
        if found is None:
            raise ValueError(f"not a rate: {part!r}")
        amount, count, unit = found.groups()
        rates.append(Rate(int(amount), int(count or 1) * _UNITS[unit]))
    return rates


class Windows:
    """Fixed windows of counts, by key; thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._windows: dict[tuple[Any, ...], list[float]] = {}  # key -> [ends at, count]

    def _current(self, key: tuple[Any, ...], seconds: float, now: float) -> list[float]:
        window = self._windows.get(key)
        if window is None or window[0] <= now:
            if len(self._windows) >= SWEEP_AT:
                self._windows = {k: w for k, w in self._windows.items() if w[0] > now}
            window = self._windows[key] = [now + seconds, 0]
        return window

    def hit(self, key: tuple[Any, ...], rate: Rate) -> float | None:
        """Count one; None if within the rate, else the seconds until its window ends."""
        with self._lock:
            now = self._clock()
            window = self._current(key, rate.seconds, now)
            window[1] += 1
            return None if window[1] <= rate.amount else window[0] - now

    def test(self, key: tuple[Any, ...], rate: Rate) -> float | None:
        """Whether one more would be within the rate (nothing counted): None if so, else the seconds left."""
        with self._lock:
            now = self._clock()
            window = self._windows.get(key)
            if window is None or window[0] <= now or window[1] < rate.amount:
                return None
            return window[0] - now

    def reset(self) -> None:
        with self._lock:
            self._windows.clear()


@dataclass(frozen=True)
class Limit:
    """Rates counted under ``key(asker)`` unless one of ``exempt`` says so of the asker (each condition asked once a
    request, however many of the route's limits name it); only answers whose status ``deduct`` counts are counted
    (all: None). ``exempt_late``: conditions of a limit with ``deduct`` asked only when they decide something (its
    window is full, or the answer is one it counts: a costly one, the engine's dry run). The asker is whoever asks
    (a request's or a websocket message's: ``.asker.Asker``)."""

    rates: list[Rate]
    key: Callable[[Any], str]
    exempt: tuple[Callable[[Any], bool], ...] = ()
    deduct: Callable[[int], bool] | None = None
    exempt_late: tuple[Callable[[Any], bool], ...] = ()


#: What is counted on an answer, once its status is known: (the window's key, its rate, whether the status counts,
#: whether the asker is exempt by the limit's late conditions: asked only then).
Later = list[tuple[tuple[Any, ...], Rate, Callable[[int], bool], Callable[[], bool]]]


class Limiter:
    """The app's rate limits: :meth:`check` before an answer and :meth:`count` after it (no framework: a
    websocket's message is checked and counted as its request would be); :meth:`limit` wraps a Flask view in them;
    :meth:`reset` forgets every count."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.windows = Windows(clock)

    def reset(self) -> None:
        self.windows.reset()

    def check(self, endpoint: str, limits: list[Limit], asker: Any) -> tuple[float | None, Later]:
        """Whether ``asker`` may be answered at ``endpoint`` now: the seconds to wait if it is over a limit (None:
        within them all), and what to count once the answer's status is known (:meth:`count`).

        A limit's late exemptions (``Limit.exempt_late``) are asked only when they decide something: its window is
        full (held back or not), or the answer is one it counts (counted or not). So the limit on refusals asks the
        engine's dry run (:meth:`.asker.Asker.input_taken_now`) only for an input refused or held back, never for an
        input taken within the limits (issue 43: a dry run of the engine at every phone's input)."""
        wait: float | None = None
        later: Later = []
        asked: dict[Callable[[Any], bool], bool] = {}  # each exemption's answer, for this request
        for limit in limits:
            if _exempt(limit.exempt, asked, asker):
                continue
            name = limit.key(asker)
            late = partial(_exempt, limit.exempt_late, asked, asker) if limit.exempt_late else _never
            held: float | None = None
            counted: Later = []
            for rate in limit.rates:
                key = (endpoint, name, rate)
                if limit.deduct is None:
                    over = self.windows.hit(key, rate)
                else:
                    over = self.windows.test(key, rate)
                    counted.append((key, rate, limit.deduct, late))
                if over is not None:
                    held = max(held or 0.0, over)
            if held is not None and (limit.deduct is None or not late()):
                wait = max(wait or 0.0, held)
            later += counted  # an exempt asker's answer is not counted: asked again (once: ``asked``) at the count
        return wait, later

    def count(self, later: Later, status: int) -> None:
        """Count an answer of ``status`` in the windows :meth:`check` said count it."""
        for key, rate, counts, exempt in later:
            if counts(status) and not exempt():
                self.windows.hit(key, rate)

    def limit(self, endpoint: str, view: Callable[..., Any], limits: list[Limit],
              asker: Callable[[], Any]) -> Callable[..., Any]:
        """``view`` behind ``limits`` for the asker of each request (``asker()``): checked before it runs (429 at
        once when over), counted on its answer (the error handlers' too: ``after_this_request``, this request's
        alone)."""

        @wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            wait, later = self.check(endpoint, limits, asker())
            if wait is not None:
                after_this_request(partial(_retry_after, wait))  # on the 429 the error handler makes
                raise TooManyRequests()
            if later:
                after_this_request(partial(self._counted, later))
            return view(*args, **kwargs)

        return limited

    def _counted(self, later: Later, response: Response) -> Response:
        self.count(later, response.status_code)
        return response


def _never() -> bool:
    return False


def _exempt(conditions: tuple[Callable[[Any], bool], ...], asked: dict[Callable[[Any], bool], bool],
            asker: Any) -> bool:
    for condition in conditions:
        if condition not in asked:
            asked[condition] = condition(asker)
        if asked[condition]:
            return True
    return False


def retry_after(wait: float) -> str:
    """A ``Retry-After`` header's value: whole seconds, one at least."""
    return str(max(1, round(wait)))


def _retry_after(wait: float, response: Response) -> Response:
    response.headers["Retry-After"] = retry_after(wait)
    return response
