"""Record (or compare) the engine's English: every event's, prompt's and rejection's sentence and the log.

Over every game file in tests/gamefiles and one bot game of each ruleset, input by input, on the table's path: each
event's ``text``, the prompt's ``text``, the log (after an undo and at the end), each refusal's message, and the
refusals the deeds would show (:meth:`Ruleset.judged_acts` for the player whose turn it is). Issue 41 moved the
engine's sentences from f-strings to messages (msgid + args) rendered by one English renderer: this record, made
before the move, holds the English byte for byte (tests/test_english_golden.py).

    python tests/golden/record_english.py > tests/golden/english.jsonl
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.engine import IllegalInput, apply, find_ruleset, ruleset_ids, sentence
from companion.gamefile import GameFileError, parse_lines
from companion.sim.game import GameSpec, play_game

ROOT = Path(__file__).parents[2]
GAME_FILES = sorted((ROOT / "tests" / "gamefiles").glob("*/*.jsonl"))


def game_lines(path: Path) -> list[dict[str, Any]]:
    """The lines of a game file up to the first that is not a JSON object (a file testing that error)."""
    lines = []
    try:
        for _, line in parse_lines(path.read_text().splitlines()):
            lines.append(line)
    except GameFileError:
        pass
    return lines


def _refusals(state: dict[str, Any]) -> list[str]:
    ruleset = find_ruleset(state["ruleset"])
    if state.get("winner") is not None:
        return []
    name = state["turn"]["player"]
    return [reason for _, reason in ruleset.judged_acts(state, name)[1]]


def _probes(state: dict[str, Any]) -> list[str]:
    """What the engine says to a few inputs that do not fit: every verb bare and on a space, a stray roll and answer."""
    ruleset = find_ruleset(state["ruleset"])
    name = state["turn"]["player"]
    other = next((p["name"] for p in state["players"] if p["name"] != name), name)
    space = next(iter(state["spaces"]), "nowhere")
    tries: list[dict[str, Any]] = [{"roll": [1, 2]}, {"answer": "maybe"}, {"act": {"player": "host", "do": "x"}}]
    for verb in ruleset.verbs():
        tries += [{"act": {"player": who, "do": verb, **extra}} for who in (name, other)
                  for extra in ({}, {"space": space}, {"space": space, "amount": 10, "to": other})]
    for verb in ruleset.host_verbs():
        tries.append({"act": {"player": "host", "do": verb}})
    said = []
    for line in tries:
        try:
            apply(state, line)
        except IllegalInput as refusal:
            said.append(str(refusal))
        except Exception as crash:  # noqa: BLE001 - an engine bug, recorded as such (not the English under test)
            said.append(f"crash: {type(crash).__name__}")
        else:
            said.append("taken")
    return said


def game(source: str, lines: list[dict[str, Any]], *, deeds: bool) -> Iterator[dict[str, Any]]:
    """One record per input line of a game."""
    state = None
    for index, line in enumerate(lines):
        try:
            state, events = apply(state, line)
        except IllegalInput as refusal:
            yield {"at": f"{source}:{index}", "refused": str(refusal)}
            if state is None:
                return
            continue
        record: dict[str, Any] = {"at": f"{source}:{index}", "events": [sentence(e) for e in events],
                                  "prompt": (state["prompt"] or {}).get("text")}
        if "undo" in line or index == len(lines) - 1:
            record["log"] = state["log"]
        if deeds:
            record["deeds"] = _refusals(state)
            record["probes"] = _probes(state)
        yield record


def records() -> Iterator[dict[str, Any]]:
    for path in GAME_FILES:
        yield from game(str(path.relative_to(ROOT)), game_lines(path), deeds=True)
    for ruleset in ruleset_ids():
        for spec in (GameSpec(ruleset, 4, seed=11), GameSpec(ruleset, 3, seed=5)):
            lines: list[Any] = []
            play_game(spec, 0, lines, table=True)
            yield from game(f"bot:{ruleset}:{spec.players}", lines, deeds=False)


if __name__ == "__main__":
    for record in records():
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
