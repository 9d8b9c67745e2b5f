"""``companion demo`` in a terminal: keys act as the buttons (:mod:`.keys`), the OLED is drawn in the terminal with
the seat lights below it, the phone page is served; ``--sound``: the buzzer's tunes and the voice on this
computer's speaker."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from companion.drivers import clock as clocks
from companion.drivers.audio import AudioOut
from companion.drivers.tunes import SpeakerTunes
from companion.face.sounds import Hush

from ..mock import mock_station
from ..parts import mouth_opener
from ..station import TICK
from .keys import HELP, TAP_TIME, CardPrompt, HeldKeys, split_keys


def speaker_sound(sound: bool) -> dict[str, Any]:
    """The demo's ``--sound``: the buzzer's tunes and the voice (espeak-ng) on this computer's audio output, with
    the host menu's mute; nothing without it."""
    if not sound:
        return {}
    return {"open_tunes": lambda: SpeakerTunes(AudioOut().play_pcm), "hush": Hush(),
            "open_mouth": mouth_opener("espeak")}


def demo_interactive(*, dice: str, journal_path: Path, port: int, out: TextIO, sound: bool = False,
                     screen: str = "auto", language: str = "en") -> int:
    """Keys act as the buttons; the OLED is drawn in the terminal (``screen``: "auto", "text" or "pixels",
    :func:`~companion.face.terminal.frame_text`), the seat lights below it; the phone page is served. ``sound``: the
    buzzer's tunes and the voice on this computer's speaker."""
    import random
    import select
    import termios
    import time
    import tty

    from companion.drivers.lights import blocks
    from companion.drivers.virtual import VirtualButtons, VirtualRoller
    from companion.drivers.virtual_nfc import demo_uid
    from companion.face.terminal import frame_text

    journal_path.parent.mkdir(parents=True, exist_ok=True)
    latest: list[Any] = [None]
    stop = threading.Event()
    with mock_station(journal_path=journal_path, dice=dice, clock=clocks.monotonic, sleep=clocks.sleep,
                      setup=None, new_seed=lambda: random.SystemRandom().randrange(2**31),
                      on_frame=lambda image: latest.__setitem__(0, image), web=("0.0.0.0", port),
                      shutdown=stop.set, language=language, **speaker_sound(sound)) as (station, factory, pins):
        buttons = VirtualButtons(factory, pins.buttons, clocks.sleep)
        roller = VirtualRoller(factory, pins.roller, clocks.sleep)
        rng = random.SystemRandom()
        url = station.controller.join_info().url
        held = HeldKeys(buttons.down, buttons.up)
        cards = CardPrompt()
        lift_at: float | None = None  # when the card typed after t leaves the reader
        asking: str | None = None  # the prompt line shown
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        shown: Any = None
        lit: Any = None  # the seat lights drawn
        size = shutil.get_terminal_size((80, 24))
        # Back from Ctrl-Z (fg): the shell gave the terminal back in line mode; take it again and redraw.
        resumed = threading.Event()
        previous_cont = signal.signal(signal.SIGCONT, lambda *_: resumed.set())
        try:
            tty.setcbreak(fd)
            out.write("\x1b[2J")
            while not stop.is_set():
                ready, _, _ = select.select([sys.stdin], [], [], TICK)
                now = time.monotonic()
                if resumed.is_set():
                    resumed.clear()
                    tty.setcbreak(fd)
                    out.write("\x1b[2J")
                    shown = None
                if ready:
                    keys, tapped = cards.typed(split_keys(os.read(fd, 64).decode(errors="ignore")))
                    if tapped is not None and station.nfc_bus is not None:
                        station.nfc_bus.place(demo_uid(tapped))
                        lift_at = now + TAP_TIME
                    if any(key in ("q", "\x03", "\x04") for key in keys):
                        keys = keys[:min(keys.index(k) for k in ("q", "\x03", "\x04") if k in keys)]
                        stop.set()  # after the keys typed before it
                    held.typed(keys, now)
                held.release(now)
                if lift_at is not None and now >= lift_at:
                    station.nfc_bus.remove()
                    lift_at = None
                if cards.line() != asking:
                    asking, shown = cards.line(), None  # the prompt line changed: draw again
                station.tick()
                roller.answer_requests(lambda: tuple(rng.randint(1, 6) for _ in pins.roller.dice))
                now_size = shutil.get_terminal_size((80, 24))
                if now_size != size:  # resized: draw everything again, at the new size
                    size, shown = now_size, None
                    out.write("\x1b[2J")
                if station.lights is not None and station.lights.frame != lit:
                    lit, shown = station.lights.frame, None  # a seat lit, blinking or off: draw again
                if latest[0] is not shown and latest[0] is not None:
                    shown = latest[0]
                    picture = frame_text(shown, size.columns, size.lines, station.controller.shown, screen)
                    keys_help = (HELP[0], asking) if asking is not None else HELP
                    names = [p["name"] for p in station.table.state["players"]] if station.table.state else []
                    out.write("\x1b[H" + picture.replace("\n", "\x1b[K\n") + "\x1b[K\n")
                    out.write(f"seats: {blocks(lit[:len(names)] if lit else (), names)}\x1b[K\n")
                    out.write(f"phone page: {url or 'not running'}\x1b[K\n" + "\x1b[K\n".join(keys_help) + "\x1b[J")
                    out.flush()
        except KeyboardInterrupt:  # Ctrl-C as a signal (cbreak mode keeps signals): a way to quit like q
            pass
        finally:
            signal.signal(signal.SIGCONT, previous_cont)
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    out.write(f"\nThe game is saved in {journal_path}: `companion demo` resumes it.\n")
    return 0
