"""The journal's SQLite schema and record checksums."""

from __future__ import annotations

import hashlib
import zlib

VERSION = 1  # PRAGMA user_version of a journal written by this code
#: The page size of a new journal (SQLite's default is 4096). An input's commit writes ~4 pages to the WAL (the
#: record's, the index's, the game's row, the records' sequence): 1 KB pages write a quarter of the bytes, which the
#: kernel copies and the disk syncs (issue 43: docs/journal.md). A journal made with other pages keeps them.
PAGE_SIZE = 1024

SCHEMA: tuple[str, ...] = (
    """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    ruleset  TEXT    NOT NULL,
    players  TEXT    NOT NULL,              -- JSON list of names, from the setup
    created  TEXT    NOT NULL,              -- ISO 8601 with offset (the Pi's clock: display only)
    inputs   INTEGER NOT NULL DEFAULT 0,    -- accepted inputs, state["seq"] (a cache: replay is the truth)
    winner   TEXT                           -- state["winner"] (a cache as well)
)
""",
    """
CREATE TABLE IF NOT EXISTS records (        -- the journal proper: append only
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game     INTEGER NOT NULL,
    line     TEXT    NOT NULL,              -- a game-file line: {"setup": ...} first, then one input each
    crc      INTEGER NOT NULL,              -- record_crc(game, line)
    at       TEXT    NOT NULL,              -- when it was received (display only)
    source   TEXT,                          -- who sent it: roller, software, manual, button, phone:<player>, host
    outcome  TEXT,                          -- NULL until applied, then 'ok', 'refused' or 'failed':
    reason   TEXT                           --   information only, replay never reads it
)
""",
    """
CREATE INDEX IF NOT EXISTS records_by_game ON records (game, id)
""",
    """
CREATE TABLE IF NOT EXISTS snapshots (      -- caches of the state, to reopen long games quickly
    game     INTEGER NOT NULL,
    record   INTEGER NOT NULL,              -- the last record the state covers
    version  TEXT    NOT NULL,              -- fingerprint of the engine that computed it; others ignored
    state    TEXT    NOT NULL,              -- the full state as JSON
    crc      INTEGER NOT NULL,              -- snapshot_crc(game, record, state)
    PRIMARY KEY (game, record)
)
""",
    """
CREATE TABLE IF NOT EXISTS damaged (        -- records the integrity check dropped, kept for a post-mortem
    id       INTEGER,
    game     INTEGER,
    line     TEXT,
    crc      INTEGER,
    at       TEXT,
    found    TEXT    NOT NULL,
    reason   TEXT    NOT NULL
)
""",
)


def record_crc(game: int, line: str) -> int:
    """CRC-32 of a record: its game id and its stored JSON text."""
    return zlib.crc32(f"{game}:{line}".encode())


def snapshot_crc(game: int, record: int, state: str) -> int:
    """CRC-32 of a snapshot: its game, the record it covers and the state's JSON text."""
    return zlib.crc32(f"{game}:{record}:{state}".encode())


def engine_fingerprint() -> str:
    """A digest of the engine's code and bundled boards: a snapshot is trusted only by the same engine.

    ``companion.__version__`` does not change with every edit of a rule; the code itself does.
    """
    from importlib import resources

    digest = hashlib.sha256()
    for package in ("companion.engine", "companion.engine.rules", "companion.boards"):
        for entry in sorted(resources.files(package).iterdir(), key=lambda e: e.name):
            if entry.is_file() and entry.name.endswith((".py", ".toml")):
                digest.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return digest.hexdigest()[:16]
