"""What the engine says, as data: a message is a gettext msgid and its arguments, never a sentence.

An event is ``{"kind": ..., "msg": "{player} rolls {a} and {b}", "args": {"player": "Ann", "a": 4, "b": 3}, ...}``;
a prompt carries ``msg`` and ``args`` beside its English ``text``; an :class:`~companion.errors.IllegalInput`
carries its message too. The msgid is the English template, a ``str.format`` template whose literal braces are
doubled; a message with a plural form has ``plural`` (the English plural template) and ``args["count"]``.

An argument's *name* says how an adapter renders its value (:data:`ARG_KINDS`: ``space`` is a space id shown as the
space's printed name, ``amount`` is money, ...), so the JSON carries no type tags, and a value that is itself a
message (``{"msg": ..., "args": ...}``: a payment's reason, a winner's why) is rendered in its turn.

:func:`english` is the one English renderer: the table's ``text`` of every event and prompt, the log and every
refusal come from it, byte for byte the sentences the engine made before issue 41 (tests/test_english_golden.py).
``companion/words`` renders the same messages in other languages with the gettext catalogues made from these msgids
(``pybabel extract``: the keywords :func:`m`, :func:`mp`, :func:`n_` and :func:`~companion.engine.core.reject`;
babel.cfg and docs/languages.md). Pure: no I/O, no catalogue here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

def n_(msgid: str) -> str:
    """Mark a msgid for extraction where it is not yet a message (a table of words); returns it as it is."""
    return msgid


#: A message: ``{"msg": msgid, "args": {...}}`` and, for a plural, ``"plural"``. Plain JSON data.
Message = dict[str, Any]

#: How an argument is rendered, by its name: the name itself, or the name followed by ``_`` or a digit
#: (``space_from``, ``amount2``). One table for the engine's English and every adapter's language.
#:
#: ``player``   a player's name as it is (or an account: ``bank`` -> "the bank", :data:`ACCOUNTS`);
#: ``payer``    the same, its first letter a capital (it begins the English sentence);
#: ``money``    a whole amount of money;
#: ``number``   a number (a count, a die, a percentage);
#: ``space``    a space id: the space's printed name; ``spaces``: a list of them, as a list in words;
#:              ``space_lower``: the name in small letters, where the English says it as a common noun;
#: ``card``     a card id: the card's name; ``cards``: a list of them;
#: ``deck``     a deck id: its title ("Chance", "Community Chest"; a chamber of ``chambers``, whose deck it is);
#: ``cube``     a face of magie-1924's chance cube: the face's printed text;
#: ``pile``     a deck id said in passing ("the chest deck"): English says the id, other languages the deck's title;
#: ``ident``    a card or space id the English says as it is ("Ann uses chance-get-out-of-jail-free", "Bob cannot
#:              trade baltic-avenue"), other languages by the card's or space's name (else as it is);
#: ``group``    a street group's id ("light-blue"): the catalogue's word for it where it has one, else the id;
#: ``printed``  a card id: the card's printed text;
#: ``players``  a list of player names, as a list in words ("Ann, Bob and Cat");
#: ``message``  a message in its turn (a reason, a why); ``items``: a list of messages, as a list in words;
#:              ``parts``: a list of messages, joined by commas ("Ann $1500, Bob $200");
#: ``spaced``   a list of messages joined by spaces (the words of an input: "Ann build Baltic Avenue");
#: ``ways``     a list of messages as a list in words, its first letter a capital (it begins the sentence);
#: ``move``     a message whose first letter is made small (it follows a colon);
#: ``quoted``   a message in its turn, quoted (a question a refusal quotes back);
#: ``repr``     a value as the input gave it, quoted as Python writes it (what a refusal quotes back);
#: ``text``     anything else: as it is (a name of the game's own, a loan's id).
ARG_KINDS: Mapping[str, str] = {
    "player": "player", "payee": "player", "creditor": "player", "owner": "player", "taker": "player",
    "who": "player", "debtor": "player", "bidder": "player", "winner": "player", "giver": "player",
    "lender": "player", "borrower": "player", "holder": "player", "other": "player", "pool": "player",
    "payer": "payer",
    "amount": "money", "cash": "money", "price": "money", "fine": "money", "worth": "money", "rent": "money",
    "cost": "money", "salary": "money", "rate": "money", "bid": "money", "short": "money", "interest": "money", "sum": "money",
    "count": "number", "n": "number", "a": "number", "b": "number", "total": "number", "percent": "number",
    "times": "number", "die": "number", "number": "number", "minimum": "number", "maximum": "number",
    "space": "space", "space_lower": "space_lower", "spaces": "spaces", "card": "card", "cards": "cards", "deck": "deck",
    "chamber": "deck", "face_text": "cube", "spaced": "spaced", "said": "message", "pile": "pile", "group": "group",
    "ident": "ident",
    "why": "message", "reason": "message", "doing": "message", "then": "message", "part": "message",
    "what": "message", "prompt": "message", "listed": "message", "lot": "message",
    "give": "message", "get": "message", "advice": "message", "high": "message", "unsold": "message",
    "items": "items", "parts": "parts", "question": "quoted", "printed": "printed", "players": "players",
    "houses": "number", "hotels": "number", "ways": "ways", "move": "move",
    "value": "repr", "key": "repr", "given": "repr",
}

#: The accounts that are not players, as the English says them (the msgids of their names in other languages).
ACCOUNTS: Mapping[str, str] = {"bank": n_("the bank"), "tax-pool": n_("the tax pool"),
                               "free-parking": n_("Free Parking"), "public-treasury": n_("the public treasury"),
                               "railroad": n_("the railroad"), "board": n_("the board")}


def np_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction in a table (:data:`~.core.STEPS`); returns it as it is."""
    return singular, plural


