"""Roll-free runs (issue 39): a phone offering a trade and withdrawing it over and over. Before, the undo record was
copied whole at every input, so time and memory grew with the square of the run (importing 200,000 such inputs took
72 s and 286 MiB). Each run here is imported into a fresh journal (``companion games import``'s path: every input
checked, journaled and applied) in a child process, which reports its time and peak RSS.

    .venv/bin/python bench/roll_free_bench.py [--runs 25000 50000 100000 200000]

Figures are printed, never asserted: tests/test_roll_free_runs.py counts the work instead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUP = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1,
         "start": {"spaces": {"baltic-avenue": {"owner": "Ann"}, "reading-railroad": {"owner": "Bob"}}}}
OFFER = {"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cash": 10},
                 "get": {"spaces": ["reading-railroad"]}}}
WITHDRAW = {"act": {"player": "Ann", "do": "reject"}}

CHILD = """
import resource, sys, time
from pathlib import Path
from companion.journal import Journal
text = Path(sys.argv[1]).read_text(encoding="utf-8")
started = time.perf_counter()
with Journal(sys.argv[2]) as journal:
    game = journal.import_game(text)
seconds = time.perf_counter() - started
print(game.state["seq"], seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def game_file(inputs: int) -> str:
    lines = [json.dumps({"setup": SETUP})]
    lines += [json.dumps(OFFER if n % 2 == 0 else WITHDRAW) for n in range(inputs)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[25_000, 50_000, 100_000, 200_000])
    args = parser.parse_args()
    print(f"{'inputs':>8} {'import s':>9} {'µs/input':>9} {'peak RSS MiB':>13}")
    with tempfile.TemporaryDirectory() as folder:
        for inputs in args.runs:
            path = Path(folder) / f"run-{inputs}.jsonl"
            path.write_text(game_file(inputs), encoding="utf-8")
            journal = Path(folder) / f"run-{inputs}.sqlite3"
            out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(journal)], cwd=ROOT, check=True,
                                 capture_output=True, text=True).stdout.split()
            seq, seconds, peak_kib = int(out[0]), float(out[1]), int(out[2])
            assert seq == inputs, (seq, inputs)
            print(f"{inputs:>8} {seconds:>9.1f} {seconds / inputs * 1e6:>9.0f} {peak_kib / 1024:>13.1f}")


if __name__ == "__main__":
    main()
