"""The table's own Wi-Fi through a fake ``nmcli`` on PATH: the exact commands, the files, each fault's notice."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from companion.network import CONNECTION, NetworkAdapter, WifiCredentials
from companion.network.country import hotspot_country, system_country
from companion.network.nmcli import NetworkFault

from .fakes import FakeNetworkManager, install

WAIT = 10.0  # seconds a test waits for the adapter's thread at most (never a measure of speed)


@pytest.fixture
def nm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeNetworkManager:
    return install(tmp_path / "nm", monkeypatch)


def adapter(tmp_path: Path, mode: str, told: list[str], **kwargs: object) -> NetworkAdapter:
    options: dict = {"credentials": tmp_path / "games.wifi.json", "country": "", "channel": 6,
                     "notify": lambda said: told.append(str(said)), "wait": 0.3, "poll": 0.05, **kwargs}
    return NetworkAdapter(mode, **options)  # type: ignore[arg-type]


def settle(network: NetworkAdapter) -> NetworkAdapter:
    assert network.settled.wait(WAIT), "the network thread did not finish"
    return network


def test_hotspot_runs_the_documented_commands_and_keeps_its_name_and_password(
        tmp_path: Path, nm: FakeNetworkManager) -> None:
    told: list[str] = []
    network = settle(adapter(tmp_path, "hotspot", told).start())
    try:
        kept = json.loads((tmp_path / "games.wifi.json").read_text())
        assert stat.S_IMODE((tmp_path / "games.wifi.json").stat().st_mode) == 0o600
        ssid, password = kept["ssid"], kept["password"]
        assert ssid.startswith("companion-") and len(password) == 14
        assert nm.calls() == [
            ["-t", "-f", "DEVICE,TYPE", "device"],
            ["-t", "-f", "NAME", "connection", "show", "--active"],
            ["-t", "-f", "NAME", "connection", "show"],
            ["connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", CONNECTION, "autoconnect", "no",
             "ssid", ssid, "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
             "802-11-wireless.channel", "6", "ipv4.method", "shared", "ipv4.addresses", "10.42.0.1/24",
             "ipv6.method", "disabled", "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
             "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp", "wifi-sec.psk", password],
            ["connection", "up", CONNECTION],
        ]
        assert nm.read()["active"] == [CONNECTION]
        assert network.hotspot == WifiCredentials(ssid, password) and network.address == "10.42.0.1"
        assert told == [f"Wi-Fi {ssid} opened: hold MENU, Join codes"]
    finally:
        network.close()
    # The next start keeps the same name and password, and replaces the profile (a new channel is taken).
    nm.set(active=[], connections=nm.read()["connections"])
    again = settle(adapter(tmp_path, "hotspot", [], channel=36).start())
    again.close()
    calls = nm.calls()
    assert ["connection", "delete", CONNECTION] in calls
    added = [c for c in calls if c[:2] == ["connection", "add"]][-1]
    assert added[added.index("ssid") + 1] == ssid and added[-1] == password
    assert added[added.index("802-11-wireless.band") + 1] == "a" and "36" in added


def test_home_leaves_the_network_alone_and_switching_back_takes_the_hotspot_down(
        tmp_path: Path, nm: FakeNetworkManager) -> None:
    told: list[str] = []
    network = settle(adapter(tmp_path, "home", told).start())
    # Only whether a hotspot a former run left up is to be taken down.
    assert nm.calls() == [["-t", "-f", "NAME", "connection", "show", "--active"]]
    assert network.hotspot is None and network.switched_to == "home"
    network.switch("hotspot")
    settle(network)
    assert network.switched_to == "hotspot" and nm.read()["active"] == [CONNECTION]
    network.switch("home")
    settle(network)
    network.close()
    assert nm.calls()[-1] == ["connection", "down", CONNECTION]
    assert nm.read()["active"] == [] and network.hotspot is None
    assert told[-1] == "Wi-Fi: back on the home network"


def test_auto_stays_home_when_a_network_is_joined(tmp_path: Path, nm: FakeNetworkManager) -> None:
    nm.set(state="connected")
    network = settle(adapter(tmp_path, "auto", []).start())
    network.close()
    assert network.hotspot is None and not any(c[:2] == ["connection", "add"] for c in nm.calls())


def test_auto_opens_the_hotspot_when_no_network_came(tmp_path: Path, nm: FakeNetworkManager) -> None:
    nm.set(state="connecting")
    told: list[str] = []
    network = settle(adapter(tmp_path, "auto", told).start())
    network.close()
    assert [c for c in nm.calls() if c[:3] == ["-t", "-f", "STATE"]], "it looked for a network first"
    assert network.hotspot is not None and nm.read()["active"] == [CONNECTION]
    assert told == [f"Wi-Fi {network.hotspot.ssid} opened: hold MENU, Join codes"]


def test_auto_keeps_a_hotspot_left_up_by_the_last_run(tmp_path: Path, nm: FakeNetworkManager) -> None:
    nm.set(connections=[CONNECTION], active=[CONNECTION], state="connected (local only)")
    network = settle(adapter(tmp_path, "auto", []).start())
    network.close()
    assert network.hotspot is not None
    assert not any(c[0] == "connection" for c in nm.calls()), "nothing taken down or added again"


@pytest.mark.parametrize(("setup", "notice"), [
    ({"devices": [["eth0", "ethernet"]]}, "No Wi-Fi device: no hotspot"),
    ({"running": False}, "NetworkManager is not running: no hotspot"),
    ({"fail": {"connection up": [4, "Error: Connection activation failed: 802.1X supplicant took too long to "
                                    "authenticate"]}},
     "Hotspot refused: Connection activation failed: 802.1X supplicant took too long to authenticate"),
    ({"fail": {"connection add": [1, "Error: Failed to add 'companion-hotspot' connection: Insufficient "
                                     "privileges"]}},
     "Hotspot refused: Failed to add 'companion-hotspot' connection: Insufficient privileges"),
])
def test_each_fault_is_one_notice_and_the_table_goes_on(tmp_path: Path, nm: FakeNetworkManager,
                                                        setup: dict, notice: str,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    nm.set(**setup)
    told: list[str] = []
    network = settle(adapter(tmp_path, "hotspot", told).start())
    network.close()
    assert told == [notice] and network.hotspot is None
    assert f"network: {notice}" in caplog.text


def test_no_networkmanager_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no nmcli anywhere
    told: list[str] = []
    network = settle(adapter(tmp_path, "hotspot", told).start())
    network.close()
    assert told == ["No NetworkManager (nmcli is missing): no hotspot"]


@pytest.mark.parametrize(("configured", "system", "notice"), [
    ("UK", "GB", "Wi-Fi country 'UK' is not a country code (GB?): no hotspot"),
    ("", None, "No Wi-Fi country set: put wifi_country in the config. No hotspot"),
    ("DE", "US", "Wi-Fi country is US, the config says DE: run sudo raspi-config nonint do_wifi_country DE. "
                 "No hotspot"),
])
def test_a_missing_or_wrong_country_is_said_and_no_hotspot_opens(tmp_path: Path, nm: FakeNetworkManager,
                                                                 configured: str, system: str | None,
                                                                 notice: str) -> None:
    told: list[str] = []
    network = settle(adapter(tmp_path, "hotspot", told, country=configured, find_country=lambda: system).start())
    network.close()
    assert told == [notice] and network.hotspot is None
    assert not any(c[:2] == ["connection", "add"] for c in nm.calls())


def test_the_country_comes_from_the_config_or_the_system(nm: FakeNetworkManager) -> None:
    assert hotspot_country("", "FR") == "FR"
    assert hotspot_country("de", None) == "DE"  # iw missing, or the system's unset: the config's is taken
    assert hotspot_country("GB", "GB") == "GB"
    assert system_country() == "GB"  # the fake iw's "country GB: DFS-ETSI"
    assert system_country(lambda args: "global\ncountry 00: DFS-UNSET\n") is None
    assert system_country(lambda args: (_ for _ in ()).throw(FileNotFoundError("iw"))) is None


def test_a_wifi_file_the_owner_broke_is_said_never_replaced(tmp_path: Path, nm: FakeNetworkManager) -> None:
    kept = tmp_path / "games.wifi.json"
    kept.write_text('{"ssid": "Cabin", "password": "short"}')
    told: list[str] = []
    network = settle(adapter(tmp_path, "hotspot", told).start())
    network.close()
    assert told == ["Wi-Fi file games.wifi.json: the password must be 8-63 letters, digits or signs"]
    assert json.loads(kept.read_text())["password"] == "short"
    kept.write_text('{"ssid": "Cabin; by the lake", "password": "s3cret:pass"}')  # the owner's own: taken
    assert WifiCredentials.kept(kept) == WifiCredentials("Cabin; by the lake", "s3cret:pass")


def test_terse_output_with_colons_is_read_back() -> None:
    from companion.network.nmcli import split_terse

    assert split_terse(r"My\: net:wifi") == ["My: net", "wifi"]
    assert split_terse(r"a\\b:c") == ["a\\b", "c"]
    with pytest.raises(ValueError, match="network must be one of home, hotspot, auto"):
        NetworkAdapter("cable", credentials=Path("x"))  # type: ignore[arg-type]
    assert issubclass(NetworkFault, RuntimeError)


def test_home_without_networkmanager_says_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    told: list[str] = []
    settle(adapter(tmp_path, "home", told).start()).close()
    assert told == []


def test_a_home_start_takes_down_a_hotspot_left_up(tmp_path: Path, nm: FakeNetworkManager) -> None:
    nm.set(connections=[CONNECTION], active=[CONNECTION])
    settle(adapter(tmp_path, "home", []).start()).close()
    assert nm.read()["active"] == []
