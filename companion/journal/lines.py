"""Lines of a game file as the journal stores them (DESIGN.md: JSON Lines, setup first).

Lines are stored as compact JSON text, and the engine is always given the *decoded* text,
never the caller's object, so that a live game and its replay see exactly the same input
(a tuple, a key that is not a string or a float NaN cannot slip through).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine import IllegalInput

Line = dict[str, Any]
#: The stored text's encoder, made once (``json.dumps`` with arguments makes one at every call: 4 of its 6 µs).
_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
#: The scanner under ``json.loads``, without its two searches for white space around the value (a stored line has none).
_scan = json.JSONDecoder().raw_decode


def encode(line: Mapping[str, Any]) -> str:
    """The compact JSON text stored for one line; :class:`IllegalInput` if it is not a JSON object."""
    if not isinstance(line, Mapping) or not all(isinstance(key, str) for key in line):
        raise IllegalInput("an input must be a JSON object")
    try:
        text = _compact(dict(line))
    except (TypeError, ValueError) as error:
        raise IllegalInput(f"an input must be plain JSON data ({error})") from None
    except RecursionError:
        raise IllegalInput("an input nested this deeply is not a game's input") from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"): JSON can spell it, UTF-8 and the journal cannot
        raise IllegalInput("an input's text must be valid Unicode (it holds a lone surrogate)") from None
    return text


def decode(text: str) -> Line:
    """The line stored as ``text`` (``ValueError`` if it is not a JSON object).

    What ``json.loads`` gives, in a third of its time when ``text`` is one value with nothing around it (what
    :func:`encode` writes); anything else, ``json.loads`` itself reads or refuses."""
    try:
        value, end = _scan(text)
    except (ValueError, TypeError):  # white space first, not JSON, bytes: json.loads's own answer below
        end = -1
    if end != len(text):
        value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


def format_game_file(lines: Iterable[Line]) -> str:
    """A game file: one JSON object per line, each line ending with a newline."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
