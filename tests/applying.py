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


def check_offer_can_be_accepted(state: State) -> None:
    """A waiting offer is one its partner can accept now: the engine withdraws an offer that an input made impossible,
    so the only refusal left is a debt that waits (its cash goes to the creditor first)."""
    offer = state.get("trade")
    if not offer or state.get("winner") is not None:
        return
    try:
        apply(state, {"act": {"player": offer["with"], "do": "accept"}})
    except IllegalInput as refusal:
        assert "while owing" in str(refusal), f"an offer left open that cannot be accepted: {refusal}"
