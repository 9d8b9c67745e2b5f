"""Files a person hands the command line (a config, a pin map, a board file, a game file): bounded in size and in
depth before anything is built from them, so a hostile or broken one is one line on stderr and exit status 2 (as a
file that is not there), never a traceback nor the Pi's memory taken."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any, BinaryIO

from companion.errors import CompanionError

MIB = 1 << 20
#: A config, pin map or board file (the largest bundled board is ~30 KB).
MAX_SETTINGS_BYTES = 1 * MIB
#: A game file (200,000 inputs are ~10 MB).
MAX_GAME_FILE_BYTES = 64 * MIB
#: Tables and arrays within each other in a settings file (the bundled boards nest 4 deep).
MAX_NESTING = 32


class LocalFileRefused(CompanionError, ValueError):
    """A file too large or nested too deeply to be what it claims (exit status 2)."""


def read_text(path: str | Path, limit: int, what: str) -> str:
    """The UTF-8 text of the file at ``path`` (OSError, UnicodeDecodeError as reading it whole would raise);
    :class:`LocalFileRefused` if it is over ``limit`` bytes, found without reading more than that."""
    with open(path, "rb") as file:
        return read_stream(file, limit, f"{path}", what)


def read_game_file(name: str) -> str:
    """A game file's text (``-``: standard input), bounded by :data:`MAX_GAME_FILE_BYTES`."""
    if name == "-":
        return read_stream(sys.stdin.buffer, MAX_GAME_FILE_BYTES, "standard input", "a game file")
    return read_text(name, MAX_GAME_FILE_BYTES, "a game file")


def read_stream(stream: BinaryIO, limit: int, name: str, what: str) -> str:
    """``stream``'s text (standard input: ``sys.stdin.buffer``), bounded as :func:`read_text`."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise LocalFileRefused(f"{name}: larger than {limit // MIB} MB: too large for {what}")
    return data.decode("utf-8")


def parse_toml(text: str, name: str) -> dict[str, Any]:
    """A TOML file's tables (``tomllib.TOMLDecodeError`` as tomllib raises it); :class:`LocalFileRefused` if they
    nest deeper than :data:`MAX_NESTING` (tomllib recurses: 100,000 brackets end in a RecursionError)."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise LocalFileRefused(f"{name}: nested too deeply (more than {MAX_NESTING} levels)") from None
    if nesting(data, MAX_NESTING) > MAX_NESTING:
        raise LocalFileRefused(f"{name}: nested too deeply (more than {MAX_NESTING} levels)")
    return data


def nesting(value: Any, limit: int) -> int:
    """How deeply lists and objects nest in ``value``, found without recursion, and no further down than one level
    past ``limit``."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= limit:
                stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest
