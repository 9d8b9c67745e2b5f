"""The files that hold the table's secrets (the phones' access: PIN, join code, cookie key; the Wi-Fi password) and
its journal (the seed, the decks' order, face-down cards) are their owner's alone: created afresh with ``O_EXCL |
O_NOFOLLOW`` and mode 0600, whatever was planted under their names and whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.kept import keep_private, private_file
from companion.startup.journal_trouble import hold_journal
from companion.web.access import Access


@pytest.fixture(autouse=True)
def open_umask() -> Iterator[None]:
    """A umask that would leave new files readable by all (as a shell's 022 does)."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_planted_scratch_file_does_not_leave_the_secrets_readable(tmp_path: Path) -> None:
    kept = tmp_path / "games.phones.json"
    planted = tmp_path / "games.phones.json.new"
    planted.write_text("{}")
    planted.chmod(0o644)
    Access.kept(kept)
    assert mode(kept) == 0o600 and not planted.exists()


def test_a_planted_link_is_never_written_through(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("untouched")
    target.chmod(0o644)
    (tmp_path / "wifi.json.new").symlink_to(target)
    keep_private(tmp_path / "wifi.json", {"ssid": "companion-ABCD", "password": "abcd-efgh-ijkl"})
    assert target.read_text() == "untouched" and mode(target) == 0o644
    assert mode(tmp_path / "wifi.json") == 0o600 and not (tmp_path / "wifi.json").is_symlink()


def test_the_journal_and_its_log_are_the_owners_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    release = hold_journal(path)
    journal = Journal(path)
    journal.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
    files = sorted(tmp_path.iterdir())
    assert {p.name for p in files} >= {"games.sqlite3", "games.sqlite3-wal", "games.sqlite3.lock"}
    assert {p.name: mode(p) for p in files} == {p.name: 0o600 for p in files}
    journal.close()
    release()


def test_a_journal_written_before_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    Journal(path).close()
    path.chmod(0o644)
    private_file(path)
    assert mode(path) == 0o600
