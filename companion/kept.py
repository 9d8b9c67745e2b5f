"""Small files the table keeps beside its journal (the phones' access, its own Wi-Fi): written whole or not at all,
and readable by their owner only, as the journal is.

Every such file is created afresh (``O_CREAT | O_EXCL | O_NOFOLLOW``, mode 0600): a file or a symbolic link planted
under its name beforehand is never written through, nor its permissions kept; and ``companion run`` works under the
umask :data:`PRIVATE_UMASK`, so whatever else it creates is its owner's alone too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: The process's umask on the table (and systemd's ``UMask=`` in firmware/companion.service): files for the owner.
PRIVATE_UMASK = 0o077
#: Flags of a file created for the owner alone: never one already there, never through a symbolic link.
CREATE_PRIVATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def create_private(path: str | os.PathLike[str]) -> int:
    """A new file at ``path``, mode 0600, opened for writing (its descriptor); :class:`FileExistsError` if anything,
    a symbolic link included, is there already."""
    return os.open(path, CREATE_PRIVATE, 0o600)


def keep_private(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path``, readable by its owner only, atomically and synced (a power cut leaves the
    old file or the new one). Raises OSError (a full disk) for the caller to say what that means.

    The scratch file ``<name>.new`` left by a power cut, or planted (a symbolic link to elsewhere, a file readable
    by all), is removed first (the link itself, never its target) and the scratch created afresh."""
    scratch = path.with_name(path.name + ".new")
    scratch.unlink(missing_ok=True)
    fd = create_private(scratch)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(scratch, path)


def private_file(path: str | os.PathLike[str]) -> None:
    """Make sure the file at ``path`` is its owner's alone before anyone writes to it (the journal, before SQLite
    opens it; SQLite gives its write-ahead log and shared memory the same permissions): created empty with
    :func:`create_private` when it is not there, its group and other bits taken away when it is (a journal written
    before this rule was 0644). A symbolic link is left as it is: the owner made it."""
    try:
        os.close(create_private(path))
    except FileExistsError:
        if not os.path.islink(path):
            mode = os.stat(path).st_mode
            if mode & 0o077:
                os.chmod(path, mode & 0o700)
