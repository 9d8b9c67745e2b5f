"""The engine's messages said through :class:`~.words.Words`: one renderer for every language (issue 41).

:func:`companion.engine.messages.render` says a message through a *speaker*; :class:`Speaker` makes one of a
``Words``: its catalogue, money, numbers and lists, the board's names in the language (``[names.<lang>]``) and, for
a space, card or deck the board does not name in it, the name the engine's English gives (the ruleset's: a card's
short name, a deck's title). So ``Words("en")`` says byte for byte what the engine's English says
(tests/words/test_engine_messages.py), and the kinds of arguments are the engine's one table (``ARG_KINDS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from typing import Any, Protocol

from companion.engine.board import Board
from companion.engine.core import Ruleset, prompt_message
from companion.engine.messages import render
from companion.engine.rules import find_ruleset, ruleset_class


class Words(Protocol):
    """What a speaker needs of :class:`~.words.Words` (a protocol: :mod:`.words` imports this module)."""

    @property
    def board(self) -> Board | None: ...

    @property
    def english(self) -> bool: ...

    def gettext(self, msgid: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def money(self, amount: int) -> str: ...

    def number(self, n: int) -> str: ...

    def names_list(self, items: Iterable[str]) -> str: ...

    def named(self, kind: str, item: str) -> str | None: ...


#: Rulesets built for boards: id(board) -> (board, ruleset); boards are unhashable constant data, kept alive here.
_BUILT: dict[int, tuple[Board, Ruleset]] = {}


def _ruleset(board: Board) -> Ruleset:
    """The ruleset of a board, for the English names of its cards and decks (the bundled one, or built once)."""
    bundled = find_ruleset(board.ruleset)
    if bundled.board is board:
        return bundled
    built = _BUILT.get(id(board))
    if built is None or built[0] is not board:
        built = _BUILT[id(board)] = (board, ruleset_class(board.ruleset)(board))
    return built[1]


class Speaker:
    """A :class:`~companion.engine.messages.Speaker` made of one person's :class:`~.words.Words`."""

    __slots__ = ("words", "names")

    def __init__(self, words: Words) -> None:
        self.words = words
        self.names = _ruleset(words.board) if words.board is not None else None

    def gettext(self, msgid: str) -> str:
        return self.words.gettext(msgid)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.words.ngettext(singular, plural, n)

    def money(self, amount: int) -> str:
        return self.words.money(amount)

    def number(self, n: int) -> str:
        return self.words.number(n)

    def names_list(self, items: Iterable[str]) -> str:
        return self.words.names_list(items)

    def space(self, space_id: str) -> str:
        return self.words.named("spaces", space_id) or (self.names.space_name(space_id) if self.names else str(space_id))

    def card(self, card_id: str) -> str:
        return self.words.named("cards", card_id) or (self.names.card_name(card_id) if self.names else str(card_id))

    def deck(self, deck_id: str) -> str:
        return self.words.named("decks", deck_id) or (self.names.deck_name(deck_id) if self.names else str(deck_id))

    def card_text(self, card_id: str) -> str:
        return self.words.named("cards", card_id) or (self.names.card_text(card_id) if self.names else str(card_id))

    def pile(self, deck_id: str) -> str:
        """A deck said in passing: in English by its id, as the engine says it ("the chest deck"); in another
        language by its title there, or as printed ("der Stapel Community Chest")."""
        return str(deck_id).replace("-", " ") if self.words.english else self.deck(deck_id)

    def ident(self, ident: str) -> str:
        """A card or space the English names by its id, as the engine always did ("Ann uses
        chance-get-out-of-jail-free", "Bob cannot trade baltic-avenue"); in another language by its name there, or as
        the engine's English names it; what is neither (a malformed act's value) as it is."""
        board = self.names.board if self.names is not None and not self.words.english else None
        if board is not None and isinstance(ident, str):
            if ident in board.cards:
                return self.card(ident)
            if ident in board.by_id:
                return self.space(ident)
        return str(ident)

    def cube(self, face: int) -> str:
        return self.words.named("cube", str(face)) or (self.names.cube_text(face) if self.names else str(face))


def say(words: Words, message: Mapping[str, Any]) -> str:
    """A message (``{"msg", "args"[, "plural"]}``: an event, a prompt, a refusal's ``.message``) in ``words``."""
    return render(message, Speaker(words))


def say_event(words: Words, event: Mapping[str, Any]) -> str:
    """An event's sentence in ``words``; an event saved before events carried messages: its English ``text``."""
    return say(words, event) if "msg" in event else str(event.get("text", ""))


def say_prompt(words: Words, prompt: Mapping[str, Any]) -> str:
    """A prompt's question in ``words`` (a prompt saved before prompts carried messages: its English text)."""
    return say(words, prompt_message(prompt))
