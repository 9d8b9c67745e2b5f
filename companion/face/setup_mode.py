"""A new game set up on the buttons: the ruleset, then the players, then the options the buttons can set (or the
rest on the phone page), then start.

The players are "Player 1".."Player n" (or the running game's, "Same: Ann, Bob"): names are typed on the phone
page. A phone's input meanwhile leaves the set-up open; a game started on the phone page closes it.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Protocol

from companion.engine import find_ruleset, ruleset_ids
from companion.words import N_

from . import screens
from .modes import Desk, Item, ListMode, Mode
from .screens import Screen
from .setup import OptionSetting, button_options, chosen, ruleset_title


class Starter(Desk, Protocol):
    """What the set-up may do beyond a mode (implemented by :class:`~.controller.TableController`)."""

    def start(self, ruleset: str, players: list[str], options: dict[str, Any]) -> None:
        """Start the new game (its seed is the table's to draw); a refusal is said."""

    def phone_page(self) -> bool:
        """Whether the phone page is served (its host set-up takes names, amounts, spaces)."""

    def show(self, screen: str, *, back: Mode | None = None) -> None:
        """The join codes (``join``), the host's PIN (``host-pin``) or the players; their NO or YES opens ``back``."""


class SetUpMode(ListMode):
    """One step's list at a time, browsed with PREV/NEXT; YES takes an item, NO leaves."""

    name = "setup"
    #: Its lines are never covered: a notice waits for the game's screen.
    shows_notice = True
    #: Nothing here is meant for the game a phone just changed.
    guarded = False

    def __init__(self, desk: Starter) -> None:
        super().__init__(desk)
        self.starter = desk
        self.title = N_("NEW GAME: RULESET")
        self.list = [Item(ruleset_title(find_ruleset(r)), partial(self._players, r)) for r in ruleset_ids()]
        current = desk.game()
        if current is not None and current["ruleset"] in ruleset_ids():
            self.cursor = ruleset_ids().index(current["ruleset"])

    def items(self) -> list[Item]:
        return self.list

    def screen(self) -> Screen:
        w = self.starter.labels().words
        return screens.menu_screen(w.t(self.title), [item.label for item in self.list], self.cursor, w)

    def _step(self, title: str, items: list[Item]) -> None:
        self.title, self.list, self.cursor = title, items, 0

    def _players(self, ruleset: str) -> None:
        board = find_ruleset(ruleset).board
        items, w = [], self.starter.labels().words
        current = self.starter.game()
        if current is not None:
            names = [p["name"] for p in current["players"]]
            if board.min_players <= len(names) <= board.max_players:
                items.append(Item(w.t("Same: {players}", players=", ".join(names)),
                                  partial(self._options, ruleset, names)))
        for count in range(board.min_players, board.max_players + 1):
            names_n = [w.t("Player {n}", n=i) for i in range(1, count + 1)]
            items.append(Item(w.t("{n} players", n=count), partial(self._options, ruleset, names_n)))
        self._step(N_("NEW GAME: PLAYERS"), items)

    def _options(self, ruleset: str, players: list[str]) -> None:
        """The last step: start, or change an option the buttons can set, or finish on the phone page."""
        settings = button_options(find_ruleset(ruleset))
        w = self.starter.labels().words
        items = [Item(w.t("Start the game"), lambda: self.starter.start(ruleset, players, chosen(settings)))]
        for setting in settings:
            items.append(Item(setting.label(w), partial(self._next_value, setting)))
        if self.starter.phone_page():  # the phone page's host set-up: names, amounts, spaces (see docs/web.md)
            items.append(Item(w.t("More on your phone"), lambda: self.starter.show("host-pin", back=self)))
        self._step(N_("NEW GAME: OPTIONS"), items)

    def _next_value(self, setting: OptionSetting) -> None:
        setting.next()
        self.list[self.cursor].label = setting.label(self.starter.labels().words)
