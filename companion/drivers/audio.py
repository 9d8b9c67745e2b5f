"""The audio output: 16-bit mono PCM streamed to the system's player (ALSA's ``aplay`` on the Pi; PulseAudio's
``paplay`` or sox's ``play`` on a desktop), for the voice and, off the Pi, the buzzer's tunes."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from typing import IO

from companion.engine import CompanionError

from .said import N_, Said, SaidError

#: The players tried, in order: each reads raw 16-bit little-endian mono PCM at ``{rate}`` on its standard input.
PLAYERS: tuple[tuple[str, ...], ...] = (
    ("aplay", "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", "{rate}", "-"),
    ("paplay", "--raw", "--format=s16le", "--channels=1", "--rate={rate}"),
    ("play", "-q", "-t", "raw", "-e", "signed", "-b", "16", "-c", "1", "-r", "{rate}", "-"),
)


class AudioUnavailable(CompanionError, SaidError):
    """No audio player, or the audio device refused the stream."""


class AudioOut:
    """Starts the player for each stream; ``command``: the player to use (else the first of :data:`PLAYERS` found)."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        found = [c for c in ([tuple(command)] if command else PLAYERS) if shutil.which(c[0])]
        if not found:
            names = ", ".join(c[0] for c in PLAYERS)
            raise AudioUnavailable(Said(N_("no audio player ({names}): apt-get install alsa-utils"), {"names": names}))
        self.command = found[0]

    def open(self, rate: int) -> subprocess.Popen[bytes]:
        """A player waiting for PCM at ``rate`` on its standard input (close it, then wait)."""
        args = [part.replace("{rate}", str(rate)) for part in self.command]
        return subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def play_pcm(self, pcm: bytes, rate: int) -> None:
        player = self.open(rate)
        stdin: IO[bytes] = player.stdin  # type: ignore[assignment]
        try:
            stdin.write(pcm)
        finally:
            finish(player)


def finish(player: subprocess.Popen[bytes]) -> None:
    """Let a player end its stream; ``AudioUnavailable`` with its words when it failed (no device, device busy)."""
    _, err = player.communicate(timeout=60)  # closes its standard input: the end of the stream
    if player.returncode not in (0, None):
        said = err.decode(errors="replace").strip().splitlines()
        failed = Said(N_("the audio player failed ({code})"), {"code": player.returncode})
        raise AudioUnavailable(failed, said[-1] if said else None)  # its own words (aplay's English) for the log
