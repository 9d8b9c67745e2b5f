"""The seat lights' drivers: what shows one colour per seat (seat 1 first), handed a frame by the face's
:class:`~companion.face.seat_lights.SeatLights`:

* :class:`StripLights` — a WS2812/SK6812 strip or ring, a few LEDs per seat, over SPI (``adafruit-circuitpython-
  neopixel-spi``: only the SPI's MOSI line carries the data, so it works on every Pi, the Pi 5 included);
* :class:`SeatLeds` — one plain LED per seat on GPIO (gpiozero's ``LEDBoard``): lit or not, the colour is the LED's;
* :class:`ShownLights` — no hardware: the demo draws the frame in the terminal (:func:`blocks`).
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Sequence
from typing import Any, Protocol

from companion.seats import RGB

log = logging.getLogger(__name__)

OFF: RGB = (0, 0, 0)


class LightDriver(Protocol):
    """What shows one colour per seat (seat 1 first)."""

    def show(self, frame: Sequence[RGB]) -> None: ...

    def close(self) -> None: ...



class StripLights:
    """A WS2812/SK6812 strip or ring on SPI: ``leds_per_seat`` LEDs for each seat, the groups along the strip (from
    its data input) belonging to the seats of ``seat_order`` (1 for the first player). ``spi`` is a CircuitPython
    SPI bus (Blinka's ``busio.SPI`` on the Pi, :func:`open_spi`)."""

    def __init__(self, spi: Any, *, seat_order: Sequence[int], leds_per_seat: int, pixel_order: str = "GRB",
                 brightness: float = 0.3) -> None:
        import neopixel_spi

        self.seat_order, self.leds_per_seat = tuple(seat_order), leds_per_seat
        self.pixels = neopixel_spi.NeoPixel_SPI(spi, len(self.seat_order) * leds_per_seat, pixel_order=pixel_order,
                                                brightness=brightness, auto_write=False)

    def show(self, frame: Sequence[RGB]) -> None:
        for group, seat in enumerate(self.seat_order):
            colour = frame[seat - 1] if seat - 1 < len(frame) else OFF
            for led in range(group * self.leds_per_seat, (group + 1) * self.leds_per_seat):
                self.pixels[led] = colour
        self.pixels.show()

    def close(self) -> None:
        self.pixels.deinit()  # every LED off


def open_spi(bus: int) -> Any:
    """The Pi's SPI ``bus`` (0 or 1) through Blinka, for :class:`StripLights` (only MOSI is used). Blinka prints its
    warnings (an unknown board) on standard output, which ``companion run`` keeps for its own lines: they are logged."""
    with contextlib.redirect_stdout(io.StringIO()) as said:
        import board
        import busio
    if said.getvalue().strip():
        log.warning("Blinka: %s", said.getvalue().strip())

    if bus == 0:
        return busio.SPI(board.SCLK, MOSI=board.MOSI)
    return busio.SPI(board.SCLK_1, MOSI=board.MOSI_1)


class SeatLeds:
    """One plain LED per seat on GPIO (seat 1 first), through gpiozero's ``LEDBoard``."""

    def __init__(self, pins: Sequence[int], *, pin_factory: Any = None) -> None:
        from gpiozero import LEDBoard

        self.board = LEDBoard(*pins, pin_factory=pin_factory)
        self.count = len(pins)

    def show(self, frame: Sequence[RGB]) -> None:
        self.board.value = tuple(int(i < len(frame) and frame[i] != OFF) for i in range(self.count))

    def close(self) -> None:
        self.board.close()


class ShownLights:
    """No lights: keeps the frame for the demo to draw (:func:`blocks`)."""

    def __init__(self) -> None:
        self.frame: tuple[RGB, ...] = ()

    def show(self, frame: Sequence[RGB]) -> None:
        self.frame = tuple(frame)

    def close(self) -> None:
        self.frame = ()


def blocks(frame: Sequence[RGB], names: Sequence[str] = ()) -> str:
    """The seat lights as a terminal draws them: a coloured block per seat (24-bit colour), a dim one when off,
    each with the start of the player's name."""
    cells = []
    for i, colour in enumerate(frame):
        name = (names[i] if i < len(names) else "")[:5]
        block = f"\x1b[38;2;{colour[0]};{colour[1]};{colour[2]}m██\x1b[0m" if colour != OFF else "\x1b[2m░░\x1b[0m"
        cells.append(f"{block} {name:<5}")
    return " ".join(cells).rstrip()
