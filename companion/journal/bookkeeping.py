"""What the journal writes beside the inputs, every part of it rebuilt by a replay: the outcomes, the listing's
cache, snapshots.

An input's bookkeeping is not committed on its own: it waits in memory and goes into the next write, the next input's
synced commit (one commit per input), or a commit of its own at ``synchronous=NORMAL`` when the journal is listed,
a game opened or the journal closed. Lost to a power cut, it is rebuilt: a record whose ``outcome`` is still NULL
makes the game be replayed when it is opened (``Journal._load``), which writes it again.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import NamedTuple

from companion.engine import State

from .schema import snapshot_crc

log = logging.getLogger(__name__)

KEEP_SNAPSHOTS = 2  # per game: the latest, and one to fall back on
Mark = tuple[str, str | None, int]  # a record's outcome, its reason and the record's id


def state_text(state: State) -> str:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def winner_of(state: State) -> str | None:
    winner = state.get("winner")
    return winner if winner is None or isinstance(winner, str) else json.dumps(winner)


def snapshot_of(state: State) -> str | None:
    """The state as a snapshot's JSON text, or None (logged) if it is not JSON data."""
    try:
        return state_text(state)
    except (TypeError, ValueError) as error:
        log.error("the state is not JSON data, no snapshot (%s)", error)
        return None


def insert_snapshot(db: sqlite3.Connection, game_id: int, record: int, text: str, engine: str) -> None:
    """Store a snapshot of the state after ``record`` (JSON ``text``, made by ``engine``), keep the latest two."""
    db.execute(
        "INSERT OR REPLACE INTO snapshots (game, record, version, state, crc) VALUES (?, ?, ?, ?, ?)",
        (game_id, record, engine, text, snapshot_crc(game_id, record, text)),
    )
    db.execute(
        "DELETE FROM snapshots WHERE game = ? AND record NOT IN"
        " (SELECT record FROM snapshots WHERE game = ? ORDER BY record DESC LIMIT ?)",
        (game_id, game_id, KEEP_SNAPSHOTS),
    )


class Bookkeeping(NamedTuple):
    """Outcomes of records of one game, and what the listing and a snapshot keep of the state after them.

    Taken from the state when the input is applied (the JSON of a snapshot too): what is written later is what the
    engine gave then, whatever happens to that state object meanwhile."""

    game: int
    marks: tuple[Mark, ...]
    listing: tuple[int, str | None] | None  # the state's seq and winner (None: the state did not change)
    snapshot: tuple[int, str] | None = None  # the record it covers and the state's JSON

    @classmethod
    def of(cls, game: int, marks: list[Mark], state: State | None, snapshot_record: int | None = None) -> Bookkeeping:
        text = snapshot_of(state) if state is not None and snapshot_record is not None else None
        return cls(
            game,
            tuple(marks),
            None if state is None else (state["seq"], winner_of(state)),
            None if text is None or snapshot_record is None else (snapshot_record, text),
        )

    def write(self, db: sqlite3.Connection, engine: str) -> None:
        """Its updates, in the transaction open on ``db``."""
        db.executemany("UPDATE records SET outcome = ?, reason = ? WHERE id = ?", self.marks)
        if self.listing is not None:
            db.execute("UPDATE games SET inputs = ?, winner = ? WHERE id = ?", (*self.listing, self.game))
        if self.snapshot is not None:
            insert_snapshot(db, self.game, *self.snapshot, engine)
