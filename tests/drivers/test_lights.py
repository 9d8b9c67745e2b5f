"""The seat lights' drivers: the strip against a fake SPI bus (the bytes a WS2812 is sent), and the demo's blocks."""

from __future__ import annotations

from companion.drivers.lights import OFF, StripLights, blocks


# ====================================================================== the strip on a fake SPI bus
class FakeSPI:
    """A CircuitPython SPI bus as Blinka's busio.SPI answers: a lock, a configuration, and what was written."""

    def __init__(self) -> None:
        self.frequency = 6_400_000
        self.written: list[bytes] = []
        self.configured: dict[str, int] = {}

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, *, baudrate: int = 100000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self.configured = {"baudrate": baudrate, "polarity": polarity, "phase": phase}

    def write(self, buf: bytes, *, start: int = 0, end: int | None = None) -> None:
        self.written.append(bytes(buf[start:end]))


def ws2812_bits(*grb: int) -> bytes:
    """Each bit of the colour bytes as one SPI byte at 6.4 MHz: 1 is 0b11110000 (625 ns high), 0 is 0b11000000."""
    return bytes(0b11110000 if byte >> (7 - i) & 1 else 0b11000000 for byte in grb for i in range(8))


def test_the_strip_is_sent_each_seats_colour_in_grb_between_resets() -> None:
    spi = FakeSPI()
    strip = StripLights(spi, seat_order=[2, 1, 3], leds_per_seat=2, brightness=1.0)
    spi.written.clear()
    strip.show([(255, 0, 0), (0, 0, 0), (0, 16, 128)])  # seat 1 red, seat 2 off, seat 3 blue-green
    reset = bytes(64)  # 80 µs low at 6.4 MHz
    expected = ws2812_bits(0, 0, 0) * 2 + ws2812_bits(0, 255, 0) * 2 + ws2812_bits(16, 0, 128) * 2
    assert spi.written == [reset + expected + reset]
    assert spi.configured["baudrate"] == 6_400_000
    strip.close()
    assert spi.written[-1] == reset + ws2812_bits(0, 0, 0) * 6 + reset


def test_the_demo_draws_the_seat_lights_as_coloured_blocks() -> None:
    text = blocks([(255, 25, 25), OFF], ["Ann", "Bob"])
    assert text == "\x1b[38;2;255;25;25m██\x1b[0m Ann   \x1b[2m░░\x1b[0m Bob"
