"""The drop-in that has NetworkManager's shared-mode dnsmasq answer every name with the Pi.

On the table's own Wi-Fi there is no internet: a phone's connectivity check (``connectivitycheck.gstatic.com``,
``captive.apple.com``, ...) then reaches the table, which answers it as a captive portal
(:mod:`companion.web.captive`), and the phone opens the table's page by itself. NetworkManager reads
``/etc/NetworkManager/dnsmasq-shared.d/*.conf`` when it starts a shared connection; ``firmware/install.sh`` writes
this file there with ``python -m companion.network.dnsmasq``. It changes nothing on the home network (NetworkManager
runs that dnsmasq for shared connections only).
"""

from __future__ import annotations

from pathlib import Path

from .nmcli import HOTSPOT_ADDRESS

DROP_IN = Path("/etc/NetworkManager/dnsmasq-shared.d/companion.conf")


def drop_in(address: str = HOTSPOT_ADDRESS) -> str:
    """The drop-in's text: every name (``#``) is ``address``."""
    return ("# companion (firmware/install.sh): on the table's own Wi-Fi every name is the Pi, so that phones'\n"
            "# connectivity checks reach it and the table's page opens by itself (companion/web/captive.py).\n"
            f"address=/#/{address}\n")


if __name__ == "__main__":
    print(drop_in(), end="")
