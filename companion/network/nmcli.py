"""NetworkManager's command line (``nmcli``), as the table uses it: the exact commands, failures as sentences.

The hotspot is the WPA2 access point in shared mode that NetworkManager documents (nmcli-examples(7), "Wi-Fi
hotspot"), added as one profile with every setting on one command line:

    nmcli connection add type wifi ifname wlan0 con-name companion-hotspot autoconnect no ssid NAME
          802-11-wireless.mode ap 802-11-wireless.band bg 802-11-wireless.channel 6
          ipv4.method shared ipv4.addresses 10.42.0.1/24 ipv6.method disabled
          wifi-sec.key-mgmt wpa-psk wifi-sec.proto rsn wifi-sec.pairwise ccmp wifi-sec.group ccmp wifi-sec.psk PASSWORD
    nmcli connection up companion-hotspot

``proto rsn`` with CCMP is WPA2 alone (no WPA1/TKIP, and not WPA3, which older phones cannot join);
``ipv4.method shared`` has NetworkManager run dnsmasq for DHCP and DNS on the Pi's address, which is pinned
(NetworkManager's own default, 10.42.0.1) so that the DNS drop-in (:mod:`.dnsmasq`) and the captive redirect
name it. ``autoconnect no``: the table opens it, NetworkManager never does by itself.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

from companion.engine import CompanionError
from companion.said import N_, Said, Saying

CONNECTION = "companion-hotspot"  # the profile's name in NetworkManager
HOTSPOT_ADDRESS = "10.42.0.1"  # the Pi on its own Wi-Fi (NetworkManager's default for shared mode, pinned)
HOTSPOT_PREFIX = 24
#: nmcli's exit status when NetworkManager is not running (nmcli(1), EXIT STATUS).
NOT_RUNNING = 8


class NetworkFault(CompanionError, Saying, RuntimeError):
    """The table's own Wi-Fi cannot be opened (or closed): one sentence (a :class:`~companion.said.Said`, said on
    the OLED in the table's language; ``str()`` its English, for the log)."""


def band(channel: int) -> str:
    """NetworkManager's band of a Wi-Fi channel: ``bg`` (2.4 GHz, channels 1-14) or ``a`` (5 GHz)."""
    return "bg" if channel <= 14 else "a"


def hotspot_profile(device: str, ssid: str, password: str, channel: int) -> list[str]:
    """The arguments of ``nmcli`` that add the hotspot's profile (see the module's docstring)."""
    return ["connection", "add", "type", "wifi", "ifname", device, "con-name", CONNECTION, "autoconnect", "no",
            "ssid", ssid,
            "802-11-wireless.mode", "ap", "802-11-wireless.band", band(channel),
            "802-11-wireless.channel", str(channel),
            "ipv4.method", "shared", "ipv4.addresses", f"{HOTSPOT_ADDRESS}/{HOTSPOT_PREFIX}",
            "ipv6.method", "disabled",
            "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp",
            "wifi-sec.group", "ccmp", "wifi-sec.psk", password]


class Nmcli:
    """Runs ``nmcli`` (found on ``PATH``); every failure is a :class:`NetworkFault` saying what it means."""

    def __init__(self, program: str = "nmcli", timeout: float = 60.0) -> None:
        self.program, self.timeout = program, timeout

    def run(self, args: Sequence[str], *, refused: str = N_("NetworkManager refused")) -> str:
        """``nmcli ARGS``'s output; NetworkFault (``refused: its reason``) if it fails."""
        try:
            done = subprocess.run([self.program, *args], capture_output=True, text=True, timeout=self.timeout,
                                  check=False)
        except FileNotFoundError:
            raise NetworkFault(Said(N_("No NetworkManager (nmcli is missing): no hotspot"))) from None
        except subprocess.TimeoutExpired:
            raise NetworkFault(Said(N_("{refused}: NetworkManager did not answer in {seconds} s"),
                                    {"refused": Said(refused), "seconds": f"{self.timeout:.0f}"})) from None
        if done.returncode == NOT_RUNNING:
            raise NetworkFault(Said(N_("NetworkManager is not running: no hotspot")))
        if done.returncode != 0:
            reason = (done.stderr.strip() or done.stdout.strip() or f"nmcli exit status {done.returncode}")
            # NetworkManager's own words (its English) after ours: what it refused is the owner's to read
            raise NetworkFault(Said(N_("{refused}: {reason}"),
                                    {"refused": Said(refused), "reason": reason.removeprefix("Error: ").splitlines()[0]}))
        return done.stdout

    def rows(self, args: Sequence[str]) -> list[list[str]]:
        """The lines of a terse (``-t``) listing, split at nmcli's unescaped colons."""
        return [split_terse(line) for line in self.run(["-t", *args]).splitlines() if line]

    # ------------------------------------------------------------------ what the table asks
    def wifi_device(self) -> str:
        """The first Wi-Fi device NetworkManager knows (``wlan0``); NetworkFault if there is none."""
        for row in self.rows(["-f", "DEVICE,TYPE", "device"]):
            if len(row) >= 2 and row[1] == "wifi":
                return row[0]
        raise NetworkFault(Said(N_("No Wi-Fi device: no hotspot")))

    def connected(self) -> bool:
        """Whether NetworkManager has a network (``connected``, with or without the internet)."""
        rows = self.rows(["-f", "STATE", "general"])
        return bool(rows) and rows[0][0].startswith("connected")

    def active(self) -> bool:
        """Whether the hotspot is up now."""
        return any(row[0] == CONNECTION for row in self.rows(["-f", "NAME", "connection", "show", "--active"]))

    def open_hotspot(self, device: str, ssid: str, password: str, channel: int) -> None:
        """Add the hotspot's profile afresh (a changed password or channel is taken) and bring it up."""
        if any(row[0] == CONNECTION for row in self.rows(["-f", "NAME", "connection", "show"])):
            self.run(["connection", "delete", CONNECTION])
        self.run(hotspot_profile(device, ssid, password, channel), refused=N_("Hotspot refused"))
        self.run(["connection", "up", CONNECTION], refused=N_("Hotspot refused"))

    def close_hotspot(self) -> None:
        """Take the hotspot down (NetworkManager then joins a known network by itself)."""
        if self.active():
            self.run(["connection", "down", CONNECTION])


def split_terse(line: str) -> list[str]:
    r"""One line of ``nmcli -t``: fields split at ``:``, with ``\:`` and ``\\`` read back."""
    fields, current, escaped = [], [], False
    for ch in line:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
    fields.append("".join(current))
    return fields
