"""Text to speech, offline: espeak-ng (Debian's package), or piper when a piper voice file is there
(:func:`open_voice`), spoken through the audio output (:class:`Mouth`). What is said, and when, is the face's
(:mod:`companion.face.voice`).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import wave
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from companion.engine import CompanionError

from .audio import AudioOut, finish

log = logging.getLogger(__name__)

CHUNK = 4096  # bytes of PCM handed to the player at a time (about 0.1 s at 22 050 Hz)


class VoiceUnavailable(CompanionError, OSError):
    """No text-to-speech engine, or no voice file for it."""


class Voice(Protocol):
    """Text to 16-bit mono PCM at :attr:`rate`."""

    rate: int

    def stream(self, text: str, language: str | None = None) -> Iterator[bytes]: ...

    def to_wav(self, text: str, path: Path, language: str | None = None) -> None: ...


#: espeak-ng's voice for each language the table speaks (Debian's espeak-ng-data has them all).
ESPEAK_VOICES = {"en": "en-us", "de": "de", "fr": "fr-fr", "es": "es"}


class EspeakVoice:
    """espeak-ng (``apt-get install espeak-ng``): small, fast, robotic; 22 050 Hz."""

    rate = 22050

    def __init__(self, *, voice: str = "en-us", speed: int = 165, command: str = "espeak-ng") -> None:
        if shutil.which(command) is None:
            raise VoiceUnavailable(f"{command} is not installed (apt-get install espeak-ng)")
        self.args = [command, "-v", voice, "-s", str(speed)]

    def _args(self, language: str | None) -> list[str]:
        """The command for a sentence in ``language`` (None: the voice it was opened with)."""
        if language is None or language not in ESPEAK_VOICES:
            return self.args
        return [self.args[0], "-v", ESPEAK_VOICES[language], *self.args[3:]]

    def stream(self, text: str, language: str | None = None) -> Iterator[bytes]:
        """The PCM of ``text`` as espeak-ng makes it (a WAV on its standard output, read past its header), in the
        voice of ``language`` (:data:`ESPEAK_VOICES`)."""
        process = subprocess.Popen([*self._args(language), "--stdout", text], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL)
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

    def to_wav(self, text: str, path: Path, language: str | None = None) -> None:
        subprocess.run([*self._args(language), "-w", str(path), text], check=True, capture_output=True)


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

    def stream(self, text: str, language: str | None = None) -> Iterator[bytes]:
        """One voice file speaks one language: ``language`` is the file's (config's ``voice_model``)."""
        for chunk in self.voice.synthesize(text):
            yield bytes(chunk.audio_int16_bytes)

    def to_wav(self, text: str, path: Path, language: str | None = None) -> None:
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

    def say(self, text: str, first_sample: Callable[[], None], language: str | None = None) -> None:
        """Speak ``text`` (in ``language``'s voice); ``first_sample`` is called when its first audio is handed to
        the player."""
        player = self.out.open(self.voice.rate)
        stdin: IO[bytes] = player.stdin  # type: ignore[assignment]
        try:
            for i, chunk in enumerate(self.voice.stream(text, language)):
                stdin.write(chunk)
                if i == 0:
                    stdin.flush()
                    first_sample()
        finally:
            finish(player)

    def close(self) -> None:
        pass
