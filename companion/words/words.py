"""One person's words: a language's catalogues, numbers, money and lists, and one board's names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gettext import NullTranslations

from companion.engine.board import Board
from companion.engine.core import names_of

from .catalogue import SOURCE_LANGUAGE, translations

#: The symbol of a board with no ``currency`` of its own: the dollar every bundled board was printed with.
DEFAULT_CURRENCY = "$"
#: A CLDR currency pattern: what comes before the number ("¤" or "¤\u00a0") and after it ("\u00a0¤").
_NUMBER_PATTERN = re.compile(r"^([^#0,.]*)[#0,.]+([^#0,.]*)$")


def N_(msgid: str) -> str:  # noqa: N802 - gettext's name for "marked for extraction, translated where it is said"
    """A msgid kept as a constant (compared, or said later with :meth:`Words.t`): marked for ``pybabel extract``."""
    return msgid


@dataclass(frozen=True)
class Words:
    """The words of one language for one board: ``Words.for_language("de", board).money(1500)`` → ``1.500 $``.

    English is the source language and says exactly what the engine's English renderer says (``$1500``: no
    grouping; lists "A, B and C"); the other languages take Babel's locale data for grouping, the currency's place
    and lists."""

    language: str
    board: Board | None = None
    catalogue: NullTranslations = field(default_factory=NullTranslations, repr=False, compare=False)
    locale: Any = field(default=None, repr=False, compare=False)  # Babel's Locale; None for English (no Babel)

    @classmethod
    def for_language(cls, language: str, board: Board | None = None) -> Words:
        """The words of ``language`` (one of :data:`~companion.words.LANGUAGES`) for ``board``'s names and money."""
        catalogue = translations(language)
        if language == SOURCE_LANGUAGE:
            return cls(language, board, catalogue)
        from babel import Locale  # the languages beyond English come with the table's extra (pyproject.toml)

        return cls(language, board, catalogue, Locale.parse(language))

    @property
    def english(self) -> bool:
        return self.language == SOURCE_LANGUAGE

    def gettext(self, msgid: str) -> str:
        return self.catalogue.gettext(msgid)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalogue.ngettext(singular, plural, n)

    def t(self, msgid: str, **args: Any) -> str:
        """The table's and the page's own words: ``msgid`` translated, its ``{placeholders}`` filled with ``args``
        as they are (already said: a name, ``words.money(n)``). ``pybabel extract`` finds them by this name."""
        text = self.gettext(msgid)
        return text.format(**args) if args else text

    def told(self, said: Any) -> str:
        """What a driver or the network reports as data (a ``Said``: ``.msg`` of the table's catalogue and
        ``.args``) in this language; an argument that is one in its turn is said first. A plain string is as it is."""
        if isinstance(said, str):
            return said
        args = {name: self.told(value) if hasattr(value, "msg") and hasattr(value, "args") else value
                for name, value in said.args.items()}
        return self.t(said.msg, **args)

    def nt(self, singular: str, plural: str, n: int, **args: Any) -> str:
        """As :meth:`t`, the form for ``n`` (``n`` is an argument too)."""
        return self.ngettext(singular, plural, n).format(n=self.number(n), **args)

    @property
    def currency(self) -> str:
        """The board's currency symbol (``$``, ``£``, ``€``, ``M``...)."""
        return str(getattr(self.board, "currency", None) or DEFAULT_CURRENCY)

    def number(self, n: int | float) -> str:
        """A number as the language writes it (``1.500`` in German); English as the engine writes it (``1500``)."""
        if self.english:
            return str(n)
        from babel.numbers import format_decimal

        return format_decimal(n, locale=self.locale)

    def decimal(self, value: float, digits: int) -> str:
        """A number with ``digits`` decimals as the language writes it (``12,50`` in German); English as Python's
        ``f"{value:.2f}"`` (``12.50``)."""
        if self.english:
            return f"{value:.{digits}f}"
        from babel.numbers import format_decimal

        return format_decimal(round(value, digits), format="#,##0" + ("." + "0" * digits if digits else ""),
                              locale=self.locale)

    def money(self, amount: int) -> str:
        """An amount with the board's currency where the locale puts it: ``$1500`` (English, as the engine says
        it), ``1.500 €`` (German), ``1 500 £`` (French), ``1.500 M`` (Spanish)."""
        if self.english:
            return f"{self.currency}{amount}"
        pattern = self.locale.currency_formats["standard"].pattern.split(";")[0]
        match = _NUMBER_PATTERN.match(pattern)
        before, after = (match.group(1), match.group(2)) if match else ("", "\u00a0¤")
        sign = "-" if amount < 0 else ""
        number = self.number(abs(amount))
        return f"{sign}{before.replace('¤', self.currency)}{number}{after.replace('¤', self.currency)}"

    def names_list(self, items: Iterable[str]) -> str:
        """Names joined as the language lists them ("A, B und C"); English as the engine does ("A, B and C")."""
        items = list(items)
        if self.english:
            return names_of(items)
        from babel.lists import format_list

        return format_list(items, locale=self.locale) if items else ""

    def named(self, kind: str, item: str) -> str | None:
        """The board's own name of a space, card, deck or cube face (``kind``: "spaces", "cards", "decks", "cube")
        in this language, None when it gives none."""
        name = self._names(kind).get(item)
        return str(name) if name else None

    def _names(self, kind: str) -> Mapping[str, str]:
        """The board's own names of its ``kind`` ("spaces", "cards", "decks") in this language, if it has them."""
        if self.board is None:
            return {}
        table = self.board.data.get("names", {}).get(self.language, {})
        return table.get(kind, {}) if isinstance(table, Mapping) else {}

    def space(self, space_id: str) -> str:
        """A space's printed name in this language (its board's ``[names.<lang>.spaces]``), else as printed."""
        space = self.board.by_id.get(space_id) if self.board is not None else None
        return self.named("spaces", space_id) or (space.name if space is not None else space_id)

    def card(self, card_id: str) -> str:
        """A card's printed text in this language (``[names.<lang>.cards]``), else as printed."""
        card = self.board.cards.get(card_id) if self.board is not None else None
        return self.named("cards", card_id) or (card.text if card is not None else card_id)

    def deck(self, deck_id: str) -> str:
        """A deck's title in this language (``[names.<lang>.decks]``), else its id as the board names it."""
        return str(self._names("decks").get(deck_id) or deck_id)

    def message(self, msg: str, args: Mapping[str, Any] | None = None, plural: str | None = None) -> str:
        """An engine message (``msg``, ``args``, and ``plural`` when it has one: chosen by ``args["count"]``)
        translated and filled in, by the engine's one renderer (:mod:`.engine_messages`)."""
        from .engine_messages import say  # engine_messages builds on Words

        message: dict[str, Any] = {"msg": msg, "args": args or {}}
        if plural is not None:
            message["plural"] = plural
        return say(self, message)


#: English, the source language: the default of every screen and sentence that is given no words.
ENGLISH = Words.for_language(SOURCE_LANGUAGE)
