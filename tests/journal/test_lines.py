"""A stored line's text and back (issue 43: one encoder made once, the scanner without its searches for white space):
exactly what ``json.dumps`` / ``json.loads`` gave, for any JSON and any text around it."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.engine import IllegalInput
from companion.journal.lines import decode, encode

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)
SPACE = st.sampled_from(["", " ", "\n", "\t ", "\r\n"])


def answer(read: Any, text: Any) -> Any:
    """What ``read`` gives for ``text``: its value, or the kind of error (the message too, for JSON's)."""
    try:
        return ("value", read(text))
    except ValueError as error:
        return ("refused", str(error) if isinstance(error, json.JSONDecodeError) else "not a JSON object")


def loads_object(text: Any) -> Any:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value


@given(JSON, SPACE, SPACE)
def test_decode_reads_what_json_loads_reads(value: Any, before: str, after: str) -> None:
    text = before + json.dumps(value, ensure_ascii=False) + after
    assert answer(decode, text) == answer(loads_object, text)


@given(st.text(max_size=30))
def test_decode_refuses_what_json_loads_refuses(text: str) -> None:
    for candidate in (text, "{" + text, '{"a":1}' + text, text.encode()):
        assert answer(decode, candidate) == answer(loads_object, candidate)


@given(st.dictionaries(st.text(max_size=5), JSON, max_size=5))
def test_encode_writes_what_json_dumps_wrote(line: dict[str, Any]) -> None:
    try:
        before = json.dumps(line, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        before.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: refused, as before
        assert_refused(line)
        return
    assert encode(line) == before
    assert decode(encode(line)) == json.loads(before)


def assert_refused(line: dict[str, Any]) -> None:
    try:
        encode(line)
    except IllegalInput:
        return
    raise AssertionError(f"{line!r} was not refused")


def test_what_json_refuses_encode_refuses_as_an_illegal_input() -> None:
    for line in ({"a": math.nan}, {"a": math.inf}, {1: "x"}, {"a": object()}, {"a": "\ud800"}):
        assert_refused(line)  # type: ignore[arg-type]
