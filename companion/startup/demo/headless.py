"""``companion demo --headless``: a button script played on mock pins and simulated time, its frames and cues
recorded (:mod:`.recorders`); the bundled script the demo plays when its input is not a terminal."""

from __future__ import annotations

import json
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from companion.drivers.lights import ShownLights
from companion.engine import CompanionError, State

from ..mock import mock_station
from .recorders import CueRecorder, FrameWriter


def demo_headless(script: list[str], *, setup: dict[str, Any] | None, frames: Path | None, dice: str = "roller",
                  journal_path: str | Path | None = None, cues: list[dict[str, Any]] | None = None,
                  language: str = "en") -> State:
    """Play a button script on simulated time; returns the final public state. ``cues``: gets one line per frame with
    the seat lights then and the sounds and sentences since the frame before (:class:`CueRecorder`)."""
    from companion.drivers.clock import SimClock
    from companion.drivers.script import parse_script, run_script
    from companion.drivers.virtual import VirtualButtons, VirtualRoller
    from companion.drivers.virtual_nfc import VirtualCards

    steps = parse_script(script)
    sim = SimClock()
    writer = FrameWriter(frames) if frames is not None else None
    lights = ShownLights()
    recorder = CueRecorder(lights, cues) if cues is not None else None

    def on_frame(image: Any) -> None:
        if writer is not None:
            writer(image)
        if recorder is not None:
            recorder.frame()

    with tempfile.TemporaryDirectory(prefix="companion-demo-") as scratch:
        path = journal_path or Path(scratch) / "demo.sqlite3"
        with mock_station(journal_path=path, dice=dice, clock=sim, sleep=sim.sleep, setup=setup,
                          new_seed=lambda: 1, on_frame=on_frame, open_lights=lambda: lights,
                          cue_targets=[recorder.on_cues] if recorder else [], language=language) as (station, factory,
                                                                                                       pins):
            buttons = VirtualButtons(factory, pins.buttons, sim.sleep, after_step=station.tick)
            roller = VirtualRoller(factory, pins.roller, sim.sleep)
            cards = VirtualCards(station.nfc_bus, buttons.wait) if station.nfc_bus is not None else None
            run_script(steps, buttons, roller, cards)
            buttons.wait(0.5)
            state = station.table.public()
    if state is None:
        raise CompanionError("the demo ended without a game")
    return state


def bundled_script() -> tuple[dict[str, Any], list[str]]:
    """The short scripted game the demo plays when its input is not a terminal."""
    folder = resources.files("companion.examples")
    setup = json.loads(folder.joinpath("table-demo.json").read_text(encoding="utf-8"))
    script = folder.joinpath("table-demo.buttons").read_text(encoding="utf-8").splitlines()
    return setup, script
