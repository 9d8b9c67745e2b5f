"""Growing waits after wrong PINs: per device, per network, and for the whole table.

A pause of PIN login after 20 wrong PINs from anywhere was a switch any guest could throw: 20 wrong PINs from 5
addresses in 0.09 s locked the host out for the evening, and ~20 addresses threw it again within a second of "Allow
PIN login". Instead each wrong PIN makes the next try wait, the longer the more wrong PINs came, counted in three
scopes: the device (an IPv4 address, an IPv6 /64: :func:`.addresses.device`), its network (an IPv4 /24, an IPv6
/64), and the table (the Pi's own loopback counts in the table's alone). A scope's first few wrong PINs cost nothing (typos); after them each doubles the wait, up to
a cap. A try made before every scope's wait is over is not looked at (the right PIN neither: a wait that let the
right PIN through would not slow a search). The right PIN clears the device's and its network's counts and the
table's. The host's sessions already logged in are never asked; the OLED's host menu ("Allow PIN login") clears
every count.

With the caps below a search of the 6-digit PIN from one network (the table's own Wi-Fi is one /24) gets about 12
tries an hour after its first 10, and from any number of networks 60 an hour after the table's first 20: over a
ten-hour evening about 620 tries, one chance in 1,600.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .addresses import device, is_own


@dataclass(frozen=True)
class Scope:
    """How one scope's wrong PINs make its next try wait: the ``free`` first ones nothing, then 1 s doubling up to
    ``cap`` seconds."""

    free: int
    cap: float

    def wait(self, wrong: int) -> float:
        """The wait after ``wrong`` wrong PINs."""
        return 0.0 if wrong < self.free else min(self.cap, 2.0 ** min(wrong - self.free, 30))


DEVICE = Scope(free=3, cap=15 * 60.0)
NETWORK = Scope(free=10, cap=5 * 60.0)
TABLE = Scope(free=20, cap=60.0)
#: Devices and networks remembered at most (an IPv6 attacker has many /64s): the quietest are forgotten first.
REMEMBERED = 4096


def network(address: str | None) -> str:
    """The network a device is counted in too: an IPv4 /24 (the table's Wi-Fi), an IPv6 /64."""
    key = device(address)
    try:
        parsed = ipaddress.ip_address(key)
    except ValueError:
        return key  # an IPv6 /64 already, or no address
    return str(ipaddress.IPv4Network((parsed, 24), strict=False)) if parsed.version == 4 else key


@dataclass
class Count:
    wrong: int = 0
    last: float = 0.0  # when the last wrong PIN came (the clock's time)


@dataclass
class PinDelays:
    """The wrong PINs of each scope and the waits they make; safe to call from several threads."""

    clock: Callable[[], float] = time.monotonic
    _counts: dict[tuple[str, str], Count] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, address: str | None, table_wrong: int) -> float:
        """Seconds before a try from ``address`` is looked at (0: now), the table having had ``table_wrong``."""
        now = self.clock()
        with self._lock:
            waits = [self._left(("table", ""), TABLE, now, table_wrong)]
            if address is not None and not is_own(address):
                waits += [self._left(("device", device(address)), DEVICE, now),
                          self._left(("network", network(address)), NETWORK, now)]
        return max(waits)

    def wrong(self, address: str | None) -> None:
        """A wrong PIN from ``address`` (None: not from a phone): every scope's count grows."""
        now = self.clock()
        with self._lock:
            keys = [("table", "")]
            if address is not None and not is_own(address):  # the Pi itself: the table's count only
                keys += [("device", device(address)), ("network", network(address))]
            for key in keys:
                count = self._counts.setdefault(key, Count())
                count.wrong, count.last = count.wrong + 1, now
            self._forget()

    def right(self, address: str | None) -> None:
        """The right PIN from ``address``: its device's and network's counts, and the table's, start again."""
        with self._lock:
            self._counts.pop(("table", ""), None)
            if address is not None:
                self._counts.pop(("device", device(address)), None)
                self._counts.pop(("network", network(address)), None)

    def clear(self) -> None:
        """Every count starts again (the host's "Allow PIN login" on the OLED)."""
        with self._lock:
            self._counts.clear()

    def _left(self, key: tuple[str, str], scope: Scope, now: float, wrong: int | None = None) -> float:
        count = self._counts.get(key)
        if count is None:
            if not wrong:
                return 0.0
            count = self._counts[key] = Count(wrong, now)  # a count kept over a restart: its wait starts now
        return max(0.0, count.last + scope.wait(wrong if wrong is not None else count.wrong) - now)

    def _forget(self) -> None:
        if len(self._counts) > REMEMBERED:
            for key, _ in sorted(self._counts.items(), key=lambda item: item[1].last)[:len(self._counts) // 4]:
                if key[0] != "table":
                    del self._counts[key]
