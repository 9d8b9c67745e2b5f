"""The pin map of the table, read at run time from ``hardware/pins.toml``.

That file is the single place pins are named; nothing else in the code holds a pin number.
``companion run`` and ``companion demo`` look for it in ``/etc/companion/pins.toml`` (the install
script copies it there), then in the source tree (a checkout, an editable install), then in the
package itself (``setup.py`` bundles ``hardware/pins.toml`` into every install that is not
editable); ``--pins`` (or the config's ``pins``) names another.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import read_toml
from companion.engine import CompanionError

BUTTONS = ("ROLL", "YES", "NO", "PREV", "NEXT", "MENU")
SYSTEM_PINS = Path("/etc/companion/pins.toml")
SOURCE_PINS = Path(__file__).resolve().parents[2] / "hardware" / "pins.toml"
#: ``hardware/pins.toml`` as the build bundles it into the package (setup.py); absent from a source tree.
PACKAGED_PINS = Path(__file__).resolve().with_name("pins.toml")


class PinMapError(CompanionError, ValueError):
    """A pin map that cannot drive the table (names the file and the key)."""


@dataclass(frozen=True)
class RollerPins:
    """The dice roller's lines: three data lines per die (LSB first), STROBE and REQUEST."""

    dice: tuple[tuple[int, int, int], ...]
    strobe: int
    request: int


#: The GPIOs the kernel's SPI driver takes for each bus (dtparam=spi=on; dtoverlay=spi1-1cs): the strip uses MOSI only,
#: but the others are the SPI's while it is on.
SPI_GPIO = {0: (7, 8, 9, 10, 11), 1: (18, 19, 20, 21)}
LIGHT_KINDS = ("strip", "leds")
PIXEL_ORDERS = ("GRB", "RGB", "GRBW", "RGBW")


@dataclass(frozen=True)
class LightPins:
    """The seat lights: a WS2812/SK6812 ``strip`` on SPI, or plain ``leds`` on GPIO (:mod:`.lights`)."""

    kind: str
    seat_order: tuple[int, ...] = ()  # strip: the seat of each group of LEDs along it, from its data input
    leds_per_seat: int = 1
    spi_bus: int = 0
    pixel_order: str = "GRB"
    brightness: float = 0.3
    pins: tuple[int, ...] = ()  # leds: one GPIO per seat, seat 1 first

    @property
    def seats(self) -> int:
        return max(self.seat_order) if self.kind == "strip" else len(self.pins)

    def gpio(self) -> tuple[int, ...]:
        return SPI_GPIO[self.spi_bus] if self.kind == "strip" else self.pins


@dataclass(frozen=True)
class NfcPins:
    """The NFC reader: a PN532 on an I2C bus (see hardware/parts.md for why this chip)."""

    bus: int = 1
    address: int = 0x24


@dataclass(frozen=True)
class PinMap:
    """Every pin the table uses (BCM numbers) and where the OLED sits on I2C."""

    buttons: Mapping[str, int]
    roller: RollerPins
    i2c_bus: int = 1
    i2c_address: int = 0x3C
    source: str = "<defaults>"
    nfc: NfcPins | None = None  # no [nfc] table: no reader fitted
    lights: LightPins | None = None
    buzzer: int | None = None  # a piezo's GPIO (gpiozero's TonalBuzzer)
    #: The I2C bus's clock as the Pi sets it (``dtparam=i2c_arm_baudrate``): how fast the OLED takes a frame.
    i2c_hz: int = 400_000

    def all_gpio(self) -> list[int]:
        """Every GPIO the table claims, for conflict checks."""
        pins = [*self.buttons.values(), self.roller.strobe, self.roller.request]
        pins += [*(self.lights.gpio() if self.lights else ()), *([self.buzzer] if self.buzzer is not None else [])]
        for die in self.roller.dice:
            pins.extend(die)
        return pins


def find_pin_file(explicit: str | Path | None = None) -> Path:
    """The pin map to read: ``explicit``, else ``/etc/companion/pins.toml``, else the source tree's, else the
    package's own."""
    if explicit is not None:
        return Path(explicit)
    candidates = (SYSTEM_PINS, SOURCE_PINS, PACKAGED_PINS)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise PinMapError(f"no pin map: none of {', '.join(map(str, candidates))} exists (give --pins FILE)")


def load_pins(path: str | Path | None = None) -> PinMap:
    """Read and check a pin map file (see ``hardware/pins.toml``)."""
    file = find_pin_file(path)
    return parse_pins(read_toml(file, PinMapError), str(file))


