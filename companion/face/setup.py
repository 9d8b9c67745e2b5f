"""The options of a new game that the buttons can set on the OLED.

A ruleset's options are its board's defaults (``[options]`` of the board file) checked by the
engine. The OLED offers the ones a button can set without typing: the board's presets (the official short game:
one row, on or off, that sets its options), yes/no options and options with a fixed list of choices
(``Ruleset.option_choices``); YES moves such a row to its next value.
Amounts, spaces and lists (start cash, the airplane's space, the bridge) are set on the phone
page's host set-up, which the OLED's set-up offers as its last item.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine.core import Ruleset
from companion.words import ENGLISH, Words


@dataclass
class OptionSetting:
    """One option as the set-up menu shows it: its values in the order YES goes through them."""

    name: str
    values: tuple[Any, ...]  # the board's default first
    index: int = 0
    sets: Mapping[str, Any] | None = None  # a preset: the options it sets when on (its values: off, on)

    @property
    def value(self) -> Any:
        return self.values[self.index]

    @property
    def changed(self) -> bool:
        return self.index != 0

    def next(self) -> None:
        """YES: the next value, round to the default again."""
        self.index = (self.index + 1) % len(self.values)

    def label(self, said: Words = ENGLISH) -> str:
        """``double trouble: doubles``, ``one card each: on``."""
        return said.t("{option}: {value}", option=said.t(words(self.name)), value=said.t(words(self.value)))


def ruleset_title(ruleset: Ruleset) -> str:
    """The ruleset as a menu row names it: its board's name without the patent or trade mark in brackets
    ("Landlord's game, 1904"; the whole name cut to a row left the two landlord's games alike)."""
    title = ruleset.board.name.split(" (")[0].removeprefix("The ")
    return title[:1].upper() + title[1:]


def words(value: Any) -> str:
    """An option's name or value as the OLED says it (``even_step`` reads "even step"; booleans on/off)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ").replace("-", " ")


def button_options(ruleset: Ruleset) -> list[OptionSetting]:
    """The options of ``ruleset`` a button can set, in the board file's order, each at its default."""
    settings = [OptionSetting(p.text.split(":")[0], (False, True), sets=p.options) for p in ruleset.presets]
    for name, default in ruleset.board.options.items():
        if name in ruleset.option_choices:
            choices = tuple(ruleset.option_choices[name])
            values = (default, *(c for c in choices if c != default))
        elif isinstance(default, bool):
            values = (default, not default)
        else:
            continue  # an amount, a space or a list: on the phone
        settings.append(OptionSetting(name, values))
    return settings


def chosen(settings: list[OptionSetting]) -> dict[str, Any]:
    """The options that differ from the board's defaults (a preset on: those it sets), as a setup's ``options``."""
    options: dict[str, Any] = {}
    for s in settings:
        if s.sets is not None:
            options.update(s.sets if s.value else {})
        elif s.changed:
            options[s.name] = s.value
    return options
