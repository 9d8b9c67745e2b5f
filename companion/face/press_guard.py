"""Which screen a press was meant for: a press that arrives just after the game's question changed is refused.

People press a few hundred milliseconds after what they saw. A second YES 350 ms after the YES that bought a deed
lands on the next question, often another player's: it would roll Bob's dice, bid for him or answer for him. So a
press of YES, NO, ROLL, PREV or NEXT whose button went down before the new question was drawn, or less than
:data:`GUARD` seconds after, was meant for the screen before: it is refused with a notice that says what changed
("Bob's turn now"), never applied. The same holds after any change from elsewhere (a phone, the host's page, the
game's clock), question or not. The phones do the same with the state's ``seq`` (a tap on an older state gets 409).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.words import ENGLISH, N_, Words

#: Seconds after the question changed (or a phone changed the game) during which a press is refused: meant for the
#: screen before (people press a few hundred ms after what they saw; the issue's double press came 350 ms apart).
GUARD = 0.6
#: The buttons a guard holds back (MENU is never a game's answer).
GUARDED = ("YES", "NO", "ROLL", "PREV", "NEXT")
#: What a press too soon after a phone's change is told.
PHONE = N_("Changed on a phone: look, then press again")


class PressGuard:
    """When the screen last changed under the players' fingers, and what to say to a press that came too soon."""

    def __init__(self) -> None:
        self._since = float("-inf")
        self._why = ""
        self._player = ""  # the player whose turn it is now, for "{player}'s turn now"

    def question_changed(self, at: float, before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> None:
        """The game asks something else from ``at`` on, after the buttons' own input."""
        self._since, self._why = at, changed_words(before, after)
        self._player = str((after or {}).get("player") or "")

    def changed_elsewhere(self, at: float) -> None:
        """A phone (or the host's page, the timer) changed the game at ``at``, its question or not."""
        self._since, self._why = at, PHONE

    def refusal(self, button: str, pressed_at: float, words: Words = ENGLISH) -> str | None:
        """What to say to ``button`` pressed (its edge) at ``pressed_at``, if it was meant for the screen before."""
        if button in GUARDED and pressed_at < self._since + GUARD:
            return words.t(self._why, player=self._player)
        return None


#: Acts on a player's own deeds: after one the question is the same, its amounts brought up to date (a debtor
#: mortgages deed after deed, YES after YES, on the deeds' list).
OWN_DEEDS = frozenset({"build", "sell", "mortgage", "unmortgage", "improve", "sign", "borrow", "repay", "buy-idle",
                       "sell-idle"})


def new_question(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None, line: Mapping[str, Any]) -> bool:
    """Whether ``line`` took the game from question ``before`` to another one: another player's, another kind, a
    roll's result, an auction's next bid — anything but an act on the asked player's own deeds under the same
    question (its amounts brought up to date)."""
    if before == after:
        return False
    if before is None or after is None or before.get("kind") == "auction":
        return True
    act = line.get("act") or {}
    same = before.get("kind") == after.get("kind") and before.get("player") == after.get("player")
    return not (same and act.get("do") in OWN_DEEDS)


def changed_words(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> str:
    """The notice for a press that came too soon after ``before`` became ``after`` ("Bob's turn now: look first")."""
    if after is None:
        return N_("The game moved on: look, then press again")
    player = after.get("player")
    if after.get("kind") == "auction":
        return N_("Auction: look, then press again")
    if player and (before is None or before.get("player") != player):
        return N_("{player}'s turn now: look, then press again")  # said with the player's name
    return N_("A new question: look, then press again")