def m(msgid: str, /, **args: Any) -> Message:
    """A message: ``m("{player} rolls {a} and {b}", player=name, a=4, b=3)``."""
    return {"msg": msgid, "args": args}


def mp(singular: str, plural: str, count: int, /, **args: Any) -> Message:
    """A message with a plural form chosen by ``count`` (which is also ``args["count"]``)."""
    return {"msg": singular, "plural": plural, "args": {"count": count, **args}}


def arg_kind(name: str) -> str:
    """The kind of an argument by its name (:data:`ARG_KINDS`; ``text`` for a name it does not list): the name
    itself, else the name cut at its last ``_`` or digit (``space_to``, ``amount2``)."""
    kind = ARG_KINDS.get(name)
    if kind is None:
        kind = "text"
        for cut in range(len(name) - 1, 0, -1):
            if (name[cut] == "_" or name[cut].isdigit()) and name[:cut] in ARG_KINDS:
                kind = ARG_KINDS[name[:cut]]
                break
    _KIND_OF[name] = kind
    return kind


class Names(Protocol):
    """What gives the printed names of a game's things (a ruleset: its board and cards)."""

    def space_name(self, space_id: str) -> str: ...

    def card_name(self, card_id: str) -> str: ...

    def deck_name(self, deck_id: str) -> str: ...

    def card_text(self, card_id: str) -> str: ...

    def cube_text(self, face: int) -> str: ...


