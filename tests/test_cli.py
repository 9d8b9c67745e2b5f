"""The command line end to end: ``companion replay`` (story, ``--json``, bad lines) and ``companion demo``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import public_state
from companion.gamefile import replay

from .conftest import assert_subset

GAMEFILES = Path(__file__).parent / "gamefiles" / "classic"
SALARY = GAMEFILES / "salary-passing-go.jsonl"

# DESIGN.md, "State": the keys of the state object and of its parts
STATE_KEYS = {"ruleset", "seq", "players", "spaces", "pools", "bank", "turn", "prompt", "log", "winner"}
PLAYER_KEYS = {"name", "cash", "space", "in_jail", "bankrupt", "cards", "laps"}
SPACE_KEYS = {"owner", "houses", "hotel", "mortgaged"}
PROMPT_KEYS = {"player", "kind", "text", "options"}
PRIVATE_KEYS = {"seed", "decks", "queue", "undo", "bank_balance"}


def companion(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the installed command line as a user would (a new process, its own stdin, stdout and stderr)."""
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin if stdin is not None else "",
                          capture_output=True, text=True, timeout=timeout, cwd=Path(__file__).parents[1])


def game_file(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


SETUP = '{"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1}}'


# ------------------------------------------------------------------------------------------------------ the story
def test_replay_tells_the_story_and_summarises() -> None:
    run = companion("replay", str(SALARY))
    assert (run.returncode, run.stderr) == (0, "")
    lines = run.stdout.splitlines()
    story = [
        "  Ann rolls 2 and 3",
        "  Move Ann's token 5 spaces forward to Community Chest",
        "  The bank pays Ann $200 salary for passing GO",
        "  Ann draws Community Chest: You have won second prize in a beauty contest. Collect $10.",
        "  The bank pays Ann $10 for the card",
    ]
    positions = [lines.index(line) for line in story]
    assert positions == sorted(positions), "the story is told in the order it happened"
    summary = lines[lines.index("") + 1:]
    assert summary[0] == "classic — input 1, turn 2 (Bob)"
    assert "  Ann        $ 1710 on Community Chest" in summary  # names as printed, not ids
    assert "  Bob        $ 1500 on GO" in summary
    assert summary[-1] == "Waiting: Bob, roll the dice"


def test_replay_summary_names_deeds_buildings_and_the_winner(tmp_path: Path) -> None:
    run = companion("replay", str(GAMEFILES / "bankrupt-last-solvent-player-wins.jsonl"))
    assert run.returncode == 0
    assert "  Ann is bankrupt: everything goes to Bob" in run.stdout
    assert "Park Place hotel" in run.stdout and "Reading Railroad (mortgaged)" in run.stdout
    assert run.stdout.splitlines()[-1] == "Winner: Bob"


# ------------------------------------------------------------------------------------------------------ --json
def test_replay_json_is_the_state_object_of_design() -> None:
    run = companion("replay", str(SALARY), "--json")
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout.count("\n") == 1, "one line of JSON"
    state = json.loads(run.stdout)
    assert STATE_KEYS <= set(state), STATE_KEYS - set(state)
    assert not PRIVATE_KEYS & set(state), "seed, deck order, queue and undo data stay private"
    assert state["ruleset"] == "classic" and state["seq"] == 1 and state["winner"] is None
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob"]
    for player in state["players"]:
        assert PLAYER_KEYS <= set(player)
    assert_subset({"cash": 1710, "space": "community-chest", "laps": 1, "in_jail": False, "bankrupt": False, "cards": []},
                  state["players"][0])
    assert len(state["spaces"]) == 28, "every ownable space, owned or not"
    for record in state["spaces"].values():
        assert set(record) >= SPACE_KEYS and record["owner"] is None
    assert state["pools"] == {} and state["bank"] == {"houses": 32, "hotels": 12}
    assert state["turn"] == {"player": "Bob", "number": 2}
    assert PROMPT_KEYS <= set(state["prompt"])
    assert state["prompt"]["kind"] == "roll" and state["prompt"]["player"] == "Bob" and state["prompt"]["options"] == []
    assert all(isinstance(line, str) for line in state["log"]) and state["log"][-1] == "The bank pays Ann $10 for the card"


def test_replay_json_equals_the_engine_public_state() -> None:
    path = GAMEFILES / "trade-cash-deed-card.jsonl"
    run = companion("replay", str(path), "--json")
    expected = public_state(replay(path.read_text().splitlines()).state)
    assert json.loads(run.stdout) == json.loads(json.dumps(expected))


def test_replay_pretty_and_standard_input() -> None:
    text = SALARY.read_text()
    pretty = companion("replay", "-", "--json", "--pretty", stdin=text)
    plain = companion("replay", str(SALARY), "--json")
    assert pretty.returncode == 0 and pretty.stdout.count("\n") > 20
    assert json.loads(pretty.stdout) == json.loads(plain.stdout)


PLAYABLE = sorted(p for p in GAMEFILES.glob("*.jsonl")
                  if "error" not in json.loads(p.with_suffix(".expected.json").read_text()))
BAD = sorted(p for p in GAMEFILES.glob("*.jsonl") if p not in PLAYABLE)


@pytest.mark.parametrize("path", PLAYABLE, ids=[p.stem for p in PLAYABLE])
def test_replay_json_reproduces_every_expected_state(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["replay", str(path), "--json"], out=out) == 0
    assert_subset(json.loads(path.with_suffix(".expected.json").read_text()), json.loads(out.getvalue()))


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_replay_stops_at_every_bad_line(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["replay", str(path), "--json"], out=out) == 1
    assert out.getvalue() == ""
    expected = json.loads(path.with_suffix(".expected.json").read_text())["error"]
    assert capsys.readouterr().err == f"companion: {path}: {expected}\n"


# ------------------------------------------------------------------------------------------------------ bad input
def test_a_bad_line_stops_with_its_number_on_stderr(tmp_path: Path) -> None:
    path = game_file(tmp_path, SETUP, '{"roll": [1, 2]}', '{"answer": "yes"}',
                     '{"act": {"player": "Bob", "do": "build", "space": "baltic-avenue"}}', '{"roll": [3, 4]}')
    for args in (["replay", str(path)], ["replay", str(path), "--json"]):
        run = companion(*args)
        assert run.returncode == 1
        assert run.stdout == ""
        assert run.stderr == f"companion: {path}: line 4: Bob cannot build on Baltic Avenue: Bob does not own it\n"


@pytest.mark.parametrize("line, message", [
    ('{"roll": [1, 2]', "line 2: not valid JSON (Expecting ',' delimiter at column 16)"),
    ('{"act": {"player": "Ann", "do": "jump"}}', "line 2: unknown action 'jump'"),
    ('{"act": {"player": "Ann", "do": "mortgage", "space": "park-lane"}}',
     "line 2: Ann cannot mortgage park-lane: there is no property 'park-lane'"),
    ('{"answer": "yes"}', "line 2: there is no question to answer: the game waits for Ann to roll"),
    ('{"act": {"player": "Bob", "do": "pay-fine"}}', "line 2: it is Ann's roll, not Bob's"),
    ('{"answer": ' + "[" * 100_000 + "]" * 100_000 + "}", "line 2: nested too deeply to be a game's line"),
    ('{"roll": [' + "9" * 5000 + ", 1]}", "line 2: not a game's line (Exceeds the limit (4300 digits)"),
])
def test_bad_input_messages(tmp_path: Path, line: str, message: str) -> None:
    setup = SETUP if "Bob" not in line else (
        '{"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "start": {"players": {"Ann": {"in_jail": true}}}}}')
    run = companion("replay", str(game_file(tmp_path, setup, line)))
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"companion: {tmp_path / 'game.jsonl'}: {message}")


