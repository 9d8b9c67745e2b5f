"""The hotspot's name and password, and the Wi-Fi QR code phone cameras read.

Made once from the OS's entropy and kept beside the journal (``games.wifi.json``, readable by the table's user
only), so a phone that joined once joins again at the next game. The owner may edit the file to choose their own
(a name of 1-32 bytes, a password of 8-63 printable ASCII characters, WPA2's limits).

The password is twelve letters and digits without look-alikes (no 0/o, 1/l/i), in three groups of four
("k7mq-2xtp-9brw": about 60 bits), so it can be read out and typed on a laptop that has no camera.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.kept import keep_private

from companion.said import N_, Said

from .nmcli import NetworkFault

log = logging.getLogger(__name__)

#: Letters and digits nobody misreads or mistypes.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
SSID_PREFIX = "companion-"
#: The characters the Wi-Fi QR format (ZXing's ``WIFI:``, as phone cameras read it) escapes with a backslash.
SPECIAL = '\\;,:"'


@dataclass(frozen=True)
class WifiCredentials:
    """The table's own network: its name (SSID) and its WPA2 password."""

    ssid: str
    password: str

    def __repr__(self) -> str:  # never print the password into a log
        return f"WifiCredentials(ssid={self.ssid!r})"

    @classmethod
    def generate(cls, choice: Callable[[Sequence[str]], str] = secrets.choice) -> WifiCredentials:
        """A fresh name (``companion-K7MQ``) and password (``k7mq-2xtp-9brw``)."""
        def letters(n: int) -> str:
            return "".join(choice(ALPHABET) for _ in range(n))

        return cls(SSID_PREFIX + letters(4).upper(), "-".join(letters(4) for _ in range(3)))

    @classmethod
    def kept(cls, path: Path) -> WifiCredentials:
        """The name and password kept in ``path``, or new ones kept there from now on.

        NetworkFault if the file holds what WPA2 cannot use (an owner's edit): said, never replaced."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            made = cls.generate()
            try:
                keep_private(path, {"ssid": made.ssid, "password": made.password})
            except OSError as error:  # a full disk: this run's hotspot works, the next one gets a new password
                log.warning("%s: not kept: %s", path, error)
            return made
        except (OSError, ValueError) as error:
            raise NetworkFault(Said(N_("Wi-Fi file {file} unreadable"), {"file": path.name}),
                               f"Wi-Fi file {path.name} unreadable: {error}") from None
        if not isinstance(data, dict):
            raise NetworkFault(Said(N_("Wi-Fi file {file}: not an object with ssid and password"), {"file": path.name}))
        return cls(*check(data.get("ssid"), data.get("password"), path.name))


def check(ssid: object, password: object, source: str) -> tuple[str, str]:
    """A name and password WPA2 takes, or NetworkFault saying what is wrong."""
    if not isinstance(ssid, str) or not 1 <= len(ssid.encode()) <= 32:
        raise NetworkFault(Said(N_("Wi-Fi file {file}: the name (ssid) must be 1-32 bytes"), {"file": source}))
    if not isinstance(password, str) or not 8 <= len(password) <= 63 or \
            not all(" " <= ch <= "~" for ch in password):
        raise NetworkFault(Said(N_("Wi-Fi file {file}: the password must be 8-63 letters, digits or signs"),
                                {"file": source}))
    return ssid, password


def escape(text: str) -> str:
    r"""A field of the Wi-Fi QR code: ``\ ; , : "`` each after a backslash. (The format's double quotes around a
    name that reads as hexadecimal are left out: readers differ on them, and the names made here never do.)"""
    return "".join("\\" + ch if ch in SPECIAL else ch for ch in text)


def qr_payload(wifi: WifiCredentials) -> str:
    """What the Wi-Fi QR code holds: ``WIFI:T:WPA;S:<name>;P:<password>;;``."""
    return f"WIFI:T:WPA;S:{escape(wifi.ssid)};P:{escape(wifi.password)};;"
