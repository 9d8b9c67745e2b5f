"""Which input lines a phone may send: its own answers and acts; the host anything.

The engine decides whether an input is legal; this module only decides whether *this phone*
may send it, so that a phone joined as Ann cannot bid, answer or roll for Bob.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from companion.config import PhoneDice
from companion.engine import find_ruleset
from companion.engine.core import Ruleset
from companion.words import N_

from .access import AccessDenied
from .errors import BadRequest

INPUT_KEYS = frozenset({"roll", "answer", "act", "undo"})


def check_shape(line: Any) -> dict[str, Any]:
    """The line as an object with exactly one input key (the engine checks the rest)."""
    if not isinstance(line, Mapping):
        raise BadRequest(N_("input must be a JSON object such as {example}"), example='{"answer": "yes"}')
    keys = INPUT_KEYS & set(line)
    if len(keys) != 1:
        raise BadRequest(N_("input must hold exactly one of {keys}"), keys=", ".join(sorted(INPUT_KEYS)))
    return dict(line)


def check_allowed(state: Mapping[str, Any], line: Mapping[str, Any], player: str | None, *, host: bool,
                  phone_dice: PhoneDice) -> None:
    """Raise :class:`AccessDenied` unless the phone (joined as ``player``, or the host) may send ``line``."""
    if host:
        return
    if player is None:
        raise AccessDenied(N_("join the game first (the code is on the table's screen)"))
    prompt = state.get("prompt") or {}
    if "undo" in line:
        raise AccessDenied(N_("only the host can undo"))
    if "act" in line:
        act = line["act"]
        if isinstance(act, Mapping) and act.get("player") != player:
            raise AccessDenied(N_("this phone plays for {player}, not {other}"), player=player,
                               other=repr(act.get("player")))
        check_no_face_down_asked(state, act)
        return
    if "answer" in line:
        if prompt.get("player") not in (None, player):
            raise AccessDenied(N_("the question is for {asked}, not {player}"), asked=prompt.get("player"),
                               player=player)
        return
    if "roll" in line:
        if phone_dice != "manual":
            raise AccessDenied(N_("the dice come from the table, not from a phone"))
        check_own_roll(prompt, player)


def check_no_face_down_asked(state: Mapping[str, Any], act: Any) -> None:
    """Raise :class:`AccessDenied` if a trade asks for face-down cards (addon's travel cards), whatever the other
    player holds: the phone cannot see them, and the engine's refusal of each card they do not hold would tell
    which they do. Their holder can still offer them."""
    get = act.get("get") if isinstance(act, Mapping) and act.get("do") == "trade" else None
    cards = get.get("cards") if isinstance(get, Mapping) else None
    if not isinstance(cards, list):
        return
    ruleset = find_ruleset(state["ruleset"])
    decks = {card: ruleset.board.cards[card].deck for card in cards
             if isinstance(card, str) and card in ruleset.board.cards}
    decks.update({card: card.removesuffix("-hidden") for card in cards if isinstance(card, str)
                  and card.endswith("-hidden")})
    secret = sorted(set(decks.values()) & ruleset.secret_decks)
    if secret:
        raise AccessDenied(N_("{decks} cards are dealt face down: a trade cannot ask for them (their holder may "
                              "offer them)"), decks=", ".join(secret))


def check_own_roll(prompt: Mapping[str, Any], player: str) -> None:
    if prompt.get("kind") != "roll":
        raise AccessDenied(N_("nobody is rolling now"))
    if prompt.get("player") not in (None, player):
        raise AccessDenied(N_("it is {asked}'s roll, not {player}'s"), asked=prompt.get("player"), player=player)


def software_roll(prompt: Mapping[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """The roll input the game waits for, every throw (dice, a chance cube) from the OS's entropy
    (phone_dice = "software")."""
    values = [t.faces[secrets.randbelow(len(t.faces))] for t in ruleset.throws(prompt)]
    return ruleset.roll_line(prompt, values)
