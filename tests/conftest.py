"""Shared test helpers: running game files and comparing states to expected subsets."""

from __future__ import annotations

from typing import Any


def assert_subset(expected: Any, actual: Any, path: str = "state") -> None:
    """Every key of ``expected`` (recursively for objects) equals ``actual``; lists compare item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key}: missing"
            assert_subset(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list) and expected and isinstance(expected[0], dict):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{path}: {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_subset(e, a, f"{path}[{i}]")
    else:
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"
