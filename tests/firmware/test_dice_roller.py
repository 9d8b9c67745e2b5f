"""The Pico's dice-roller firmware, run on the host against a fake ``machine`` module.

The fake Pins record every level with the (simulated) time; its outputs can also drive gpiozero
MockFactory pins, so the firmware talks to the Pi's real reader (companion.drivers.roller).
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.drivers.clock import SimClock
from companion.drivers.pins import load_pins
from companion.drivers.roller import DiceRoller, RollerResult

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "dice-roller"
PICO_TO_PI = {2: 17, 3: 27, 4: 22, 5: 23, 6: 24, 7: 25, 8: 12, 9: 16, 10: 20, 11: 4}  # dice and STROBE
PI_TO_PICO = {18: 12}  # REQUEST


class FakeMachine(ModuleType):
    """The parts of MicroPython's ``machine`` the firmware uses: Pin with irq."""

    def __init__(self, clock: SimClock, wire: dict[int, Any] | None = None) -> None:
        super().__init__("machine")
        machine = self

        class Pin:
            IN, OUT, PULL_UP, PULL_DOWN, IRQ_RISING, IRQ_FALLING = 0, 1, 1, 2, 4, 8

            def __init__(self, number: int, mode: int = 0, pull: int | None = None, *, value: int | None = None):
                self.number, self.mode = number, mode
                self.level = value if value is not None else (1 if pull == Pin.PULL_UP else 0)
                self.history = [(clock(), self.level)]
                self.handler = None
                machine.pins[number] = self
                self._drive()

            def value(self, level: int | None = None) -> int | None:
                if level is None:
                    return self.level
                self.level = int(level)
                self.history.append((clock(), self.level))
                self._drive()
                return None

            def irq(self, trigger: int, handler: Any) -> None:
                self.trigger, self.handler = trigger, handler

            def _drive(self) -> None:  # an output wired to the Pi
                if self.mode == Pin.OUT and wire is not None and self.number in wire:
                    (wire[self.number].drive_high if self.level else wire[self.number].drive_low)()

            def external(self, level: int, *, seen: int | None = None) -> None:  # outside sets an input pin
                """``seen``: the level the handler reads, if the contact has bounced by the time it runs."""
                old, self.level = self.level, level
                if self.handler and ((level and not old and self.trigger & Pin.IRQ_RISING)
                                     or (old and not level and self.trigger & Pin.IRQ_FALLING)):
                    if seen is not None:
                        self.level = seen
                    self.handler(self)
                    self.level = level

        self.Pin = Pin
        self.pins: dict[int, Any] = {}


def load_roller(machine: FakeMachine) -> ModuleType:
    sys.modules["machine"] = machine
    try:
        spec = importlib.util.spec_from_file_location("pico_roller", FIRMWARE / "roller.py")
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        return module
    finally:
        del sys.modules["machine"]


