"""The table's network: the home network it joined, or its own Wi-Fi (a hotspot) through NetworkManager.

* :mod:`.wifi` — the hotspot's name and password (made once, kept beside the journal) and the QR code phones read;
* :mod:`.nmcli` — NetworkManager's command line: the exact commands, each failure turned into a plain sentence;
* :mod:`.country` — the Wi-Fi country (radio regulations), from the config or the system;
* :mod:`.dnsmasq` — the drop-in that has NetworkManager's shared-mode dnsmasq answer every name with the Pi;
* :mod:`.adapter` — :class:`NetworkAdapter`, which runs it all on its own thread (``home``, ``hotspot``, ``auto``).

Phones' connectivity checks are answered by :mod:`companion.web.captive`.
"""

from __future__ import annotations

from .adapter import MODES, NetworkAdapter, NetworkMode
from .nmcli import CONNECTION, HOTSPOT_ADDRESS, NetworkFault
from .wifi import WifiCredentials, qr_payload

__all__ = ["CONNECTION", "HOTSPOT_ADDRESS", "MODES", "NetworkAdapter", "NetworkFault", "NetworkMode",
           "WifiCredentials", "qr_payload"]
