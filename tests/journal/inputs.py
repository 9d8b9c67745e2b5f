"""Random input lines for a game, legal and illegal, chosen by looking at ``state["prompt"]``.

Shared by the property tests and the crash writer; ``rnd`` is any ``random.Random``
(hypothesis' ``st.randoms()`` in property tests, so that failures shrink and replay).
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

from companion.engine import IllegalInput, apply, new_game

SETUP: dict[str, Any] = {"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 1}

JUNK: list[dict[str, Any]] = [
    {"answer": "maybe"},
    {"roll": [7, 1]},
    {"roll": [3]},
    {"roll": [True, 2]},
    {"act": {"player": "Zed", "do": "pass"}},
    {"act": {"player": "Ann", "do": "juggle"}},
    {"act": "bid"},
    {"undo": 2},
    {"frobnicate": 1},
    {},
    {"setup": SETUP},
]


def next_input(state: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """One plausible input for ``state``: mostly what the prompt asks, sometimes an act, undo or junk."""
    players = [p["name"] for p in state["players"] if not p["bankrupt"]] or [state["players"][0]["name"]]
    spaces = sorted(state.get("spaces") or {}) or ["go"]
    prompt = state["prompt"] or {}
    kind = prompt.get("kind")
    r = rnd.random()
    if r < 0.07:
        return {"undo": 1}
    if r < 0.12:
        return rnd.choice(JUNK)
    if r < 0.22:
        verb = rnd.choice(["build", "sell", "mortgage", "unmortgage", "pay-fine"])
        return {"act": {"player": rnd.choice(players), "do": verb, "space": rnd.choice(spaces)}}
    if kind == "roll":
        return {"roll": [rnd.randint(1, 6) for _ in range(prompt.get("dice", 2))]}
    if kind == "auction":
        bidder = rnd.choice(prompt.get("waiting") or players)
        if rnd.random() < 0.4:
            return {"act": {"player": bidder, "do": "bid", "amount": prompt.get("bid", 0) + rnd.randint(1, 40)}}
        return {"act": {"player": bidder, "do": "pass"}}
    options = list(prompt.get("options") or [])
    if kind == "debt" and len(options) < 2 and rnd.random() < 0.7:
        # Rather raise the money than go bankrupt at once, so that games last.
        return {"act": {"player": prompt.get("player", players[0]), "do": "mortgage",
                        "space": rnd.choice(spaces)}}
    if options:
        return {"answer": rnd.choice(options)}
    return {"undo": 1}


def replay_all(setup: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The truth, without the journal: the engine applied to every line, refused ones skipped."""
    state, _ = new_game(setup)
    for line in lines:
        with contextlib.suppress(IllegalInput):
            state, _ = apply(state, line)
    return state


def play(game: Any, count: int, rnd: random.Random) -> list[dict[str, Any]]:
    """Submit ``count`` random inputs (legal and not) to a ``StoredGame``; returns every line sent."""
    sent = []
    for _ in range(count):
        line = next_input(game.state, rnd)
        sent.append(line)
        with contextlib.suppress(IllegalInput):
            game.submit(line)
    return sent
