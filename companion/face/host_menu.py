"""The host menu (MENU held): undo, ending the game, a new game (asked first over a game in progress), the join
codes, the host PIN (shown here only: never on the join codes everyone reads), the players, registering cards,
the dice source, the sound, the table's Wi-Fi, allowing PIN login again, shutting down.

Its items are the ones that make sense when it opens (no "Undo" before a game, "Allow PIN login" only while the
phone page's PIN login is paused); the costly ones (ending the game, switching the Wi-Fi, shutting down) ask first,
and any answer to that question leaves the menu.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from companion.engine import find_ruleset
from companion.words import LANGUAGES, Words, language_name

from . import screens
from .cards import CardBook
from .modes import Desk, Item, ListMode, Mode
from .notices import Notices
from .screens import Screen
from .sounds import Hush

if TYPE_CHECKING:
    from companion.network import NetworkAdapter

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PinLock:
    """The phone page's PIN login, paused after too many wrong PINs from anywhere (``companion.web.Access``): the
    OLED says so, and the host menu allows it again."""

    paused: Callable[[], bool]
    allow: Callable[[], None]


class Host(Desk, Protocol):
    """What the host menu may do beyond a mode (implemented by :class:`~.controller.TableController`)."""

    pin_lock: PinLock | None
    cards: CardBook | None
    hush: Hush | None
    network: NetworkAdapter | None
    shutdown: Callable[[], None] | None
    dice_source: str
    notices: Notices
    language: str

    @property
    def words(self) -> Words:
        """The table's words now."""

    def say(self, text: str, *, sticky: bool = False, until_prompt: bool = False) -> None:
        """A notice over the story rows (``sticky``: it stays until the next one)."""

    def next_dice_source(self) -> str:
        """The next dice source (software, manual, the roller when fitted); returns it."""

    def new_game(self) -> None:
        """The set-up of a new game."""

    def show(self, screen: str, *, back: Mode | None = None) -> None:
        """The join codes (``join``), the host's PIN (``host-pin``) or the players (``players``); their NO or YES
        opens ``back``."""

    def phone_page(self) -> bool:
        """Whether the phone page is served."""

    def register_cards(self) -> None:
        """Register the set's cards: the deeds in board order, then the players'."""

    def refresh(self) -> None:
        """Draw now."""

    def set_language(self, language: str) -> None:
        """The table's language from now on (the OLED's and the voice's)."""


