"""A player's deeds on the buttons: build, mortgage, sell... one act a page (:func:`.choices.deed_choices`).

Opened from a question's "Build, mortgage" entry, from a player's window or by a deed's sticker (its acts only).
PREV/NEXT browse; YES acts (one that spends money asks for a second YES), and the cursor goes on with the next act,
never onto the reverse of the one just done; NO leaves (or drops the second YES); ROLL leaves and rolls. They close
when the question they were opened at moves on (the debt is paid, a phone answered it).
"""

from __future__ import annotations

from typing import Any

from companion.engine import State

from . import screens
from .choices import ButtonChoice, choice_key, deed_choices, next_deed
from .modes import Desk, Mode
from .screens import Screen


class DeedsMode(Mode):
    """One player's acts on their own spaces (those on ``space`` only, when given), sent with ``source``."""

    name = "deeds"
    shows_notice = True  # a refusal or a fault is drawn in place of the story, above the act

    def __init__(self, desk: Desk, player: str, *, space: str | None = None, source: str = "button") -> None:
        super().__init__(desk)
        self.player, self.space, self.source = player, space, source
        state = desk.game()
        self.seq = state["seq"] if state is not None else -1  # the story shown is of acts made here only
        self.prompt_kind = ((state or {}).get("prompt") or {}).get("kind", "")
        self.cursor = 0
        self.confirm: str | None = None  # the act (its key) waiting for a second YES
        self._of: tuple[State, list[ButtonChoice]] | None = None

    def deeds(self) -> list[ButtonChoice]:
        state = self.desk.game()
        if state is None:
            return []
        if self._of is None or self._of[0] is not state:
            deeds = deed_choices(state, self.player, self.desk.labels())
            if self.space is not None:  # its sticker tapped: that deed's acts
                deeds = [d for d in deeds if d.line is not None and d.line["act"].get("space") == self.space]
            self._of = (state, deeds)
        return self._of[1]

    def press(self, button: str) -> None:
        deeds = self.deeds()
        if button == "NO" and self.confirm is not None:
            self.confirm = None  # back to the act, not out of the deeds
        elif button == "NO" or not deeds:
            self.desk.open(None)
        elif button == "ROLL":  # done with the deeds: roll
            self.desk.open(None)
            self.desk.roll()
        elif button in ("PREV", "NEXT"):
            self.cursor = (self.cursor + (1 if button == "NEXT" else -1)) % len(deeds)
            self.confirm = None
        elif button == "YES":
            self._act(deeds, self.cursor % len(deeds))

    def _act(self, deeds: list[ButtonChoice], at: int) -> None:
        line = deeds[at].line
        if deeds[at].confirm and self.confirm != choice_key(deeds[at]):  # it costs money: YES again
            self.confirm = choice_key(deeds[at])
            return
        self.confirm = None
        if line is not None and self.desk.submit(line, self.source) and self.desk.is_open(self):
            after = self.deeds()
            cursor = next_deed(after, line["act"], at) if after else None
            if cursor is None:
                self.desk.open(None)  # nothing more to do on them, or only what would undo it
            else:
                self.cursor = cursor

    # ------------------------------------------------------------------ a phone changed the game meanwhile
    def place(self) -> str | None:
        deeds = self._of[1] if self._of is not None else []
        return choice_key(deeds[self.cursor % len(deeds)]) if deeds else None

    def find_again(self, key: str) -> None:
        """The same act again (never whatever took its place: a YES there would sell the house a phone had just
        built); if it is gone, the first."""
        keys = [choice_key(c) for c in self.deeds()]
        self.cursor = keys.index(key) if key in keys else 0

    def changed(self) -> None:
        self.confirm = None

    def prompt_changed(self, prompt: Any) -> None:
        if prompt is None or prompt.get("kind") != self.prompt_kind or prompt.get("player") != self.player:
            self.desk.open(None)  # the debt is paid (the turn goes on: doubles, the next roll), or a phone moved it on

    # ------------------------------------------------------------------ the OLED
    def screen(self) -> Screen:
        state = self.desk.game()
        if state is None:
            w = self.desk.labels().words
            return screens.message_screen(w.t("DEEDS"), w.t("No game is running"), w.t("NO: back"))
        deeds, w = self.deeds(), self.desk.labels().words
        cash = next((p.get("cash", 0) for p in state["players"] if p["name"] == self.player), 0)
        # What the last act asks the table to do (a house to put down, a deed to turn over); its payment is in the
        # header's cash. Not a phone's act.
        told = screens.story([e for e in self.desk.story() if e.get("kind") != "pay"], w) \
            if state["seq"] > self.seq and self.desk.own() else []
        notice = self.desk.notice()
        if notice:  # a refusal (a phone changed the game meanwhile), a fault: before the story
            told = [f"! {notice}"]
        prompt = state.get("prompt") or {}
        owes = prompt.get("amount") if prompt.get("kind") == "debt" and prompt.get("player") == self.player else None
        if not deeds:
            return screens.deeds_screen(self.player, cash, told, w.t("Nothing to do on the deeds now"), 0, 1, owes,
                                        words=w)
        cursor = self.cursor % len(deeds)
        deed = deeds[cursor]
        asked = deed.confirm if deed.confirm is not None and self.confirm == choice_key(deed) else None
        return screens.deeds_screen(self.player, cash, told, asked or deed.label, cursor, len(deeds), owes,
                                    confirming=asked is not None, words=w)
