"""Join with two scans: the host menu opens the table's Wi-Fi; the OLED's join screens show its QR code (decoded
back from the pixels) and then the page's; the host's phone gets both and the password."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import zxingcpp
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy

from companion.drivers.clock import SimClock
from companion.drivers.pins import load_pins
from companion.drivers.script import parse_script, run_script
from companion.drivers.virtual import VirtualButtons, VirtualRoller
from companion.face import screens
from companion.face.draw import Painter
from companion.face.join import qr_matrix
from companion.network import NetworkAdapter, WifiCredentials, qr_payload
from companion.startup.station import Station, build_station

from ..web.conftest import post
from .fakes import FakeNetworkManager, install

WAIT = 10.0


def read_wifi_qr(text: str) -> dict[str, str]:
    r"""The fields of a ``WIFI:`` code as a phone reads them: ``K:value;`` pairs, ``\x`` standing for ``x``."""
    assert text.startswith("WIFI:") and text.endswith(";;")
    fields, key, value, escaped, in_value = {}, "", "", False, False
    for ch in text[5:-1]:
        if escaped:
            value, escaped = value + ch, False
        elif ch == "\\":
            escaped = True
        elif not in_value and ch == ":":
            in_value = True
        elif not in_value:
            key += ch
        elif ch == ";":
            fields[key], key, value, in_value = value, "", "", False
        else:
            value += ch
    return fields


def decoded(station: Station) -> str:
    """The QR code on the OLED's frame, as a phone's camera reads it (zxing-cpp on the pixels, scaled up)."""
    frame = station.controller.frame().convert("L").resize((512, 256))
    found = zxingcpp.read_barcodes(frame)
    assert len(found) == 1, "one QR code on the screen"
    return found[0].text


@pytest.mark.parametrize(("ssid", "password"), [
    ("companion-K7MQ", "k7mq-2xtp-9brw"),
    ('Cabin; "lake", \\ north: 2', 'pa:ss;wo,rd\\"x'),  # an owner's own, every character the format escapes
])
def test_the_wifi_qr_code_reads_back_as_the_name_and_password(ssid: str, password: str) -> None:
    payload = qr_payload(WifiCredentials(ssid, password))
    assert read_wifi_qr(payload) == {"T": "WPA", "S": ssid, "P": password}
    screen = screens.wifi_join_screen(qr_matrix(payload), ssid, password)  # as the OLED draws it
    image = Painter().paint(screen).convert("L").resize((512, 256))
    assert read_wifi_qr(zxingcpp.read_barcodes(image)[0].text) == {"T": "WPA", "S": ssid, "P": password}


def test_escaping_follows_the_format() -> None:
    assert qr_payload(WifiCredentials('a;b,c:d\\e"f', "12345678")) == 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\\\e\\"f;P:12345678;;'


@pytest.fixture
def station(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Station, VirtualButtons]]:
    install(tmp_path / "nm", monkeypatch)
    sim = SimClock()
    pins = load_pins()
    factory = MockFactory()
    network = NetworkAdapter("home", credentials=tmp_path / "games.wifi.json", country="GB", wait=0.3, poll=0.05)
    built = build_station(journal_path=tmp_path / "games.sqlite3", pins=pins, pin_factory=factory,
                          open_device=lambda: dummy(width=128, height=64, mode="1"), dice="software", clock=sim,
                          sleep=sim.sleep, setup={"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3},
                          new_seed=lambda: 1, web=("127.0.0.1", 0), network=network)
    try:
        buttons = VirtualButtons(factory, pins.buttons, sim.sleep, after_step=built.tick)
        VirtualRoller(factory, pins.roller, sim.sleep)
        assert network.settled.wait(WAIT)
        yield built, buttons
    finally:
        built.close()
        factory.reset()


def press(buttons: VirtualButtons, *lines: str) -> None:
    run_script(parse_script(lines), buttons, None)  # type: ignore[arg-type]  # no roller steps


def test_the_host_menu_opens_the_tables_wifi_and_the_join_screens_lead_with_it(
        station: tuple[Station, VirtualButtons], tmp_path: Path) -> None:
    built, buttons = station
    controller = built.controller
    press(buttons, "HOLD MENU 2")
    labels = [a.label for a in controller.items]
    assert "Wi-Fi: home network" in labels
    for _ in range(labels.index("Wi-Fi: home network")):
        press(buttons, "NEXT")
    press(buttons, "YES")
    assert controller.mode == "confirm" and "Open the table's own Wi-Fi?" in " ".join(
        r.text for r in controller.screen().rows)  # costly for phones on the home network: asked first
    press(buttons, "YES")
    assert built.controller.network is not None and built.controller.network.settled.wait(WAIT)
    kept = json.loads((tmp_path / "games.wifi.json").read_text())
    built.tick()
    assert f"Wi-Fi {kept['ssid']} opened" in " ".join(r.text for r in controller.screen().rows)

    press(buttons, "HOLD MENU 2")
    press(buttons, *["NEXT"] * [a.label for a in controller.items].index("Join codes"), "YES")
    screen = controller.screen()
    assert screen.name == "join-wifi"
    assert read_wifi_qr(decoded(built)) == {"T": "WPA", "S": kept["ssid"], "P": kept["password"]}
    shown = " ".join(r.text.strip() for r in screen.rows)
    assert kept["password"][:10] in shown and "NEXT: page" in shown
    press(buttons, "NEXT")
    assert controller.screen().name == "join"
    info = controller.join_info()
    assert info.url == f"http://10.42.0.1:{built.web.port}"  # the Pi on its own Wi-Fi
    assert decoded(built) == info.join_url and info.join_url.startswith("http://10.42.0.1:")
    press(buttons, "NEXT")
    assert controller.screen().name == "join-player"

    # The host's phone: both codes and the password in words.
    client = built.web.app.test_client()
    assert post(client, "/api/host/login", {"pin": info.pin}).status_code == 200
    join = client.get("/api/host/join").get_json()
    assert join["wifi"]["ssid"] == kept["ssid"] and join["wifi"]["password"] == kept["password"]
    assert join["wifi"]["svg"].startswith("<svg") and "Join the table" in join["wifi"]["svg"]


def test_without_the_hotspot_the_join_screen_is_the_pages(station: tuple[Station, VirtualButtons]) -> None:
    built, buttons = station
    press(buttons, "HOLD MENU 2")
    press(buttons, *["NEXT"] * [a.label for a in built.controller.items].index("Join codes"), "YES")
    assert built.controller.screen().name == "join" and built.controller.join_info().wifi is None
