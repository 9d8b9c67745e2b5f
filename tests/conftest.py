"""Shared test helpers: running game files and comparing states to expected subsets."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line speaks the environment's language (LC_ALL, LC_MESSAGES, LANG: docs/languages.md): every
    test runs in the C locale, whatever the machine's, unless it sets another."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


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
