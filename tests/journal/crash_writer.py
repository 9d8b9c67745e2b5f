"""The writer the crash test kills: ``python -m tests.journal.crash_writer DB SEED``.

It resumes the last unfinished game of the journal (or starts one), then submits random
inputs for ever. Only after ``submit`` has returned does it print, flushed:

    ack GAME RECORD SEQ LINE      an accepted input (LINE is its JSON)
    refused GAME RECORD LINE      a refused one (journaled all the same)
"""

from __future__ import annotations

import json
import random
import sys

from companion.engine import IllegalInput
from companion.journal import Journal

from .inputs import SETUP, next_input

SNAPSHOT_EVERY = 4


def main(path: str, seed: int) -> None:
    rnd = random.Random(seed)
    with Journal(path, snapshot_every=SNAPSHOT_EVERY) as journal:
        game = journal.latest_game(unfinished=True) or journal.new_game({**SETUP, "seed": seed})
        while True:
            line = next_input(game.state, rnd)
            try:
                state, _ = game.submit(line)
            except IllegalInput:
                print("refused", game.id, game.record, json.dumps(line), flush=True)
                continue
            print("ack", game.id, game.record, state["seq"], json.dumps(line), flush=True)
            if state["winner"] is not None:
                game = journal.new_game({**SETUP, "seed": rnd.randrange(2**32)})


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
