"""hardware/: the wiring diagram names every pin of the pin map, and the pin map is DESIGN.md's."""

from __future__ import annotations

import re
import xml.dom.minidom
from pathlib import Path

import pytest

from companion.config import read_toml
from companion.drivers.pins import NfcPins, PinMapError, load_pins, parse_pins

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def test_pin_map_is_the_design() -> None:
    pins = load_pins(HARDWARE / "pins.toml")
    assert dict(pins.buttons) == {"ROLL": 5, "YES": 6, "NO": 13, "PREV": 19, "NEXT": 26, "MENU": 21}
    assert pins.roller.dice == ((17, 27, 22), (23, 24, 25), (12, 16, 20))
    assert (pins.roller.strobe, pins.roller.request, pins.i2c_bus, pins.i2c_address) == (4, 18, 1, 0x3C)


def test_wiring_diagram_shows_every_pin() -> None:
    xml.dom.minidom.parse(str(HARDWARE / "wiring.svg"))  # well-formed
    text = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    shown = {int(n) for n in re.findall(r"GPIO(\d+) \[", text)}
    assert set(load_pins(HARDWARE / "pins.toml").all_gpio()) | {2, 3} == shown


def test_the_nfc_reader_shares_the_oleds_bus_at_its_own_address() -> None:
    data = read_toml(HARDWARE / "pins.toml", PinMapError)
    assert load_pins(HARDWARE / "pins.toml").nfc == NfcPins(1, 0x24)
    assert parse_pins({k: v for k, v in data.items() if k != "nfc"}).nfc is None
    with pytest.raises(PinMapError, match="the OLED's"):
        parse_pins({**data, "nfc": {"address": 0x3C}})
    with pytest.raises(PinMapError, match="only \"pn532\""):
        parse_pins({**data, "nfc": {"reader": "rc522"}})
