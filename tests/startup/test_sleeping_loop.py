"""The table's loop on a Pi (Station.run): asleep while nothing moves, awake for every edge (issue 43).

gpiozero's callbacks bring the buttons' edges; the loop reads the levels every 10 ms only while a button is down or
chatter is left to settle, the seat lights' frame only when it changes by itself, the clock once a second. Mock pins,
luma's dummy OLED, the real clock in a thread (nothing timed: each wait has a deadline far beyond need).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.drivers import clock as clocks
from companion.drivers.clock import SimClock
from companion.startup.mock import mock_station
from companion.startup.station import IDLE_TICK, TICK, Station

from ..face.test_table import start

PATIENCE = 30.0  # seconds: far beyond need, on a loaded machine


def until(condition: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@contextmanager
def running(tmp_path: Path) -> Iterator[tuple[Station, object, object]]:
    """A mock station (software dice) whose loop runs in a thread on the real clock, as `companion run` runs it;
    the card reader taken away (it is polled: `companion run` on mock pins has none)."""
    with mock_station(journal_path=tmp_path / "g.sqlite3", dice="software", clock=clocks.monotonic,
                      sleep=time.sleep, setup=start(), new_seed=lambda: 5) as (station, factory, pins):
        station.reader = None
        stop = threading.Event()
        loop = threading.Thread(target=station.run, args=(stop,), daemon=True)
        loop.start()
        try:
            yield station, factory, pins
        finally:
            stop.set()
            station.wake.set()
            loop.join(PATIENCE)
            assert not loop.is_alive()


def test_a_press_through_the_sleeping_loop_rolls_and_a_hold_is_still_told(tmp_path: Path) -> None:
    with running(tmp_path) as (station, factory, pins):
        assert until(station.panel.settled)
        pin = factory.pin(pins.buttons["ROLL"])  # type: ignore[attr-defined]
        time.sleep(0.7)  # the press guard: a press within 0.6 s of a new question is refused
        pin.drive_low()
        time.sleep(0.08)
        pin.drive_high()
        assert until(lambda: station.table.state["seq"] == 1)  # type: ignore[index]
        held: list[str] = []
        station.panel.on_event = lambda event, told=station.panel.on_event: (held.append(event.kind), told(event))
        menu = factory.pin(pins.buttons["MENU"])  # type: ignore[attr-defined]
        menu.drive_low()  # held: the loop reads the level every 10 ms while it is down, and tells the hold
        assert until(lambda: "hold" in held)
        menu.drive_high()
        assert until(lambda: "release" in held and station.panel.settled())


def test_an_idle_station_sleeps_between_looks(tmp_path: Path) -> None:
    """Simulated time: idle, the loop waits IDLE_TICK and reads no button level between its once-a-second looks;
    a button down, TICK; the lights blink only at their changes."""
    sim = SimClock()
    with mock_station(journal_path=tmp_path / "g.sqlite3", dice="software", clock=sim, sleep=sim.sleep,
                      setup=start(), new_seed=lambda: 5) as (station, factory, pins):
        station.reader = None
        reads = [0]
        poll = station.panel.poll

        def counted() -> None:
            reads[0] += 1
            poll()

        station.panel.poll = counted  # type: ignore[method-assign]
        for _ in range(30):  # 3 s of idle looks
            station.step(sim())
            wait = station.idle_for(sim())
            assert 0 <= wait <= IDLE_TICK
            sim.advance(max(wait, 0.001))
        assert reads[0] <= 4  # once a second (and at the start)
        factory.pin(pins.buttons["YES"]).drive_low()
        assert station.idle_for(sim()) == TICK
        factory.pin(pins.buttons["YES"]).drive_high()


def test_a_phones_input_wakes_the_loop_once_its_answer_is_out(tmp_path: Path) -> None:
    """An input made inside the table's ``answering`` (a phone's message, until its reply is written) wakes the
    OLED's loop when the block ends; a button's, at once (companion/table.py: the GIL would keep the loop waiting
    for the reply's write anyway)."""
    sim = SimClock()
    with mock_station(journal_path=tmp_path / "g.sqlite3", dice="software", clock=sim, sleep=sim.sleep,
                      setup=start(), new_seed=lambda: 5) as (station, _, _):
        station.wake.clear()
        with station.table.answering():
            station.table.submit({"roll": [1, 2]}, source="web:Ann")
            assert not station.wake.is_set()
        assert station.wake.is_set()
        station.wake.clear()
        station.table.submit({"answer": "yes"}, source="button")
        assert station.wake.is_set()
