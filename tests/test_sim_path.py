"""The simulation path (``apply(..., table=False)``) is the table's path minus what only a table reads.

One set of rules, two ways through it: the table keeps an undo record and a log and has every event's and prompt's
sentence made at once; the simulator keeps neither and makes no sentence at all (issue 41: events and prompts carry
their messages, and the English is made only when read). Input by input, over every game file and bot games of
every ruleset, both give the same state (but for ``undo``, ``log`` and the prompt's ``text``), the same events (the
same data, and the same sentences once read) and the same refusals.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

import companion.engine.core
import companion.engine.draft
from companion.engine import Event, IllegalInput, State, apply, find_ruleset, ruleset_ids, sentence
from tests.golden.record_english import game_lines as good_lines
from companion.sim.game import GameSpec, play_game

ROOT = Path(__file__).parents[1]
GAME_FILES = sorted((ROOT / "tests" / "gamefiles").glob("*/*.jsonl"))
TABLE_ONLY = frozenset({"undo", "log"})


def without_table(state: State) -> State:
    """A state without what only the table keeps: the undo record, the log, the prompt's sentence."""
    kept = {k: v for k, v in state.items() if k not in TABLE_ONLY}
    if kept.get("prompt"):
        kept["prompt"] = {k: v for k, v in kept["prompt"].items() if k != "text"}
    return kept


def as_read(events: list[Event], ruleset: str) -> list[Event]:
    """The simulation path's events as a reader sees them: every sentence made."""
    names = find_ruleset(ruleset)
    return [{**event, "text": sentence(event, names)} for event in events]


def same_events(sim: list[Event], table: list[Event], ruleset: str) -> None:
    """The simulation path's events are the table's: the same data, and the same sentences once read."""
    assert all(type(event["text"]) is str for event in table)  # the table's sentences are made at once
    assert not any("text" in event for event in sim)  # the simulation path's are not made at all
    assert as_read(sim, ruleset) == table


def both_paths(state: State, line: dict[str, Any]) -> tuple[State, list[Event]] | None:
    """``line`` applied to ``state`` on both paths, checked equal; the table's result (None: both refused)."""
    try:
        table = apply(state, line)
    except IllegalInput as refusal:
        with pytest.raises(IllegalInput) as sim_refusal:
            apply(state, line, table=False)
        assert str(sim_refusal.value) == str(refusal)
        return None
    sim = apply(state, line, table=False)
    assert without_table(sim[0]) == without_table(table[0]), line
    if "undo" in line:  # an undo is the table's own input, whichever path it takes: its sentences are made
        assert sim[1] == table[1]
    else:
        same_events(sim[1], table[1], state["ruleset"])
        assert sim[0]["undo"] is None and sim[0]["log"] == state["log"]
    return table


def test_every_game_file_gives_the_same_states_and_events_on_both_paths() -> None:
    assert len(GAME_FILES) > 100
    compared = 0
    for path in GAME_FILES:
        state = None
        for line in good_lines(path):
            if state is None:
                try:
                    state, _ = apply(None, line)
                except IllegalInput:
                    break  # a game file of a refused setup: no input to compare
                continue
            result = both_paths(state, line)
            if result is None:
                break  # the file ends in a refused line (its expected error): both paths refused it alike
            state = result[0]
            compared += 1
    assert compared > 1000  # inputs compared (the files are short scenes)


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_bot_games_are_the_same_on_both_paths(ruleset: str) -> None:
    spec = GameSpec(ruleset, 4, seed=11)
    for index in range(3):
        table_lines: list[Any] = []
        sim_lines: list[Any] = []
        table_game = play_game(spec, index, table_lines, table=True)
        sim_game = play_game(spec, index, sim_lines)
        assert sim_lines == table_lines
        assert dataclasses.replace(sim_game, seconds=0) == dataclasses.replace(table_game, seconds=0)
        # Each path chained on its own states, from the same start.
        table_state, _ = apply(None, table_lines[0])
        sim_state = table_state
        for line in table_lines[1:]:
            table_state, table_events = apply(table_state, line)
            sim_state, sim_events = apply(sim_state, line, table=False)
            assert without_table(sim_state) == without_table(table_state)
            same_events(sim_events, table_events, ruleset)


def test_the_simulation_path_keeps_no_undo() -> None:
    state, _ = apply(None, {"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}})
    state, _ = apply(state, {"roll": [1, 2]})
    assert state["prompt"]["kind"] == "buy"
    apply(apply(state, {"answer": "yes"})[0], {"undo": 1})  # the table's buy can be undone
    simulated, _ = apply(state, {"answer": "yes"}, table=False)
    with pytest.raises(IllegalInput, match="nothing to undo"):
        apply(simulated, {"undo": 1})


def test_the_simulation_path_makes_a_payments_sentence_when_it_is_read() -> None:
    state, _ = apply(None, {"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}})
    state, _ = apply(state, {"roll": [1, 2]})
    _, table_events = apply(state, {"answer": "yes"})
    _, sim_events = apply(state, {"answer": "yes"}, table=False)
    [table_pay] = [e for e in table_events if e["kind"] == "pay"]
    [sim_pay] = [e for e in sim_events if e["kind"] == "pay"]
    assert table_pay["text"] == "Ann pays the bank $60 for Baltic Avenue"
    assert "text" not in sim_pay  # no sentence: nobody has read it yet
    assert sim_pay["msg"] == "{payer} pays the bank {amount} {reason}"
    assert sim_pay["args"] == {"payer": "Ann", "amount": 60, "reason": {"msg": "for {space}",
                                                                         "args": {"space": "baltic-avenue"}}}
    ruleset = find_ruleset("classic")
    assert sentence(sim_pay, ruleset) == table_pay["text"] and sentence(table_pay) == table_pay["text"]


def _no_sentence(*_: Any) -> str:
    raise AssertionError("the simulation path made a sentence")


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_the_simulation_path_makes_no_sentence(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot game on the simulation path calls the English renderer not once (it fails if it does): its events and
    prompts carry their messages only."""
    monkeypatch.setattr(companion.engine.draft, "english", _no_sentence)
    monkeypatch.setattr(companion.engine.core, "english", _no_sentence)
    lines: list[Any] = []
    game = play_game(GameSpec(ruleset, 4, seed=11), 0, lines)
    assert game.inputs > 50 and len(lines) > 50