class Bytes:
    """A scripted entropy source: the bytes given, then a counter."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.n = 0

    def __call__(self, count: int) -> bytes:
        return bytes(self._next() for _ in range(count))

    def _next(self) -> int:
        if self.values:
            return self.values.pop(0)
        self.n += 1
        return self.n % 252


def make(clock: SimClock, urandom: Any, wire: dict[int, Any] | None = None, dice: int = 3) -> tuple[Any, FakeMachine]:
    machine = FakeMachine(clock, wire)
    module = load_roller(machine)
    roller = module.Roller(machine, lambda ms: clock.advance(ms / 1000), lambda us: clock.advance(us / 1e6),
                           lambda: int(clock() * 1000), lambda a, b: a - b, urandom, dice=dice)
    return roller, machine


def test_encoding_is_lsb_first_and_faces_are_fair() -> None:
    module = load_roller(FakeMachine(SimClock()))
    assert [module.encode(v) for v in range(1, 7)] == [(1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1), (1, 0, 1),
                                                       (0, 1, 1)]
    faces = Counter(module.fair_die(Bytes(b)) for b in range(252))
    assert faces == {face: 42 for face in range(1, 7)}  # every byte below 252: each face equally often
    assert module.fair_die(Bytes(255, 253, 252, 5)) == 6  # 252-255 are drawn again


def test_a_roll_sets_the_lines_then_strobes_for_20_ms() -> None:
    clock = SimClock()
    roller, machine = make(clock, Bytes(*[0] * 200))
    machine.pins[13].external(0)  # the roll button
    clock.advance(0.03)
    values = roller.run_once()
    assert values is not None and len(values) == 3
    strobe = machine.pins[11].history
    assert [level for _, level in strobe] == [0, 1, 0]
    rise, fall = strobe[1][0], strobe[2][0]
    assert fall - rise == pytest.approx(0.020)  # DESIGN.md: at least 5 ms
    for die, pins in enumerate(((2, 3, 4), (5, 6, 7), (8, 9, 10))):
        for bit, pin in enumerate(pins):
            settled = [t for t, _ in machine.pins[pin].history]
            assert max(settled) < rise  # every data line was set before STROBE rose
            assert machine.pins[pin].value() == values[die] >> bit & 1


def test_button_bounce_starts_one_roll_and_request_starts_another() -> None:
    clock = SimClock()
    roller, machine = make(clock, Bytes())
    button = machine.pins[13]
    for level in (0, 1, 0, 1, 0):  # a press that bounces
        button.external(level)
        clock.advance(0.002)
        assert roller.run_once() is None  # the main loop runs meanwhile: not while it chatters
    clock.advance(0.03)
    assert roller.run_once() is not None
    clock.advance(0.1)
    assert roller.run_once() is None  # held down: one roll a press
    for level in (1, 0, 1):  # released, bouncing: 2 ms between edges is chatter, not a press
        button.external(level)
        clock.advance(0.002)
    clock.advance(0.03)
    assert roller.run_once() is None
    clock.advance(0.1)
    button.external(0)  # a real press, after a quiet moment
    clock.advance(0.03)
    assert roller.run_once() is not None
    button.external(1)
    machine.pins[12].external(1)  # REQUEST from the Pi
    assert roller.run_once() is not None


def test_a_press_whose_handler_reads_a_bounce_still_rolls() -> None:
    """The interrupt handler runs after the edge: the contact may read open again by then (the firmware used to
    take that for no press and then ignore the rest of the bounce: the roll button sometimes did nothing)."""
    clock = SimClock()
    roller, machine = make(clock, Bytes())
    button = machine.pins[13]
    button.external(0, seen=1)  # the falling edge, its handler late: the contact bounced open
    for level in (1, 0, 1, 0):  # the rest of the bounce; then it rests down
        clock.advance(0.001)
        button.external(level)
    clock.advance(0.03)
    assert roller.run_once() is not None


def test_a_request_during_the_strobe_asks_for_the_next_roll() -> None:
    """After a bad reading the Pi asks again at once, from its strobe callback, while the Pico still holds STROBE
    high: that REQUEST used to be swallowed, and the table said "Roller does not answer" 3 s later."""
    clock = SimClock()
    machine_box: list[FakeMachine] = []
    strobing: list[bool] = []

    def sleep_ms(ms: int) -> None:
        clock.advance(ms / 1000)
        machine = machine_box[0]
        if machine.pins[11].level and not strobing:  # the Pi's reader answers during the strobe
            strobing.append(True)
            machine.pins[12].external(1)
            machine.pins[12].external(0)

    machine = FakeMachine(clock)
    machine_box.append(machine)
    roller = load_roller(machine).Roller(machine, sleep_ms, lambda us: clock.advance(us / 1e6),
                                         lambda: int(clock() * 1000), lambda a, b: a - b, Bytes())
    roller.pending = True
    assert roller.run_once() is not None and strobing
    assert roller.run_once() is not None  # the second roll the Pi asked for
    assert [level for _, level in machine.pins[11].history] == [0, 1, 0, 1, 0]


def test_a_press_a_shake_or_a_request_while_the_dice_tumble_makes_no_second_roll() -> None:
    """They come during the roll's animation; the roll's one strobe answers them all."""
    clock = SimClock()
    machine_box: list[FakeMachine] = []
    pokes = iter([lambda m: m.pins[13].external(1), lambda m: m.pins[13].external(0),  # pressed again
                  lambda m: m.pins[12].external(0), lambda m: m.pins[12].external(1)])  # the Pi asks

    def sleep_ms(ms: int) -> None:  # the animation's sleeps: something happens at the table meanwhile
        clock.advance(ms / 1000)
        poke = next(pokes, None)
        if poke is not None and machine_box:
            poke(machine_box[0])

    machine = FakeMachine(clock)
    machine_box.append(machine)
    roller = load_roller(machine).Roller(machine, sleep_ms, lambda us: clock.advance(us / 1e6),
                                         lambda: int(clock() * 1000), lambda a, b: a - b, Bytes())
    machine.pins[13].external(0)
    clock.advance(0.03)
    assert roller.run_once() is not None
    assert next(pokes, None) is None  # every poke came during the roll
    clock.advance(0.1)
    assert roller.run_once() is None
    assert [level for _, level in machine.pins[11].history] == [0, 1, 0]  # one strobe


def test_the_dice_are_the_entropys_bytes() -> None:
    """The faces shown are drawn from the entropy source handed in (os.urandom on the Pico), nothing else."""
    drawn: list[int] = []
    source = random.Random(7)

    def urandom(count: int) -> bytes:
        data = source.randbytes(count)
        drawn.extend(data)
        return data

    roller, _ = make(SimClock(), urandom)
    for _ in range(30):
        roller.pending = True
        values = roller.run_once()
        accepted = [b for b in drawn if b < 252]
        assert values == tuple(b % 6 + 1 for b in accepted[-3:])
        drawn.clear()


def test_main_hands_the_roller_the_picos_entropy_and_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """main.py (what runs at power-up) gives the roller os.urandom, MicroPython's time functions and the LEDs."""
    clock = SimClock()
    machine = FakeMachine(clock)
    module = load_roller(machine)
    started: list[tuple[Any, ...]] = []
    monkeypatch.setattr(module.Roller, "run", lambda self: started.append((self.urandom, self.pixels)))
    fake_time = ModuleType("time")
    for name in ("sleep_ms", "sleep_us", "ticks_ms", "ticks_diff"):
        setattr(fake_time, name, lambda *args, _name=name: 0)
    neopixel = ModuleType("neopixel")
    neopixel.NeoPixel = lambda pin, count: ("strip", pin.number, count)  # type: ignore[attr-defined]
    for name, fake in (("machine", machine), ("time", fake_time), ("neopixel", neopixel), ("roller", module)):
        monkeypatch.setitem(sys.modules, name, fake)
    spec = importlib.util.spec_from_file_location("pico_main", FIRMWARE / "main.py")
    spec.loader.exec_module(importlib.util.module_from_spec(spec))  # type: ignore[arg-type, union-attr]
    import os

    assert started == [(os.urandom, ("strip", module.PIXELS, 21))]


