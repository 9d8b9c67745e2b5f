"""The three dice sources a table can use (config ``dice``): ``roller``, ``software``, ``manual``.

* :class:`SoftwareDice`: the Pi rolls, from the operating system's entropy (``secrets``).
* :class:`RollerDice`: the electronic roller (:class:`~companion.drivers.roller.DiceRoller`):
  a request, the answer or a fault, a timeout when it does not answer.
* :class:`ManualEntry`: players throw real dice and enter them with the buttons
  (PREV/NEXT change the die under the cursor, YES goes on, NO goes back).

Each produces one value per :class:`~companion.engine.Throw` the roll prompt asks for (its dice, and
magie-1924's chance cube after doubles); the ruleset's ``roll_line`` makes the input of them and the
table journals it with the source's name.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.drivers.roller import DiceRoller, RollerResult
from companion.engine import Throw
from companion.words import ENGLISH, Words

SOURCES = ("roller", "software", "manual")


class SoftwareDice:
    """Dice rolled by the Pi from the OS's entropy; ``randbelow`` may be replaced for benchmarks."""

    source = "software"

    def __init__(self, randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self._randbelow = randbelow

    def throw(self, throws: Sequence[Throw]) -> list[int]:
        """One fair value per throw (a die's 1 to 6, the chance cube's 5 to 30)."""
        return [t.faces[self._randbelow(len(t.faces))] for t in throws]


@dataclass
class ManualEntry:
    """Entering real dice (and a cube) with the buttons; each value starts at its throw's first face."""

    throws: Sequence[Throw]
    values: list[int] = field(default_factory=list)
    cursor: int = 0

    def __post_init__(self) -> None:
        if not self.values:
            self.values = [t.faces[0] for t in self.throws]

    def label(self, words: Words = ENGLISH) -> str:
        """What is being entered: "die 1 of 2", "Cube"."""
        throw = self.throws[self.cursor]
        dice = sum(1 for t in self.throws if t.key == "roll")
        return words.t("die {n} of {count}", n=self.cursor + 1, count=dice) if throw.key == "roll" \
            else words.t(throw.label)

    def _step(self, by: int) -> None:
        faces = self.throws[self.cursor].faces
        self.values[self.cursor] = faces[(faces.index(self.values[self.cursor]) + by) % len(faces)]

    def up(self) -> None:
        self._step(1)

    def down(self) -> None:
        self._step(-1)

    def confirm(self) -> bool:
        """YES: on to the next die; True when every die is entered."""
        if self.cursor + 1 < len(self.throws):
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

    def accept(self, result: RollerResult, throws: Sequence[Throw],
               extra: Callable[[Sequence[Throw]], list[int]]) -> tuple[list[int] | None, str | None]:
        """Turn a strobe into one value per throw of the roll, or a fault.

        The roller's dice serve the throws in order; a throw whose faces are not 1 to 6 reads its
        n-th face (magie-1924's chance cube on die C: 3 reads 15). A roller without a third die can
        still serve a third throw: ``extra`` (the software dice) throws the missing ones, and the
        table says so.
        """
        self.deadline = None
        if result.fault or result.dice is None:
            self.faults += 1
            return None, result.fault or "bad reading"
        self.faults = 0
        values = [throw.faces[die - 1] for throw, die in zip(throws, result.dice)]
        if len(values) < len(throws):
            values += extra(throws[len(values):])
        return values, None

    def should_retry(self) -> bool:
        """After a fault: ask the roller again by itself, or wait for ROLL?"""
        return 0 < self.faults <= self.retries
