"""Buttons on gpiozero's MockFactory: debounce, holds, stuck buttons — on simulated time."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.drivers.buttons import ButtonEvent, ButtonPanel, Debouncer
from companion.drivers.clock import SimClock
from companion.drivers.pins import load_pins
from companion.drivers.virtual import VirtualButtons

PINS = load_pins().buttons


@pytest.fixture
def rig():
    factory = MockFactory()
    clock = SimClock()
    events: list[ButtonEvent] = []
    panel = ButtonPanel(PINS, events.append, pin_factory=factory, clock=clock, debounce=0.02, hold=1.5, stuck=20.0)
    buttons = VirtualButtons(factory, PINS, clock.sleep, after_step=panel.poll)
    yield panel, buttons, events, clock
    panel.close()
    factory.reset()


def kinds(events: list[ButtonEvent]) -> list[tuple[str, str]]:
    return [(e.button, e.kind) for e in events]


def test_pins_are_active_low_with_pull_ups(rig) -> None:
    panel, _, _, _ = rig
    for name, pin in PINS.items():
        assert panel.buttons[name].pin.info.name == f"GPIO{pin}"
        assert panel.buttons[name].pull_up and not panel.buttons[name].is_pressed


def test_a_press_is_reported_at_its_first_edge(rig) -> None:
    _, buttons, events, clock = rig
    start = clock()
    buttons.press("ROLL")
    assert kinds(events) == [("ROLL", "press"), ("ROLL", "release")]
    assert events[0].at == start  # no added latency
    assert events[1].held == pytest.approx(0.08)


def test_contact_bounce_gives_one_press(rig) -> None:
    _, buttons, events, _ = rig
    buttons.bounce("YES", edges=7, every=0.001)
    buttons.wait(0.1)
    buttons.up("YES")
    buttons.after_step()
    for _ in range(3):  # chatter on release too
        buttons.down("YES")
        buttons.sleep(0.001)
        buttons.up("YES")
    buttons.wait(0.1)
    assert kinds(events) == [("YES", "press"), ("YES", "release")]


def test_a_press_shorter_than_the_debounce_period_is_released(rig) -> None:
    _, buttons, events, _ = rig
    buttons.down("NO")
    buttons.sleep(0.005)
    buttons.up("NO")  # within the lock-out: read again when it is over
    buttons.wait(0.05)
    assert kinds(events) == [("NO", "press"), ("NO", "release")]


def test_hold_is_reported_once(rig) -> None:
    _, buttons, events, _ = rig
    buttons.hold("MENU", 4.0)
    assert kinds(events) == [("MENU", "press"), ("MENU", "hold"), ("MENU", "release")]
    assert events[1].held == pytest.approx(1.5, abs=0.011)
    assert events[2].held == pytest.approx(4.0, abs=0.011)


def test_stuck_button_is_ignored_with_a_warning(rig, caplog) -> None:
    panel, buttons, events, _ = rig
    buttons.down("NEXT")
    buttons.wait(21)
    assert kinds(events)[-1] == ("NEXT", "stuck")
    assert panel.stuck() == ["NEXT"]
    assert "NEXT has been down" in caplog.text
    buttons.press("ROLL")  # the other buttons still work
    assert ("ROLL", "press") in kinds(events)
    buttons.up("NEXT")
    buttons.wait(0.05)
    assert kinds(events)[-1] == ("NEXT", "unstuck")  # no release: a stuck button acts on nothing
    assert panel.stuck() == []


def test_button_down_at_start_is_ignored_until_released() -> None:
    """A button already down when the table starts (a shorted wire, an elbow) acts on nothing: it is reported
    stuck at once, and works again once released."""
    d = Debouncer("YES", debounce=0.02, hold=1.5, stuck=20.0, pressed=True, now=0.0)
    events = [e for t in range(1, 300) for e in d.poll(True, t / 100)]  # 3 s: longer than a hold
    events += d.edge(False, 3.0) + d.poll(False, 3.05)
    events += d.edge(True, 3.2) + d.poll(True, 3.25) + d.edge(False, 3.3) + d.poll(False, 3.4)
    assert [e.kind for e in events] == ["stuck", "unstuck", "press", "release"]
    assert events[0].at == 0.01 and events[2].at == 3.2


def test_a_hold_of_exactly_the_hold_time_counts_whatever_the_clock_steps_add_up_to() -> None:
    d = Debouncer("MENU", debounce=0.02, hold=1.5, stuck=20.0)
    now, events = 0.0, d.edge(True, 0.0)
    for _ in range(10):  # ten steps of 150 ms: 1.4999999999999998 in floating point
        now += 0.15
        events += d.poll(True, now)
    assert now < 1.5 and [e.kind for e in events] == ["press", "hold"]


EDGES = st.lists(st.tuples(st.booleans(), st.floats(0.0001, 0.2)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(EDGES)
def test_debounced_level_follows_the_pin(edges: list[tuple[bool, float]]) -> None:
    """Whatever the chatter: presses and releases alternate, each press is a real falling edge,
    and once the pin is quiet the debounced level is the pin's level."""
    d = Debouncer("ROLL", debounce=0.02, hold=1.5, stuck=20.0)
    now, level, falling = 0.0, False, 0
    events: list[ButtonEvent] = []
    for pressed, gap in edges:
        now += gap
        if pressed != level:
            falling += pressed
            level = pressed
            events += d.edge(pressed, now)
        events += d.poll(level, now)
    now += 0.05
    events += d.poll(level, now)
    presses = [e for e in events if e.kind in ("press", "release")]
    assert all(a.kind != b.kind for a, b in zip(presses, presses[1:]))
    assert not presses or presses[0].kind == "press"
    assert sum(e.kind == "press" for e in events) <= falling
    assert d.pressed == level
