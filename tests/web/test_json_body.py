"""The request body's reading (``guard.json_body``) takes and refuses exactly what ``json.loads`` and the nesting
walk over the whole body did: its one decoder made once, and the walk left out for a body with fewer brackets than
the bound (issue 43)."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.localfiles import nesting
from companion.web.errors import BadRequest
from companion.web.guard import MAX_NESTING, _not_json, json_body

APP = Flask(__name__)

VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                      max_leaves=60)


def deep(depth: int, kind: str) -> str:
    """A body nested ``depth`` levels (objects and lists), as a phone could send it."""
    inner = "1"
    for level in range(depth - 1):
        inner = f"[{inner}]" if kind == "list" or level % 2 else f'{{"a":{inner}}}'
    return f'{{"x":{inner}}}'


def as_before(data: bytes) -> tuple[str, Any]:
    """What the body's reading answered before: json.loads with its own decoder, then the walk over every body."""
    try:
        body = json.loads(data, parse_constant=_not_json)
    except RecursionError:
        return "refused", "deep"
    except UnicodeDecodeError:
        return "refused", "utf-8"
    except ValueError:
        return "refused", "json"
    if not isinstance(body, dict):
        return "refused", "object"
    if nesting(body, MAX_NESTING) > MAX_NESTING:
        return "refused", "nested"
    return "taken", body


def now(data: bytes) -> tuple[str, Any]:
    with APP.test_request_context("/", method="POST"):
        try:
            return "taken", json_body(data)
        except BadRequest:
            return "refused", None


def same(data: bytes) -> None:
    before, found = as_before(data), now(data)
    assert found[0] == before[0], (data, before, found)
    if found[0] == "taken":
        assert found[1] == before[1]


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from(["utf-8", "utf-16", "utf-32", "utf-8-sig"]))
def test_any_json_is_read_as_before(value: Any, encoding: str) -> None:
    same(json.dumps({"input": value}, ensure_ascii=False).encode(encoding, "surrogatepass"))
    same(json.dumps(value).encode(encoding, "surrogatepass"))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2 * MAX_NESTING), st.sampled_from(["list", "mixed"]), st.text(alphabet="[]{} ", max_size=40))
def test_nested_bodies_are_refused_as_before(depth: int, kind: str, padding: str) -> None:
    """At the bound, past it, and with brackets in strings that count without nesting."""
    same(deep(depth, kind).encode())
    same(f'{{"pad":{json.dumps(padding)},"x":{deep(depth, kind)}}}'.encode())


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40))
def test_any_bytes_are_refused_or_taken_as_before(data: bytes) -> None:
    same(data)
    same(b'{"a":' + data + b"}")


def test_the_bound_itself() -> None:
    assert now(deep(MAX_NESTING, "list").encode())[0] == "taken"
    assert now(deep(MAX_NESTING + 1, "list").encode())[0] == "refused"
    assert now(b'{"a":NaN}')[0] == "refused"
