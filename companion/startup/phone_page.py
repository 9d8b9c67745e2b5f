"""The phone page of a station: its server, what the OLED's join screens show, the captive portal of the table's own
Wi-Fi, and the address phones on the LAN type."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.config import PhoneDice
from companion.face.host_menu import PinLock
from companion.face.join import JoinInfo
from companion.network import NetworkAdapter
from companion.table import Table

log = logging.getLogger(__name__)


def start_web(table: Table, web: tuple[str, int] | None, phone_dice: PhoneDice, kept: Path,
               names: Sequence[str] = (), cards: Callable[[], Any] | None = None,
               network: NetworkAdapter | None = None) -> tuple[Any, Callable[[], JoinInfo], PinLock | None]:
    """The phone page, when asked for and when the web package is installed; its PIN, join code,
    cookie key and seats are ``kept`` in that file (beside the journal) from one run to the next. It answers
    to its addresses, local names and ``names`` (:mod:`companion.web.hosts`); ``cards``: the controller, once it has
    a card reader (the host registers cards from the page). Its PIN login, paused after too many wrong PINs, is
    allowed again from the host menu (:class:`PinLock`). While ``network``'s hotspot is up, the page is at the Pi's
    address there, and the join screens lead with its Wi-Fi."""
    if web is None:
        return None, JoinInfo, None
    try:
        from companion.web import Access, create_app, make_server
    except ImportError as error:
        log.warning("no phone page: %s", error)
        return None, JoinInfo, None
    access = Access.kept(kept)
    host, port = web

    def wifi() -> tuple[str, str] | None:
        hotspot = network.hotspot if network is not None else None
        return (hotspot.ssid, hotspot.password) if hotspot is not None else None

    # The name it listens on is one it answers to (the address its screen shows may be that name).
    app = create_app(table, access=access, phone_dice=phone_dice,
                     config={"COMPANION_HOSTS": (*names, host), "COMPANION_WIFI": wifi}, cards=cards)
    try:
        server = make_server(app, host=host, port=port).start()
    except OSError as error:  # the port is taken: any free one will do
        log.warning("port %s: %s; taking a free port", port, error)
        server = make_server(app, host=host, port=0).start()

    def join() -> JoinInfo:
        # Found again each time: the Pi may join the network (or open its own) after the start.
        hotspot = network.address if network is not None else None
        base = f"http://{hotspot}:{server.port}" if hotspot else page_url(host, server.port)
        names = [p["name"] for p in table.state["players"]] if table.state else []
        players = tuple((n, access.player_code(n), access.player_join_url(base, n)) for n in names)
        return JoinInfo(base, access.join_url(base), access.join_code, access.host_pin, players, wifi())

    return server, join, PinLock(lambda: access.pin_paused, access.allow_pin)


class Captive:
    """Phones' connectivity checks answered with a redirect to the page (:mod:`companion.web.captive`) on ``port``
    (80: the Pi's service may bind it, firmware/companion.service). A port that cannot be taken is logged: the page
    works, phones only do not open it by themselves."""

    def __init__(self, host: str, port: int, join: Callable[[], JoinInfo]) -> None:
        self.host, self.port, self.join = host, port, join
        self.server: Any = None

    def start(self) -> None:
        if self.server is not None:
            return
        from companion.web import make_server
        from companion.web.captive import create_captive_app

        server = make_server(create_captive_app(lambda: f"{self.join().url}/"), host=self.host, port=self.port,
                             threads=4)
        try:
            self.server = server.start()
        except OSError as error:
            log.warning("no captive portal on port %s: %s (phones open the page from its QR code)", self.port, error)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()


def page_url(host: str, port: int) -> str:
    """The address phones on the LAN type: this machine's address when serving on all of them.

    Raspberry Pi OS maps the host name to 127.0.1.1 in /etc/hosts, so the name's addresses say nothing: the
    address is the one the route to the LAN leaves from (:func:`lan_address`); without a route, the name's
    addresses, then the name on mDNS ("companion.local", which Raspberry Pi OS announces)."""
    if host not in ("0.0.0.0", "::", ""):
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    address = lan_address()
    if address is None:
        try:
            named = {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
        except OSError:
            named = set()
        lan = sorted(a for a in named if not a.startswith("127."))
        address = lan[0] if lan else f"{socket.gethostname()}.local"
    return f"http://{address}:{port}"


def lan_address() -> str | None:
    """The address this machine's route to a private network leaves from, or None (no network yet). A UDP socket's
    connect only picks the route: no packet is sent."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address
