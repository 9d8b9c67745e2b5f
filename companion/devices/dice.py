"""The three dice sources a table can use (config ``dice``): ``roller``, ``software``, ``manual``.

* :class:`SoftwareDice`: the Pi rolls, from the operating system's entropy (``secrets``).
* :class:`RollerDice`: the electronic roller (:class:`~companion.devices.roller.DiceRoller`):
  a request, the answer or a fault, a timeout when it does not answer.
* :class:`ManualEntry`: players throw real dice and enter them with the buttons
  (PREV/NEXT change the die under the cursor, YES goes on, NO goes back).

Each produces the list of values for a ``{"roll": [...]}`` input; the table journals it with
the source's name.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from .roller import DiceRoller, RollerResult

SOURCES = ("roller", "software", "manual")


class SoftwareDice:
    """Dice rolled by the Pi from the OS's entropy; ``randbelow`` may be replaced for benchmarks."""

    source = "software"

    def __init__(self, faces: int = 6, randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self.faces = faces
        self._randbelow = randbelow

    def roll(self, count: int) -> list[int]:
        return [self._randbelow(self.faces) + 1 for _ in range(count)]


@dataclass
class ManualEntry:
    """Entering ``count`` real dice with the buttons; ``values`` start at 1."""

    count: int
    faces: int = 6
    values: list[int] = field(default_factory=list)
    cursor: int = 0

    def __post_init__(self) -> None:
        if not self.values:
            self.values = [1] * self.count

    def up(self) -> None:
        self.values[self.cursor] = self.values[self.cursor] % self.faces + 1

    def down(self) -> None:
        self.values[self.cursor] = (self.values[self.cursor] - 2) % self.faces + 1

    def confirm(self) -> bool:
        """YES: on to the next die; True when every die is entered."""
        if self.cursor + 1 < self.count:
            self.cursor += 1
            return False
        return True

    def back(self) -> bool:
        """NO: back to the previous die; True when the entry is abandoned (NO on the first die)."""
        if self.cursor == 0:
            return True
        self.cursor -= 1
        return False


class RollerDice:
    """The roller as a dice source: request, wait, accept or refuse, time out.

    ``retries`` faults in a row are asked again automatically (a new REQUEST pulse); after that
    the table waits for ROLL. A request without a strobe within ``timeout`` seconds means the
    roller is disconnected or asleep.
    """

    source = "roller"

    def __init__(self, roller: DiceRoller, *, timeout: float = 3.0, retries: int = 2) -> None:
        self.roller = roller
        self.timeout = timeout
        self.retries = retries
        self.deadline: float | None = None
        self.faults = 0

    def request(self, now: float) -> None:
        """Pulse REQUEST and start waiting."""
        self.deadline = now + self.timeout
        self.roller.request()

    def timed_out(self, now: float) -> bool:
        """True once, when a request has had no answer for ``timeout`` seconds."""
        if self.deadline is not None and now >= self.deadline:
            self.deadline = None
            return True
        return False

    def accept(self, result: RollerResult, count: int, extra: Callable[[int], list[int]]) -> tuple[list[int] | None, str | None]:
        """Turn a strobe into the dice for a roll of ``count`` dice, or a fault.

        A roller without a third die can still serve a three-dice roll: ``extra`` (the software
        dice) rolls the missing one, and the table says so.
        """
        self.deadline = None
        if result.fault or result.dice is None:
            self.faults += 1
            return None, result.fault or "bad reading"
        self.faults = 0
        dice = list(result.dice[:count])
        if len(dice) < count:
            dice += extra(count - len(dice))
        return dice, None

    def should_retry(self) -> bool:
        """After a fault: ask the roller again by itself, or wait for ROLL?"""
        return 0 < self.faults <= self.retries
