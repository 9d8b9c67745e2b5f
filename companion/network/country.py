"""The Wi-Fi country: which radio rules the hotspot obeys (channels, power), from the config or the system.

The system's is what the kernel's regulatory domain holds (``iw reg get``; Raspberry Pi Imager and
``raspi-config`` set it, and ``firmware/install.sh`` sets the config's). The hotspot opens only where the country
is known and the two agree: a radio transmitting under another country's rules may be unlawful where the table
stands, and without a country Raspberry Pi OS keeps the Wi-Fi switched off.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable

from companion.said import N_, Said

from .nmcli import NetworkFault

#: ISO 3166-1 alpha-2: the codes the regulatory database is keyed by.
COUNTRIES = frozenset("""
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC
CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD
GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH
KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW
MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC
SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY
UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
""".split())
#: Codes people write that are not ISO's, and the one they mean.
MISTAKES = {"UK": "GB", "EN": "GB", "EL": "GR"}
UNSET = "00"  # the kernel's "world" domain: no country set


def system_country(run: Callable[[list[str]], str] | None = None) -> str | None:
    """The kernel's Wi-Fi country (``iw reg get``'s global one), or None if unset or not to be found."""
    try:
        text = (run or _run)(["iw", "reg", "get"])
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"^country ([A-Z0-9]{2}):", text, re.MULTILINE)
    code = found.group(1) if found else UNSET
    return None if code == UNSET else code


def _run(args: list[str]) -> str:
    return subprocess.run(args, capture_output=True, text=True, timeout=10, check=True).stdout


def hotspot_country(configured: str, system: str | None) -> str:
    """The country the hotspot opens under; NetworkFault (one line, what to do) if it is missing or wrong."""
    wanted = configured.strip().upper()
    if wanted and wanted not in COUNTRIES:
        meant = f" ({MISTAKES[wanted]}?)" if wanted in MISTAKES else ""
        raise NetworkFault(Said(N_("Wi-Fi country {configured} is not a country code{meant}: no hotspot"),
                                {"configured": repr(configured), "meant": meant}))
    if not wanted and system is None:
        raise NetworkFault(Said(N_("No Wi-Fi country set: put wifi_country in the config. No hotspot")))
    if wanted and system is not None and system != wanted:
        raise NetworkFault(Said(N_("Wi-Fi country is {system}, the config says {wanted}: run {command}. No hotspot"),
                                {"system": system, "wanted": wanted,
                                 "command": f"sudo raspi-config nonint do_wifi_country {wanted}"}))
    return wanted or system  # type: ignore[return-value]  # one of them is set (checked above)
