"""What the headless demo keeps of a run: every frame as a PNG (``--frames``), and each frame's cues (``--json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.drivers.lights import ShownLights
from companion.face.cues import Cues
from companion.seats import Seat


class CueRecorder:
    """The demo's ``--json`` cues: with each frame, each player's seat light then (their colour, or null when off),
    and the buzzer's cues and the voice's sentences since the frame before."""

    def __init__(self, lights: ShownLights, lines: list[dict[str, Any]]) -> None:
        self.lights, self.lines = lights, lines
        self.seats: list[Seat] = []
        self.sounds: list[str] = []
        self.speech: list[str] = []

    def on_cues(self, cues: Cues, seats: list[Seat]) -> None:
        self.seats = seats
        self.sounds += cues.sounds
        self.speech += cues.speech

    def frame(self) -> None:
        lit = self.lights.frame
        self.lines.append({"frame": len(self.lines) + 1,
                           "lights": {s.name: s.colour if s.index < len(lit) and any(lit[s.index]) else None
                                      for s in self.seats},
                           "sounds": self.sounds, "speech": self.speech})
        self.sounds, self.speech = [], []


class FrameWriter:
    """Writes every frame handed to the display as ``frame-0001.png``, ``frame-0002.png``, ..."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def __call__(self, image: Any) -> None:
        self.count += 1
        image.save(self.folder / f"frame-{self.count:04d}.png")
