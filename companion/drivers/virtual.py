"""Virtual hardware for a table without a Pi (as OctoPrint has a virtual printer).

* :class:`VirtualI2CBus`: an ``smbus2``-style bus for luma's real ``i2c`` interface. It records
  every transfer, so the bytes a display driver puts on the wire can be counted, and it can be
  "unplugged" (no acknowledge: ``OSError(EREMOTEIO)``, as the kernel reports it). Handed to
  ``i2c(bus=...)`` it gets luma's 32-byte SMBus block writes; put in place of ``smbus2.SMBus``
  with :func:`virtual_smbus`, luma opens it itself, as on the Pi, and sends each data run as one
  ``i2c_rdwr`` message.
* :class:`VirtualRoller`: the dice roller's side of the GPIO protocol on gpiozero's MockFactory
  pins: it puts dice on the data lines, raises STROBE for 6 ms and lowers it, and it can present
  impossible readings (values outside 1-6, a missing die).
* :class:`VirtualButtons`: presses and holds the table's buttons on MockFactory pins.

Every action changes pins through gpiozero's mock pins, never the table's objects directly.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from .clock import Sleep
from .pins import RollerPins

STROBE_TIME = 0.006


@dataclass
class VirtualI2CBus:
    """Records the transfers luma makes; ``plugged = False`` makes them fail like a missing device."""

    plugged: bool = True
    transfers: list[tuple[int, int, bytes]] = field(default_factory=list)  # (address, control, payload)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._check_plugged()
        if len(data) > 32:
            raise ValueError("an SMBus block write carries at most 32 bytes")
        self.transfers.append((address, register, bytes(data)))

    def i2c_rdwr(self, *messages: Any) -> None:
        """smbus2's combined transfer of ``i2c_msg`` messages (luma's data path on a bus it opened)."""
        self._check_plugged()
        for message in messages:
            raw = bytes(message)
            self.transfers.append((message.addr, raw[0], raw[1:]))

    def _check_plugged(self) -> None:
        if not self.plugged:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def close(self) -> None:
        pass

    def wire_bytes(self) -> int:
        """Bytes on the wire: per transfer the address byte, the control byte and the payload."""
        return sum(2 + len(payload) for _, _, payload in self.transfers)

    def data(self) -> bytes:
        """The display data sent (transfers with control byte 0x40), in order."""
        return b"".join(payload for _, control, payload in self.transfers if control == 0x40)

    def reset(self) -> None:
        self.transfers.clear()


@contextmanager
def virtual_smbus(bus: VirtualI2CBus) -> Iterator[VirtualI2CBus]:
    """While inside, ``smbus2.SMBus(port)`` opens ``bus``: luma's ``i2c(port=...)``, the call
    ``companion run`` makes, then drives it exactly as it drives the Pi's bus."""
    with mock.patch("smbus2.SMBus", lambda port=None, *args, **kwargs: bus):
        yield bus


class VirtualRoller:
    """The roller's side of the protocol, on MockFactory pins; ``sleep`` moves (simulated) time."""

    def __init__(self, factory: Any, pins: RollerPins, sleep: Sleep) -> None:
        self.factory, self.pins, self.sleep = factory, pins, sleep
        self._answered = 0

    def _pin(self, number: int) -> Any:
        return self.factory.pin(number)

    def set_lines(self, values: tuple[int, ...]) -> None:
        """Put values on the data lines (0 for a die not given)."""
        for index, die in enumerate(self.pins.dice):
            value = values[index] if index < len(values) else 0
            for bit, pin in enumerate(die):
                (self._pin(pin).drive_high if value >> bit & 1 else self._pin(pin).drive_low)()

    def present(self, *values: int, strobe: float = STROBE_TIME) -> None:
        """Show dice on the data lines, then raise STROBE for ``strobe`` seconds and lower it.

        Values outside 1-6 (or 0 for a missing die) make the faulty readings a broken roller would.
        """
        self.set_lines(values)
        self.sleep(0.001)
        strobe_pin = self._pin(self.pins.strobe)
        strobe_pin.drive_high()  # on MockFactory the Pi reads the lines during this call
        self.sleep(max(0.0, strobe - 0.002))  # the Pi's two readings took 2 ms of it
        strobe_pin.drive_low()
        self.sleep(0.002)

    def requests_seen(self) -> int:
        """REQUEST pulses the Pi has sent so far (rising edges in the mock pin's history)."""
        states = [s.state for s in self._pin(self.pins.request).states]
        return sum(1 for a, b in zip(states, states[1:]) if b and not a)

    def answer_requests(self, dice: Callable[[], tuple[int, ...]]) -> int:
        """Roll for every REQUEST not answered yet, as a real roller would; returns how many."""
        new = self.requests_seen() - self._answered
        for _ in range(new):
            self.present(*dice())
        self._answered += new
        return new


class VirtualButtons:
    """Presses the table's buttons on MockFactory pins (active low)."""

    def __init__(self, factory: Any, pins: Mapping[str, int], sleep: Sleep,
                 after_step: Callable[[], None] | None = None) -> None:
        self.factory, self.pins, self.sleep = factory, pins, sleep
        self.after_step = after_step or (lambda: None)

    def down(self, name: str) -> None:
        self.factory.pin(self.pins[name]).drive_low()

    def up(self, name: str) -> None:
        self.factory.pin(self.pins[name]).drive_high()

    def wait(self, seconds: float, step: float = 0.01) -> None:
        """Let time pass in steps, running the table's tick after each."""
        left = seconds
        while left > 1e-9:
            dt = min(step, left)
            self.sleep(dt)
            left -= dt
            self.after_step()

    def press(self, name: str, down: float = 0.08, gap: float = 0.12) -> None:
        """A short press: down for ``down`` seconds, then ``gap`` seconds before the next action."""
        self.down(name)
        self.after_step()
        self.wait(down)
        self.up(name)
        self.after_step()
        self.wait(gap)

    def hold(self, name: str, seconds: float, gap: float = 0.12) -> None:
        self.down(name)
        self.after_step()
        self.wait(seconds)
        self.up(name)
        self.after_step()
        self.wait(gap)

    def bounce(self, name: str, edges: int = 5, every: float = 0.001) -> None:
        """A chattering press: ``edges`` alternating edges ``every`` seconds apart, ending down."""
        for i in range(edges):
            (self.down if i % 2 == 0 else self.up)(name)
            self.sleep(every)
        self.down(name)
