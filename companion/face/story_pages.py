"""The story's pages on the OLED: whole instructions, never a name cut between two pages.

What the last input did is told sentence by sentence ("Ann rolls 4 and 4", "Take the elevator at Short Line to East
Elevator: move Ann's token 8 spaces forward to Beacon Street on the inner board"). A page holds whole sentences; a
sentence longer than the room a page has is cut only where its clauses meet (after ": " or "; ", after a list's
", ", before " and "), so that a place, a card or a player is never read half on one page and half on the next
("...to East" / "Elevator: move..."). A page that is one instruction alone, short enough, is drawn in large type.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

#: Where a sentence too long for a page may be cut, best first: between its clauses, then between the items of a
#: list, then before an "and" (the cut goes after the mark, so the first piece keeps its colon or comma).
CLAUSE_MARKS: tuple[re.Pattern[str], ...] = (re.compile(r"(?<=[:;]) "), re.compile(r"(?<=,) "),
                                             re.compile(r" (?=and )"))

Block = list[str]  # the wrapped rows of one piece of a sentence (a :class:`Large` row is two small rows high)

#: Characters in a row of the large font.
LARGE_COLS = 16


class Large(str):
    """A row of the large font: two small rows high, :data:`LARGE_COLS` characters wide."""


def height(rows: Sequence[str]) -> int:
    """How many small rows ``rows`` take (a large row takes two)."""
    return sum(2 if isinstance(r, Large) else 1 for r in rows)


def pieces(sentence: str, rows: int, wrap: Callable[[str], list[str]]) -> list[Block]:
    """``sentence`` wrapped, as one block, or cut between clauses into blocks of at most ``rows`` rows each (a
    block longer than that only when a single clause is: it then takes pages of its own, cut between rows)."""
    whole = wrap(sentence)
    if len(whole) <= rows:
        return [whole]
    for mark in CLAUSE_MARKS:
        parts = [p for p in mark.split(sentence) if p]
        if len(parts) < 2:
            continue
        blocks: list[Block] = []
        current = ""
        for part in parts:
            joined = f"{current} {part}" if current else part
            if current and len(wrap(joined)) > rows:
                blocks += pieces(current, rows, wrap)
                current = part
            else:
                current = joined
        blocks += pieces(current, rows, wrap) if current != sentence else [wrap(current)]
        if len(blocks) > 1:
            return blocks
    return [whole]


def pages(blocks: Sequence[Block], size: int, most: int = 0) -> list[list[tuple[int, Block]]]:
    """Consecutive blocks packed into pages of ``size`` rows, each row kept with the index of its block; a block
    longer than that but no longer than ``most`` rows (an instruction that takes the option's rows too) has a page of
    its own, whole; a longer one has pages of its own, cut between rows."""
    result: list[list[tuple[int, Block]]] = []
    page: list[tuple[int, Block]] = []
    used = 0
    for index, block in enumerate(blocks):
        if size < height(block) <= most:
            if page:
                result.append(page)
                page, used = [], 0
            result.append([(index, list(block))])
            continue
        for at in range(0, len(block), max(1, size)):
            chunk = list(block[at:at + size])
            if page and used + len(chunk) > size:
                result.append(page)
                page, used = [], 0
            page.append((index, chunk))
            used += len(chunk)
    if page:
        result.append(page)
    return result


def large(text: str, rows: int, cols: int) -> list[str] | None:
    """``text`` in the large font's rows of ``cols``, if it fits in ``rows`` of them with no word cut."""
    lines: list[str] = []
    for word in text.split():
        if len(word) > cols:
            return None
        if lines and len(lines[-1]) + 1 + len(word) <= cols:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines if 0 < len(lines) <= rows else None
