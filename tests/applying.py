"""Applying an input in a property test: the state it is applied to must come out as it went in."""

from __future__ import annotations

import copy
from typing import Any

from companion.engine import Event, IllegalInput, State, apply


def apply_unchanged(state: State, line: dict[str, Any]) -> tuple[State, list[Event]] | None:
    """``apply(state, line)``, checking that ``state`` is left as it was whether the input is taken or
    refused (states are never changed once built); ``None`` when the engine refuses the input."""
    snapshot = copy.deepcopy(state)
    try:
        after, events = apply(state, line)
    except IllegalInput:
        assert state == snapshot, f"the refused input {line} changed the state"
        return None
    assert state == snapshot, f"{line} changed the state it was applied to"
    return after, events
