"""Button scripts for ``companion demo --headless --input FILE``.

One action a line (blank lines and ``#`` comments are skipped)::

    ROLL | YES | NO | PREV | NEXT | MENU     a short press of that button
    HOLD <button> <seconds>                 hold a button down (HOLD MENU 2: the host menu)
    DICE <a> <b> [<c>]                      the roller shows these dice and strobes
    WAIT <ms>                               let time pass (scrolling, time-outs, back-off)
    TAP <card>                              put a card on the NFC reader and take it away: a player's name
                                            (TAP Ann, TAP Player 1), a deed's space id (TAP boardwalk), any
                                            other name an unknown card (a virtual PN532: :mod:`.virtual_nfc`)

Each action moves gpiozero MockFactory pins (through :mod:`.virtual`); the table reacts as it
would to real hardware. Time is simulated, so a script gives the same frames on every machine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.engine import CompanionError

from .pins import BUTTONS
from .virtual import VirtualButtons, VirtualRoller
from .virtual_nfc import VirtualCards


class ScriptError(CompanionError, ValueError):
    """A script line that cannot be read (names the line)."""


@dataclass(frozen=True)
class Step:
    line: int
    action: str  # PRESS, HOLD, DICE, WAIT
    button: str = ""
    seconds: float = 0.0
    dice: tuple[int, ...] = ()
    card: str = ""


def parse_script(lines: Iterable[str]) -> list[Step]:
    steps = []
    for number, raw in enumerate(lines, start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        word = words[0].upper()
        try:
            steps.append(_step(number, word, words[1:]))
        except ValueError as error:
            raise ScriptError(f"line {number}: {error}") from None
    return steps


def _step(number: int, word: str, args: list[str]) -> Step:
    if word in BUTTONS:
        if args:
            raise ValueError(f"{word} takes no argument")
        return Step(number, "PRESS", button=word)
    if word == "HOLD":
        if len(args) != 2 or args[0].upper() not in BUTTONS:
            raise ValueError(f"HOLD <button> <seconds>, with a button among {', '.join(BUTTONS)}")
        seconds = float(args[1])
        if not 0 < seconds <= 120:
            raise ValueError("a hold lasts between 0 and 120 seconds")
        return Step(number, "HOLD", button=args[0].upper(), seconds=seconds)
    if word == "DICE":
        if len(args) not in (2, 3):
            raise ValueError("DICE <a> <b> [<c>]")
        values = tuple(int(a) for a in args)
        if any(not 0 <= v <= 7 for v in values):
            raise ValueError("three data lines carry 0 to 7")
        return Step(number, "DICE", dice=values)
    if word == "WAIT":
        if len(args) != 1:
            raise ValueError("WAIT <milliseconds>")
        ms = float(args[0])
        if not 0 <= ms <= 600_000:
            raise ValueError("WAIT takes 0 to 600000 milliseconds")
        return Step(number, "WAIT", seconds=ms / 1000)
    if word == "TAP":
        if not args:
            raise ValueError("TAP <card>: a player's name (TAP Player 1) or a space id (TAP boardwalk)")
        return Step(number, "TAP", card=" ".join(args))
    raise ValueError(f"unknown action {word!r} (ROLL, YES, NO, PREV, NEXT, MENU, HOLD, DICE, WAIT, TAP)")


def run_script(steps: Iterable[Step], buttons: VirtualButtons, roller: VirtualRoller | None,
               cards: VirtualCards | None = None) -> int:
    """Play the steps on the virtual hardware; returns how many were played."""
    played = 0
    for step in steps:
        if step.action == "PRESS":
            buttons.press(step.button)
        elif step.action == "HOLD":
            buttons.hold(step.button, step.seconds)
        elif step.action == "DICE":
            if roller is None:
                raise ScriptError(f"line {step.line}: DICE needs the roller (--dice roller)")
            roller.present(*step.dice)
            buttons.after_step()
            buttons.wait(0.1)
        elif step.action == "WAIT":
            buttons.wait(step.seconds)
        elif step.action == "TAP":
            if cards is None:
                raise ScriptError(f"line {step.line}: TAP needs an NFC reader ([nfc] in pins.toml)")
            cards.tap(step.card)
        played += 1
    return played
