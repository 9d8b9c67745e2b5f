"""Fixtures of the journal tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import Journal


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def journal(path: Path) -> Iterator[Journal]:
    with Journal(path, snapshot_every=5) as j:
        yield j
