"""The rate limits' windows (companion/web/rates.py): Flask-Limiter's fixed windows, counted without it."""

from __future__ import annotations

import pytest

from companion.web.rates import Rate, Windows, parse


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
