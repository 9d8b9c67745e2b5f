"""What opens each part of a table on a Pi (again after a fault), from the pin map and the config: the OLED, the
seat lights, the card reader's bus, the piezo, the voice; and the buzzer's and voice's quiet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.config import TableConfig, parse_quiet_hours
from companion.drivers import clock as clocks
from companion.drivers.audio import AudioOut
from companion.drivers.display import DRIVERS, frame_time
from companion.drivers.lights import LightDriver, SeatLeds, ShownLights, StripLights, open_spi
from companion.drivers.pins import PinMap
from companion.drivers.speech import Mouth, open_voice
from companion.drivers.tunes import PiezoTunes, Tunes
from companion.face.sounds import Hush


def lights_opener(pins: PinMap, pin_factory: Any) -> Callable[[], LightDriver] | None:
    """What opens the seat lights of ``pins`` (again after a fault): the strip on SPI, or plain LEDs on GPIO; on mock
    pins, lights that only keep their frame."""
    from gpiozero.pins.mock import MockFactory

    lights = pins.lights
    if lights is None:
        return None
    if isinstance(pin_factory, MockFactory):
        return ShownLights
    if lights.kind == "leds":
        return lambda: SeatLeds(lights.pins, pin_factory=pin_factory)
    return lambda: StripLights(open_spi(lights.spi_bus), seat_order=lights.seat_order,
                               leds_per_seat=lights.leds_per_seat, pixel_order=lights.pixel_order,
                               brightness=lights.brightness)


def nfc_opener(pins: PinMap) -> Callable[[], Any] | None:
    """What opens the NFC reader's I2C bus (the kernel's ``/dev/i2c-N``, shared with the OLED), if one is fitted."""
    if pins.nfc is None:
        return None
    from smbus2 import SMBus

    bus = pins.nfc.bus
    return lambda: SMBus(bus)


def tunes_opener(pins: PinMap, pin_factory: Any) -> Callable[[], Tunes] | None:
    """What opens the piezo of ``pins`` (none in the pin map: no buzzer)."""
    pin = pins.buzzer
    if pin is None:
        return None
    return lambda: PiezoTunes(pin, pin_factory=pin_factory, sleep=clocks.sleep)


def mouth_opener(voice: str, model: str = "") -> Callable[[], Mouth] | None:
    """What opens the voice (``"off"``: none): espeak-ng, or piper with a voice file, through the audio output."""
    if voice == "off":
        return None
    return lambda: Mouth(open_voice(voice, model), AudioOut())


def hush_of(config: TableConfig) -> Hush:
    """The buzzer's and the voice's quiet: ``sound = false`` starts muted (the host menu unmutes); quiet hours."""
    return Hush(muted=not config.sound, quiet_hours=parse_quiet_hours(config.quiet_hours))


def oled_frame_time(pins: PinMap) -> float:
    """The seconds the table's OLED takes to take a whole frame on its bus (pins.toml's ``[display] bus_hz``): the pace
    of the frames drawn for a burst of phones' inputs. luma's dummy (``display = "none"``, ``companion run`` with mock
    pins) is paced as the panel it stands for."""
    return frame_time(pins.i2c_hz)


def oled_opener(driver: str, pins: PinMap) -> Callable[[], Any]:
    """What opens the OLED (again after a fault): the paged ``driver`` on the I2C bus and address of
    ``pins``, or luma's dummy for ``"none"``."""
    if driver == "none":
        from luma.core.device import dummy

        return lambda: dummy(width=128, height=64, mode="1")
    from luma.core.interface.serial import i2c

    cls = DRIVERS[driver]
    return lambda: cls(i2c(port=pins.i2c_bus, address=pins.i2c_address))
