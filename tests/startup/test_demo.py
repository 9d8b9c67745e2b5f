"""``companion demo``: a whole short game from button lines alone, and a pipe that never hangs."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]
SETUP = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 4,
         "start": {"players": {"Ann": {"space": "go", "cash": 400}, "Bob": {"space": "go", "cash": 150}},
                   "spaces": {"connecticut-avenue": {"owner": "Ann", "hotel": True},
                              "vermont-avenue": {"owner": "Ann", "hotel": True},
                              "oriental-avenue": {"owner": "Ann", "hotel": True}},
                   "turn": "Ann"}}
SCRIPT = """\
# Ann buys Baltic Avenue; Bob lands on Ann's hotel on Oriental Avenue ($550) and goes bankrupt.
ROLL
DICE 1 2
WAIT 700      # a person reads the question before pressing (sooner is refused: meant for the screen before)
YES
WAIT 700      # Bob's turn now
ROLL
DICE 7 1      # a bad reading first: shown, and the roller is asked again
DICE 2 4
WAIT 3000
NEXT
YES
YES
"""


def demo(tmp_path: Path, *extra: str) -> tuple[int, str]:
    (tmp_path / "setup.json").write_text(json.dumps({"setup": SETUP}))
    (tmp_path / "game.buttons").write_text(SCRIPT)
    out = io.StringIO()
    code = main(["demo", "--headless", "--input", str(tmp_path / "game.buttons"), "--setup",
                 str(tmp_path / "setup.json"), *extra], out)
    return code, out.getvalue()


def test_a_complete_short_game_from_button_lines(tmp_path: Path) -> None:
    code, out = demo(tmp_path, "--json", "--frames", str(tmp_path / "frames"))
    assert code == 0
    *cues, state = [json.loads(line) for line in out.splitlines()]  # each frame's cues, then the final state
    assert state["winner"] == "Ann"
    assert state["spaces"]["baltic-avenue"]["owner"] == "Ann"
    assert [p["bankrupt"] for p in state["players"]] == [False, True]
    frames = sorted((tmp_path / "frames").glob("frame-*.png"))
    assert len(frames) > 8
    assert all(Image.open(f).size == (128, 64) for f in frames)
    pictures = [Image.open(f).tobytes() for f in frames]
    assert all(a != b for a, b in zip(pictures, pictures[1:]))  # only new frames are written
    assert [c["frame"] for c in cues] == list(range(1, len(frames) + 1))  # the cues of each frame written
    assert cues[0]["lights"] == {"Ann": "#ff6b6b", "Bob": None} and cues[0]["speech"][-1] == "Ann, roll the dice."
    assert cues[-1]["lights"] == {"Ann": None, "Bob": None}  # the game is over: every light off
    assert "game-over" in [s for c in cues for s in c["sounds"]]


def test_the_scripted_demo_is_the_same_on_every_run(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = demo(tmp_path / "a", "--frames", str(tmp_path / "a" / "frames"))
    second = demo(tmp_path / "b", "--frames", str(tmp_path / "b" / "frames"))
    assert first == second and first[0] == 0
    a = [f.read_bytes() for f in sorted((tmp_path / "a" / "frames").iterdir())]
    b = [f.read_bytes() for f in sorted((tmp_path / "b" / "frames").iterdir())]
    assert a == b


def test_a_bad_script_line_is_named(tmp_path: Path, capsys) -> None:
    (tmp_path / "bad.buttons").write_text("ROLL\nJUMP 3\n")
    assert main(["demo", "--headless", "--input", str(tmp_path / "bad.buttons")], io.StringIO()) == 2  # the user's script: a usage error
    assert "line 2: unknown action 'JUMP'" in capsys.readouterr().err


def test_demo_with_a_pipe_plays_the_bundled_game_and_exits(tmp_path: Path) -> None:
    """The README's main command under CI: no terminal, so no keys to wait for."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "companion.cli", "demo"], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr
    assert "Winner: Ann" in result.stdout
    assert not (tmp_path / "companion").exists()  # the scripted game leaves no journal behind


def test_a_setup_without_a_button_script_is_refused(tmp_path: Path, capsys) -> None:
    (tmp_path / "setup.json").write_text(json.dumps({"setup": SETUP}))
    assert main(["demo", "--headless", "--setup", str(tmp_path / "setup.json")], io.StringIO()) == 2
    assert "--setup goes with --input" in capsys.readouterr().err