@pytest.mark.parametrize("dice", [2, 3])
def test_the_pis_reader_accepts_what_the_firmware_sends(dice: int) -> None:
    """Firmware and Pi together: the fake Pico's outputs drive the Pi's MockFactory pins."""
    clock = SimClock()
    factory = MockFactory()
    pins = load_pins().roller
    wire = {pico: factory.pin(pi) for pico, pi in PICO_TO_PI.items()}
    results: list[RollerResult] = []
    reader = DiceRoller(pins, results.append, pin_factory=factory, sleep=clock.sleep, clock=clock)
    source = random.Random(dice)
    roller, machine = make(clock, source.randbytes, wire=wire, dice=dice)
    request = factory.pin(18)  # the Pi's REQUEST output, wired to the Pico's GP12

    def sleep(seconds: float) -> None:  # while the Pi's REQUEST pulse lasts, the Pico's input follows it
        machine.pins[PI_TO_PICO[18]].external(request.state)
        clock.sleep(seconds)

    reader.sleep = sleep
    try:
        faces: list[set[int]] = [set() for _ in range(dice)]
        for _ in range(60):
            reader.request()  # the Pi asks; the Pico rolls on the pulse's rising edge
            machine.pins[PI_TO_PICO[18]].external(request.state)  # and the pulse is over
            values = roller.run_once()
            assert values is not None, "the REQUEST pulse did not reach the roller"
            assert results[-1].ok, results[-1].fault
            assert results[-1].dice == values
            for die, value in enumerate(values):
                faces[die].add(value)
        assert len(results) == 60
        assert all(seen == {1, 2, 3, 4, 5, 6} for seen in faces)  # every line of every die went high and low
    finally:
        reader.close()
        factory.reset()
