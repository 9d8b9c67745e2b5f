"""Rate limits on a few routes: fixed windows counted in memory, per device or per phone (issue 43).

What Flask-Limiter did here, without its cost on every request: its before-request check of each request (the
static files, the streams, the host's every input) and its layers of decorators and storage (a timer thread
started at each hit) took ~12 % of the CPU of an input, for limits that only a few routes have and that the host
never meets. Here a route's limits are looked at only when it is called, and not at all for whom they exempt.

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
from functools import wraps
from typing import Any

from flask import Flask, Response, g
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
    """Rates counted under ``key()`` unless ``exempt()``; only answers ``deduct`` counts are counted (all: None)."""

    rates: list[Rate]
    key: Callable[[], str]
    exempt: Callable[[], bool] = lambda: False
    deduct: Callable[[Response], bool] | None = None


class Limiter:
    """The app's rate limits: :meth:`limit` wraps a view, :meth:`reset` forgets every count."""

    def __init__(self, app: Flask, clock: Callable[[], float] = time.monotonic) -> None:
        self.windows = Windows(clock)
        app.after_request(self._after)

    def reset(self) -> None:
        self.windows.reset()

    def limit(self, endpoint: str, view: Callable[..., Any], limits: list[Limit]) -> Callable[..., Any]:
        """``view`` behind ``limits``: checked before it runs (429 at once when over), counted as they say."""

        @wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            wait: float | None = None
            later: list[tuple[tuple[Any, ...], Rate, Callable[[Response], bool]]] = []
            for limit in limits:
                if limit.exempt():
                    continue
                name = limit.key()
                for rate in limit.rates:
                    key = (endpoint, name, rate)
                    if limit.deduct is None:
                        over = self.windows.hit(key, rate)
                    else:
                        over = self.windows.test(key, rate)
                        later.append((key, rate, limit.deduct))
                    if over is not None:
                        wait = max(wait or 0.0, over)
            if wait is not None:
                g.rate_wait = wait
                raise TooManyRequests()
            if later:
                g.rate_later = later
            return view(*args, **kwargs)

        return limited

    def _after(self, response: Response) -> Response:
        for key, rate, counts in g.pop("rate_later", ()):
            if counts(response):
                self.windows.hit(key, rate)
        wait = g.pop("rate_wait", None)
        if wait is not None:
            response.headers["Retry-After"] = str(max(1, round(wait)))
        return response
