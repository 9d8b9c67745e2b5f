"""When the table's journal cannot be used: one writer at a time, and a way out at the table itself.

* :func:`hold_journal`: the table is the journal's one writer; a second table (``companion demo`` twice,
  ``companion run`` beside a demo) on the same file is refused at the start instead of failing at its
  first input ("changed by another writer").
* :func:`ask_to_set_aside`: a journal that cannot be opened (a power cut damaged the SD card under it, a
  read-only file) used to end ``companion run`` with a message in the log, and systemd restarted it every
  two seconds with a blank OLED. The OLED now says why, and YES sets the file aside (renamed, never deleted:
  ``games.sqlite3.damaged-<time>``, for ``companion games`` or a recovery later) so that a new journal starts.
"""

from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from threading import Event
from typing import Any

from companion.drivers import clock as clocks
from companion.drivers.buttons import ButtonEvent, ButtonPanel
from companion.drivers.display import Display
from companion.drivers.pins import PinMap
from companion.face import screens
from companion.face.draw import Painter
from companion.journal import JournalError
from companion.words import Words

log = logging.getLogger(__name__)

TICK = 0.01


class JournalUnusable(JournalError):
    """The journal file cannot be opened at all (damaged beyond its games, read-only, a newer format)."""


def hold_journal(path: str | os.PathLike[str]) -> Callable[[], None]:
    """Take the journal for this table (an advisory lock beside it, freed when the process ends, even killed);
    returns what frees it. :class:`JournalError` if another table holds it."""
    lock_path = f"{os.fspath(path)}.lock"
    handle = os.fdopen(os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600), "r+b")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise JournalError(f"another companion is using {os.fspath(path)} (stop it first)") from None

    def release() -> None:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()

    return release


def set_aside(path: str | os.PathLike[str], now: datetime) -> Path:
    """Rename the journal (with its write-ahead log and shared memory files) out of the way; the new name."""
    stamp = now.strftime("%Y%m%d-%H%M%S")
    kept = Path(f"{os.fspath(path)}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{os.fspath(path)}{suffix}")
        if source.exists():
            source.rename(f"{kept}{suffix}")
    log.warning("journal %s set aside as %s", os.fspath(path), kept)
    return kept


def ask_to_set_aside(error: Exception, path: str | os.PathLike[str], *, pins: PinMap, pin_factory: Any,
                     open_device: Callable[[], Any], clock: clocks.Clock, sleep: clocks.Sleep, stop: Event,
                     now: Callable[[], datetime], on_frame: Callable[[Any], None] | None = None,
                     language: str = "en") -> bool:
    """Show why the journal cannot be opened, until YES (the file is set aside: True, start again) or ``stop``
    (False). Nothing else runs meanwhile: no game can be saved."""
    chosen = Event()

    def on_button(event: ButtonEvent) -> None:
        if event.kind == "press" and event.button == "YES":
            chosen.set()

    display = Display(open_device, clock=clock, on_frame=on_frame)
    panel = ButtonPanel(pins.buttons, on_button, pin_factory=pin_factory, clock=clock)
    painter = Painter()
    words = Words.for_language(language)
    text = words.t("The journal cannot be used: {error}. YES: set it aside (it is renamed, not deleted) and start a "
                   "new journal. Or switch off and copy it off the card.", error=error)
    scroll, turn_at = 0, clock() + 3.0
    try:
        while not stop.is_set() and not chosen.is_set():
            if clock() >= turn_at:
                scroll, turn_at = scroll + 1, clock() + 3.0
            display.show(painter.paint(screens.message_screen(words.t("JOURNAL PROBLEM"), text,
                                                              words.t("YES: new journal"), scroll)))
            display.poll()
            panel.poll()
            sleep(TICK)
    finally:
        panel.close()
        display.close()
    if not chosen.is_set():
        return False
    set_aside(path, now())
    return True
