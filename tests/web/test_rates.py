"""The rate limits' windows (companion/web/rates.py): Flask-Limiter's fixed windows, counted without it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web.rates import Limit, Limiter, Rate, Windows, parse


def test_rates_are_read_as_flask_limiter_wrote_them() -> None:
    assert parse("8 per 5 seconds;60 per minute") == [Rate(8, 5), Rate(60, 60)]
    assert parse("10 per minute") == [Rate(10, 60)]
    with pytest.raises(ValueError):
        parse("ten a minute")


def test_a_window_starts_at_its_first_hit_and_counts_until_it_ends() -> None:
    now = [100.0]
    windows = Windows(lambda: now[0])
    rate = Rate(2, 10)
    assert windows.hit(("a",), rate) is None and windows.hit(("a",), rate) is None
    assert windows.test(("a",), rate) == 10.0  # full: the seconds left
    now[0] = 104.0
    assert windows.hit(("a",), rate) == 6.0  # over, and counted
    assert windows.hit(("b",), rate) is None  # another key, another window
    now[0] = 110.0
    assert windows.test(("a",), rate) is None and windows.hit(("a",), rate) is None  # a new window


def test_ended_windows_are_swept_so_that_many_devices_hold_no_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.web.rates as rates

    monkeypatch.setattr(rates, "SWEEP_AT", 10)
    now = [0.0]
    windows = Windows(lambda: now[0])
    for n in range(10):
        windows.hit((n,), Rate(1, 1))
    now[0] = 2.0
    windows.hit(("new",), Rate(1, 1))
    assert len(windows._windows) == 1


class _Eager:
    """The limiter as it was before issue 43's fourteenth round, as the reference: every limit's exemptions asked at
    the check, before its window is looked at."""

    def __init__(self, windows: Windows) -> None:
        self.windows = windows

    def check(self, endpoint: str, limits: list[Limit], asker: Any) -> tuple[float | None, list[Any]]:
        wait: float | None = None
        later: list[Any] = []
        asked: dict[Any, bool] = {}
        for limit in limits:
            if any(asked.setdefault(c, c(asker)) for c in (*limit.exempt, *limit.exempt_late)):
                continue
            name = limit.key(asker)
            for rate in limit.rates:
                key = (endpoint, name, rate)
                if limit.deduct is None:
                    over = self.windows.hit(key, rate)
                else:
                    over = self.windows.test(key, rate)
                    later.append((key, rate, limit.deduct))
                if over is not None:
                    wait = max(wait or 0.0, over)
        return wait, later

    def count(self, later: list[Any], status: int) -> None:
        for key, rate, counts in later:
            if counts(status):
                self.windows.hit(key, rate)


@dataclass
class _Ask:
    phone: str
    host: bool
    taken: bool  # what the dry run would say
    asked: int = 0  # dry runs made


def _taken(ask: _Ask) -> bool:
    ask.asked += 1
    return ask.taken


LIMITS = [Limit(parse("3 per 5 seconds;5 per minute"), lambda a: "phone:" + a.phone, (lambda a: a.host,),
                (200).__eq__),
          Limit(parse("4 per 5 seconds"), lambda a: "device", (lambda a: a.host, lambda a: a.phone == "pi"),
                (200).__eq__),
          Limit(parse("2 per 10 seconds"), lambda a: "device", (lambda a: a.host,), (422).__eq__, (_taken,)),
          Limit(parse("2 per 10 seconds"), lambda a: "phone:" + a.phone, (lambda a: a.host,), (422).__eq__, (_taken,)),
          Limit(parse("6 per minute"), lambda a: "device")]


@settings(max_examples=300)
@given(st.lists(st.tuples(st.sampled_from(["ann", "bob", "pi"]), st.booleans(), st.booleans(),
                          st.sampled_from([200, 422, 409, 400]), st.floats(0, 4)), max_size=40))
def test_exemptions_asked_only_when_they_decide_give_the_eager_limiters_answers(asks: list[Any]) -> None:
    """The limits counted on the answer ask their late exemptions (the engine's dry run, for the refusals' limit) only
    for an answer they count or a full window (issue 43): every wait, and every window's count after each answer, is
    the eager limiter's, which asked every exemption first; and an input taken while no refusals' window is full is
    never dry-run."""
    now = [0.0]
    lazy, eager = Limiter(lambda: now[0]), _Eager(Windows(lambda: now[0]))
    for phone, host, taken, status, pause in asks:
        now[0] += pause
        ask, reference = _Ask(phone, host, taken), _Ask(phone, host, taken)
        refusals = Rate(2, 10)
        full = any(eager.windows.test(("input", name, refusals), refusals) is not None
                   for name in ("device", "phone:" + phone))
        wait, later = lazy.check("input", LIMITS, ask)
        expected, then = eager.check("input", LIMITS, reference)
        assert wait == expected
        if wait is None:
            lazy.count(later, status)
            eager.count(then, status)
        assert lazy.windows._windows == eager.windows._windows
        assert ask.asked <= 1
        if status == 200 and not full:  # taken, no refusals' window full: nothing for a dry run to decide
            assert ask.asked == 0
