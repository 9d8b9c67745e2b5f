"""Renaming a player in a game file: the name is replaced where the format puts player names.

Only those places are touched (``setup.players``, the keys of ``deal`` and ``start.players``,
``start.spaces.*.owner``, ``start.turn``, ``act.player`` / ``act.with``, and an answer to a prompt whose
options are players, such as ``chambers``' exchange), so a player called ``pass`` does not rename the verb.
"""

from __future__ import annotations

import json
from typing import Any

from companion.engine import IllegalInput, State, apply
from companion.engine.messages import english
from companion.gamefile import game_file_lines, parse_lines
from companion.words import N_


def _swap(value: Any, old: str, new: str) -> Any:
    return new if value == old else value


def _keys(mapping: Any, old: str, new: str) -> Any:
    if not isinstance(mapping, dict):
        return mapping
    return {_swap(k, old, new): v for k, v in mapping.items()}


def _refused(msgid: str, name: str) -> IllegalInput:
    """A refusal naming a player (quoted as sent), said in English by the engine's renderer, or in another language
    (:func:`.phone_words.refusal_said`)."""
    error = IllegalInput(msgid, {"value": name})
    error.render = english
    return error


def rename_setup(setup: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    setup = dict(setup)
    players = setup.get("players")
    if not isinstance(players, list) or old not in players:
        raise _refused(N_("there is no player called {value}"), old)
    if new in players:
        raise _refused(N_("there is a player called {value} already"), new)
    setup["players"] = [_swap(p, old, new) for p in players]
    if "deal" in setup:
        setup["deal"] = _keys(setup["deal"], old, new)
    start = setup.get("start")
    if isinstance(start, dict):
        start = dict(start)
        start["players"] = _keys(start.get("players"), old, new) if "players" in start else start.get("players")
        if isinstance(start.get("spaces"), dict):
            start["spaces"] = {
                sid: ({**rec, "owner": _swap(rec.get("owner"), old, new)} if isinstance(rec, dict) else rec)
                for sid, rec in start["spaces"].items()
            }
        if "turn" in start:
            start["turn"] = _swap(start["turn"], old, new)
        setup["start"] = {k: v for k, v in start.items() if v is not None}
    return setup


def rename_line(line: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    if "setup" in line:
        return {**line, "setup": rename_setup(line["setup"], old, new)}
    act = line.get("act")
    if isinstance(act, dict):
        return {**line, "act": {k: (_swap(v, old, new) if k in ("player", "with") else v) for k, v in act.items()}}
    return line


def rename_in_game_file(text: str, old: str, new: str) -> str:
    """The game file ``text`` with player ``old`` called ``new`` (played through, to know which answers are names)."""
    state: State | None = None
    lines = []
    for _, line in parse_lines(game_file_lines(text)):
        renamed = rename_line(line, old, new)
        if line.get("answer") == old and state is not None and answers_with_players(state):
            renamed = {**renamed, "answer": new}
        lines.append(renamed)
        try:
            state, _ = apply(state, line)
        except IllegalInput:  # an exported game holds accepted lines only; another file is refused on import
            pass
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def answers_with_players(state: State) -> bool:
    """Whether the prompt's options are players' names (chambers' exchange: change places with whom?)."""
    options = (state.get("prompt") or {}).get("options") or []
    return bool(options) and set(options) <= {p["name"] for p in state["players"]}
