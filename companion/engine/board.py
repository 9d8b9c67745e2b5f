"""Boards as data: spaces, groups, decks and options, validated from a parsed TOML file.

A board file is plain TOML (see ``companion/boards/classic.toml``). This module turns the
parsed dictionary into frozen objects and names the file and key of any mistake, so that a
user can describe their own edition of a board. Reading the file is the caller's job.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import BoardError


@dataclass(frozen=True)
class KindRule:
    """What a space of one kind must carry in the board file."""

    required: tuple[str, ...] = ()
    rent_length: int | None = None  # exact length of ``rent``; None: no check
    ownable: bool = False
    grouped: bool = False  # its group must hold at least two spaces


@dataclass(frozen=True)
class Space:
    """One space of a board; ``data`` keeps every other key of the file."""

    id: str
    name: str
    kind: str
    index: int
    track: str
    group: str | None = None
    price: int | None = None
    rent: tuple[int, ...] = ()
    house: int | None = None
    mortgage: int | None = None
    ownable: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Card:
    """One card: its deck, its text and its effect (``do`` plus parameters)."""

    id: str
    deck: str
    text: str
    do: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def kept(self) -> bool:
        """Whether the drawer keeps the card until it is used, traded or sold."""
        return self.do == "keep"


@dataclass(frozen=True)
class Board:
    """A validated board: look-ups by id, tracks in travel order, groups, decks, options."""

    ruleset: str
    name: str
    source: str
    spaces: tuple[Space, ...]
    by_id: Mapping[str, Space]
    tracks: Mapping[str, tuple[str, ...]]
    groups: Mapping[str, tuple[str, ...]]
    decks: Mapping[str, tuple[str, ...]]
    cards: Mapping[str, Card]
    options: Mapping[str, Any]
    min_players: int
    max_players: int
    data: Mapping[str, Any] = field(default_factory=dict)
    currency: str = "$"  # the symbol printed on its money (``[game] currency``): "$", "£", "€", "M"...

    def space(self, space_id: str) -> Space:
        """The space with that id; ``KeyError`` if there is none."""
        return self.by_id[space_id]

    def ownable(self) -> list[Space]:
        """Every space that can have an owner, in board order."""
        return [s for s in self.spaces if s.ownable]

    def position(self, space_id: str) -> int:
        """Index of the space on its own track."""
        return self.by_id[space_id].index


def _int(value: Any, where: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise BoardError(f"{where}: expected a whole number ≥ {minimum}, found {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise BoardError(f"{where}: expected a non-empty string, found {value!r}")
    return value


def _space(raw: Any, where: str, index: int, kinds: Mapping[str, KindRule]) -> Space:
    if not isinstance(raw, Mapping):
        raise BoardError(f"{where}: expected a table")
    space_id = _str(raw.get("id"), f"{where}.id")
    where = f"{where} ({space_id})"
    kind = _str(raw.get("kind"), f"{where}.kind")
    if kind not in kinds:
        raise BoardError(f"{where}.kind: unknown kind {kind!r} (known: {', '.join(sorted(kinds))})")
    rule = kinds[kind]
    for key in rule.required:
        if key not in raw:
            raise BoardError(f"{where}: a {kind} needs `{key}`")
    rent = raw.get("rent", [])
    if not isinstance(rent, list):
        raise BoardError(f"{where}.rent: expected a list of whole numbers")
    rent_t = tuple(_int(r, f"{where}.rent[{i}]") for i, r in enumerate(rent))
    if rule.rent_length is not None and len(rent_t) != rule.rent_length:
        raise BoardError(f"{where}.rent: a {kind} needs {rule.rent_length} rents, found {len(rent_t)}")
    known = {"id", "name", "kind", "group", "price", "rent", "house", "mortgage", "track"}
    return Space(
        id=space_id,
        name=_str(raw.get("name", space_id), f"{where}.name"),
        kind=kind,
        index=index,
        track=_str(raw.get("track", "main"), f"{where}.track"),
        group=_str(raw["group"], f"{where}.group") if "group" in raw else None,
        price=_int(raw["price"], f"{where}.price") if "price" in raw else None,
        rent=rent_t,
        house=_int(raw["house"], f"{where}.house") if "house" in raw else None,
        mortgage=_int(raw["mortgage"], f"{where}.mortgage") if "mortgage" in raw else None,
        ownable=rule.ownable,
        data={k: v for k, v in raw.items() if k not in known},
    )


def _card(raw: Any, where: str, decks: set[str] | None, effects: set[str] | None) -> Card:
    if not isinstance(raw, Mapping):
        raise BoardError(f"{where}: expected a table")
    card_id = _str(raw.get("id"), f"{where}.id")
    where = f"{where} ({card_id})"
    deck = _str(raw.get("deck"), f"{where}.deck")
    if decks is not None and deck not in decks:
        raise BoardError(f"{where}.deck: unknown deck {deck!r} (known: {', '.join(sorted(decks))})")
    do = _str(raw.get("do"), f"{where}.do")
    if effects is not None and do not in effects:
        raise BoardError(f"{where}.do: unknown effect {do!r} (known: {', '.join(sorted(effects))})")
    params = {k: v for k, v in raw.items() if k not in {"id", "deck", "text", "do"}}
    return Card(card_id, deck, _str(raw.get("text", card_id), f"{where}.text"), do, params)


def build_board(
    data: Mapping[str, Any],
    source: str,
    kinds: Mapping[str, KindRule],
    *,
    decks: set[str] | None = None,
    effects: set[str] | None = None,
) -> Board:
    """Validate a parsed board file and build the :class:`Board`.

    ``source`` names the file in error messages; ``kinds`` says which space kinds the
    ruleset knows and what each needs; ``decks`` and ``effects`` restrict card decks and
    card effects when given.
    """
    game = data.get("game")
    if not isinstance(game, Mapping):
        raise BoardError(f"{source}: missing [game] table")
    ruleset = _str(game.get("ruleset"), f"{source}: game.ruleset")
    players = game.get("players", [2, 8])
    if not (isinstance(players, list) and len(players) == 2):
        raise BoardError(f"{source}: game.players: expected [minimum, maximum]")
    lo = _int(players[0], f"{source}: game.players[0]", minimum=1)
    hi = _int(players[1], f"{source}: game.players[1]", minimum=lo)

    raw_spaces = data.get("spaces", [])
    if not isinstance(raw_spaces, list):
        raise BoardError(f"{source}: spaces: expected an array of tables ([[spaces]])")
    spaces: list[Space] = []
    by_id: dict[str, Space] = {}
    tracks: dict[str, list[str]] = {}
    for i, raw in enumerate(raw_spaces):
        track = raw.get("track", "main") if isinstance(raw, Mapping) else "main"
        index = len(tracks.get(track, []))
        space = _space(raw, f"{source}: spaces[{i}]", index, kinds)
        if space.id in by_id:
            raise BoardError(f"{source}: spaces[{i}].id: duplicate id {space.id!r}")
        by_id[space.id] = space
        spaces.append(space)
        tracks.setdefault(space.track, []).append(space.id)

    groups: dict[str, list[str]] = {}
    for space in spaces:
        if space.group is not None:
            groups.setdefault(space.group, []).append(space.id)
    for i, space in enumerate(spaces):
        rule = kinds[space.kind]
        if rule.grouped and len(groups.get(space.group or "", [])) < 2:
            raise BoardError(f"{source}: spaces[{i}] ({space.id}).group: group {space.group!r} has only one space")

    raw_cards = data.get("cards", [])
    if not isinstance(raw_cards, list):
        raise BoardError(f"{source}: cards: expected an array of tables ([[cards]])")
    cards: dict[str, Card] = {}
    deck_lists: dict[str, list[str]] = {d: [] for d in (decks or ())}
    for i, raw in enumerate(raw_cards):
        card = _card(raw, f"{source}: cards[{i}]", decks, effects)
        if card.id in cards:
            raise BoardError(f"{source}: cards[{i}].id: duplicate id {card.id!r}")
        cards[card.id] = card
        deck_lists.setdefault(card.deck, []).append(card.id)
    for i, space in enumerate(spaces):
        deck = space.data.get("deck")
        if deck is not None and not deck_lists.get(deck):
            raise BoardError(f"{source}: spaces[{i}] ({space.id}).deck: no cards in deck {deck!r}")

    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise BoardError(f"{source}: options: expected a table")
    extra = {k: v for k, v in data.items() if k not in {"game", "spaces", "cards", "options"}}
    return Board(
        ruleset=ruleset,
        name=_str(game.get("name", ruleset), f"{source}: game.name"),
        source=source,
        spaces=tuple(spaces),
        by_id=by_id,
        tracks={k: tuple(v) for k, v in tracks.items()},
        groups={k: tuple(v) for k, v in groups.items()},
        decks={k: tuple(v) for k, v in deck_lists.items()},
        cards=cards,
        options=dict(options),
        min_players=lo,
        max_players=hi,
        data=extra,
        currency=_currency(game.get("currency", "$"), f"{source}: game.currency"),
    )


def _currency(value: Any, where: str) -> str:
    """A currency symbol as printed on the board's notes: one to three characters, no digit or space."""
    if not isinstance(value, str) or not 1 <= len(value) <= 3 or any(c.isdigit() or c.isspace() for c in value):
        raise BoardError(f"{where}: expected the symbol printed on the notes (\"$\", \"£\", \"€\", \"M\"), "
                         f"found {value!r}")
    return value