def _gpio(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
        raise PinMapError(f"{where}: expected a BCM GPIO number 0-27, found {value!r}")
    return value


def _i2c(table: Mapping[str, Any], where: str, default: int) -> tuple[int, int]:
    bus, address = table.get("bus", 1), table.get("address", default)
    if isinstance(bus, bool) or not isinstance(bus, int) or bus < 0:
        raise PinMapError(f"{where}.bus: expected an I2C bus number")
    if isinstance(address, bool) or not isinstance(address, int) or not 0x03 <= address <= 0x77:
        raise PinMapError(f"{where}.address: expected a 7-bit I2C address such as 0x{default:02X}")
    return bus, address


def _nfc(table: Any, source: str, display_bus: int, display_address: int) -> NfcPins | None:
    if table is None:
        return None
    if not isinstance(table, Mapping):
        raise PinMapError(f"{source}: [nfc] must be a table")
    if table.get("reader", "pn532") != "pn532":
        raise PinMapError(f"{source}: nfc.reader: only \"pn532\" (on I2C) is supported")
    bus, address = _i2c(table, f"{source}: nfc", 0x24)
    if (bus, address) == (display_bus, display_address):
        raise PinMapError(f"{source}: nfc.address: {address:#04x} on bus {bus} is the OLED's")
    return NfcPins(bus, address)


def parse_pins(data: Mapping[str, Any], source: str = "<pins>") -> PinMap:
    """Build a :class:`PinMap` from parsed TOML; every pin must be distinct."""
    raw_buttons = data.get("buttons")
    if not isinstance(raw_buttons, Mapping):
        raise PinMapError(f"{source}: missing [buttons] table")
    missing = [name for name in BUTTONS if name not in raw_buttons]
    if missing:
        raise PinMapError(f"{source}: buttons: no pin for {', '.join(missing)}")
    unknown = sorted(set(raw_buttons) - set(BUTTONS))
    if unknown:
        raise PinMapError(f"{source}: buttons: unknown button {unknown[0]!r} (known: {', '.join(BUTTONS)})")
    buttons = {name: _gpio(raw_buttons[name], f"{source}: buttons.{name}") for name in BUTTONS}

    roller = data.get("roller")
    if not isinstance(roller, Mapping):
        raise PinMapError(f"{source}: missing [roller] table")
    dice: list[tuple[int, int, int]] = []
    for key in ("die_a", "die_b", "die_c"):
        lines = roller.get(key)
        if lines is None and key == "die_c":
            continue
        if not isinstance(lines, list) or len(lines) != 3:
            raise PinMapError(f"{source}: roller.{key}: expected three data pins, LSB first")
        a, b, c = (_gpio(pin, f"{source}: roller.{key}") for pin in lines)
        dice.append((a, b, c))
    pins = RollerPins(tuple(dice), _gpio(roller.get("strobe"), f"{source}: roller.strobe"),
                      _gpio(roller.get("request"), f"{source}: roller.request"))

    display = data.get("display", {})
    if not isinstance(display, Mapping):
        raise PinMapError(f"{source}: [display] must be a table")
    bus, address = _i2c(display, f"{source}: display", 0x3C)
    hz = display.get("bus_hz", 400_000)
    if isinstance(hz, bool) or not isinstance(hz, int) or not 10_000 <= hz <= 3_400_000:
        raise PinMapError(f"{source}: display.bus_hz: expected the I2C clock in Hz, 10000-3400000 (400000: fast mode)")
    buzzer = data.get("buzzer")
    if buzzer is not None and not isinstance(buzzer, Mapping):
        raise PinMapError(f"{source}: [buzzer] must be a table")
    result = PinMap(buttons, pins, bus, address, source, _nfc(data.get("nfc"), source, bus, address),
                    parse_lights(data.get("lights"), source),
                    _gpio(buzzer.get("pin"), f"{source}: buzzer.pin") if buzzer is not None else None, hz)
    used = result.all_gpio()
    twice = sorted({pin for pin in used if used.count(pin) > 1})
    if twice:
        raise PinMapError(f"{source}: GPIO {twice[0]} is used twice")
    if {2, 3} & set(used):
        raise PinMapError(f"{source}: GPIO 2 and 3 are the I2C bus of the OLED")
    return result


def parse_lights(lights: Any, source: str) -> LightPins | None:
    """The ``[lights]`` table (none: no seat lights)."""
    if lights is None:
        return None
    if not isinstance(lights, Mapping) or lights.get("kind") not in LIGHT_KINDS:
        raise PinMapError(f"{source}: lights.kind must be one of {', '.join(LIGHT_KINDS)}")
    if lights["kind"] == "leds":
        pins = lights.get("pins")
        if not isinstance(pins, list) or not 1 <= len(pins) <= 8:
            raise PinMapError(f"{source}: lights.pins: one GPIO per seat, seat 1 first (up to 8)")
        return LightPins("leds", pins=tuple(_gpio(pin, f"{source}: lights.pins") for pin in pins))
    order, per_seat = lights.get("seat_order"), lights.get("leds_per_seat", 1)
    if not isinstance(order, list) or not order or sorted(order) != list(range(1, len(order) + 1)) or len(order) > 8:
        raise PinMapError(f"{source}: lights.seat_order: the seats 1 to N (up to 8), in their order along the strip")
    if isinstance(per_seat, bool) or not isinstance(per_seat, int) or not 1 <= per_seat <= 30:
        raise PinMapError(f"{source}: lights.leds_per_seat: a number of LEDs, 1 to 30")
    bus, pixel_order, brightness = lights.get("spi", 0), lights.get("pixel_order", "GRB"), lights.get("brightness", 0.3)
    if bus not in SPI_GPIO or isinstance(bus, bool):
        raise PinMapError(f"{source}: lights.spi: the SPI bus, 0 or 1")
    if pixel_order not in PIXEL_ORDERS:
        raise PinMapError(f"{source}: lights.pixel_order must be one of {', '.join(PIXEL_ORDERS)}")
    if isinstance(brightness, bool) or not isinstance(brightness, (int, float)) or not 0 < brightness <= 1:
        raise PinMapError(f"{source}: lights.brightness: above 0, at most 1")
    return LightPins("strip", tuple(order), per_seat, bus, pixel_order, float(brightness))
