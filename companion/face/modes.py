"""What the buttons and the card reader are doing, one small class each, over the shared screen model.

A :class:`Mode` takes presses (:meth:`Mode.press`), cards put on the reader (:meth:`Mode.card`) and time
(:meth:`Mode.tick`), and says what the OLED shows (:meth:`Mode.screen`, a :class:`.screens.Screen`). It acts on
the game only through its :class:`Desk` (the controller): submitting an input with its source, saying a notice,
opening another mode. A new input device is then a new source of events for the modes, not new branches in the
controller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.drivers.clock import Clock
from companion.engine import State

from . import screens
from .dice import ManualEntry
from .screens import Labels, Row, Screen


@dataclass
class Item:
    """One line of a list browsed with PREV/NEXT: what YES does, and the question asked first (if any)."""

    label: str
    run: Callable[[], object]
    confirm: str | None = None


class Desk(Protocol):
    """What a mode may do at the table (implemented by :class:`~.controller.TableController`)."""

    clock: Clock

    def game(self) -> State | None:
        """The engine's whole state now (None before a game)."""

    def labels(self) -> Labels:
        """The current board's space names."""

    def submit(self, line: dict[str, Any], source: str) -> bool:
        """Journal and apply an input; a refusal is said on the OLED (False)."""

    def say(self, text: str) -> None:
        """A notice over the story rows."""

    def open(self, mode: Mode | None) -> None:
        """Hand the buttons (and cards) to ``mode``; None: back to the game."""

    def open_deeds(self, player: str, *, space: str | None = None, source: str = "button") -> None:
        """A player's deeds (those of ``space`` only, when given), their acts sent with ``source``."""

    def is_open(self, mode: Mode) -> bool:
        """Whether ``mode`` is still the one the buttons are in (an input may have closed it)."""

    def roll(self) -> None:
        """What ROLL does at the game's own question."""

    def story(self) -> list[dict[str, Any]]:
        """The events of the last input."""

    def own(self) -> bool:
        """Whether the last input was the buttons' (or a card's) own, not a phone's."""

    def notice(self) -> str | None:
        """The notice (or standing warning) in view."""


class Mode:
    """One thing the table is doing; the default does nothing with what it does not know."""

    name = "mode"  # what :attr:`~.controller.TableController.mode` says while it is open
    shows_notice = False  # True: its screen draws the notice itself (else it goes over the rows above the hint)
    #: Whether a short press of MENU leaves it (the manual dice entry keeps MENU for nothing: a slip must not lose
    #: the dice entered so far).
    menu_leaves = True
    #: Whether YES, NO and ROLL are refused just after a phone's change (they were meant for the screen before).
    guarded = True

    def __init__(self, desk: Desk) -> None:
        self.desk = desk

    def press(self, button: str) -> None:
        """A button pressed (MENU is the controller's: it leaves the mode)."""

    def card(self, tap: Any) -> bool:
        """A card put on the reader (:class:`~.taps.CardTap`); False: not this mode's business."""
        return False

    def tick(self, now: float) -> None:
        """Time passes (a mode may end by itself)."""

    def changed(self) -> None:
        """The game changed from elsewhere (a phone)."""

    def prompt_changed(self, prompt: Any) -> None:
        """The game asks a new question (``prompt``: the state's, None when it asks nothing)."""

    def place(self) -> str | None:
        """What the cursor is on (a key), to find it again after a phone's change (None: nothing to keep)."""
        return None

    def find_again(self, key: str) -> None:
        """After a phone's change: the cursor back on ``key`` (see :meth:`place`), or on the first item."""

    def screen(self) -> Screen:
        raise NotImplementedError


class DiceEntryMode(Mode):
    """Real dice entered with the buttons (the ``manual`` source): NEXT/PREV change a die, YES (or ROLL) takes it
    and then the roll, NO goes back a die (from the first: back to the game)."""

    name = "dice"
    menu_leaves = False

    def __init__(self, desk: Desk, entry: ManualEntry, player: str, roll: Callable[[tuple[int, ...]], object]) -> None:
        super().__init__(desk)
        self.entry, self.player, self.roll = entry, player, roll

    def press(self, button: str) -> None:
        entry = self.entry
        if button == "NEXT":
            entry.up()
        elif button == "PREV":
            entry.down()
        elif button in ("YES", "ROLL") and entry.confirm():
            self.desk.open(None)
            self.roll(tuple(entry.values))
        elif button == "NO" and entry.back():
            self.desk.open(None)

    def changed(self) -> None:
        self.desk.open(None)  # a roll half-entered was meant for the question before
        self.desk.say(self.desk.labels().words.t("Changed on a phone: look again"))

    def prompt_changed(self, prompt: Any) -> None:
        if prompt is None or prompt.get("kind") != "roll":
            self.desk.open(None)

    def screen(self) -> Screen:
        words = self.desk.labels().words
        return screens.dice_entry_screen(self.player, self.entry.values, self.entry.cursor, self.entry.label(words),
                                         words)


class ListMode(Mode):
    """A list of :class:`Item` browsed with PREV/NEXT: YES runs one (asking first if it says so), NO leaves."""

    def __init__(self, desk: Desk) -> None:
        super().__init__(desk)
        self.cursor = 0
        self.confirming: Item | None = None

    def items(self) -> list[Item]:
        raise NotImplementedError

    def press(self, button: str) -> None:
        items = self.items()
        if self.confirming is not None:
            item, self.confirming = self.confirming, None
            if button == "YES":
                item.run()
            return
        if button == "NO" or not items:
            self.desk.open(None)
        elif button in ("NEXT", "PREV"):
            self.cursor = (self.cursor + (1 if button == "NEXT" else -1)) % len(items)
        elif button == "YES":
            item = items[self.cursor % len(items)]
            if item.confirm:
                self.confirming = item
            else:
                item.run()


#: Rows a notice may cover on a mode's screen (a list, a registration): one more than the game screen's, whose
#: story it pages through; here a notice is one short sentence ("Boardwalk: new tag; the old one is void").
NOTICE_ROWS = screens.NOTICE_ROWS + 1


def with_notice(screen: Screen, notice: str | None) -> Screen:
    """``screen`` with a notice (a refusal, "Boardwalk registered") over the rows just above its hint."""
    if not notice:
        return screen
    lines = screens.wrap(f"! {notice}")[:NOTICE_ROWS]
    at = len(screen.rows) - 1 - len(lines)
    rows = (*screen.rows[:at], *(Row(line) for line in lines), *screen.rows[at + len(lines):])
    return Screen(rows, screen.qr, screen.scrolls, screen.name)
