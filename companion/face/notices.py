"""What the table says over the story rows of the OLED, besides the game itself.

Two kinds, shown in the same two rows just above the question (``screens.game_screen``):

* a **notice** — a fault, a refusal, "Rolling..." — one at a time; it fades after a few seconds (a
  long one only once each of its pages has been shown), or stays until the next question;
* **warnings** that stand while their cause lasts — a stuck button, a low or a full disk — keyed by
  their cause; the newest is shown whenever no notice is.
"""

from __future__ import annotations

from companion.drivers.clock import Clock

from . import screens


class Notices:
    """The notice in view and the standing warnings (not thread-safe: the controller's lock guards it)."""

    def __init__(self, clock: Clock, *, notice_time: float = 4.0, scroll_time: float = 1.5) -> None:
        self.clock = clock
        self.notice_time, self.scroll_time = notice_time, scroll_time
        self.notice: str | None = None
        self.until: float | None = None  # when the notice fades (None: it waits for the next question)
        self._ends_with_prompt = False
        self._scroll_base = 0  # the screen's scroll count when the notice appeared: its pages turn from there
        self.warnings: dict[str, str] = {}

    # ------------------------------------------------------------------ notices
    def say(self, text: str, scroll: int, *, sticky: bool = False, until_prompt: bool = False) -> None:
        """Show ``text``; ``sticky``: until the next question; ``until_prompt``: fades, or ends with the question."""
        self.notice = text
        self._scroll_base = scroll
        shown_for = max(self.notice_time, screens.notice_pages(text) * self.scroll_time + self.notice_time / 2)
        self.until = None if sticky else self.clock() + shown_for
        self._ends_with_prompt = sticky or until_prompt

    def clear(self) -> None:
        self.notice, self.until = None, None

    def tick(self, now: float) -> None:
        """Let a notice whose time is up fade."""
        if self.until is not None and now >= self.until:
            self.clear()

    def prompt_changed(self) -> None:
        """A new question: the notices that last until then ("Rolling...", a roller fault) end."""
        if self.notice and self._ends_with_prompt:
            self.clear()

    # ------------------------------------------------------------------ warnings
    def warn(self, cause: str, text: str) -> None:
        self.warnings[cause] = text

    def settle(self, cause: str, only: str | None = None) -> None:
        """``cause`` is over (if its warning reads ``only``, when given): its warning goes."""
        if only is None or self.warnings.get(cause) == only:
            self.warnings.pop(cause, None)

    # ------------------------------------------------------------------ what the OLED shows
    def key(self) -> tuple[object, ...]:
        """What :meth:`shown` depends on besides the scroll count: equal keys, the same text in view."""
        return self.notice, self._scroll_base, tuple(self.warnings.items())

    def shown(self, scroll: int) -> tuple[str | None, int]:
        """The text over the story rows and which of its pages is in view."""
        if self.notice is not None:
            return self.notice, scroll - self._scroll_base
        return next(reversed(self.warnings.values()), None), scroll
