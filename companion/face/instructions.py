"""An instruction on one OLED page: a move, an elevator, a hand-over, with its destination whole.

The engine tells what a hand at the table does in sentences ("Take the elevator at Short Line to East Elevator: move
Bob's token 8 spaces forward to Beacon Street on the inner board"). On the 128x64 OLED such a sentence is laid out so
that it never spans two pages: in its own words when they fit a page; a move or a deed alone on its page with the
destination's printed name in large type on rows of its own ("Move Ann's token 3 spaces forward to" / BALTIC AVENUE);
a move across boards told by its ends ("Ann: 17 spaces forward" / "elevator Pennsylvania Railroad to West Elevator" /
"elevator East Elevator to Short Line" / "to Luxury Tax on the outer board"); a hand-over of more deeds than a page
holds as several hand-overs, each a page naming who takes them. Names are never shortened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import product
from typing import Any

from companion.engine.core import Ruleset

from .story_pages import LARGE_COLS, Large, large

#: The events whose sentence is an instruction for a hand at the table, each kept on one page.
KINDS = frozenset({"move", "hand-over", "deed"})

Wrap = Callable[[str], list[str]]


def is_instruction(event: Mapping[str, Any]) -> bool:
    return event.get("kind") in KINDS and bool(event.get("text"))


def destination(event: Mapping[str, Any], ruleset: Ruleset) -> str | None:
    """The printed name a move goes to, or of the deed handed over, as its sentence says it (None: none named)."""
    space = event.get("to") if event.get("kind") == "move" else event.get("space")
    if not isinstance(space, str) or space not in ruleset.board.by_id:
        return None
    name = ruleset.board.by_id[space].name
    return name if name in str(event.get("text", "")) else None


def with_large_destination(event: Mapping[str, Any], ruleset: Ruleset, room: int, wrap: Wrap) -> list[str] | None:
    """The sentence with its destination in large type on rows of its own (its words before it and after it in
    the small font), if that fits ``room`` small rows."""
    text, name = str(event.get("text", "")), destination(event, ruleset)
    if name is None or not is_instruction(event):
        return None
    at = text.rfind(name)
    head, tail = text[:at].strip(), text[at + len(name):].strip()
    top = wrap(head) if head else []
    bottom = wrap(tail) if tail else []
    big = large(name, (room - len(top) - len(bottom)) // 2, LARGE_COLS)
    if big is None:
        return None
    return [*top, *(Large(r) for r in big), *bottom]


def blocks(event: Mapping[str, Any], ruleset: Ruleset, room: int, most: int, wrap: Wrap) -> list[list[str]] | None:
    """An instruction as blocks that each fit one page: of ``room`` rows beside the option row, or of ``most`` rows
    when the instruction takes the option's rows too (its page covers the question, which follows). None: not an
    instruction, or no layout fits (the caller cuts it between its clauses)."""
    if not is_instruction(event):
        return None
    text = str(event["text"])
    whole = wrap(text)
    if len(whole) <= most:
        return [whole]
    if event.get("kind") == "move" and event.get("switches"):
        rows = across(event, ruleset, most, wrap)
        return [rows] if rows is not None else None
    if event.get("spaces") or event.get("cards"):
        return listed(event, ruleset, most, wrap)
    return None


def across(event: Mapping[str, Any], ruleset: Ruleset, most: int, wrap: Wrap) -> list[str] | None:
    """A move across boards by its ends: the steps, each elevator or bridge taken (where to where), and where the
    token stops, in the fullest words that fit ``most`` rows."""
    text, name = str(event.get("text", "")), destination(event, ruleset)
    if name is None:
        return None
    by = ruleset.board.by_id
    player, steps = str(event.get("player", "")), int(event.get("steps") or 0)
    count = f"{abs(steps)} {'space' if abs(steps) == 1 else 'spaces'} {'forward' if steps > 0 else 'back'}"
    firsts = [f"Move {player}'s token {count}:", f"{player}: {count}"] if steps else [f"Move {player}'s token:"]
    ends = [(by[a].name, by[b].name, "elevator" if "elevator" in (by[a].kind, by[b].kind) else "bridge")
            for a, b in event["switches"] if a in by and b in by]
    ways: list[Callable[[str, str, str], str]] = [lambda a, b, how: f"Take the {how} at {a} to {b}",
                                                  lambda a, b, how: f"{how.capitalize()}: {a} to {b}"]
    # Where it stops, with the board it is on when that fits (the last elevator or bridge says it too).
    lasts = [f"to {name}{text[text.rfind(name) + len(name):]}", f"to {name}"]
    for last, first, way in product(lasts, firsts, ways):
        rows = wrap(first) + [r for a, b, how in ends for r in wrap(way(a, b, how))] + wrap(last)
        if len(rows) <= most:
            return rows
    return None


def listed(event: Mapping[str, Any], ruleset: Ruleset, most: int, wrap: Wrap) -> list[list[str]] | None:
    """A hand-over of a list (deeds, buildings, cards) longer than a page: several hand-overs of the same words, the
    items shared out between them, each a page ("Give Bob Cat's deeds of" / "Oriental Avenue (mortgaged)," ...)."""
    text = str(event["text"])
    names = [ruleset.board.by_id[s].name for s in event.get("spaces") or [] if s in ruleset.board.by_id]
    names += [ruleset.card_name(c) for c in event.get("cards") or [] if c in ruleset.board.cards]
    found = sorted((text.find(n), n) for n in dict.fromkeys(names) if n in text)
    if len(found) < 2:
        return None
    start = found[0][0]
    items = []
    for index, (at, name) in enumerate(found):  # each item with what the sentence says of it: "(mortgaged)"
        end = found[index + 1][0] if index + 1 < len(found) else None
        items.append(text[at:end].strip())
    last = items[-1]
    tail_at = len(last)
    for word in (" back ", " card", " to "):  # what follows the list: "... back in the bank", "... cards back ..."
        cut = last.find(word, len(found[-1][1]))
        if cut != -1:
            tail_at = min(tail_at, cut)
    items[-1], tail = last[:tail_at].strip(), last[tail_at:].strip()
    items = [i.removesuffix(" and").removesuffix(",").strip() for i in items]
    head = text[:start].strip()
    top, bottom = wrap(head), wrap(tail) if tail else []
    pages: list[list[str]] = []
    page: list[str] = []
    for item in items:
        rows = wrap(item)
        if page and len(top) + len(page) + len(rows) + len(bottom) > most:
            pages.append(top + page + bottom)
            page = []
        page += rows
    if page:
        pages.append(top + page + bottom)
    return pages if all(len(p) <= most for p in pages) else None
