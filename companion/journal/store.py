"""The journal: games kept in SQLite, one input at a time, rebuilt by replay.

Every input goes ``append → commit (fsync) → apply``: it is on disk before the engine sees
it, so nothing acknowledged can be lost. A refused input stays in the journal; replay
refuses it again (the engine is deterministic), so replay never trusts the ``outcome``
column, which is there for people. Snapshots of the state are caches: a game is rebuilt
from the latest valid snapshot made by this same engine code, or from its setup. What is written
after the engine has applied an input (its outcome, the listing's cache, a snapshot: ``bookkeeping``)
goes into the next input's commit: one synced commit per input.

Over 500 lines: the one class that writes the database (appending, snapshots, replay and recovery share its
connection and its lock); the schema, the lines' encoding, the WAL's room and the errors are modules of their own.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from companion.engine import Event, IllegalInput, State, apply
from companion.gamefile import GameFileError, game_file_lines, parse_lines
from companion.kept import private_file
from companion.said import N_, Said

from . import wal
from .bookkeeping import Bookkeeping, Mark, insert_snapshot, snapshot_of, winner_of
from .errors import EngineFailure, GameDamaged, JournalError, JournalFull
from .lines import Line, decode, encode, format_game_file
from .schema import PAGE_SIZE, SCHEMA, VERSION, engine_fingerprint, record_crc, snapshot_crc

log = logging.getLogger(__name__)

Outcome = Literal["ok", "refused", "failed"]
#: The outcomes as a problem of the journal says them ("record 7 was ok when played but is refused on replay").
OUTCOMES = (N_("ok"), N_("refused"), N_("failed"))


@dataclass(frozen=True)
class GameInfo:
    """One line of :meth:`Journal.games`."""

    id: int
    ruleset: str
    players: tuple[str, ...]
    created: datetime
    updated: datetime  # when the latest input arrived (the Pi's clock: for display, never for ordering)
    inputs: int  # accepted inputs (``state["seq"]``)
    winner: str | None
    problem: str | None = None  # why the game cannot be loaded, if it cannot

    @property
    def finished(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True)
class _Result:
    """What the engine made of one line."""

    state: State | None  # the new state if the line was accepted
    events: list[Event] = field(default_factory=list)
    error: Exception | None = None

    @property
    def outcome(self) -> Outcome:
        if self.error is None:
            return "ok"
        return "refused" if isinstance(self.error, IllegalInput) else "failed"

    @property
    def reason(self) -> str | None:
        if self.error is None:
            return None
        return str(self.error) if isinstance(self.error, IllegalInput) else f"engine failure: {self.error!r}"


def _attempt(state: State | None, line: Line) -> _Result:
    """Apply one line (a setup line when ``state`` is None); never raises an ``Exception``.

    An engine crash counts as a refusal, the same way live and on replay, so that one engine
    bug cannot make a journaled game impossible to reopen.
    """
    try:
        new, events = apply(state, line)
    except IllegalInput as error:
        return _Result(None, [], error)
    except Exception as error:  # noqa: BLE001 - an engine bug must not lose the game
        log.error("the engine failed on %s", json.dumps(line), exc_info=True)
        return _Result(None, [], error)
    return _Result(new, events)


def _is_full(error: sqlite3.Error) -> bool:
    return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "full" in str(error)


def _now() -> datetime:
    return datetime.now(UTC)


class Journal:
    """A file of games: create, list, resume, import and export them.

    One SQLite connection per object, guarded by a lock: a journal may be called from several
    threads, but each game should still receive its inputs from one writer (the table).
    Open it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        snapshot_every: int = 100,
        clock: Callable[[], datetime] = _now,
        check_all: bool = True,
    ) -> None:
        """Open (or create) the journal at ``path`` and check its integrity.

        ``snapshot_every``: store the state every N accepted inputs (0: never).
        Whatever the check finds is in :attr:`problems` (and logged); damaged games are listed
        with their problem but not loaded.

        ``check_all``: SQLite's own check of the whole file and every record of every game at once; else (a table
        starting: its start-up must not grow with the history) each game's records are checked when it is first
        opened (:meth:`open_game`, :meth:`latest_game`), and the file's pages as they are read.
        """
        if snapshot_every < 0:
            raise ValueError("snapshot_every must be 0 (never) or more")
        self.path = os.fspath(path)
        self.snapshot_every = snapshot_every
        self.problems: list[str] = []  # what the check found, in English (the log's, the command line's)
        self.told: list[Said] = []  # the same as data, said on the OLED in the table's language
        self._clock = clock
        self._lock = threading.RLock()
        self._damaged: dict[int, str] = {}
        self._checked: set[int] | None = None if check_all else set()  # the games checked so far (None: all)
        self._engine = engine_fingerprint()
        self._db = self._connect()
        self._sync_full = True  # _connect sets synchronous = FULL; False while that must be restored
        self._waiting: Bookkeeping | None = None  # the last input's, written with the next commit
        try:
            self._prepare()
            self._check()
            self._reserve_wal()
        except BaseException:
            self._db.close()
            raise

    # ------------------------------------------------------------------ lifetime
    def close(self) -> None:
        """Close the database (everything acknowledged is already on disk; the last input's bookkeeping is
        written now)."""
        with self._lock:
            self._write_waiting()
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({self.path!r})"

    # ------------------------------------------------------------------ games
    def games(self) -> list[GameInfo]:
        """Every game, the most recently played first.

        When the records cannot be read (a damaged page of the file), the games are still listed, from their
        own table (the newest first, as last updated when created): every game that can be loaded still is."""
        with self._lock:
            self._write_waiting()  # the listing's cache as of the last input
            try:
                rows = self._db.execute(
                    "SELECT g.id, g.ruleset, g.players, g.created, g.inputs, g.winner, max(r.at)"
                    " FROM games g LEFT JOIN records r ON r.game = g.id"
                    " GROUP BY g.id ORDER BY max(r.id) DESC, g.id DESC"
                ).fetchall()
            except sqlite3.DatabaseError:
                rows = self._read(
                    "listing the games",
                    "SELECT id, ruleset, players, created, inputs, winner, NULL FROM games ORDER BY id DESC",
                )
            return [
                GameInfo(
                    id=game_id,
                    ruleset=ruleset,
                    players=tuple(json.loads(players)),
                    created=datetime.fromisoformat(created),
                    updated=datetime.fromisoformat(updated or created),
                    inputs=inputs,
                    winner=winner,
                    problem=self._damaged.get(game_id),
                )
                for game_id, ruleset, players, created, inputs, winner, updated in rows
            ]

    def new_game(self, setup: Mapping[str, Any]) -> StoredGame:
        """Start and journal a game; :class:`IllegalInput` (nothing stored) if the engine refuses ``setup``."""
        text = encode({"setup": setup})
        line = decode(text)
        result = _attempt(None, line)
        if result.state is None:
            raise self._refusal(result, text)
        with self._lock:
            now = self._timestamp()
            self._write_waiting()
            self._synced_commits()
            with self._transaction("the new game") as db:
                game_id = self._insert_game(db, line["setup"], result.state, now)
                record = self._insert_record(db, game_id, text, now, "ok")
        return StoredGame(self, game_id, line["setup"], result.state, record, result.events)

    def open_game(self, game_id: int) -> StoredGame:
        """Resume a game: replay its inputs from its latest snapshot (or from its setup)."""
        with self._lock:
            self._write_waiting()
            if self._checked is not None and game_id not in self._checked:
                self._check_one(game_id)
            if game_id in self._damaged:
                raise GameDamaged(f"game {game_id} cannot be loaded: {self._damaged[game_id]}")
            try:
                return self._load(game_id)
            except sqlite3.Error as error:
                raise self._error(error, f"reading game {game_id}") from error

    def latest_game(self, *, unfinished: bool = False) -> StoredGame | None:
        """The game played most recently (damaged games skipped; ``unfinished``: the most recent of those not over),
        or None.

        Without ``unfinished`` it is where the table stopped: after a game over the table comes back to that game's
        result (its screen offers a new game), not to an older game left unfinished weeks ago."""
        for info in self.games():
            if info.problem is None and not (unfinished and info.finished):
                try:
                    return self.open_game(info.id)
                except GameDamaged:  # found when first opened (``check_all`` off): the next one
                    continue
        return None

    def import_game(self, text: str) -> StoredGame:
        """Store a game file (JSON Lines) as a new game.

        Every line goes through the engine first; the first bad one raises
        :class:`GameFileError` naming its line number and the reason, and nothing is stored.
        """
        state: State | None = None
        events: list[Event] = []
        lines: list[str] = []
        for number, line in parse_lines(game_file_lines(text)):
            try:
                stored = encode(line)
            except IllegalInput as error:
                raise GameFileError(number, str(error)) from None
            result = _attempt(state, decode(stored))
            if result.state is None:
                raise GameFileError(number, result.reason or "refused")
            state, events = result.state, result.events
            lines.append(stored)
        if state is None:
            raise GameFileError(1, 'the game file is empty: it starts with a {"setup": {...}} line')
        setup = decode(lines[0])["setup"]
        snapshot = snapshot_of(state) if self.snapshot_every and state["seq"] >= self.snapshot_every else None
        with self._lock:
            now = self._timestamp()
            self._write_waiting()
            self._synced_commits()
            with self._transaction("the imported game") as db:
                game_id = self._insert_game(db, setup, state, now)
                for stored in lines:
                    record = self._insert_record(db, game_id, stored, now, "ok")
                if snapshot is not None:
                    insert_snapshot(db, game_id, record, snapshot, self._engine)
        return StoredGame(self, game_id, setup, state, record, events)

    # ------------------------------------------------------------------ used by StoredGame
    def _submit(self, game: StoredGame, text: str, source: str = "") -> _Result:
        """Append and commit ``text`` (with the bookkeeping of the input before), then apply it to ``game.state``;
        its own bookkeeping waits for the next commit."""
        line = decode(text)
        now = self._timestamp()
        self._synced_commits()
        waiting = self._waiting
        try:
            record = self._append(game, text, now, source, waiting)
        except JournalFull:
            if waiting is None:
                raise
            record = self._append(game, text, now, source, None)  # no room for both: the input first
            log.warning("%s: game %s: the disk is nearly full: the outcome of record %s is left to a replay",
                        self.path, waiting.game, waiting.marks[-1][2])
        self._waiting = None
        game._last_record = record
        result = _attempt(game.state, line)
        snapshot = (
            result.state is not None
            and self.snapshot_every > 0
            and result.state["seq"] % self.snapshot_every == 0
        )
        self._waiting = Bookkeeping.of(game.id, [(result.outcome, result.reason, record)], result.state,
                                       record if snapshot else None)
        return result

    def _append(self, game: StoredGame, text: str, now: str, source: str, waiting: Bookkeeping | None) -> int:
        """Commit (synced) the record of ``text`` and the bookkeeping ``waiting``; the record's id."""
        with self._transaction("the input") as db:
            (last,) = db.execute("SELECT max(id) FROM records WHERE game = ?", (game.id,)).fetchone()
            if last != game._last_record:
                raise JournalError(f"game {game.id} was changed by another writer: open it again")
            if waiting is not None:
                waiting.write(db, self._engine)
            return self._insert_record(db, game.id, text, now, None, source)

    def _export(self, game: StoredGame) -> str:
        """The accepted lines of ``game``, found by a full replay from its setup."""
        with self._lock:
            rows = self._read(
                f"exporting game {game.id}",
                "SELECT id, line, crc FROM records WHERE game = ? AND id <= ? ORDER BY id",
                (game.id, game._last_record),
            )
        state: State | None = None
        accepted: list[Line] = []
        for record, text, crc in rows:
            line = self._verified(game.id, record, text, crc)
            result = _attempt(state, line)
            if result.state is not None:
                state = result.state
                accepted.append(line)
            elif state is None:
                raise JournalError(f"game {game.id} cannot be set up again: {result.reason}")
        if state != game.state:
            log.error("game %s: a full replay differs from the state in play (engine not deterministic?)", game.id)
        return format_game_file(accepted)

    # ------------------------------------------------------------------ opening
    def _connect(self) -> sqlite3.Connection:
        try:
            if str(self.path) != ":memory:":
                private_file(self.path)  # the seed, the decks' order and face-down cards: the owner's alone
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        except OSError as error:  # a folder that cannot be written, a full disk
            raise JournalError(f"opening the journal failed ({self.path}: {error})") from error
        except sqlite3.Error as error:
            raise self._error(error, f"opening the journal {self.path}") from error
        try:
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # a new file's (before WAL writes its first page)
            (mode,) = db.execute("PRAGMA journal_mode = WAL").fetchone()
            db.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as error:
            db.close()
            raise self._error(error, f"opening the journal {self.path}") from error
        if mode != "wal":
            self._problem(logging.WARNING, Said(N_("the database runs in {mode} mode, not WAL"), {"mode": mode}))
        return db

    def _prepare(self) -> None:
        (version,) = self._read("reading the journal format", "PRAGMA user_version")[0]
        if version > VERSION:
            raise JournalError(f"{self.path} was written by a newer companion (journal format {version})")
        if version < VERSION:
            with self._transaction("creating the journal") as db:
                for statement in SCHEMA:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {VERSION}")

    def _reserve_wal(self) -> None:
        """The WAL's room up to its checkpoint, written now so that no input's commit grows the file (``wal``).
        Best effort: without it commits grow the file as SQLite does by itself."""
        if self.path == ":memory:":
            return
        try:
            if self._db.execute("PRAGMA journal_mode").fetchone() != ("wal",):
                return
            with self._transaction("reserving the WAL's room") as db:  # the write lock: no frame appended meanwhile
                wal.reserve(f"{self.path}-wal", wal.room(db))
        except (OSError, sqlite3.Error, JournalError) as error:
            log.warning("%s: the WAL's room was not written (%s): inputs grow it", self.path, error)

    def _check_one(self, game_id: int) -> None:
        """The check of one game when it is first opened (``check_all`` off): its records' checksums."""
        assert self._checked is not None
        self._checked.add(game_id)
        try:
            self._check_game(game_id)  # a game to repair (outcomes not recorded) is, by the replay that opens it
        except sqlite3.DatabaseError as error:
            self._mark_damaged(game_id, Said(N_("its records cannot be read ({error})"), {"error": str(error)}))

    def _check(self) -> None:
        """Integrity check: SQLite's own, then every record's checksum (``check_all``; else only what any start
        needs: a journal that cannot be written is said at once)."""
        if self._checked is not None:
            self._remove_stale_snapshots()
            return
        try:
            found = [row[0] for row in self._db.execute("PRAGMA integrity_check(20)")]
        except sqlite3.DatabaseError as error:
            found = [str(error)]
        if found != ["ok"]:
            for row in found:
                self._problem(logging.ERROR, Said(N_("SQLite integrity check: {row}"), {"row": row}))
        repair: list[int] = []
        for (game_id,) in self._read("listing the games", "SELECT id FROM games ORDER BY id"):
            try:
                if self._check_game(game_id):
                    repair.append(game_id)
            except sqlite3.DatabaseError as error:
                self._mark_damaged(game_id, Said(N_("its records cannot be read ({error})"), {"error": str(error)}))
        self._remove_stale_snapshots()
        # A game whose last inputs were journaled but whose outcome was not recorded (the power
        # went between the two): replay it now so that its listing is right.
        for game_id in repair:
            try:
                self.open_game(game_id)
            except JournalError as error:
                self._problem(logging.ERROR, Said(N_("game {n} cannot be replayed: {error}"),
                                                  {"n": game_id, "error": str(error)}))

    def _remove_stale_snapshots(self) -> None:
        """Snapshots of records no longer there; raises :class:`JournalError` at once if the file is read-only."""
        try:
            with self._transaction("removing stale snapshots") as db:
                db.execute(
                    "DELETE FROM snapshots WHERE NOT EXISTS"
                    " (SELECT 1 FROM records r WHERE r.id = snapshots.record AND r.game = snapshots.game)"
                )
        except JournalError as error:
            code = getattr(error.__cause__, "sqlite_errorcode", 0) & 0xFF  # the primary result code
            if code == sqlite3.SQLITE_READONLY:
                # Accepted now, every input would fail later: said at once.
                raise JournalError(f"{self.path} is read-only: no input could be saved") from error
            log.warning("%s: %s", self.path, error)

    def _check_game(self, game_id: int) -> bool:
        """Check one game's records; True if it needs a replay to settle them."""
        rows = self._db.execute(
            "SELECT id, line, crc, outcome FROM records WHERE game = ? ORDER BY id", (game_id,)
        ).fetchall()
        if not rows:
            self._mark_damaged(game_id, Said(N_("it has no setup record")))
            return False
        faults = [
            (index, row[0], fault)
            for index, row in enumerate(rows)
            if (fault := _record_fault(game_id, index, row[1], row[2])) is not None
        ]
        if not faults:
            return any(row[3] is None for row in rows)
        index, record, fault = faults[0]
        if len(faults) == 1 and index == len(rows) - 1 and index > 0:
            return self._drop_last(game_id, record, fault)
        more = Said(N_(" (and {n} more)"), {"n": len(faults) - 1}) if len(faults) > 1 else ""
        found = {"index": index, "record": record, "fault": fault, "more": more}
        self._mark_damaged(game_id, Said(N_("its setup (record {record}) is damaged: {fault}{more}"), found) if index == 0
                           else Said(N_("input {index} (record {record}) is damaged: {fault}{more}"), found))
        return False

    def _drop_last(self, game_id: int, record: int, fault: str) -> bool:
        """Set a damaged last record aside (table ``damaged``) so that it is never applied."""
        try:
            with self._transaction("setting a damaged record aside") as db:
                db.execute(
                    "INSERT INTO damaged (id, game, line, crc, at, found, reason)"
                    " SELECT id, game, line, crc, at, ?, ? FROM records WHERE id = ?",
                    (self._timestamp(), fault, record),
                )
                db.execute("DELETE FROM records WHERE id = ?", (record,))
                db.execute("DELETE FROM snapshots WHERE game = ? AND record >= ?", (game_id, record))
        except JournalError as error:
            self._mark_damaged(game_id, Said(N_("its last input (record {record}) is damaged ({fault}) and {error}"),
                                             {"record": record, "fault": fault, "error": str(error)}))
            return False
        self._problem(logging.WARNING, Said(N_("game {n}: the last input (record {record}) was damaged ({fault}); it was "
                                               "dropped (kept in table 'damaged') and not applied"),
                                            {"n": game_id, "record": record, "fault": fault}))
        return True

    def _mark_damaged(self, game_id: int, reason: Said) -> None:
        self._damaged[game_id] = str(reason)
        self._problem(logging.ERROR, Said(N_("game {n} is damaged and was not loaded: {reason}"),
                                          {"n": game_id, "reason": reason}))

    def _problem(self, level: int, said: Said) -> None:
        self.problems.append(str(said))
        self.told.append(said)
        log.log(level, "%s: %s", self.path, said)

    # ------------------------------------------------------------------ loading
    def _load(self, game_id: int) -> StoredGame:
        first = self._db.execute(
            "SELECT id, line, crc FROM records WHERE game = ? ORDER BY id LIMIT 1", (game_id,)
        ).fetchone()
        if first is None:
            raise JournalError(f"there is no game {game_id}")
        setup_line = self._verified(game_id, *first)
        start = self._snapshot(game_id)
        events: list[Event] = []
        if start is not None:
            covered, state = start
        else:
            result = _attempt(None, setup_line)
            if result.state is None:
                raise JournalError(f"game {game_id} cannot be set up again: {result.reason}")
            covered, state, events = first[0], result.state, result.events
        last = covered
        marks: list[Mark] = []
        rows = self._db.execute(
            "SELECT id, line, crc, outcome FROM records WHERE game = ? AND id > ? ORDER BY id", (game_id, covered)
        ).fetchall()
        taken = False  # an input after the snapshot, whose events are the last input's
        for record, text, crc, marked in rows:
            result = _attempt(state, self._verified(game_id, record, text, crc))
            if result.state is not None:
                state, events, taken = result.state, result.events, True
            if marked != result.outcome:
                marks.append((result.outcome, result.reason, record))
                if marked is not None:
                    self._problem(logging.WARNING, Said(
                        N_("game {n}: record {record} was {marked} when played but is {outcome} on replay"),
                        {"n": game_id, "record": record, "marked": Said(marked), "outcome": Said(result.outcome)}))
            last = record
        (inputs, winner) = self._db.execute("SELECT inputs, winner FROM games WHERE id = ?", (game_id,)).fetchone()
        if marks or inputs != state["seq"] or winner != winner_of(state):
            self._settle(Bookkeeping.of(game_id, marks, state))
        if start is not None and not taken:
            events = self._events_up_to(game_id, setup_line, covered)  # the snapshot covers the last input taken
        return StoredGame(self, game_id, setup_line["setup"], state, last, events)

    def _events_up_to(self, game_id: int, setup_line: Line, covered: int) -> list[Event]:
        """The events of the last input taken at or before record ``covered``: the story the phones show of a game
        opened from a snapshot that covers it (replayed from the snapshot before it, or from the setup)."""
        (newest,) = self._db.execute(
            "SELECT max(id) FROM records WHERE game = ? AND id <= ? AND (outcome IS NULL OR outcome = 'ok')",
            (game_id, covered),
        ).fetchone()
        earlier = self._snapshot(game_id, before=newest)
        events: list[Event] = []
        if earlier is None:  # from the setup (the game's first record)
            (start,) = self._db.execute("SELECT min(id) FROM records WHERE game = ?", (game_id,)).fetchone()
            result = _attempt(None, setup_line)
            state, events = result.state, result.events
        else:
            start, state = earlier
        rows = self._db.execute(
            "SELECT id, line, crc FROM records WHERE game = ? AND id > ? AND id <= ? ORDER BY id",
            (game_id, start, newest),
        ).fetchall()
        for record, text, crc in rows:
            result = _attempt(state, self._verified(game_id, record, text, crc))
            if result.state is not None:
                state, events = result.state, result.events
        return events

    def _snapshot(self, game_id: int, *, before: int | None = None) -> tuple[int, State] | None:
        """The latest usable snapshot of a game (of those covering records before ``before``): (record covered,
        state). Snapshots are a cache: one that cannot be read (a damaged page of the file) only means replaying
        from the setup."""
        try:
            rows = self._db.execute(
                "SELECT record, state, crc FROM snapshots WHERE game = ? AND version = ? AND record < ? "
                "ORDER BY record DESC",
                (game_id, self._engine, before if before is not None else 2**62),
            ).fetchall()
        except sqlite3.DatabaseError as error:
            self._problem(logging.WARNING, Said(N_("game {n}: its snapshots cannot be read ({error}): replayed from its "
                                                   "setup"), {"n": game_id, "error": str(error)}))
            return None
        for record, text, crc in rows:
            try:
                if not isinstance(text, str) or snapshot_crc(game_id, record, text) != crc:
                    raise ValueError("checksum mismatch")
                state = json.loads(text)
                if not isinstance(state, dict):
                    raise ValueError("not a JSON object")
            except ValueError as fault:
                self._problem(logging.WARNING, Said(N_("game {n}: the snapshot at record {record} is damaged ({fault})"),
                                                    {"n": game_id, "record": record, "fault": str(fault)}))
                try:
                    with self._transaction("removing a damaged snapshot") as db:
                        db.execute("DELETE FROM snapshots WHERE game = ? AND record = ?", (game_id, record))
                except JournalError as error:
                    log.warning("%s: %s", self.path, error)
                continue
            return record, state
        return None

    def _verified(self, game_id: int, record: int, text: Any, crc: int) -> Line:
        """The line of a record read for replay; :class:`GameDamaged` if it went bad since the check."""
        fault = _record_fault(game_id, 1, text, crc)
        if fault is not None:
            self._mark_damaged(game_id, Said(N_("record {record} is damaged: {fault}"), {"record": record, "fault": fault}))
            raise GameDamaged(f"game {game_id} cannot be loaded: {self._damaged[game_id]}")
        return decode(text)

    # ------------------------------------------------------------------ writing
    def _transaction(self, what: str) -> _Transaction:
        """``BEGIN IMMEDIATE … COMMIT`` (synced); rolled back on any error, SQLite errors translated."""
        return _Transaction(self, what)

    def _write_waiting(self) -> None:
        """Write the last input's bookkeeping now (before a listing, an opening, a new game, closing)."""
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self._settle(waiting)

    def _settle(self, bookkeeping: Bookkeeping) -> None:
        """Record outcomes, the listing's cache and maybe a snapshot in a commit of their own. Best effort: all
        of it can be rebuilt.

        Committed without waiting for the disk (WAL, ``synchronous=NORMAL``): the inputs it describes are
        already synced, and a power cut can only lose this cache, never the journal; the next input's
        synced commit carries it to disk anyway.
        """
        try:
            self._db.execute("PRAGMA synchronous = NORMAL")
            with self._transaction("recording the outcome") as db:
                bookkeeping.write(db, self._engine)
        except (JournalError, sqlite3.Error) as error:
            log.warning("%s: game %s: %s (the input itself is safe)", self.path, bookkeeping.game, error)
        finally:
            # The input is committed and applied: a failure here must not undo that in the caller's eyes.
            # The next write restores synced commits before it records anything (``_synced_commits``).
            self._sync_full = False
            self._synced_commits(raising=False)

    def _synced_commits(self, *, raising: bool = True) -> None:
        """Make sure commits wait for the disk again (after the outcome's quick commit); raises
        :class:`JournalError` before a write if that cannot be done (then nothing is recorded)."""
        if self._sync_full:
            return
        try:
            self._db.execute("PRAGMA synchronous = FULL")
            self._sync_full = True
        except sqlite3.Error as error:
            if raising:
                raise self._error(error, "restoring synced commits") from error
            log.error("%s: restoring synced commits: %s (retried before the next input)", self.path, error)

    def _insert_game(self, db: sqlite3.Connection, setup: Mapping[str, Any], state: State, now: str) -> int:
        players = setup.get("players")
        names = [str(name) for name in players] if isinstance(players, list) else []
        cursor = db.execute(
            "INSERT INTO games (ruleset, players, created, inputs, winner) VALUES (?, ?, ?, ?, ?)",
            (state["ruleset"], json.dumps(names, ensure_ascii=False), now, state["seq"], winner_of(state)),
        )
        return int(cursor.lastrowid or 0)

    def _insert_record(
        self, db: sqlite3.Connection, game_id: int, text: str, now: str, outcome: str | None, source: str = ""
    ) -> int:
        cursor = db.execute(
            "INSERT INTO records (game, line, crc, at, source, outcome) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, text, record_crc(game_id, text), now, source or None, outcome),
        )
        return int(cursor.lastrowid or 0)

    # ------------------------------------------------------------------ helpers
    def _read(self, what: str, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise self._error(error, what) from error

    def _error(self, error: sqlite3.Error, what: str) -> JournalError:
        if _is_full(error):
            return JournalFull(f"the disk is full: {what} was not recorded ({self.path}: {error})")
        return JournalError(f"{what} failed ({self.path}: {error})")

    def _timestamp(self) -> str:
        return self._clock().isoformat(timespec="milliseconds")

    @staticmethod
    def _refusal(result: _Result, text: str) -> Exception:
        if isinstance(result.error, IllegalInput):
            return result.error
        failure = EngineFailure(f"the engine failed on {text}: {result.error!r}")
        failure.__cause__ = result.error
        return failure


class _Transaction:
    """``with`` it: ``BEGIN IMMEDIATE … COMMIT`` on a journal's connection (what ``Journal._transaction`` gives), rolled
    back on any error, SQLite's errors translated (:class:`JournalFull`, :class:`JournalError`). A class, not a
    generator under ``contextlib.contextmanager``: every input takes one, and the generator's machinery cost ~1 µs."""

    __slots__ = ("journal", "what")

    def __init__(self, journal: Journal, what: str) -> None:
        self.journal = journal
        self.what = what

    def __enter__(self) -> sqlite3.Connection:
        db = self.journal._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise self.journal._error(error, self.what) from error
        return db

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        db = self.journal._db
        if error is None:
            try:
                db.execute("COMMIT")
                return
            except BaseException as failure:  # noqa: BLE001 - rolled back, then raised again below
                error = failure
        try:
            if db.in_transaction:
                db.execute("ROLLBACK")
        except sqlite3.Error:  # a closed connection raises on in_transaction itself
            log.exception("%s: rollback failed", self.journal.path)
        if isinstance(error, sqlite3.Error):
            raise self.journal._error(error, self.what) from error
        if kind is None:  # COMMIT itself was interrupted (KeyboardInterrupt...): not the body's error
            raise error


def _record_fault(game_id: int, index: int, text: Any, crc: Any) -> str | None:
    """What is wrong with a stored record, or None."""
    if not isinstance(text, str):
        return "its line is not text"
    if record_crc(game_id, text) != crc:
        return "checksum mismatch"
    try:
        line = decode(text)
    except ValueError:
        return "its line is not a JSON object"
    if index == 0 and set(line) != {"setup"}:
        return "the first record is not a setup line"
    return None


class StoredGame:
    """A game of a :class:`Journal`: its current ``state`` and the way to send it inputs."""

    def __init__(
        self,
        journal: Journal,
        game_id: int,
        setup: dict[str, Any],
        state: State,
        last_record: int,
        events: list[Event] | None = None,
    ) -> None:
        self.journal = journal
        self.id = game_id
        self.setup = setup
        self.state = state
        self.events: list[Event] = list(events or [])  # of the latest input accepted (replayed on opening too)
        self._last_record = last_record
        self._interrupted = False

    def __repr__(self) -> str:
        return f"<StoredGame {self.id} of {self.journal.path!r}, seq {self.state['seq']}>"

    @property
    def record(self) -> int:
        """Id of the game's last journal record (the state covers every record up to it)."""
        return self._last_record

    def submit(self, line: Mapping[str, Any], *, source: str = "") -> tuple[State, list[Event]]:
        """Journal ``line`` (committed to disk), then apply it; returns the new state and events.

        ``source`` says who sent it (``roller``, ``software``, ``manual``, ``button``, ``phone:Ann``, ``host``...);
        it is kept beside the line, never inside it (the game-file format stays as it is).

        Raises :class:`IllegalInput` if the engine refuses it (the record stays, marked, and is
        refused again on replay), :class:`JournalFull` / :class:`JournalError` if it could not be
        recorded (then nothing was applied), :class:`EngineFailure` if the engine crashed on it.
        """
        text = encode(line)
        with self.journal._lock:
            if self._interrupted:
                raise JournalError(f"game {self.id} was interrupted while applying an input: open it again")
            self._interrupted = True  # stays set only if something escapes between append and apply
            try:
                result = self.journal._submit(self, text, source)
            except Exception:
                self._interrupted = False  # the append failed: nothing was recorded or applied
                raise
            self._interrupted = False
        if result.state is None:
            raise Journal._refusal(result, text)
        self.state, self.events = result.state, result.events
        return result.state, result.events

    def export(self) -> str:
        """The game file: the setup line, then the accepted inputs in order (JSON Lines)."""
        return self.journal._export(self)
