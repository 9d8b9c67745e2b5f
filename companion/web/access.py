"""Who may do what on the phone page: the host PIN, the join code, and which phone holds which player.

Looking needs nothing (or the table code, if one is set). Acting needs a player's seat, taken
with the join code shown on the OLED, or the host PIN. A seat is held by one phone (a random
session id kept in the signed, HttpOnly cookie); a second phone cannot take a held seat until
the host frees it or the holder leaves.

A table keeps its access in a file beside its journal (:meth:`Access.kept`): after a power cut the
PIN, the join code, the key that signs the phones' cookies and the seats are the same, so the
phones' pages reconnect on their own and every phone is still the player it was.
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from urllib.parse import quote

from companion.engine import CompanionError
from companion.kept import keep_private
from companion.words import N_

from .errors import SaidError
from .pin_delays import TABLE, PinDelays


class Permission(str, Enum):
    """The permissions routes declare (as OctoPrint's plugins do)."""

    OPEN = "open"  # the page shell, the assets, joining and logging in: nothing to protect
    LOOK = "look"  # see the state, the board and the stream (needs the table code, if one is set)
    PLAY = "play"  # act for the player this phone has joined as
    HOST = "host"  # anything, for anyone: new game, undo, host actions, export


class AccessDenied(SaidError, PermissionError):
    """The phone may not do that (the web answers 401 or 403 with the reason)."""


class PinWait(SaidError, RuntimeError):
    """A PIN typed before the wait its wrong PINs made is over (:mod:`.pin_delays`): not looked at (the web answers
    429 ``pin-wait``, the wait in its message)."""

    status = 429
    code = "pin-wait"

    def __init__(self, seconds: float) -> None:
        self.seconds = max(1, round(seconds))
        super().__init__(N_("too many wrong PINs: try again in {n} s"), n=self.seconds)


log = logging.getLogger(__name__)


#: Wrong PINs in all, from any addresses, after which every try waits a while (:data:`.pin_delays.TABLE`) and the
#: OLED says so until the host clears the waits from its host menu, or the right PIN comes.
PIN_FAILURES = TABLE.free


def _digits(count: int) -> str:
    return "".join(str(secrets.randbelow(10)) for _ in range(count))


@dataclass
class Access:
    """The secrets of one table and the seats taken; safe to call from several threads."""

    host_pin: str
    join_code: str
    table_code: str | None = None
    #: Signs the phones' session cookies (Flask's SECRET_KEY).
    secret_key: str = field(default_factory=lambda: secrets.token_hex(32), repr=False)
    #: Where the access is kept between runs (None: for this process only).
    path: Path | None = field(default=None, repr=False)
    _seats: dict[str, str] = field(default_factory=dict, repr=False)
    #: Sessions that entered the PIN. A signed cookie alone cannot be taken back: logging out removes the
    #: session here, so a copy of the cookie made before stops working too.
    _hosts: set[str] = field(default_factory=set, repr=False)
    #: Wrong PINs since the last right one (or since the host allowed PIN login again); kept, so a restart clears
    #: nothing.
    pin_failures: int = field(default=0, repr=False)
    #: The waits wrong PINs make, per device, network and table (:mod:`.pin_delays`).
    pin_delays: PinDelays = field(default_factory=PinDelays, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: Told after every change of who may see or do what (a seat taken or freed, host rights given or taken).
    _listeners: list[Callable[[], None]] = field(default_factory=list, repr=False)
    #: Told the session ids replaced by fresh ones (:meth:`renew`): the live streams opened under them end.
    _retired: list[Callable[[str], None]] = field(default_factory=list, repr=False)

    @classmethod
    def generate(cls, *, pin_digits: int = 6, code_digits: int = 6, table_code: str | None = None) -> Access:
        """Fresh random PIN and join code (from the OS's entropy)."""
        return cls(host_pin=_digits(pin_digits), join_code=_digits(code_digits), table_code=table_code)

    @classmethod
    def kept(cls, path: Path) -> Access:
        """The access kept in ``path`` (readable by its owner only), or a fresh one kept there from now on.

        A file that cannot be read as a kept access is replaced (logged): the phones join again."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            access = cls(host_pin=str(data["host_pin"]), join_code=str(data["join_code"]),
                         secret_key=str(data["secret_key"]), path=path,
                         _seats={str(k): str(v) for k, v in dict(data["seats"]).items()},
                         _hosts={str(sid) for sid in data.get("hosts", [])},
                         pin_failures=int(data.get("pin_failures", 0)))
        except FileNotFoundError:
            access = cls.generate()
            access.path = path
            access._save()
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("%s: %s; new PIN and join code, the phones join again", path, error)
            access = cls.generate()
            access.path = path
            access._save()
        return access

    def _save(self) -> None:
        """Write the kept access atomically (the lock held, or no other thread yet)."""
        if self.path is None:
            return
        data = {"host_pin": self.host_pin, "join_code": self.join_code, "secret_key": self.secret_key,
                "seats": self._seats, "hosts": sorted(self._hosts), "pin_failures": self.pin_failures}
        try:
            keep_private(self.path, data)
        except OSError as error:  # a full disk: the seats hold for this run, the phones may join again later
            log.warning("%s: not kept: %s", self.path, error)

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every change of rights (the live streams send each phone its view again)."""
        self._listeners.append(listener)

    def on_retire(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with each session id :meth:`renew` replaced (its live streams end; the phone's page
        opens a new one under its fresh id)."""
        self._retired.append(listener)

    def _changed(self, retired: str | None = None) -> None:
        if retired is not None:
            for ending in self._retired:
                ending(retired)
        for listener in self._listeners:
            listener()

    def __repr__(self) -> str:  # never print the secrets into a log
        return f"Access(seats={sorted(self._seats)})"

    # ------------------------------------------------------------------ secrets
    def check_pin(self, pin: object) -> bool:
        return isinstance(pin, str) and hmac.compare_digest(pin.encode(), self.host_pin.encode())

    @property
    def pin_paused(self) -> bool:
        """Whether PIN login is slowed for the whole table: ``PIN_FAILURES`` wrong PINs in all since the right one,
        until :meth:`allow_pin` (the OLED says so, and its host menu offers to clear the waits)."""
        return self.pin_failures >= PIN_FAILURES

    def try_pin(self, pin: object, address: str | None = None) -> bool:
        """Check a PIN typed on a phone at ``address``, counting the wrong ones per device, network and table;
        :class:`PinWait` if a wait they made is not over (the right PIN too: a wait it passed would not slow a
        search, whatever the search had found)."""
        with self._lock:
            wait = self.pin_delays.wait(address, self.pin_failures)
            if wait > 0:
                raise PinWait(wait)
            right = self.check_pin(pin)
            (self.pin_delays.right if right else self.pin_delays.wrong)(address)
            if not right or self.pin_failures:  # a wrong PIN is counted; the right one starts the count again
                self.pin_failures = 0 if right else self.pin_failures + 1
                self._save()
            slowed = self.pin_failures == PIN_FAILURES
        if slowed:
            log.warning("%d wrong PINs: every PIN try waits from now on, longer after each wrong one", PIN_FAILURES)
        return right

    def allow_pin(self) -> None:
        """The host clears the waits of wrong PINs (the OLED's host menu): every count starts again."""
        self.pin_delays.clear()
        with self._lock:
            if not self.pin_failures:
                return
            self.pin_failures = 0
            self._save()
        log.info("PIN login allowed again")

    def check_join_code(self, code: object) -> bool:
        return isinstance(code, str) and hmac.compare_digest(code.encode(), self.join_code.encode())

    def check_table_code(self, code: object) -> bool:
        if self.table_code is None:
            return True
        return isinstance(code, str) and hmac.compare_digest(code.encode(), self.table_code.encode())

    def renew(self, old: str | None, new: str, *, seat: str | None = None, host: bool | None = None) -> None:
        """Replace the phone's session id ``old`` by the fresh ``new`` (on joining, logging in or out and leaving,
        so that an id planted in a phone before, or a cookie copied from it, is worth nothing after): what ``old``
        held (a seat, host rights) moves to ``new``, in one step; then ``seat``: take that player's seat
        (:class:`AccessDenied`, and nothing changed, if another phone holds it), ``host``: give or take host rights.
        The live streams opened under ``old`` end (:meth:`on_retire`)."""
        with self._lock:
            holder = self._seats.get(seat) if seat is not None else None
            if holder is not None and holder not in (old, new):
                raise AccessDenied(N_("{player} has joined on another phone: ask the host to free the seat"),
                                   player=seat)
            before = (dict(self._seats), set(self._hosts))
            held = [name for name, sid in self._seats.items() if sid == old]
            if seat is not None:
                held = [seat]
                for name in [name for name, sid in self._seats.items() if sid in (old, new)]:
                    del self._seats[name]
            for name in held:
                self._seats[name] = new
            was_host = old in self._hosts
            self._hosts.discard(old or "")
            if host or (host is None and was_host):
                self._hosts.add(new)
            if (self._seats, self._hosts) == before:
                return  # nothing held, nothing given: no write to the SD card, no stream to wake
            self._save()
        self._changed(old)

    def grant_host(self, session_id: str) -> None:
        with self._lock:
            self._hosts.add(session_id)
            self._save()
        self._changed()

    def revoke_host(self, session_id: str) -> None:
        with self._lock:
            if session_id not in self._hosts:
                return  # nothing to write to the SD card, no stream to wake
            self._hosts.discard(session_id)
            self._save()
        self._changed()

    def is_host_session(self, session_id: object) -> bool:
        with self._lock:
            return isinstance(session_id, str) and session_id in self._hosts

    def new_join_code(self, digits: int = 6) -> str:
        """Replace the join code (phones already joined keep their seats)."""
        with self._lock:
            self.join_code = _digits(digits)
            self._save()
            return self.join_code

    def player_code(self, player: str, digits: int = 6) -> str:
        """The digits that join as ``player`` alone (the OLED shows each player theirs): derived from the join
        code, so a new join code renews them all."""
        mac = hmac.new(self.secret_key.encode(), f"{self.join_code}\0{player}".encode(), "sha256").digest()
        return str(int.from_bytes(mac[:8], "big") % 10**digits).zfill(digits)

    def check_player_code(self, code: object, player: str) -> bool:
        return isinstance(code, str) and hmac.compare_digest(code.encode(), self.player_code(player).encode())

    def player_join_url(self, base_url: str, player: str) -> str:
        """What a player's own QR code holds: their code and name, in the fragment (never sent or logged)."""
        return f"{base_url.rstrip('/')}/join#code={quote(self.player_code(player))}&player={quote(player)}"

    def join_url(self, base_url: str) -> str:
        """The URL the OLED's QR code holds. The code is in the fragment: never sent to the server or
        logged, and the page removes it from the browser's history as soon as it has read it."""
        return f"{base_url.rstrip('/')}/join#code={quote(self.join_code)}"

    # ------------------------------------------------------------------ seats
    def take_seat(self, player: str, session_id: str) -> None:
        """Give ``player``'s seat to the phone ``session_id``; :class:`AccessDenied` if another phone holds it."""
        with self._lock:
            holder = self._seats.get(player)
            if holder is not None and holder != session_id:
                raise AccessDenied(N_("{player} has joined on another phone: ask the host to free the seat"),
                                   player=player)
            for name, sid in list(self._seats.items()):
                if sid == session_id:
                    del self._seats[name]
            self._seats[player] = session_id
            self._save()
        self._changed()

    def leave(self, session_id: str) -> None:
        with self._lock:
            held = [name for name, sid in self._seats.items() if sid == session_id]
            if not held:
                return  # nothing to write to the SD card, no stream to wake
            for name in held:
                del self._seats[name]
            self._save()
        self._changed()

    def free_seat(self, player: str) -> bool:
        """The host frees a seat (a lost phone); True if it was held."""
        with self._lock:
            held = self._seats.pop(player, None) is not None
            self._save()
        self._changed()
        return held

    def rename_seat(self, old: str, new: str) -> None:
        with self._lock:
            if old in self._seats:
                self._seats[new] = self._seats.pop(old)
                self._save()
        self._changed()

    def seat_of(self, session_id: str | None) -> str | None:
        """The player the phone ``session_id`` has joined as, or None."""
        if not session_id:
            return None
        with self._lock:
            return next((name for name, sid in self._seats.items() if sid == session_id), None)

    def seats(self) -> list[str]:
        """The players who have joined on a phone."""
        with self._lock:
            return sorted(self._seats)
