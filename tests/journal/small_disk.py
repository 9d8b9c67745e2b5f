"""A small filesystem of its own that really fills: tmpfs, or ext4 on a loop device.

Root only: skipped otherwise, failed under CI, which runs as root (.ci/run's box check needs root and e2fsprogs). A
mount the system refuses even to root (a container without the capability) is skipped, CI or not: nothing
.ci/run could install would change that."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

SIZE_KB = 16 * 1024  # room for a WAL grown to its checkpoint (~1000 pages) and a few hundred inputs more


def _unavailable(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why} in CI (.ci/run runs as root)")
    pytest.skip(why)


@contextlib.contextmanager
def mounted(kind: str, folder: Path) -> Iterator[Path]:
    """A ``kind`` ("tmpfs" or "ext4") filesystem of :data:`SIZE_KB` mounted in ``folder``; its mount point."""
    if os.geteuid() != 0:
        _unavailable("mounting a small filesystem needs root")
    point = folder / "disk"
    point.mkdir()
    if kind == "tmpfs":
        command = ["mount", "-t", "tmpfs", "-o", f"size={SIZE_KB}k,mode=0700", "tmpfs", str(point)]
    else:
        if shutil.which("mkfs.ext4") is None:
            _unavailable("mkfs.ext4 is missing (e2fsprogs)")
        image = folder / "disk.img"
        with image.open("wb") as file:
            file.truncate(SIZE_KB * 1024)
        subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True, capture_output=True)
        command = ["mount", "-o", "loop", str(image), str(point)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"{' '.join(command[:3])} was refused: {done.stderr.strip()}")
    try:
        yield point
    finally:
        gc.collect()  # a connection kept alive by an exception's frames would keep the filesystem busy
        if subprocess.run(["umount", str(point)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(point)], check=True)  # detached now, freed when let go


def fill(folder: Path) -> None:
    """Take every byte left on ``folder``'s filesystem with one more file (``filler``), as logs might."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for size in (1 << 16, 4096, 512, 64, 1):
            with contextlib.suppress(OSError):  # ENOSPC: on to smaller writes, down to the last byte
                while True:
                    os.write(fd, bytes(size))
    finally:
        os.close(fd)


def free(folder: Path) -> None:
    (folder / "filler").unlink()
