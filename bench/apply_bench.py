"""The engine's ``apply`` alone (issue 43), on the table's path, in this process; prints figures, asserts nothing.

``bench/phones_bench.py --parts`` gives "the engine's apply" inside the running server (±15 % between runs on a
shared machine); this applies the same inputs with nothing around them: ``--money`` (the default) the bench's money
actions (eight players' classic game, the host's mortgage and lift-the-mortgage inputs in turn round the table, as
``phones_bench.money_actions`` sends them), ``--bots RULESET`` the inputs of fixed bot games of a ruleset (4 bots,
``bench/run.py``'s games) replayed in order. Printed: the thread CPU per ``apply``, best of ``--rounds`` rounds.

Each ``apply`` is called through ``functools.reduce`` (used nowhere else on the way), so that callgrind counts the
engine's instructions alone, the one figure that repeats on a shared machine (``PYTHONHASHSEED=0``)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \\
        .venv/bin/python bench/apply_bench.py --rounds 1 [--bots classic]

    .venv/bin/python bench/apply_bench.py [--actions 300] [--rounds 5] [--bots RULESET] [--games 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import reduce
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from companion.engine import BUILD, apply, ruleset_ids  # noqa: E402

Line = dict[str, Any]


def money_lines(players: int, count: int) -> tuple[Line, list[Line]]:
    """The bench's game (its set-up line) and ``count`` of its money actions, as ``phones_bench`` sends them."""
    from phones_bench import DEEDS, NAMES, setup

    mortgaged = dict.fromkeys(DEEDS, False)
    lines = []
    for i in range(count):
        deed = DEEDS[2 * (i % players) + (i // players) % 2]
        verb = "unmortgage" if mortgaged[deed] else "mortgage"
        mortgaged[deed] = not mortgaged[deed]
        lines.append({"act": {"player": NAMES[i % players], "do": verb, "space": deed}})
    return {"setup": setup(players)}, lines


def bot_games(ruleset: str, games: int) -> list[list[Line]]:
    """``bench/run.py``'s recorded bot games of ``ruleset``: each its set-up line and its inputs."""
    from run import recorded_games

    return recorded_games(ruleset, games)


def replay(games: list[list[Line]]) -> tuple[int, float]:
    """Every game's inputs applied in order on the table's path, each ``apply`` inside ``reduce``: (inputs, thread
    CPU seconds spent in them)."""
    spent, count = 0.0, 0
    clock = time.thread_time
    for lines in games:
        state, _ = apply(None, lines[0])
        for line in lines[1:]:
            def one(_: Any, __: Any, line: Line = line) -> Any:
                return apply(state, line)
            start = clock()
            state, _ = reduce(one, (0, 0))  # apply() alone, inside a C function callgrind can be told to count
            spent += clock() - start
            count += 1
    return count, spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300, help="money actions a round (default 300)")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--bots", choices=ruleset_ids(), help="a ruleset's bot games instead of the money actions")
    parser.add_argument("--games", type=int, default=3, help="bot games (--bots; default 3, as run.py --quick)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if args.bots:
        games = bot_games(args.bots, args.games)
        what = f"{args.bots}: {args.games} bot games of 4 players"
    else:
        first, lines = money_lines(args.players, args.actions)
        games = [[first, *lines]]
        what = f"{args.players} players' classic game: {args.actions} money actions (mortgage, lift the mortgage)"
    rounds = []
    for _ in range(args.rounds):
        count, spent = replay(games)
        rounds.append(1e6 * spent / count)
    print(f"apply on the table's path ({'compiled' if BUILD.compiled else 'pure'} engine), {what}: {min(rounds):.2f} µs of thread CPU per input "
          f"(best of {args.rounds} rounds of {count}; each: {', '.join(f'{r:.2f}' for r in rounds)}); "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
