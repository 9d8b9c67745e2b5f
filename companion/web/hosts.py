"""Which names the phone page answers to: its defence against DNS rebinding.

A web page from anywhere can make a phone's browser ask an attacker's name that the attacker's DNS
then points at the table (``evil.example`` → ``192.168.1.20``): same origin for the browser, so the
page could read what an anonymous phone reads and try join codes. The browser still sends
``Host: evil.example``. The table answers only to names a home network gives it: an address
(what its screen and QR codes show), a name without dots (``raspberrypi``), the machine's own
name, the names of local networks (``.local``, ``.lan``, ``.home.arpa`` …), and the names listed
in the config (``web_names``) for anything else.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Collection

#: Suffixes of names only a local network resolves (mDNS, routers' own zones, RFC 8375 and 6761).
#: Not ``.fritz.box`` (``.box`` is a public top-level domain): a Fritz!Box's name for the table goes in ``web_names``.
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain", ".localhost")


def host_name(host: str) -> str:
    """The name in a ``Host`` header: no port, no IPv6 brackets, lower case, no final dot."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host[1:]
    if host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def known_names(names: Collection[str] = ()) -> frozenset[str]:
    """The machine's own name (whole and its first label) and ``names``, as :func:`host_name` reads them: found once,
    when the app is made, not at each request."""
    own = socket.gethostname().lower()
    return frozenset({own, own.partition(".")[0], *(host_name(n) for n in names)})


def answers_to(host: str, known: frozenset[str] | None = None) -> bool:
    """Whether the table answers a request made to ``host`` (the ``Host`` header); ``known``: :func:`known_names`."""
    name = host_name(host)
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return "." not in name or name.endswith(LOCAL_SUFFIXES) or name in (known_names() if known is None else known)
