"""The electronic dice roller on GPIO: the strobe / double-read protocol of DESIGN.md.

The roller puts each die on three data lines (binary 1-6, least significant bit first), then
raises STROBE for at least 5 ms. On the rising edge the Pi waits 1 ms, reads every line, waits
1 ms and reads again: only two equal readings with every die showing 1-6 are accepted.
Anything else is a :class:`RollerResult` with a ``fault`` (a :class:`~.said.Said`: the table says it in its
language and asks again).
The Pi asks the roller to roll by raising REQUEST for 10 ms.

Data lines and STROBE have pull-downs: an unplugged roller reads 0, which is never a die.
Waiting uses an injected ``sleep``, so tests and the scripted demo run on simulated time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice

from .clock import Clock, Sleep, monotonic, sleep
from .pins import RollerPins
from .said import N_, Said

log = logging.getLogger(__name__)

SETTLE = 0.001  # after the rising edge, before the first reading
GAP = 0.001  # between the two readings
PULSE = 0.010  # REQUEST high time


@dataclass(frozen=True)
class RollerResult:
    """One strobe: the dice read (A, B and C if it showed a face), or why they were refused."""

    dice: tuple[int, ...] | None
    fault: Said | None
    at: float
    readings: tuple[tuple[int, ...], ...] = ()

    @property
    def ok(self) -> bool:
        return self.fault is None


def judge(first: tuple[int, ...], second: tuple[int, ...],
          strobe_held: bool = True) -> tuple[tuple[int, ...] | None, Said | None]:
    """Apply the protocol's rule to two readings: ``(dice, None)`` or ``(None, fault)``.

    Dice A and B must show 1-6. Die C (if wired) reading 0 means the roller has no third
    die; any other value must be a face too.
    """
    if first != second:
        return None, Said(N_("unsteady lines ({first}/{second}): roll again"),
                          {"first": _show(first), "second": _show(second)})
    if not strobe_held:
        return None, Said(N_("strobe too short (a glitch on its line?): roll again"))
    if all(v == 0 for v in first):
        return None, Said(N_("no dice on its lines: plugged in?"))
    dice: list[int] = []
    for index, value in enumerate(first):
        if index == 2 and value == 0:
            break  # no third die on this roller
        if not 1 <= value <= 6:
            return None, Said(N_("die {die} read {value}, not a face: roll again"), {"die": "ABC"[index], "value": value})
        dice.append(value)
    return tuple(dice), None


def _show(values: tuple[int, ...]) -> str:
    return "-".join(str(v) for v in values)


class DiceRoller:
    """Reads the roller on every STROBE and pulses REQUEST; results go to ``on_result``.

    ``on_result`` runs in the pin driver's callback thread (synchronously on MockFactory).
    """

    def __init__(self, pins: RollerPins, on_result: Callable[[RollerResult], None], *,
                 pin_factory: Any = None, sleep: Sleep = sleep, clock: Clock = monotonic) -> None:
        self.on_result = on_result
        self.sleep, self.clock = sleep, clock
        self.pins = pins
        self._devices: list[Any] = []
        try:
            self.data = [[self._own(DigitalInputDevice(pin, pull_up=False, pin_factory=pin_factory)) for pin in die]
                         for die in pins.dice]
            self.strobe = self._own(DigitalInputDevice(pins.strobe, pull_up=False, pin_factory=pin_factory))
            self.request_line = self._own(DigitalOutputDevice(pins.request, initial_value=False,
                                                              pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self.strobe.when_activated = self._on_strobe

    def _own(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    @property
    def dice_wired(self) -> int:
        return len(self.data)

    def read_lines(self) -> tuple[int, ...]:
        """The value on each die's three data lines now (LSB first)."""
        return tuple(sum(int(line.value) << bit for bit, line in enumerate(die)) for die in self.data)

    def _on_strobe(self) -> None:
        at = self.clock()
        self.sleep(SETTLE)
        first = self.read_lines()
        # Still high with the first reading: a real strobe, not a glitch re-reading the last roll's lines. Checked
        # here, not after the second reading: a busy Pi's sleeps overrun, and the lines hold the dice after it.
        held = bool(self.strobe.value)
        self.sleep(GAP)
        second = self.read_lines()
        dice, fault = judge(first, second, held)
        if fault:
            log.warning("dice roller: %s", fault)
        self.on_result(RollerResult(dice, fault, at, (first, second)))

    def request(self) -> None:
        """Ask the roller to roll: REQUEST high for 10 ms."""
        self.request_line.on()
        try:
            self.sleep(PULSE)
        finally:
            self.request_line.off()

    def close(self) -> None:
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()