class Speaker(Protocol):
    """What says a message in one language: its catalogue and its ways with money, numbers, lists and the board's
    names. :class:`English` is the engine's; ``companion.words.Words`` speaks the others with the same
    :func:`render`."""

    def gettext(self, msgid: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def money(self, amount: int) -> str: ...

    def number(self, n: int) -> str: ...

    def names_list(self, items: Iterable[str]) -> str: ...

    def space(self, space_id: str) -> str: ...

    def card(self, card_id: str) -> str: ...

    def deck(self, deck_id: str) -> str: ...

    def card_text(self, card_id: str) -> str: ...

    def cube(self, face: int) -> str: ...

    def pile(self, deck_id: str) -> str: ...

    def ident(self, ident: str) -> str: ...


def is_message(value: Any) -> bool:
    return type(value) is dict and "msg" in value


class English:
    """The engine's own speaker: the msgids as they are, ``$28``, "A, B and C", the board's printed names."""

    __slots__ = ("names",)

    def __init__(self, names: Names | None = None) -> None:
        self.names = names

    def gettext(self, msgid: str) -> str:
        return msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def money(self, amount: int) -> str:
        return f"${amount}"

    def number(self, n: int) -> str:
        return str(n)

    def names_list(self, items: Iterable[str]) -> str:
        return names_of(items)

    def space(self, space_id: str) -> str:
        return self.names.space_name(space_id) if self.names is not None else str(space_id)

    def card(self, card_id: str) -> str:
        return self.names.card_name(card_id) if self.names is not None else str(card_id)

    def deck(self, deck_id: str) -> str:
        return self.names.deck_name(deck_id) if self.names is not None else str(deck_id)

    def card_text(self, card_id: str) -> str:
        return self.names.card_text(card_id) if self.names is not None else str(card_id)

    def cube(self, face: int) -> str:
        return self.names.cube_text(face) if self.names is not None else str(face)

    def pile(self, deck_id: str) -> str:
        return str(deck_id).replace("-", " ")

    def ident(self, ident: str) -> str:
        return str(ident)


def english(message: Mapping[str, Any], names: Names | None = None) -> str:
    """A message's English sentence (``names``: the ruleset whose spaces and cards it names; without one, ids).

    :func:`render` with the :class:`English` speaker, the commonest kinds said here directly (the table's path says
    every event through it; tests/words/test_engine_messages.py holds it equal to ``render``)."""
    msg = message["msg"]
    args = message.get("args") or {}
    plural = message.get("plural")
    if plural is not None and args.get("count") != 1:
        msg = plural
    if not args:
        return msg.format()
    said = {}
    speaker = None
    for name, value in args.items():
        kind = _KIND_OF.get(name) or arg_kind(name)
        if kind == "player" and type(value) is str:
            said[name] = ACCOUNTS.get(value, value)
        elif kind == "money":
            said[name] = f"${value}"
        elif kind == "payer" and type(value) is str:  # a payment's first word: "The bank pays ...", "Ann pays ..."
            value = ACCOUNTS.get(value, value)
            said[name] = f"{value[:1].upper()}{value[1:]}"
        elif kind == "space" and names is not None:
            said[name] = names.space_name(value)
        elif type(value) is int and kind in ("number", "text"):
            said[name] = str(value)
        elif kind == "message" and type(value) is dict and "msg" in value:
            said[name] = english(value, names)
        elif kind == "message" and type(value) is str:
            said[name] = value
        else:
            if speaker is None:
                speaker = _ENGLISH.get(id(names))
                if speaker is None or speaker.names is not names:
                    speaker = _ENGLISH[id(names)] = English(names)
            said[name] = say_value(kind, value, speaker)
    return msg.format_map(said)


#: The English speaker of each ruleset (rulesets live as long as the process: ``find_ruleset`` keeps them).
_ENGLISH: dict[int, English] = {}


def render(message: Mapping[str, Any], speaker: Speaker) -> str:
    """A message said by ``speaker``: its msgid (or plural) translated, each argument said as its kind says."""
    msg = message["msg"]
    args = message.get("args") or {}
    plural = message.get("plural")
    template = speaker.ngettext(msg, plural, args.get("count", 0)) if plural is not None else speaker.gettext(msg)
    if not args:
        return template.format()
    kinds = _KIND_OF
    said = {}
    for name, value in args.items():
        kind = kinds.get(name) or arg_kind(name)
        said[name] = render(value, speaker) if type(value) is dict and "msg" in value and kind not in _OWN_MESSAGES \
            else _SAY[kind](value, speaker)
    return template.format_map(said)


def say_value(kind: str, value: Any, speaker: Speaker) -> str:
    """One argument said by ``speaker`` as its kind (:data:`ARG_KINDS`) says."""
    if type(value) is dict and "msg" in value and kind not in _OWN_MESSAGES:
        return render(value, speaker)
    return _SAY[kind](value, speaker)


def _account(value: Any, speaker: Speaker) -> str:
    return speaker.gettext(ACCOUNTS[value]) if type(value) is str and value in ACCOUNTS else str(value)


def _capital(said: str) -> str:
    return f"{said[:1].upper()}{said[1:]}"


def _nested(value: Any, speaker: Speaker) -> str:
    return render(value, speaker) if is_message(value) else str(value)


#: How each kind is said (a dict of functions: the table's path says every argument of every event through it).
_SAY: Mapping[str, Callable[[Any, Speaker], str]] = {
    "player": _account,
    "payer": lambda v, s: _capital(_account(v, s)),
    "money": lambda v, s: s.money(v),
    "number": lambda v, s: s.number(v) if type(v) is int else str(v),
    "space": lambda v, s: s.space(v),
    "space_lower": lambda v, s: s.space(v).lower(),
    "spaces": lambda v, s: s.names_list([s.space(x) for x in v]),
    "card": lambda v, s: s.card(v),
    "cards": lambda v, s: s.names_list([s.card(x) for x in v]),
    "deck": lambda v, s: s.deck(v),
    "printed": lambda v, s: s.card_text(v),
    "cube": lambda v, s: s.cube(v),
    "pile": lambda v, s: s.pile(v),
    "ident": lambda v, s: s.ident(v),
    "group": lambda v, s: s.gettext(v) if type(v) is str and v else str(v),
    "players": lambda v, s: s.names_list([_account(x, s) for x in v]),
    "message": _nested,
    "move": lambda v, s: (lambda said: f"{said[:1].lower()}{said[1:]}")(_nested(v, s)),
    "items": lambda v, s: s.names_list([_nested(x, s) for x in v]),
    "ways": lambda v, s: _capital(s.names_list([_nested(x, s) for x in v])),
    "parts": lambda v, s: ", ".join(_nested(x, s) for x in v),
    "spaced": lambda v, s: " ".join(_nested(x, s) for x in v),
    "quoted": lambda v, s: repr(_nested(v, s)),
    "repr": lambda v, s: repr(v),
    "text": lambda v, s: str(v),
}
#: Kinds that say a nested message their own way (the others say it as it is).
_OWN_MESSAGES = frozenset({"move", "quoted", "ways", "items", "parts", "spaced"})
#: Every argument name met so far, to its kind (arg_kind's work done once per name).
_KIND_OF: dict[str, str] = dict(ARG_KINDS)


def names_of(items: Iterable[str]) -> str:
    """A list in English words: "A", "A and B", "A, B and C"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def msgids(message: Mapping[str, Any]) -> Iterable[str]:
    """Every msgid a message uses, its nested messages' too (what a catalogue must translate)."""
    yield message["msg"]
    if message.get("plural") is not None:
        yield message["plural"]
    for value in (message.get("args") or {}).values():
        if is_message(value):
            yield from msgids(value)
        elif type(value) is list:
            for item in value:
                if is_message(item):
                    yield from msgids(item)
