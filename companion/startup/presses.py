"""Test presses for a table on mock pins: a FIFO whose lines the table plays on its buttons (``mock_presses``).

A table with ``pin_factory = "mock"`` has no buttons anyone can reach: its pins are gpiozero's MockFactory pins inside
the service's process. The booted box of ``firmware/check-box.sh`` still has to press them (the host menu's Wi-Fi
switch), so with ``mock_presses = "/var/lib/companion/presses"`` in the config (refused with any other pin factory)
the table makes that FIFO (its owner's alone, umask 0077: root and the service's user may write to it) and a thread
reads it. Each line is a line of ``companion demo``'s button scripts (:mod:`companion.drivers.script`)::

    printf 'HOLD MENU 2\\nPREV\\nYES\\n' > /var/lib/companion/presses

played on the mock pins in real time, as fingers would press: the edges come from that thread, as lgpio's come from
its own, and the table's tick sees them through the same debouncing. A line that cannot be read is logged and
skipped. ``TAP`` has no reader here; ``DICE`` drives the roller's pins when ``dice = "roller"``.
"""

from __future__ import annotations

import logging
import os
import select
import stat
import threading
import time
from pathlib import Path
from typing import Any

from companion.drivers.pins import PinMap
from companion.drivers.script import ScriptError, parse_script, run_script
from companion.drivers.virtual import VirtualButtons, VirtualRoller

log = logging.getLogger(__name__)

#: Seconds the reader waits for a line before it looks whether the table is closing.
POLL = 0.5
#: The longest line read (a script line is a few words).
MAX_LINE = 200


class PressFifo:
    """The FIFO at ``path`` and the thread playing its lines on the mock pins of ``factory`` (see the module)."""

    def __init__(self, path: str | Path, factory: Any, pins: PinMap, *, roller: bool = False) -> None:
        self.path = Path(path)
        self.buttons = VirtualButtons(factory, pins.buttons, time.sleep)
        self.roller = VirtualRoller(factory, pins.roller, time.sleep) if roller else None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._fd = -1
        self.played = 0  # lines played so far (for tests and the log)

    def start(self) -> PressFifo:
        """Make the FIFO (a FIFO left by an earlier run is taken again) and start reading it; returns self."""
        try:
            if not stat.S_ISFIFO(self.path.stat().st_mode):
                raise ScriptError(f"mock_presses: {self.path} exists and is not a FIFO")
        except FileNotFoundError:
            os.mkfifo(self.path, 0o600)
        self._fd = os.open(self.path, os.O_RDWR | os.O_NONBLOCK)  # read-write: no end of file when a writer leaves
        self._thread = threading.Thread(target=self._read, name="mock-presses", daemon=True)
        self._thread.start()
        log.info("mock presses: reading button lines from %s", self.path)
        return self

    def close(self) -> None:
        """Stop reading (a line being played ends first) and remove the FIFO."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=130)  # the longest HOLD is 120 s
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self.path.unlink(missing_ok=True)

    def _read(self) -> None:
        pending = b""
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], POLL)
            if not ready:
                continue
            try:
                pending += os.read(self._fd, 4096)
            except BlockingIOError:
                continue
            *lines, pending = pending.split(b"\n")
            if len(pending) > MAX_LINE:
                log.warning("mock presses: a line longer than %d bytes was dropped", MAX_LINE)
                pending = b""
            for line in lines:
                if self._stop.is_set():
                    return
                self._play(line.decode("utf-8", "replace"))

    def _play(self, line: str) -> None:
        try:
            steps = parse_script([line])
            if steps:
                log.info("mock presses: %s", line.strip())
                run_script(steps, self.buttons, self.roller)
                self.played += 1
        except ScriptError as error:
            log.warning("mock presses: %s skipped: %s", line.strip()[:MAX_LINE], error)
