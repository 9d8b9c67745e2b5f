"""The join screens: the phone page as the OLED shows it (:class:`JoinInfo`), the table's own Wi-Fi first while it
is up, then the page's code, then each player's, as QR codes (:func:`qr_matrix`) beside their text; and the host's
own screen with the host PIN (:func:`host_pin_screen`), which the shared join screens never show."""

from __future__ import annotations

from dataclasses import dataclass

from companion.network.wifi import WifiCredentials, qr_payload

from companion.words import ENGLISH, Words

from . import screens
from .screens import Screen


@dataclass(frozen=True)
class JoinInfo:
    """The phone page as the OLED shows it (from ``companion.web.Access``)."""

    url: str | None = None  # the page's address
    join_url: str | None = None  # what the QR code holds
    code: str | None = None  # the join digits
    pin: str | None = None  # the host PIN
    #: Each player's own page: (name, their digits, what their QR code holds), in turn order.
    players: tuple[tuple[str, str, str], ...] = ()
    wifi: tuple[str, str] | None = None  # the table's own Wi-Fi while it is up: its name and password


def join_screen(info: JoinInfo, page: int, words: Words = ENGLISH) -> Screen:
    """Page ``page`` of the join screens (PREV/NEXT turn them, round and round)."""
    wifi = 1 if info.wifi else 0  # the table's own Wi-Fi first: join it, then open the page
    page = page % (len(info.players) + 1 + wifi) - wifi
    if page < 0 and info.wifi:
        ssid, password = info.wifi
        return screens.wifi_join_screen(qr_matrix(qr_payload(WifiCredentials(ssid, password))), ssid, password,
                                        words)
    if page:
        name, code, url = info.players[page - 1]
        return screens.player_join_screen(qr_matrix(url), name, code, page, len(info.players), words)
    return screens.join_screen(qr_matrix(info.join_url) if info.join_url else None, info.url, info.code, words)


def host_pin_screen(info: JoinInfo, words: Words = ENGLISH) -> Screen:
    """The host's own screen: the page and the host PIN (the shared join screens never show the PIN)."""
    return screens.host_pin_screen(qr_matrix(info.join_url) if info.join_url else None, info.url, info.pin, words)


def qr_matrix(text: str) -> tuple[str, ...]:
    """The modules of a QR code for ``text`` ('1' dark), smallest version, low error correction."""
    import segno  # only when a join screen is shown

    code = segno.make(text, error="l", micro=False, boost_error=False)
    return tuple("".join("1" if cell else "0" for cell in row) for row in code.matrix)
