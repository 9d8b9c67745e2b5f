"""The voice (off by default): the table says what happened and what it waits for, offline.

The sentences come from the cues (:func:`.cues.sentences`: names, never ids; amounts in words). Text to speech is
espeak-ng (Debian's package), or piper when a piper voice file is there (:func:`open_voice`). :class:`Speaker` keeps
a queue and speaks on a thread of its own: the table never waits for it. A new question makes what is still waiting
stale: it is dropped (the sentence being said is finished).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import wave
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from companion.engine import CompanionError
from companion.seats import Seat

from .audio import AudioOut, finish
from .clock import Clock
from .cues import Cues
from .faults import Kept

log = logging.getLogger(__name__)

CHUNK = 4096  # bytes of PCM handed to the player at a time (about 0.1 s at 22 050 Hz)


class VoiceUnavailable(CompanionError, OSError):
    """No text-to-speech engine, or no voice file for it."""


class Voice(Protocol):
    """Text to 16-bit mono PCM at :attr:`rate`."""

    rate: int

    def stream(self, text: str) -> Iterator[bytes]: ...

    def to_wav(self, text: str, path: Path) -> None: ...


class EspeakVoice:
    """espeak-ng (``apt-get install espeak-ng``): small, fast, robotic; 22 050 Hz."""

    rate = 22050

    def __init__(self, *, voice: str = "en-us", speed: int = 165, command: str = "espeak-ng") -> None:
        if shutil.which(command) is None:
            raise VoiceUnavailable(f"{command} is not installed (apt-get install espeak-ng)")
        self.args = [command, "-v", voice, "-s", str(speed)]

    def stream(self, text: str) -> Iterator[bytes]:
        """The PCM of ``text`` as espeak-ng makes it (a WAV on its standard output, read past its header)."""
        process = subprocess.Popen([*self.args, "--stdout", text], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out: IO[bytes] = process.stdout  # type: ignore[assignment]
        try:
            head = out.read(44)  # RIFF header, "fmt " chunk, "data" and its (unknown: streamed) size
            while b"data" not in head and len(head) < 1024:
                more = out.read(CHUNK)
                if not more:
                    break
                head += more
            at = head.find(b"data")
            if at < 0:
                raise VoiceUnavailable("espeak-ng wrote no WAV")
            rest = head[at + 8:]
            if rest:
                yield rest
            while chunk := out.read(CHUNK):
                yield chunk
        finally:
            out.close()
            process.wait()

    def to_wav(self, text: str, path: Path) -> None:
        subprocess.run([*self.args, "-w", str(path), text], check=True, capture_output=True)


class PiperVoice:
    """piper (``pip install piper-tts``) with a voice file (``.onnx``, its ``.onnx.json`` beside it): natural speech
    at the voice's own rate (22 050 Hz for most)."""

    def __init__(self, model: Path) -> None:
        try:
            from piper import PiperVoice as Loaded  # type: ignore[import-not-found, unused-ignore]
        except ImportError as error:
            raise VoiceUnavailable(f"piper is not installed ({error}): pip install piper-tts") from None
        self.voice = Loaded.load(str(model))
        self.rate = int(self.voice.config.sample_rate)

    def stream(self, text: str) -> Iterator[bytes]:
        for chunk in self.voice.synthesize(text):
            yield bytes(chunk.audio_int16_bytes)

    def to_wav(self, text: str, path: Path) -> None:
        with wave.open(str(path), "wb") as file:
            self.voice.synthesize_wav(text, file)


def open_voice(kind: str, model: str = "") -> Voice:
    """``"piper"`` with an existing ``model`` file, else espeak-ng."""
    if kind == "piper" and model and Path(model).is_file():
        return PiperVoice(Path(model))
    if kind == "piper":
        log.warning("no piper voice file %r: espeak-ng speaks", model)
    return EspeakVoice()


@dataclass
class Mouth:
    """A voice and the audio output it speaks through (opened and kept together)."""

    voice: Voice
    out: AudioOut

    def say(self, text: str, first_sample: Callable[[], None]) -> None:
        """Speak ``text``; ``first_sample`` is called when its first audio is handed to the player."""
        player = self.out.open(self.voice.rate)
        stdin: IO[bytes] = player.stdin  # type: ignore[assignment]
        try:
            for i, chunk in enumerate(self.voice.stream(text)):
                stdin.write(chunk)
                if i == 0:
                    stdin.flush()
                    first_sample()
        finally:
            finish(player)

    def close(self) -> None:
        pass


@dataclass
class _Line:
    text: str
    prompt: str  # the question it was said about
    at: float  # when its input was told to the speaker
    first: bool  # the first sentence of its input (whose latency is measured)


@dataclass
class Speaker:
    """Listens to the cues; says their sentences on a thread of its own through a kept :class:`Mouth`."""

    mouth: Kept[Mouth]
    silent: Callable[[], bool]
    clock: Clock
    start: bool = True
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
            self._waiting.extend(_Line(text, cues.prompt, now, i == 0) for i, text in enumerate(cues.speech))
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

        if self.mouth.use(lambda mouth: mouth.say(line.text, heard)):
            self.said.append(line.text)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self.mouth.close()
