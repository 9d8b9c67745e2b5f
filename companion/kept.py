"""Small files the table keeps beside its journal (the phones' access, its own Wi-Fi): written whole or not at all."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def keep_private(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path``, readable by its owner only, atomically and synced (a power cut leaves the
    old file or the new one). Raises OSError (a full disk) for the caller to say what that means."""
    scratch = path.with_name(path.name + ".new")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out)
        out.flush()
        os.fsync(out.fileno())
    os.replace(scratch, path)
