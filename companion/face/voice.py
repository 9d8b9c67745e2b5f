"""The voice (off by default): the table says what happened and what it waits for, offline.

The sentences come from the cues (:func:`.cues.sentences`: names, never ids; amounts in words); they are spoken
through a :class:`~companion.drivers.speech.Mouth` (espeak-ng or piper, :mod:`companion.drivers.speech`).
:class:`Speaker` keeps a queue and speaks on a thread of its own: the table never waits for it. A new question makes
what is still waiting stale: it is dropped (the sentence being said is finished).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.drivers.clock import Clock
from companion.drivers.faults import Kept
from companion.drivers.speech import Mouth
from companion.seats import Seat

from .cues import Cues


@dataclass
class _Line:
    text: str
    prompt: str  # the question it was said about
    at: float  # when its input was told to the speaker
    first: bool  # the first sentence of its input (whose latency is measured)
    language: str = "en"  # the table's language when it was said (espeak-ng's voice for it)


@dataclass
class Speaker:
    """Listens to the cues; says their sentences on a thread of its own through a kept :class:`Mouth`."""

    mouth: Kept[Mouth]
    silent: Callable[[], bool]
    clock: Clock
    start: bool = True
    language: Callable[[], str] = lambda: "en"  # the table's language now (the host menu may change it)
    said: list[str] = field(default_factory=list)  # every sentence said, in order
    dropped: list[str] = field(default_factory=list)  # sentences gone stale before their turn
    #: Seconds from an input's cues to the first audio of its first sentence handed to the player.
    first_audio: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._waiting: deque[_Line] = deque()
        self._prompt = ""
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        if self.start:
            self._thread.start()

    def on_cues(self, cues: Cues, seats: list[Seat]) -> None:
        if not cues.speech or self.silent():
            return
        now = self.clock()
        with self._changed:
            if cues.prompt != self._prompt:  # a new question: what still waits is about an older one
                self.dropped.extend(line.text for line in self._waiting)
                self._waiting.clear()
                self._prompt = cues.prompt
            language = self.language()
            self._waiting.extend(_Line(text, cues.prompt, now, i == 0, language) for i, text in enumerate(cues.speech))
            self._changed.notify()

    def waiting(self) -> list[str]:
        with self._changed:
            return [line.text for line in self._waiting]

    def _next(self) -> _Line | None:
        with self._changed:
            self._changed.wait_for(lambda: bool(self._waiting) or self._closed)
            return None if self._closed else self._waiting.popleft()

    def _run(self) -> None:
        while (line := self._next()) is not None:
            self.speak(line)

    def speak(self, line: _Line) -> None:
        def heard() -> None:
            if line.first:
                self.first_audio.append(self.clock() - line.at)

        if self.mouth.use(lambda mouth: mouth.say(line.text, heard, line.language)):
            self.said.append(line.text)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.mouth.close()
