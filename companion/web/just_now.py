"""What just happened, as a person at the table tells it: the last input's events for the page's "Just now" panel.

The engine's events (``GameStore.events``: those of the last input, kept across a restart) become lines the page
draws without reading sentences: the dice with their total, each move with the destination's printed name ("Jail,
just visiting"; an elevator or bridge with both ends), a drawn card as its deck and text, each payment as payer,
payee, amount and what for, and each hand-over the table does by hand in the engine's own words. Every line keeps
the engine's sentence (``text``), so the story and the OLED say the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.engine import Event, State, find_ruleset, sentence
from companion.engine.core import Ruleset
from companion.engine.messages import ACCOUNTS, is_message
from companion.words import N_, Words
from companion.words.engine_messages import say, say_event

Line = dict[str, Any]

#: Events that ask a hand at the table to move something other than a token: said in the engine's words.
HAND_KINDS = frozenset({"deed", "hand-over", "build", "bridge", "rotate", "return"})
#: Events that change the game for everyone: said larger.
NEWS_KINDS = frozenset({"bankrupt", "winner", "debt", "new-game", "trade"})


def just_now(state: State, events: Iterable[Event], *, hide_secrets: bool, viewer: str | None,
             words: Words | None = None) -> dict[str, Any]:
    """``{"seq": n, "lines": [...]}``: the last input's story (``events``) on the state it led to.

    ``hide_secrets`` and ``viewer`` as :func:`companion.engine.public_state`: a card of a secret deck drawn by
    another player is told by its deck alone. ``words``: a phone reading another language than English (each
    line's sentence and a payment's reason said in it, by the engine's renderer)."""
    ruleset = find_ruleset(state["ruleset"])
    players = state.get("players", [])
    lines = [_said(line, event, words) if words is not None and not words.english else line for event in events
             if (line := _line(ruleset, players, event, hide_secrets=hide_secrets, viewer=viewer)) is not None]
    if not any(event.get("kind") == "trade" for event in events):  # no trade: the lines as they came
        return {"seq": state["seq"], "lines": lines}
    # A trade's answer heads what it moves ("Bob accepts: trade done", then the deeds and the cash).
    answer = [line for line, event in zip(lines, (e for e in events if e.get("text"))) if event.get("kind") == "trade"]
    return {"seq": state["seq"], "lines": answer + [line for line in lines if line not in answer]}


def _line(ruleset: Ruleset, players: Sequence[Mapping[str, Any]], event: Event, *, hide_secrets: bool,
          viewer: str | None) -> Line | None:
    kind, text = event.get("kind", "say"), str(event.get("text", ""))
    if not text:
        return None
    who = event.get("player")
    base: Line = {"text": text, **({"player": who} if isinstance(who, str) else {})}
    if event.get("undo"):  # what an undo puts back: a hand's work
        return {"kind": "hand", **base}
    if kind == "roll" and isinstance(event.get("dice"), list):
        dice = [int(d) for d in event["dice"]]
        line = {"kind": "dice", **base, "dice": dice, "total": sum(dice)}
        if "cube" in event:
            line["cube"] = event["cube"]
        return line
    if kind == "move" and event.get("to") in ruleset.board.by_id:
        return {"kind": "move", **base, **_move(ruleset, players, event)}
    if kind == "card" and event.get("card") in ruleset.board.cards:
        card = ruleset.board.cards[event["card"]]
        deck = _deck_title(ruleset, card.deck)
        if hide_secrets and card.deck in ruleset.secret_decks and who != viewer:
            return {"kind": "card", **base, "deck": deck}
        return {"kind": "card", **base, "deck": deck, "name": ruleset.card_name(card.id), "card": card.text}
    if kind == "card" and isinstance(event.get("deck"), str):  # drawn face down: the deck alone
        return {"kind": "card", **base, "deck": _deck_title(ruleset, event["deck"])}
    if kind == "pay" and "amount" in event:
        return {"kind": "pay", **base, "from": ruleset.account_name(str(event["payer"])),
                "to": ruleset.account_name(str(event["payee"])), "amount": int(event["amount"]),
                "for": reason_text(ruleset, event.get("reason", ""))}
    if kind in HAND_KINDS:
        return {"kind": "hand", **base}
    if kind in NEWS_KINDS:
        return {"kind": "news", **base}
    return {"kind": "say", **base}


def _said(line: Line, event: Event, words: Words) -> Line:
    """A line in the language of ``words``: its sentence, a payment's reason, a move's jail words."""
    told = {**line, "text": say_event(words, event)}
    if line.get("kind") == "pay":
        if is_message(event.get("reason")):
            told["for"] = say(words, event["reason"])
        for side, key in (("from", "payer"), ("to", "payee")):  # an account ("the bank"): in the language
            if event.get(key) in ACCOUNTS:
                told[side] = words.gettext(ACCOUNTS[event[key]])
    if line.get("kind") == "move":
        to = str(line["to"])
        for english in (": in jail", ", just visiting"):
            if to.endswith(english):
                told["to"] = to[: -len(english)] + words.t(english)
    return told


def _move(ruleset: Ruleset, players: Sequence[Mapping[str, Any]], event: Event) -> Line:
    """Where the token goes, by the printed name (the board it is on where names repeat, jail's two sides), and the
    elevators or bridges taken on the way, each with both ends."""
    to = event["to"]
    via = [[_place(ruleset, a, board=True), _place(ruleset, b, board=True)] for a, b in event.get("switches") or []
           if a in ruleset.board.by_id and b in ruleset.board.by_id]
    name = _place(ruleset, to, board=bool(via))
    if to == getattr(ruleset, "jail", None):
        who = str(event.get("player"))
        mover = next((p for p in players if p["name"] == who), {})
        jailed = event.get("jail") or (mover.get("in_jail") and event.get("steps") is None)
        name += N_(": in jail") if jailed else N_(", just visiting")
    line: Line = {"to": name}
    if via:
        line["via"] = via
        ends = {ruleset.board.by_id[sid].kind for pair in event["switches"] for sid in pair}
        line["by"] = "elevator" if "elevator" in ends else "bridge"
    if isinstance(event.get("steps"), int) and event["steps"]:
        line["steps"] = event["steps"]
    return line


def _place(ruleset: Ruleset, space_id: str, *, board: bool = False) -> str:
    """A space's printed name, with its board where another board has a space of that name, or (``board``) on a
    move between boards (addon's elevators and bridge)."""
    space = ruleset.board.by_id[space_id]
    twins = any(s.name == space.name and s.track != space.track for s in ruleset.board.spaces)
    named = (board or twins) and len(ruleset.board.tracks) > 1
    if not named:
        return space.name
    outer = space.track != "inner" and "inner" in ruleset.board.tracks  # addon's: main is the outer board
    return f"{space.name} ({'outer' if outer else space.track} board)"


def reason_text(ruleset: Ruleset, reason: Any) -> str:
    """A payment's reason in English ("for Baltic Avenue"): its message made into words (a saved game's: as it is)."""
    return sentence(reason, ruleset) if is_message(reason) else str(reason)


def _deck_title(ruleset: Ruleset, deck: str) -> str:
    title = getattr(ruleset, "deck_title", None)
    return str(title(deck)) if callable(title) else deck.replace("-", " ").title()
