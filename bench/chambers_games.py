"""Play many random ``chambers`` games through the engine and print how long they last and how fast they run.

    .venv/bin/python bench/chambers_games.py [GAMES] [PLAYERS]

Dice and answers come from ``random.Random(game number)``, so the figures repeat; the engine itself is only
given inputs, as at the table.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from companion.engine import apply, new_game


def play(seed: int, players: int) -> tuple[int, int, dict[str, int]]:
    """One game to its winner: (inputs, turns, counts of event kinds)."""
    rng = random.Random(seed)
    state, _ = new_game({"ruleset": "chambers", "players": ["Ann", "Bob", "Cy", "Dee"][:players], "seed": seed})
    inputs = 0
    kinds: dict[str, int] = {}
    while state["winner"] is None:
        prompt = state["prompt"]
        line = {"roll": [rng.randint(1, 6)]} if prompt["kind"] == "roll" else {"answer": rng.choice(prompt["options"])}
        state, events = apply(state, line)
        inputs += 1
        for event in events:
            kinds[event["kind"]] = kinds.get(event["kind"], 0) + 1
    return inputs, state["turn"]["number"], kinds


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 500
    players = int(argv[2]) if len(argv) > 2 else 3
    start = time.perf_counter()
    results = [play(seed, players) for seed in range(games)]
    elapsed = time.perf_counter() - start
    inputs = [r[0] for r in results]
    turns = [r[1] for r in results]
    total: dict[str, int] = {}
    for _, _, kinds in results:
        for kind, n in kinds.items():
            total[kind] = total.get(kind, 0) + n
    print(f"chambers, {players} players, {games} games to a winner")
    print(f"  turns per game: mean {statistics.mean(turns):.1f}, median {statistics.median(turns)}, "
          f"max {max(turns)}")
    print(f"  inputs per game: mean {statistics.mean(inputs):.1f}")
    print(f"  engine: {sum(inputs) / elapsed:,.0f} inputs/s ({elapsed / sum(inputs) * 1e6:.0f} µs per input)")
    print("  events per game: " + ", ".join(f"{k} {n / games:.1f}" for k, n in sorted(total.items())))


if __name__ == "__main__":
    main(sys.argv)
