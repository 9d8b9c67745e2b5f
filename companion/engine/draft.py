"""A copy-on-write working copy of a game state, for applying one input.

States are plain JSON data and are never mutated once built: an old state stays valid
(for undo, snapshots and the phone that still shows it). Copying the whole state per input
would be slow, so a :class:`Draft` copies only what the input touches, the way immer does
for boardgame.io: the top level, the players and the small pools always; one space, one deck
only when written. Nested lists inside a copied dict (a player's ``cards``) are replaced,
never changed in place.

What the engine says is data (:mod:`.messages`): an event or a prompt carries its message (``msg``, ``args``).
For the table the English sentence (``text``) is made with it, by the one English renderer; the simulation path
makes none (``words=False``): an event has no ``text`` and a prompt's ``text`` is None, and :func:`sentence` makes one
when someone reads it: nobody reads a bot's events.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from companion.errors import IllegalInput

from .messages import Message, Names, english

State = dict[str, Any]
Event = dict[str, Any]
Task = list[Any]

LOG_LINES = 20
_name = itemgetter("name")
_text = itemgetter("text")


def sentence(event: Event, names: Names | None = None) -> str:
    """An event's (or a prompt's) English sentence: its ``text``, or made now from its message (the simulation path
    makes none); ``names``: the ruleset, for the printed names of its spaces and cards."""
    text = event.get("text")
    return text if type(text) is str else english(event, names)


class Draft:
    """The state being built by one input, with the events it produced."""

    __slots__ = ("state", "events", "barrier", "words", "namer", "_players", "_copied", "_decks_copied")

    def __init__(self, state: State, *, words: bool = True, namer: Names | None = None) -> None:
        s = state.copy()  # dict.copy clones a dict in one go; dict(...) takes the slower general path
        # One pass copies every player and indexes them by name (the order of seats never changes).
        self._players = players = {p["name"]: p.copy() for p in state["players"]}
        s["players"] = list(players.values())
        s["queue"] = state["queue"].copy()
        s["pools"] = state["pools"].copy()
        s["bank"] = state["bank"].copy()
        self.state: State = s
        self.events: list[Event] = []
        self.barrier = False  # set when the input revealed chance (dice, a card): undo stops here
        self.words = words  # False (simulation path): no sentence made, only messages
        self.namer = namer  # the ruleset: the printed names of spaces and cards in the sentences
        self._copied: set[str] | None = None  # the spaces copied (written) so far; None: not the spaces' dict either
        self._decks_copied = False

    # ------------------------------------------------------------------ players
    def player(self, name: str) -> dict[str, Any]:
        """The writable record of a player; ``IllegalInput`` for an unknown name."""
        try:
            return self._players[name]
        except KeyError:
            raise _no_player(name) from None

    def seat(self, name: str) -> int:
        """A player's place in turn order (0 first); ``IllegalInput`` for an unknown name."""
        if name not in self._players:
            raise _no_player(name)
        return list(self._players).index(name)

    def has_player(self, name: str) -> bool:
        return name in self._players

    def names(self) -> list[str]:
        """All players in turn order, bankrupt ones included."""
        return list(map(_name, self.state["players"]))

    def solvent(self) -> list[str]:
        """Players still in the game, in turn order."""
        return [p["name"] for p in self.state["players"] if not p["bankrupt"]]

    def give_card(self, name: str, card: str) -> None:
        p = self.player(name)
        p["cards"] = [*p["cards"], card]

    def take_card(self, name: str, card: str) -> None:
        p = self.player(name)
        cards = list(p["cards"])
        cards.remove(card)
        p["cards"] = cards

    # ------------------------------------------------------------------ spaces
    def space(self, space_id: str) -> dict[str, Any]:
        """The writable record of an ownable space."""
        spaces, copied = self.state["spaces"], self._copied
        if copied is None:
            spaces = self.state["spaces"] = spaces.copy()
            copied = self._copied = set()
        if space_id not in copied:
            spaces[space_id] = spaces[space_id].copy()
            copied.add(space_id)
        return spaces[space_id]

    def written_spaces(self) -> set[str]:
        """The spaces this input has changed (or taken to change)."""
        return set(self._copied or ())

    def read_space(self, space_id: str) -> dict[str, Any]:
        """The record of an ownable space, for reading only."""
        return self.state["spaces"][space_id]

    # ------------------------------------------------------------------ decks
    def deck(self, name: str) -> list[str]:
        """The writable order of a deck, top card first."""
        s = self.state
        if not self._decks_copied:
            s["decks"] = s["decks"].copy()
            self._decks_copied = True
        deck = s["decks"][name]
        if not isinstance(deck, _OwnList):
            deck = _OwnList(deck)
            s["decks"][name] = deck
        return deck

    # ------------------------------------------------------------------ flow
    def push(self, *tasks: Task) -> None:
        """Put tasks at the front of the queue, to run in the order given.

        The task lists are kept, not copied: like everything in a state, a queued task is never
        changed in place once built (the invariant tests compare every returned state with a deep
        copy taken when it was returned).
        """
        self.state["queue"][0:0] = tasks

    def ask(self, player: str | None, kind: str, message: Message, options: list[str], **extra: Any) -> None:
        """Wait for an input: set the prompt the table and the phones show (its English ``text`` for the table,
        None on the simulation path; its message beside)."""
        self.state["prompt"] = {"player": player, "kind": kind,
                                "text": english(message, self.namer) if self.words else None,
                                "options": options, **extra, **message}

    def reprompt(self, prompt: dict[str, Any], message: Message, **changes: Any) -> None:
        """Ask ``prompt`` again with a new message (and ``changes``): the same question, its figures as they are now."""
        self.state["prompt"] = {**prompt, **changes, "text": english(message, self.namer) if self.words else None,
                                **message}

    def say(self, kind: str, message: Message, **details: Any) -> None:
        """Record an event: something said, or something the table must do physically (its message; its English
        ``text`` for the table). The message becomes the event, not copied: a fresh one each time (``m(...)``)."""
        message["kind"] = kind
        if details:
            message.update(details)
        if self.words:
            message["text"] = english(message, self.namer)
        self.events.append(message)

    def finish(self, *, log: bool = True) -> State:
        """The finished state: plain lists again, and (``log``: the table's) the log of this input's lines."""
        s = self.state
        if self._decks_copied:
            s["decks"] = {k: list(v) if isinstance(v, _OwnList) else v for k, v in s["decks"].items()}
        if log and self.events:
            # With words every event has its sentence (``say`` and the ledger make it): read, not made again.
            texts = list(map(_text, self.events)) if self.words else [sentence(e, self.namer) for e in self.events]
            keep = LOG_LINES - len(texts)
            s["log"] = s["log"][-keep:] + texts if keep > 0 else texts[-LOG_LINES:]
        return s


def _no_player(name: Any) -> IllegalInput:
    error = IllegalInput("there is no player called {value}", {"value": name})
    error.render = english
    return error


class _OwnList(list[str]):
    """Marks a deck list already copied by this draft."""
