"""Which device a connection comes from, for the limits counted per address.

An IPv4 address is one device. An IPv6 device takes as many addresses as it likes from its network's /64 (privacy
addresses, and an attacker's whole prefix), so the limits count a /64 as one device; an IPv4 address seen through a
dual-stack socket (``::ffff:192.168.1.5``) is the IPv4 address. The Pi itself (loopback) is never limited per
address, only in the totals.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

#: The prefix of an IPv6 network that counts as one device.
IPV6_DEVICE_PREFIX = 64
#: Addresses whose device is kept worked out: a table's phones and then some (a request asks 5 times: the doorway
#: twice, the read watch, the limits), each a parse by ``ipaddress`` otherwise.
KNOWN_ADDRESSES = 1024


@lru_cache(maxsize=KNOWN_ADDRESSES)
def device(address: str | None) -> str:
    """The key the per-address limits count ``address`` under: the IPv4 address, or the IPv6 /64 as ``2001:db8::/64``
    (text that is no address is its own key)."""
    try:
        parsed = ipaddress.ip_address((address or "").split("%", 1)[0])
    except ValueError:
        return address or ""
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        if parsed.is_loopback:
            return str(parsed)
        return str(ipaddress.IPv6Network((parsed, IPV6_DEVICE_PREFIX), strict=False))
    return str(parsed)


#: The Pi's own addresses: no per-address limit for them.
OWN = frozenset({"127.0.0.1", "::1"})


def is_own(address: str | None) -> bool:
    """Whether ``address`` is the Pi itself (``127.0.0.1`` or ``::1``, also as seen through a dual-stack socket)."""
    return device(address) in OWN
