"""The table's network, run on its own thread: the home network, the table's own Wi-Fi, or the first that works.

* ``home`` — today's behaviour: the Pi stays on the network it joined (a hotspot a former run left up is taken
  down; without NetworkManager nothing is said);
* ``hotspot`` — the Pi opens its own Wi-Fi at once (:meth:`.nmcli.Nmcli.open_hotspot`);
* ``auto`` — the hotspot opens when no network has been joined ``wait`` seconds after the start (a known Wi-Fi
  out of reach, a wrong password kept, no cable).

The host menu switches between home and hotspot while the table runs (:meth:`NetworkAdapter.switch`): the switch
waits for the worker, never for the buttons. Every fault (no Wi-Fi device, no NetworkManager, the hotspot refused,
the country missing or wrong) is one sentence told to ``notify`` (the OLED) and the log; the table goes on.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal, get_args

from companion.said import N_, Said

from .country import hotspot_country, system_country
from .nmcli import HOTSPOT_ADDRESS, NetworkFault, Nmcli
from .wifi import WifiCredentials

#: How the hotspot came up, as the notice says it ("Wi-Fi companion-1a2b opened: hold MENU, Join codes").
HOW = (N_("opened"), N_("up"))

log = logging.getLogger(__name__)

NetworkMode = Literal["home", "hotspot", "auto"]
MODES: tuple[NetworkMode, ...] = get_args(NetworkMode)
AUTO_WAIT = 45.0  # seconds after the start before ``auto`` opens the hotspot (NetworkManager joins in 10-30)
AUTO_POLL = 2.0
CLOSE_WAIT = 2.0  # seconds :meth:`NetworkAdapter.close` waits for the thread
_STOP = "stop"


class NetworkAdapter:
    """Opens and closes the table's own Wi-Fi as the config and the host menu ask, on a thread of its own."""

    def __init__(self, mode: NetworkMode, *, credentials: Path, country: str = "", channel: int = 6,
                 nmcli: Nmcli | None = None, find_country: Callable[[], str | None] = system_country,
                 notify: Callable[[Said], None] | None = None, wait: float = AUTO_WAIT, poll: float = AUTO_POLL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if mode not in MODES:
            raise ValueError(f"network must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode: NetworkMode = mode
        self.credentials, self.country, self.channel = credentials, country, channel
        self.nmcli = nmcli or Nmcli()
        self.find_country = find_country
        self.notify = notify or (lambda text: None)
        self.opened: Callable[[], None] = lambda: None  # called (on the adapter's thread) when the hotspot opens
        self.wait, self.poll, self.clock = wait, poll, clock
        self._wifi: WifiCredentials | None = None  # while the hotspot is up
        self._orders: queue.Queue[str] = queue.Queue()
        self._thread: threading.Thread | None = None
        #: Set each time the worker has done what it was last asked (tests and the CLI wait on it).
        self.settled = threading.Event()

    # ------------------------------------------------------------------ what the table asks
    @property
    def hotspot(self) -> WifiCredentials | None:
        """The table's own Wi-Fi while it is up (its name and password), else None."""
        return self._wifi

    @property
    def address(self) -> str | None:
        """The Pi's address on its own Wi-Fi while it is up: what phones there open."""
        return HOTSPOT_ADDRESS if self._wifi is not None else None

    @property
    def switched_to(self) -> str:
        """What the host menu shows: ``hotspot`` while it is up, else ``home``."""
        return "hotspot" if self._wifi is not None else "home"

    def start(self) -> NetworkAdapter:
        """Do what the mode asks, on the adapter's thread; returns self."""
        self._thread = threading.Thread(target=self._work, name="network", daemon=True)
        self._thread.start()
        self._order("start-home" if self.mode == "home" else self.mode)
        return self

    def switch(self, mode: NetworkMode) -> None:
        """The host menu's choice, ``home`` or ``hotspot``, for this run (the config's ``network`` at the next)."""
        log.info("network: switching to %s (host menu)", mode)
        self._order(mode)

    def close(self) -> None:
        """Stop the thread (a command NetworkManager is still running finishes by itself: the table does not wait
        for it to stop). The hotspot stays up: after a restart the phones are still on it."""
        self._orders.put(_STOP)
        if self._thread is not None:
            self._thread.join(timeout=CLOSE_WAIT)

    def _order(self, mode: str) -> None:
        self.settled.clear()
        self._orders.put(mode)

    # ------------------------------------------------------------------ the thread
    def _work(self) -> None:
        order: str | None = None
        while True:
            if order is None:
                order = self._orders.get()
            if order == _STOP:
                return
            doing, order = order, None
            if doing == "hotspot":
                self._open("opened")
            elif doing == "home":
                self._close()
            elif doing == "start-home":
                self._close(quiet=True)
            elif doing == "auto":
                order = self._auto()
            if order is None and self._orders.empty():
                self.settled.set()

    def _auto(self) -> str | None:
        """Wait for a network; open the hotspot if none came. Returns an order that came meanwhile, if any."""
        deadline = self.clock() + self.wait
        while True:
            try:
                if self.nmcli.active():
                    self._open("up")  # left up by the last run
                    return None
                if self.nmcli.connected():
                    log.info("network: on the network NetworkManager joined; no hotspot")
                    return None
            except NetworkFault as fault:
                self._fault(fault)
                return None
            left = deadline - self.clock()
            if left <= 0:
                log.info("network: no network joined %.0f s after the start", self.wait)
                self._open("opened: no network in reach")
                return None
            try:
                return self._orders.get(timeout=min(self.poll, left))
            except queue.Empty:
                continue

    def _open(self, how: str) -> None:
        try:
            device = self.nmcli.wifi_device()  # first: says a missing NetworkManager or Wi-Fi device
            hotspot_country(self.country, self.find_country())
            wifi = WifiCredentials.kept(self.credentials)
            if not self.nmcli.active():
                self.nmcli.open_hotspot(device, wifi.ssid, wifi.password, self.channel)
        except NetworkFault as fault:
            self._fault(fault)
            return
        self._wifi = wifi
        self.opened()
        log.info("network: hotspot %s %s on %s, channel %s", wifi.ssid, how, device, self.channel)
        self.notify(Said(N_("Wi-Fi {ssid} {how}: hold MENU, Join codes"),
                         {"ssid": wifi.ssid, "how": Said(how.partition(":")[0])}))

    def _close(self, *, quiet: bool = False) -> None:
        try:
            self.nmcli.close_hotspot()
        except NetworkFault as fault:
            if quiet:  # home at the start: no NetworkManager is today's behaviour, nothing to say
                log.info("network: %s", fault)
            else:
                self._fault(fault)
            return
        if self._wifi is not None:
            self.notify(Said(N_("Wi-Fi: back on the home network")))
        self._wifi = None
        log.info("network: hotspot closed; NetworkManager joins a known network by itself")

    def _fault(self, fault: NetworkFault) -> None:
        log.warning("network: %s", fault)
        self.notify(fault.said)