class HostMenu(ListMode):
    """The host's list, browsed with PREV/NEXT; YES takes an item (the costly ones asked first), NO leaves."""

    #: Its lines are never covered: a notice waits for the game's screen.
    shows_notice = True
    #: A phone's change closes it (:meth:`changed`): a press after that is the game's.
    guarded = False

    def __init__(self, desk: Host) -> None:
        super().__init__(desk)
        self.host = desk
        self.list = self._build()

    @property
    def name(self) -> str:  # type: ignore[override]
        """``confirm`` while a costly item asks first."""
        return "confirm" if self.confirming is not None else "menu"

    def items(self) -> list[Item]:
        return self.list

    def _build(self) -> list[Item]:
        host, state, w = self.host, self.host.game(), self.host.words
        items = []
        if host.pin_lock is not None and host.pin_lock.paused():
            items.append(Item(w.t("Allow PIN login"), self._allow_pin))
        if state is not None:
            items.append(Item(w.t("Undo last input"), lambda: self._send({"undo": 1})))
            if "end-game" in find_ruleset(state["ruleset"]).host_verbs() and state.get("winner") is None:
                items.append(Item(w.t("End game now (worth)"), lambda: self._send(
                    {"act": {"player": "host", "do": "end-game"}}),
                    confirm=w.t("End the game now? The highest total worth wins.")))
        playing = state is not None and state.get("winner") is None
        items.append(Item(w.t("New game"), host.new_game, confirm=w.t(
            "Start a new game? This one stops here (it stays in the journal). YES again: set it up")
            if playing else None))
        items.append(Item(w.t("Join codes"), lambda: host.show("join")))
        if host.phone_page():
            items.append(Item(w.t("Host PIN"), lambda: host.show("host-pin")))  # never on the shared join codes
        items.append(Item(w.t("Players"), lambda: host.show("players")))
        if host.cards is not None and state is not None:
            items.append(Item(w.t("Register cards"), host.register_cards))
        items.append(Item(self._dice_label(host.dice_source), self._next_dice_source))
        items.append(Item(self._language_label(), self._next_language))
        if host.hush is not None:
            items.append(Item(self._sound_label(), self._toggle_sound))
        if host.network is not None:
            items.append(self._wifi_item(host.network))
        if host.shutdown is not None:
            items.append(Item(w.t("Shut down"), self._shut_down,
                              confirm=w.t("Shut the table down? The game is saved; it resumes at the next start.")))
        items.append(Item(w.t("Back"), lambda: host.open(None)))
        return items

    def _dice_label(self, source: str) -> str:
        """"Dice: software" (the source's name as the host menu says it)."""
        return self.host.words.t("Dice: {source}", source=self.host.words.t(source))

    def _language_label(self) -> str:
        """"Language: Deutsch": each language in its own name, so that anyone finds theirs."""
        return self.host.words.t("Language: {language}", language=language_name(self.host.language))

    def _next_language(self) -> None:
        """The next language of the table (English, German, French, Spanish, round): the menu says it at once."""
        self.host.set_language(LANGUAGES[(LANGUAGES.index(self.host.language) + 1) % len(LANGUAGES)])
        cursor = self.cursor
        self.list = self._build()  # every item in the new language
        self.cursor = cursor

    def press(self, button: str) -> None:
        if self.confirming is not None:  # YES does it, any other button leaves the menu
            item, self.confirming = self.confirming, None
            self.host.open(None)
            if button == "YES":
                item.run()
            return
        super().press(button)

    def changed(self) -> None:
        self.host.open(None)  # its undo would take back the phone's input
        self.host.say(self.host.words.t("Changed on a phone: look again"))

    def screen(self) -> Screen:
        w = self.host.words
        if self.confirming is not None:
            return screens.confirm_screen(self.confirming.confirm or self.confirming.label, words=w)
        return screens.menu_screen(w.t("HOST MENU"), [item.label for item in self.list], self.cursor, w)

    def _send(self, line: dict[str, object]) -> None:
        self.host.open(None)
        self.host.submit(line, "host")

    def _allow_pin(self) -> None:
        if self.host.pin_lock is not None:
            self.host.pin_lock.allow()
            self.host.notices.settle("pin")
        self.host.open(None)
        self.host.say(self.host.words.t("PIN login allowed again"))

    def _next_dice_source(self) -> None:
        self.list[self.cursor].label = self._dice_label(self.host.next_dice_source())

    def _sound_label(self) -> str:
        """"Sound: on", "Sound: off", or "Sound: on, quiet now" in the config's quiet hours."""
        hush, w = self.host.hush, self.host.words
        if hush is None or hush.muted:
            return w.t("Sound: off")
        return w.t("Sound: on, quiet now") if hush.silent() else w.t("Sound: on")

    def _toggle_sound(self) -> None:
        """Mute or unmute the buzzer and the voice (quiet hours still keep them quiet)."""
        hush = self.host.hush
        if hush is not None:
            hush.muted = not hush.muted
            self.list[self.cursor].label = self._sound_label()
            log.info("sound: %s", "off" if hush.muted else "on")

    def _wifi_item(self, network: NetworkAdapter) -> Item:
        """Switch between the home network and the table's own Wi-Fi (for this run), confirmed: phones on the other
        lose the page."""
        w = self.host.words
        if network.switched_to == "hotspot":
            return Item(w.t("Wi-Fi: table's own"), lambda: self._switch_network(network, "home"),
                        confirm=w.t("Back to the home network? Phones on the table's Wi-Fi lose the page."))
        return Item(w.t("Wi-Fi: home network"), lambda: self._switch_network(network, "hotspot"),
                    confirm=w.t("Open the table's own Wi-Fi? Phones on the home network lose the page."))

    def _switch_network(self, network: NetworkAdapter, mode: str) -> None:
        log.info("host menu: Wi-Fi to %s", mode)
        self.host.open(None)
        w = self.host.words
        self.host.say(w.t("Opening the table's Wi-Fi...") if mode == "hotspot" else w.t("Closing the table's Wi-Fi..."))
        network.switch(mode)  # type: ignore[arg-type]  # one of its modes

    def _shut_down(self) -> None:
        self.host.open(None)
        self.host.say(self.host.words.t("Shutting down: the game is saved"), sticky=True)
        self.host.refresh()
        if self.host.shutdown is not None:
            self.host.shutdown()
