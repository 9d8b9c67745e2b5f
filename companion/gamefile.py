"""Game files (JSON Lines): parse them and run them through the engine, naming bad lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event, IllegalInput, State, apply, find_ruleset
from companion.engine.core import Ruleset


class GameFileError(IllegalInput):
    """A game file line that cannot be read or applied; names the line."""

    def __init__(self, line_number: int, reason: str) -> None:
        super().__init__(f"line {line_number}: {reason}")
        self.line_number = line_number
        self.reason = reason


def game_file_lines(text: str) -> list[str]:
    """The lines of a game file's text. JSON Lines ends a line at "\n" only (a JSON string may hold U+2028 or
    U+0085 as they are, where ``str.splitlines`` would cut it); a "\r" before it and a leading BOM are dropped."""
    return [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]


def parse_lines(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; ``GameFileError`` on bad JSON."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise GameFileError(number, f"not valid JSON ({error.msg} at column {error.colno})") from None
        except RecursionError:
            raise GameFileError(number, "nested too deeply to be a game's line") from None
        except ValueError as error:  # a number beyond Python's digit limit
            raise GameFileError(number, f"not a game's line ({error})") from None
        if not isinstance(value, dict):
            raise GameFileError(number, "each line must be a JSON object")
        yield number, value


@dataclass
class Replay:
    """The result of running a game file: final state and every event, line by line."""

    state: State
    events: list[tuple[int, Event]] = field(default_factory=list)
    inputs: int = 0


def replay(lines: Iterable[str], ruleset: Ruleset | None = None) -> Replay:
    """Run a game file from its setup line; stops at the first bad line with ``GameFileError``."""
    result: Replay | None = None
    for number, line in parse_lines(lines):
        try:
            if result is None:
                if set(line) != {"setup"}:
                    raise IllegalInput('the first line must be {"setup": {...}}')
                state, events = (ruleset.new_game(line["setup"]) if ruleset else apply(None, line))
                result = Replay(state)
            else:
                engine = ruleset or find_ruleset(result.state["ruleset"])
                state, events = engine.apply(result.state, line)
                result.state = state
                result.inputs += 1
        except GameFileError:
            raise
        except IllegalInput as error:
            raise GameFileError(number, str(error)) from None
        result.events.extend((number, e) for e in events)
    if result is None:
        raise GameFileError(1, "the file is empty: it needs a setup line")
    return result