def test_hostile_game_files_are_refused_with_a_reason_not_a_traceback(tmp_path: Path) -> None:
    """A file that is not UTF-8, or whose names would drive the terminal (escapes, a bidi override), is refused
    by replay and by games import alike, with nothing imported."""
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00{")
    escape = game_file(tmp_path, '{"setup": {"ruleset": "classic", "players": ["Ann", "\\u001b[2Jx"]}}')
    journal = tmp_path / "games.sqlite3"
    for path, message in ((binary, "not a game file (not UTF-8 text)"), (escape, "cannot be a player's name")):
        for args in (("replay", str(path)), ("games", "--journal", str(journal), "import", str(path))):
            run = companion(*args)
            assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
            assert message in run.stderr and "\x1b" not in run.stderr


def test_a_missing_file_and_an_empty_file(tmp_path: Path) -> None:
    missing = companion("replay", str(tmp_path / "nowhere.jsonl"))
    assert missing.returncode == 2 and missing.stderr == f"companion: {tmp_path / 'nowhere.jsonl'}: No such file or directory\n"
    empty = companion("replay", str(game_file(tmp_path)))
    assert empty.returncode == 1 and empty.stderr.endswith("line 1: the file is empty: it needs a setup line\n")


def test_unknown_command_is_a_usage_error() -> None:
    run = companion("fly")
    assert run.returncode == 2 and "invalid choice: 'fly'" in run.stderr


# ------------------------------------------------------------------------------------------------------ demo
def test_demo_runs() -> None:
    run = companion("demo")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip(), "the demo tells what happened"


def test_demo_headless_json_is_a_state_object() -> None:
    run = companion("demo", "--headless", "--json")
    assert run.returncode == 0, run.stderr
    state = json.loads(run.stdout.splitlines()[-1])
    assert STATE_KEYS <= set(state) and not PRIVATE_KEYS & set(state)
