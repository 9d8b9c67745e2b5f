"""Which NFC tag is which: the players' cards and the deeds' stickers of each board edition's set.

Kept in a JSON file beside the journal (``<journal>.cards.json``), written whole to a temporary file, synced and
renamed over the old one, so a power cut leaves the old list or the new one. Nothing is written to a tag: its UID
is enough. Per edition (a ruleset's board: ``classic``, ``magie-1904``...)::

    {"version": 1, "editions": {"classic": {"players": {"Ann": "04a1b2c3d4e5f6"},
                                            "deeds": {"boardwalk": "04..."}}}}

Rules a table would expect:

* a lost card is registered again: the new tag replaces the old one, which is then unknown;
* a tag of another edition's set is refused, naming the set it belongs to;
* a tag already in this set is refused as anything else ("that is Boardwalk's sticker"), except a player's card
  passed on to a player who sits where nobody of that name plays now (Ann's card, Ann not in the game, becomes
  Carl's).
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from companion.engine import CompanionError, find_ruleset
from companion.said import N_, Said, Saying
from companion.words import ENGLISH, Words

from .setup import ruleset_title

Kind = Literal["players", "deeds"]
VERSION = 1


class CardRefused(CompanionError, ValueError):
    """A tag that cannot be registered as asked (the message says whose it is)."""


class CardsUnreadable(Saying, CardRefused):
    """The cards' list cannot be read: what to say about it (:attr:`said`)."""


@dataclass(frozen=True)
class Card:
    """What a tag is: a player's card or a deed's sticker, of one edition's set."""

    edition: str
    kind: Kind
    name: str  # the player's name, or the space's id

    @property
    def player(self) -> bool:
        return self.kind == "players"


class CardBook:
    """The registrations, read from ``path`` (if it exists) and written back at every change."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._editions: dict[str, dict[str, dict[str, str]]] = {}
        self._held = False  # inside batch(): written once at its end
        if self.path.exists():
            self._editions = _read(self.path)

    # ------------------------------------------------------------------ looking up
    def find(self, uid: str) -> Card | None:
        """The card with that UID, in whichever edition it is registered."""
        with self._lock:
            for edition, kinds in self._editions.items():
                for kind in ("players", "deeds"):
                    for name, known in kinds.get(kind, {}).items():
                        if known == uid:
                            return Card(edition, kind, name)
        return None

    def uid(self, edition: str, kind: Kind, name: str) -> str | None:
        with self._lock:
            return self._editions.get(edition, {}).get(kind, {}).get(name)

    def registered(self, edition: str, kind: Kind) -> dict[str, str]:
        """Name (or space id) → UID for one edition's players or deeds."""
        with self._lock:
            return dict(self._editions.get(edition, {}).get(kind, {}))

    # ------------------------------------------------------------------ registering
    @contextmanager
    def batch(self) -> Iterator[None]:
        """Register many cards with one write at the end (a whole set at once)."""
        self._held = True
        try:
            yield
        finally:
            self._held = False
            with self._lock:
                _write(self.path, self._editions)

    def _save(self, editions: dict[str, Any]) -> None:
        if not self._held:
            _write(self.path, editions)
        self._editions = editions

    def register(self, card: Card, uid: str, *, seated: tuple[str, ...] = (), words: Words = ENGLISH) -> str:
        """Make ``uid`` the tag of ``card``; what was done, to be said ("Boardwalk registered", "Ann: new tag; the
        old one is void"). Raises :class:`CardRefused`, changing nothing.

        ``seated``: the players of the game at the table (their cards are not passed on to another); ``words``: the
        language it is said in."""
        label, w = card_label(card, words), words
        with self._lock:
            for edition, kinds in self._editions.items():
                for kind in ("players", "deeds"):
                    for name, known in kinds.get(kind, {}).items():
                        if known != uid or (edition, kind, name) == (card.edition, card.kind, card.name):
                            continue
                        other = Card(edition, kind, name)
                        if edition != card.edition:
                            raise CardRefused(w.t("That tag is of another set ({title}): refused",
                                                          title=set_title(edition, w)))
                        if kind == "deeds" or not card.player or name in seated:
                            raise CardRefused(w.t("That tag is already {card}'s: tap another",
                                                          card=card_label(other, w)))
            editions = json.loads(json.dumps(self._editions))
            kinds = editions.setdefault(card.edition, {"players": {}, "deeds": {}})
            names = kinds.setdefault(card.kind, {})
            passed = [name for name, known in kinds.get("players", {}).items() if known == uid and name != card.name]
            for name in passed:
                del kinds["players"][name]
            old = names.get(card.name)
            if old == uid:
                return w.t("{card}: already this tag", card=label)
            names[card.name] = uid
            self._save(editions)
        if passed:
            return w.t("{player}'s card is now {card}'s", player=passed[0], card=label)
        if old is not None:
            return w.t("{card}: new tag; the old one is void", card=label)
        return w.t("{card} registered", card=label)

    def forget(self, card: Card) -> None:
        """Take a card off the list (its tag is then unknown)."""
        with self._lock:
            editions = json.loads(json.dumps(self._editions))
            if editions.get(card.edition, {}).get(card.kind, {}).pop(card.name, None) is not None:
                self._save(editions)


def open_card_book(path: str | Path) -> tuple[CardBook, Said | None]:
    """The cards' list at ``path``; one that cannot be read is set aside (renamed ``.damaged``) and an empty one
    begins, with what to say about it (said in the table's language: ``Words.told``)."""
    try:
        return CardBook(path), None
    except CardsUnreadable as error:
        aside = Path(path).with_suffix(".damaged")
        os.replace(path, aside)
        return CardBook(path), Said(N_("{reason}: set aside as {aside}; register the cards again"),
                                    {"reason": error.said, "aside": aside.name})


def set_title(edition: str, words: Words = ENGLISH) -> str:
    """The set's name, as the set-up menu calls its board ("Landlord's game, 1904")."""
    try:
        return ruleset_title(find_ruleset(edition), words)
    except KeyError:
        return edition


def card_label(card: Card, words: Words = ENGLISH) -> str:
    """A player's name, or the deed's space as its board names it (in ``words``' language: the board's
    ``[names.<lang>]``)."""
    if card.player:
        return card.name
    try:
        board = find_ruleset(card.edition).board
        name = board.space(card.name).name
    except KeyError:
        return card.name
    if words.board is not board:
        words = Words.for_language(words.language, board)
    return words.space(card.name) or name


def _read(path: Path) -> dict[str, dict[str, dict[str, str]]]:
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CardsUnreadable(Said(N_("{path}: the cards' list cannot be read ({error})"),
                                   {"path": str(path), "error": str(error)})) from error
    editions = data.get("editions") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(editions, dict):
        raise CardsUnreadable(Said(N_("{path}: not a list of cards this version knows"), {"path": str(path)}))
    return {edition: {kind: {str(k): str(v) for k, v in (kinds.get(kind) or {}).items()}
                      for kind in ("players", "deeds")}
            for edition, kinds in editions.items() if isinstance(kinds, dict)}


def _write(path: Path, editions: dict[str, Any]) -> None:
    """Write whole, synced, then renamed over the old file (and the directory synced)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"version": VERSION, "editions": editions}, indent=1, sort_keys=True)
    handle, temporary = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
