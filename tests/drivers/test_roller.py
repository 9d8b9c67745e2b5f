"""The dice roller's GPIO protocol on MockFactory pins: strobe, double reading, faults, REQUEST."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from companion.drivers.clock import SimClock
from companion.drivers.pins import load_pins, parse_pins
from companion.drivers.roller import DiceRoller, RollerResult, judge
from companion.drivers.virtual import VirtualRoller
from companion.engine import Throw, find_ruleset
from companion.face.dice import RollerDice, SoftwareDice

PINS = load_pins().roller


@pytest.fixture
def rig():
    factory = MockFactory()
    clock = SimClock()
    results: list[RollerResult] = []
    roller = DiceRoller(PINS, results.append, pin_factory=factory, sleep=clock.sleep, clock=clock)
    yield roller, VirtualRoller(factory, PINS, clock.sleep), results, clock, factory
    roller.close()
    factory.reset()


def test_dice_are_read_lsb_first_on_the_design_pins(rig) -> None:
    roller, virtual, results, _, factory = rig
    assert PINS.dice[:2] == ((17, 27, 22), (23, 24, 25)) and PINS.strobe == 4 and PINS.request == 18
    virtual.present(6, 1)
    assert results[-1].dice == (6, 1) and results[-1].ok
    assert factory.pin(17).state == 0 and factory.pin(27).state == 1 and factory.pin(22).state == 1  # 6 = 0b110


def test_third_die_when_it_shows_a_face(rig) -> None:
    _, virtual, results, _, _ = rig
    virtual.present(2, 5, 3)
    assert results[-1].dice == (2, 5, 3)
    virtual.present(2, 5)  # die C lines at 0: a roller with two dice
    assert results[-1].dice == (2, 5)


@pytest.mark.parametrize("values, fault", [
    ((7, 2), "die A read 7"),
    ((3, 0), "die B read 0"),
    ((0, 0), "no dice on its lines"),
    ((4, 4, 7), "die C read 7"),
])
def test_impossible_readings_are_faults(rig, values, fault) -> None:
    _, virtual, results, _, _ = rig
    virtual.present(*values)
    assert results[-1].dice is None and fault in str(results[-1].fault or "")


def test_readings_are_taken_1_ms_and_2_ms_after_the_rising_edge(rig) -> None:
    roller, virtual, results, clock, _ = rig
    virtual.set_lines((3, 4))
    edge = clock()
    seen: list[tuple[float, tuple[int, ...]]] = []
    original = roller.read_lines

    def spy() -> tuple[int, ...]:
        seen.append((round(clock() - edge, 6), original()))
        return seen[-1][1]

    roller.read_lines = spy  # type: ignore[method-assign]
    virtual.factory.pin(PINS.strobe).drive_high()
    assert [t for t, _ in seen] == [0.001, 0.002]
    assert results[-1].dice == (3, 4)


def test_lines_changing_between_the_two_readings_are_a_fault() -> None:
    factory = MockFactory()
    clock = SimClock()
    virtual = VirtualRoller(factory, PINS, clock.sleep)
    calls = []

    def settling_sleep(seconds: float) -> None:  # the roller changes die B between the readings
        clock.sleep(seconds)
        calls.append(seconds)
        if len(calls) == 2:
            virtual.set_lines((5, 2))

    results: list[RollerResult] = []
    roller = DiceRoller(PINS, results.append, pin_factory=factory, sleep=settling_sleep, clock=clock)
    virtual.present(5, 6)
    assert results[-1].fault and "unsteady" in str(results[-1].fault)
    assert results[-1].readings == ((5, 6, 0), (5, 2, 0))
    roller.close()
    factory.reset()


def test_a_strobe_shorter_than_the_readings_is_a_fault() -> None:
    factory = MockFactory()
    clock = SimClock()
    virtual = VirtualRoller(factory, PINS, clock.sleep)

    def short_strobe_sleep(seconds: float) -> None:
        clock.sleep(seconds)
        factory.pin(PINS.strobe).drive_low()  # gone after 1 ms

    results: list[RollerResult] = []
    roller = DiceRoller(PINS, results.append, pin_factory=factory, sleep=short_strobe_sleep, clock=clock)
    virtual.set_lines((2, 2))
    factory.pin(PINS.strobe).drive_high()
    assert results[-1].fault and "strobe" in str(results[-1].fault)
    roller.close()
    factory.reset()


def test_a_busy_pi_reading_late_still_takes_a_real_strobe() -> None:
    """The reader's sleeps overrun on a busy Pi (the GIL, the OLED, the web server): the roller's strobe may end
    before the second reading. The lines still hold the dice, so that is no fault (it used to read "strobe
    shorter than 2 ms"); a strobe already gone at the first reading still is."""
    factory = MockFactory()
    clock = SimClock()
    virtual = VirtualRoller(factory, PINS, clock.sleep)
    started: list[float] = []

    def late_sleep(seconds: float) -> None:
        clock.sleep(seconds + 0.006)  # every wake-up 6 ms late
        if clock() - started[0] >= 0.010:
            factory.pin(PINS.strobe).drive_low()  # the roller's strobe is over

    results: list[RollerResult] = []
    roller = DiceRoller(PINS, results.append, pin_factory=factory, sleep=late_sleep, clock=clock)
    virtual.set_lines((5, 2))
    started.append(clock())
    factory.pin(PINS.strobe).drive_high()
    assert results[-1].ok and results[-1].dice == (5, 2)
    roller.close()
    factory.reset()


def test_request_is_a_10_ms_pulse(rig) -> None:
    roller, virtual, _, clock, factory = rig
    seen: list[tuple[float, bool]] = []
    pin = factory.pin(PINS.request)
    assert pin.state == 0
    original_sleep = roller.sleep

    def watch(seconds: float) -> None:
        seen.append((clock(), bool(pin.state)))
        original_sleep(seconds)

    roller.sleep = watch  # type: ignore[method-assign]
    start = clock()
    roller.request()
    assert seen == [(start, True)] and pin.state == 0 and clock() - start == pytest.approx(0.010)
    assert [s.state for s in pin.states] == [False, True, False]


TWO_DICE = (Throw("Die 1", (1, 2, 3, 4, 5, 6)), Throw("Die 2", (1, 2, 3, 4, 5, 6)))


def test_roller_source_times_out_and_counts_faults(rig) -> None:
    roller, virtual, results, clock, _ = rig
    source = RollerDice(roller, timeout=3.0, retries=2)
    source.request(clock())
    clock.advance(2.9)
    assert not source.timed_out(clock())
    clock.advance(0.2)
    assert source.timed_out(clock()) and not source.timed_out(clock())  # reported once
    virtual.present(7, 1)
    values, fault = source.accept(results[-1], TWO_DICE, SoftwareDice().throw)
    assert values is None and str(fault) == "die A read 7, not a face: roll again"
    assert source.should_retry()
    virtual.present(7, 7)
    source.accept(results[-1], TWO_DICE, SoftwareDice().throw)
    virtual.present(0, 0)
    source.accept(results[-1], TWO_DICE, SoftwareDice().throw)
    assert not source.should_retry()  # three faults in a row: wait for ROLL
    virtual.present(4, 2)
    assert source.accept(results[-1], TWO_DICE, SoftwareDice().throw) == ([4, 2], None)
    assert source.faults == 0


def test_a_two_dice_roller_serves_three_dice_with_software_for_the_third(rig) -> None:
    roller, virtual, results, _, _ = rig
    virtual.present(6, 3)
    three = find_ruleset("addon").throws({"dice": 3})
    dice, fault = RollerDice(roller).accept(results[-1], three, SoftwareDice(randbelow=lambda n: 4).throw)
    assert (dice, fault) == ([6, 3, 5], None)


def test_die_c_is_the_chance_cube_of_the_throw_after_doubles(rig) -> None:
    """magie-1924: the roller's third die serves the chance cube, face n reading 5n; a two-dice
    roller leaves the cube to the Pi."""
    roller, virtual, results, _, _ = rig
    throws = find_ruleset("magie-1924").throws({"dice": 2, "with_cube": True})
    assert [t.label for t in throws] == ["Die 1", "Die 2", "Cube"]
    virtual.present(2, 5, 3)
    assert RollerDice(roller).accept(results[-1], throws, SoftwareDice().throw) == ([2, 5, 15], None)
    virtual.present(4, 4)
    values, _ = RollerDice(roller).accept(results[-1], throws, SoftwareDice(randbelow=lambda n: n - 1).throw)
    assert values == [4, 4, 30]


@given(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7)),
       st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7)))
def test_judge_accepts_only_two_equal_readings_of_faces(first, second) -> None:
    dice, fault = judge(first, second)
    if dice is not None:
        assert first == second and fault is None
        assert all(1 <= v <= 6 for v in dice) and len(dice) in (2, 3)
        assert dice == first[:len(dice)] and (len(dice) == 3 or first[2] == 0)
    else:
        assert fault
        assert first != second or any(not 1 <= v <= 6 for v in first[:2]) or first[2] == 7


def test_pin_map_refuses_a_pin_used_twice() -> None:
    data = {"buttons": {"ROLL": 5, "YES": 6, "NO": 13, "PREV": 19, "NEXT": 26, "MENU": 21},
            "roller": {"die_a": [17, 27, 22], "die_b": [23, 24, 5], "strobe": 4, "request": 18}}
    with pytest.raises(ValueError, match="GPIO 5 is used twice"):
        parse_pins(data)
    data["roller"]["die_b"] = [23, 24, 25]
    assert len(parse_pins(data).roller.dice) == 2
