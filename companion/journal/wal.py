"""The WAL's room, written once when a journal opens, so that an input's synced commit never grows the file.

SQLite deletes the WAL when the last connection closes, so every start of a table appended its first ~240 inputs to a
fresh file: each commit grew it, and the file system then journals the file's new size and blocks at the input's
``fdatasync`` (issue 43: ~80 µs of CPU an input more than a commit into room already written, docs/journal.md).
Writing zeros up to the size the WAL reaches before its automatic checkpoint, synced once, makes every later commit
overwrite blocks already on disk. SQLite reads a WAL only as far as its frames are valid (each frame's salt and
checksum): zeros past them are never taken for a frame, and its recovery and checkpoints ignore them.
"""

from __future__ import annotations

import errno
import os
import sqlite3

WAL_HEADER = 32  # bytes, then each frame: a 24-byte header and its page
FRAME_HEADER = 24
CHUNK = 64 * 1024  # zeros written at a time
MARGIN = 16  # frames past the automatic checkpoint: the commit that crosses it


def room(db: sqlite3.Connection) -> int:
    """The bytes the WAL of ``db`` reaches by its automatic checkpoint (0: it has none, or none is automatic)."""
    (pages,) = db.execute("PRAGMA wal_autocheckpoint").fetchone()
    (page_size,) = db.execute("PRAGMA page_size").fetchone()
    return WAL_HEADER + (pages + MARGIN) * (FRAME_HEADER + page_size) if pages > 0 else 0


def reserve(path: str, size: int) -> int:
    """Write zeros from the end of the WAL at ``path`` up to ``size`` bytes and sync them; the bytes written.

    Call it with the database's write lock held (``BEGIN IMMEDIATE``): no commit may append frames meanwhile. Only
    the file's end moves; what SQLite wrote is not touched. ``OSError`` (a full disk) leaves at most some zeros more,
    as harmless as the rest."""
    fd = os.open(path, os.O_WRONLY)  # never created here: SQLite made it when it opened the journal in WAL mode
    try:
        end = os.fstat(fd).st_size
        if end >= size:
            return 0
        zeros = bytes(min(CHUNK, size - end))
        at = end
        while at < size:
            written = os.pwrite(fd, zeros[: size - at], at)
            if written <= 0:
                raise OSError(errno.ENOSPC, "no room written", path)
            at += written
        os.fdatasync(fd)
        return size - end
    finally:
        os.close(fd)
