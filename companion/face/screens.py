"""What the OLED shows: pure layouts from the game state, its events and the buttons' place.

Nothing here draws or touches a device: each function returns a :class:`Screen`, a stack of
text rows (and maybe a QR code) that :mod:`companion.face.draw` turns into pixels. The OLED
is 128×64; the bundled fonts are monospaced, so widths are counted in characters:

======  ======  ==========  ============  =====================
font    cell    characters  rows          controller pages a row
======  ======  ==========  ============  =====================
small   5×8     25          8             1
large   8×16    16          4             2
======  ======  ==========  ============  =====================

Every row is a whole number of the SSD1306's 8-pixel pages, so a row that changes rewrites only
its own pages. Every screen of a game keeps the same regions: a header bar (whose turn, cash,
place), the story (what just happened, scrolling alone when long), the question pinned above the
highlighted option, and the hint row (what the buttons do now); a notice replaces story rows
instead of pushing the body down. Prompts come from ``state["prompt"]``: kinds and options are
the engine's, so any ruleset is shown, with friendlier labels for the kinds every table meets.

Over 500 lines: every layout of the OLED beside the text helpers they share (fitting, wrapping, windows), so the
regions and the widths of a row are counted in one place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from companion.engine import find_ruleset
from companion.words import ENGLISH, N_, Words

from . import instructions, story_pages

WIDTH, HEIGHT = 128, 64
Font = Literal["small", "large"]
PAGE = 8  # pixel rows of one SSD1306/SH1106 page: every font is a whole number of pages tall
CELL: Mapping[str, tuple[int, int]] = {"small": (5, 8), "large": (8, 16)}
COLS: Mapping[str, int] = {name: WIDTH // w for name, (w, _) in CELL.items()}
BODY_ROWS = 6  # small rows between the header and the hint row
MIN_STORY_ROWS = 2  # story rows kept beside a question that holds still
NOTICE_ROWS = 2  # rows a notice covers (a longer one turns its pages in them)


class Row(NamedTuple):
    """One row of text (a named tuple: a screen makes a dozen at every input, and a frozen dataclass costs twice as
    much to make and ten times as much to compare)."""

    text: str
    font: Font = "small"
    invert: bool = False
    align: Literal["left", "center", "right"] = "left"


@dataclass(frozen=True)
class Screen:
    """Everything one frame shows. ``qr``: rows of a QR code ('1' dark), drawn at the left."""

    rows: tuple[Row, ...]
    qr: tuple[str, ...] | None = None
    scrolls: bool = False  # the body is longer than the screen: the table advances ``scroll``
    name: str = ""  # which layout, for tests and logs
    #: A story page covers the question (they turn their pages together): PREV and NEXT turn the pages.
    covers: bool = False
    #: The next page goes on with this page's last sentence: time does not turn to it, NEXT does.
    holds: bool = False


@dataclass(frozen=True)
class Labels:
    """How to name things on the screen: space ids and card ids to the names printed on them, and the table's
    words (its language, the board's currency)."""

    spaces: Mapping[str, str] = field(default_factory=dict)
    cards: Mapping[str, str] = field(default_factory=dict)
    words: Words = ENGLISH


# ====================================================================== text helpers
def capital(text: str) -> str:
    """``text`` with its first letter a capital and the rest as it is (``str.capitalize`` would make German's nouns
    small: "Bauen, hypothek")."""
    return text[:1].upper() + text[1:]


def fit(text: str, cols: int) -> str:
    """Cut a text to ``cols`` characters, marking the cut with '~'."""
    return text if len(text) <= cols else text[: cols - 1] + "~"


#: Word-level shortenings, tried in this order until a label fits (the usual ones of street signs and cards first):
#: a label keeps its numbers and the words that tell it from the others; a cut inside a word is the last resort.
ABBREVIATIONS: tuple[tuple[str, str], ...] = (
    ("Avenue", "Ave"), ("Street", "St"), ("Railroad", "RR"), ("Place", "Pl"), ("Community Chest", "Chest"),
    ("Company", "Co"), ("Drive", "Dr"), ("Gardens", "Gdns"), ("Boulevard", "Blvd"), ("Square", "Sq"),
    ("Road", "Rd"), ("Lane", "Ln"), ("Electric", "Elec."), ("North", "N."), ("South", "S."), ("East", "E."),
    ("West", "W."), ("spaces", "sp"), ("space", "sp"), ("forward", "fwd"), ("Triple play", "Triple"),
    ("Travel elevator", "Elevator"), ("Get out of jail free", "Out of jail free"), ("Chance tax refund", "Tax refund"),
    ("Chest half triple play", "Half triple play"), ("Mediterranean", "Mediterr."), ("Pennsylvania", "Penn."),
    ("Connecticut", "Conn."), ("Advance to", "To"), ("(broken tile)", "(brk)"), ("(broken broom)", "(brk)"),
    ("(broken stone)", "(brk)"), ("Flying keys", "Keys"), ("Upright white chess piece", "White chess piece"),
    ("chess piece", "piece"), ("Real Estate", "R.E."), ("Improvements", "Impr."), ("Personal Property", "Property"),
    ("Tax on", "Tax"), ("Lighting System", "Lighting"), ("Lord Blueblood's Estate", "Blueblood's"),
    ("Ting-a-Ling Telephone", "Ting-a-Ling Tel"), ("Telephone", "Tel."), ("Trolley", "Trol."), ("Square bottle", "Bottle"), ("Franchise", "Fr."), ("No Trespassing", "No Trespass"),
)
#: Each language's own shortenings, tried after the board's English ones (its names may be printed in English): the
#: words of the table's catalogue that make labels long, shortened as players of that country write them.
LANGUAGE_ABBREVIATIONS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "en": (),
    "de": (("Straße", "Str."), ("Strasse", "Str."), ("Allee", "Al."), ("Bahnhof", "Bhf."), ("Platz", "Pl."),
           ("Gemeinschaftsfeld", "Gemeinsch."), ("Ereignisfeld", "Ereignis"), ("Elektrizitätswerk", "E-Werk"),
           ("Wasserwerk", "W-Werk"), ("Hypothek", "Hyp."), ("Felder", "F."), ("Feld", "F."), ("vorwärts", "vor"),
           ("Gefängnis", "Gef."), ("Versteigerung", "Auktion")),
    "fr": (("Avenue", "Av."), ("Boulevard", "Bd"), ("Rue", "R."), ("Place", "Pl."), ("Gare", "G."),
           ("Caisse de communauté", "Caisse comm."), ("Compagnie", "Cie"), ("hypothèque", "hyp."), ("cases", "c."),
           ("case", "c."), ("avancer", "av."), ("prison", "pris."), ("Électricité", "Élec."),
           ("(intérieur)", "(int.)")),
    "es": (("Avenida", "Av."), ("Calle", "C."), ("Plaza", "Pza."), ("Estación", "Est."), ("Paseo", "P."),
           ("Caja de comunidad", "Caja com."), ("Compañía", "Cía."), ("hipoteca", "hip."), ("casillas", "cas."),
           ("casilla", "cas."), ("avanzar", "av."), ("cárcel", "cárc."), ("Eléctrica", "Eléc."),
           ("(interior)", "(int.)")),
}


def replace_word(text: str, long: str, short: str) -> str:
    r"""``text`` with each ``long`` that stands as a whole word (no letter, digit or ``_`` either side) made ``short``:
    what ``re.sub(r"(?<!\w)long(?!\w)", short, text)`` does, without a pattern to compile (the ~120 of the tables
    were ~7 ms of the table's start here, compiled at import; compiled at a label's first need, one frame took them
    all: issue 43)."""
    parts: list[str] = []
    done, at = 0, text.find(long)
    while at != -1:
        end = at + len(long)
        if (at == 0 or not _word(text[at - 1])) and (end == len(text) or not _word(text[end])):
            parts += [text[done:at], short]
            done, at = end, text.find(long, end)
        else:
            at = text.find(long, at + 1)
    return "".join(parts) + text[done:] if parts else text


def _word(char: str) -> bool:
    r"""Whether ``char`` is a word's (``\w`` in a pattern)."""
    return char.isalnum() or char == "_"


def abbreviate(text: str, cols: int, language: str = "en") -> str:
    """Shorten ``text`` word by word until it fits ``cols``, or as far as the tables go: the board's English words
    (:data:`ABBREVIATIONS`), then the language's own (:data:`LANGUAGE_ABBREVIATIONS`); whole words only."""
    for long, short in (*ABBREVIATIONS, *LANGUAGE_ABBREVIATIONS.get(language, ())):
        if len(text) <= cols:
            break
        text = replace_word(text, long, short)
    return text


def fit_label(text: str, cols: int, language: str = "en") -> str:
    """Shorten a label, keeping what tells it from the others: word-level abbreviations first ("Play Travel fwd 2
    sp", "Lake Shore Dr"); then cut after a player's name ("Christopher We~: accept offer", the name is cut), or
    before its last word when short ("Tax on Personal Proper~ 2"); a cut inside a word only as the last resort."""
    if len(text) <= cols:
        return text
    text = abbreviate(text, cols, language)
    if len(text) <= cols:
        return text
    name, colon, rest = text.partition(": ")
    if colon and len(rest) + 4 <= cols:
        return fit(name, cols - len(rest) - 2) + ": " + rest
    head, _, tail = text.rpartition(" ")
    if head and len(tail) <= 4 and not tail.isalpha():
        return fit(head, cols - len(tail) - 1) + " " + tail
    return fit(text, cols)


def wrap(text: str, cols: int = COLS["small"]) -> list[str]:
    """Word-wrap to ``cols`` characters; words longer than a row are cut. A new list each call (callers extend
    theirs), of rows worked out once per distinct text and width (:func:`_wrapped`: the screen is laid out again at
    every input, and most of its texts were on the screen before)."""
    return list(_wrapped(text, cols))


@lru_cache(maxsize=1024)
def _wrapped(text: str, cols: int) -> tuple[str, ...]:
    rows: list[str] = []
    for paragraph in text.split("\n"):
        row = ""
        for word in paragraph.split():
            while len(word) > cols:
                if row:
                    rows.append(row)
                    row = ""
                rows.append(word[:cols])
                word = word[cols:]
            if not row:
                row = word
            elif len(row) + 1 + len(word) <= cols:
                row += " " + word
            else:
                rows.append(row)
                row = word
        rows.append(row)
    return tuple(r for r in rows if r) or ("",)


def spread(left: str, right: str, cols: int = COLS["small"]) -> str:
    """``left`` and ``right`` on one row, right-aligned ``right``; the left is cut first."""
    right = fit(right, cols)
    room = cols - len(right) - 1
    if room < 3:
        return fit(left, cols)
    return fit(left, room).ljust(room) + " " + right


def window(lines: Sequence[str], size: int, scroll: int) -> tuple[list[str], bool]:
    """The rows to show of a long text: pages of ``size`` rows turn with ``scroll``."""
    if len(lines) <= size:
        return list(lines) + [""] * (size - len(lines)), False
    starts = page_starts(len(lines), size)
    start = starts[scroll % len(starts)]
    page = list(lines[start:start + size])
    return page + [""] * (size - len(page)), True


#: Where a sentence ends inside an event's text: after . ! or ? and before a capital, but not after an initial or
#: a usual abbreviation ("B. & O. Railroad", "St. Charles Place").
SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\b[A-Z]\.)(?<!St\.)(?<!Mr\.)(?<!No\.)\s+(?=[A-Z0-9$\"'(])")


def sentences(text: str) -> list[str]:
    """A text cut into its sentences (each starts on a new row of the story): a new list each call, of sentences
    found once per distinct text."""
    return list(_sentences(text))


@lru_cache(maxsize=1024)
def _sentences(text: str) -> tuple[str, ...]:
    return tuple(s for s in SENTENCE_END.split(text) if s.strip())


def sentence_window(blocks: Sequence[Sequence[str]], size: int, scroll: int) -> tuple[list[str], bool]:
    """The story's rows for ``scroll``: pages of ``size`` rows that each begin with a sentence and hold only whole
    sentences (a sentence longer than a page takes pages of its own: :func:`.story_pages.pages`)."""
    turned = story_pages.pages([list(b) for b in blocks], size)
    if not turned:
        return [""] * size, False
    shown = [r for _, block in turned[scroll % len(turned)] for r in block]
    return shown + [""] * (size - len(shown)), len(turned) > 1


def page_starts(rows: int, size: int) -> list[int]:
    """Where each page of a long text starts: one row of overlap, and no page that only repeats the end of the one
    before it."""
    step, starts = max(1, size - 1), [0]
    while starts[-1] + size < rows:
        starts.append(starts[-1] + step)
    return starts


def money(amount: Any, words: Words = ENGLISH) -> str:
    return words.money(int(amount)) if isinstance(amount, int) else f"{words.currency}{amount}"


def label(option: str, labels: Labels) -> str:
    """A prompt option as players read it: space names, words without hyphens."""
    if option in labels.spaces:
        return labels.spaces[option]
    return labels.words.t(option.replace("-", " ").capitalize())


# ====================================================================== the game frame
def header(state: Mapping[str, Any], labels: Labels) -> Row:
    """Whose turn it is, their cash and where their token stands: the place's name as printed when it fits beside
    them, else none (until 2026-11-28 it was shortened word by word, "St. Charles Pl", "Reading RR")."""
    name = state["turn"]["player"]
    player = next((p for p in state["players"] if p["name"] == name), None)
    if player is None:
        return Row(fit(name, COLS["small"]), invert=True)
    place = labels.spaces.get(player.get("space", ""), player.get("space", ""))
    if player.get("in_jail"):
        place = labels.words.t("in jail")
    cols = COLS["small"]
    cash = f" {money(player['cash'], labels.words)}" if "cash" in player else ""
    left = fit(name, cols - len(cash)) + cash  # the money is never cut: a long name is, then the place
    room = cols - len(left) - 1
    if room < 3:
        return Row(left, invert=True)
    right = place if len(place) <= room else ""  # as printed, or not at all (the story and MENU's players say it)
    return Row(left.ljust(cols - len(right)) + right, invert=True)


@dataclass(frozen=True)
class Choice:
    """A list the buttons browse: labels, the highlighted one, and what YES does."""

    labels: Sequence[str]  # read only at the cursor (or the first, not selected) and counted: may work each out when read
    cursor: int = 0
    confirm: str | None = None  # a question waiting for a second YES
    #: False: the cursor is on none of them yet (they are extras: the deeds at a yes/no question, an offer's
    #: answers); the row says that NEXT goes to them, and YES/NO answer the question.
    selected: bool = True


def story(events: Sequence[Mapping[str, Any]], words: Words = ENGLISH) -> list[str]:
    """The texts of the last input's events, in order (the physical instructions among them), in the table's
    language (an event with its message is said by ``words``; English is its text as the engine made it)."""
    return [said(e, "text", words) for e in events if e.get("text") and e.get("kind") not in ("new-game",)]


def said(item: Mapping[str, Any], key: str, words: Words) -> str:
    """An event's or a prompt's sentence (``key``: its English text) in the language of ``words``: from its message
    when it has one (the engine's ``msg`` and ``args``), else the English text."""
    if words.english or "msg" not in item:
        return str(item[key])
    return words.message(item["msg"], item.get("args") or {}, item.get("plural"))


def prompt_lines(state: Mapping[str, Any], labels: Labels, choice: Choice | None = None) -> list[str]:
    """What the game waits for, in words (trades are acted on the phones). ``choice``: what the buttons offer (a
    debtor's sales and mortgages come first, when the ruleset has them)."""
    prompt = state.get("prompt")
    lines: list[str] = []
    if state.get("trade"):
        lines.append(offer_text(state["trade"], labels))
    if prompt is None:
        return lines
    w = labels.words
    lines.append(said(prompt, "text", w))
    if prompt["kind"] == "auction":
        waiting = prompt.get("waiting") or []
        if waiting:  # the buttons browse each one's bid and pass (the phones bid any amount)
            lines.append(w.t("Still bidding: {players}", players=", ".join(waiting)))
    elif prompt["kind"] == "debt":
        on_buttons = choice is not None and len(choice.labels) > len(prompt.get("options") or [])
        lines.append(w.t("Raise it below or on a phone") if on_buttons else w.t("Raise the money on your phone"))
    return lines


def offer_text(offer: Mapping[str, Any], labels: Labels) -> str:
    """A trade or loan waiting for its answer, whole: the player it is offered to may have no phone."""
    by, to, w = offer["from"], offer["with"], labels.words
    if "loan" in offer:
        loan = offer["loan"]
        terms = w.t(" (terms: {terms})", terms=loan["terms"]) if loan.get("terms") else ""
        return w.t("{by} offers {to} a loan of {amount} at {interest} each wages{terms}: "
                   "{to}, accept or reject (PREV/NEXT)", by=by, to=to, amount=money(loan["amount"], w),
                   interest=money(loan["interest"], w), terms=terms)

    def bundle(side: Mapping[str, Any]) -> str:
        parts = [money(side["cash"], w)] if side.get("cash") else []
        parts += [label(s, labels) for s in side.get("spaces", [])]
        parts += [labels.cards.get(c) or label(c, labels) for c in side.get("cards", [])]
        return ", ".join(parts) or w.t("nothing")

    return w.t("{by} offers {to} {give} for {get}: {to}, accept or reject (PREV/NEXT)", by=by, to=to,
               give=bundle(offer["give"]), get=bundle(offer["get"]))


def hint(state: Mapping[str, Any], choice: Choice | None, dice_source: str, words: Words = ENGLISH) -> str:
    """The hint row: what the buttons do now, in words a first-time player reads ("ROLL: roll dice", "YES: buy $60
    NO: auction", "< > 2 of 3  YES: pick"); ``<`` and ``>`` are PREV and NEXT."""
    prompt, w = state.get("prompt"), words
    if choice is not None and choice.confirm:
        return w.t("YES: confirm  NO: back")
    if prompt is None:
        return w.t("MENU: help, players")
    kind, options = prompt["kind"], prompt.get("options") or []
    browsing = choice is not None and bool(choice.labels) and choice.selected
    where = w.t("< > {n} of {count}", n=choice.cursor % len(choice.labels) + 1, count=len(choice.labels)) \
        if choice is not None and len(choice.labels) > 1 else ""
    if kind == "roll":
        verb = w.t("ROLL: enter dice") if dice_source == "manual" else w.t("ROLL: roll dice")
        if not browsing or choice is None:
            return verb
        on_roll = choice.labels[choice.cursor % len(choice.labels)] == w.t(ROLL_LABEL)  # the roll's own row
        # "ROLL: roll  < > 1 of 3"
        return spaced((w.t("ROLL: enter") if dice_source == "manual" else w.t("ROLL: roll")) if on_roll
                      else w.t("YES: pick"), where)
    if options == ["yes", "no"] and browsing:
        return spaced(w.t("YES: pick"), where or w.t("NO: back"))
    if options == ["yes", "no"]:
        if kind == "buy":
            buy = w.t("YES: buy {price}", price=money(prompt["price"], w)) if prompt.get("price") is not None \
                else w.t("YES: buy")
            refuse = w.t("NO: pass") if prompt.get("ticket") else w.t("NO: auction")
            if len(buy) + len(refuse) + 1 > COLS["small"]:  # the question above says the price: never a cut word
                buy = w.t("YES: buy")
            return spaced(buy, refuse)
        return w.t("YES: play  NO: keep") if kind == "use-card" else w.t("YES: yes  NO: no")
    if choice is not None and len(choice.labels) > 1:
        return spaced(where, w.t("YES: pick"))
    if choice is not None and choice.labels:
        return w.t("YES: pick")
    return w.t("on the phones")


#: The first row of a roll prompt with other choices: ROLL rolls there (YES only says so).
ROLL_LABEL = N_("Roll the dice")


def spaced(left: str, right: str, cols: int = COLS["small"]) -> str:
    """Two hints on one row: two spaces between them, one when that is all the room there is."""
    if not left or not right:
        return left or right
    return f"{left}  {right}" if len(left) + len(right) + 2 <= cols else f"{left} {right}"


def game_screen(state: Mapping[str, Any], events: Sequence[Mapping[str, Any]], labels: Labels, *,
                choice: Choice | None = None, notice: str | None = None, dice_source: str = "software",
                scroll: int = 0, notice_scroll: int = 0) -> Screen:
    """The main screen, in fixed regions of whole controller pages (one small row = one page):

    row 0 the header; then what happened (the story, top-aligned, scrolling alone when long); a
    notice laid over the last story rows (a longer one turns its pages with ``notice_scroll``); the
    question, bottom-aligned above the highlighted option; the hint on row 7. A notice or a new story
    never moves the question, the option or the hint, so a change rewrites only the pages whose text
    changed.
    """
    w = labels.words
    if state.get("winner") is not None:
        return game_over_screen(state, events, labels, scroll=scroll, notice=notice)
    questions = prompt_lines(state, labels, choice)
    # A choice waiting for its second YES is the question now, whole ("Play Advance to GO? YES again").
    asked = [r for text in ([choice.confirm] if choice is not None and choice.confirm else questions)
             for r in wrap(text)]
    if state.get("trade"):  # the offer waiting is read in the question rows
        events = [e for e in events if e.get("kind") != "trade"]
    option_rows = choice_rows(choice, w)
    room = BODY_ROWS - len(option_rows)
    told_events = [e for e in events if e.get("text") and e.get("kind") not in ("new-game",)
                   and not any(said(e, "text", w) in q for q in questions)]  # not told twice
    told_blocks, owners, whole = told_pieces(state, told_events, room, words=w)
    told = [r for block in told_blocks for r in block]
    notice_rows: list[Row] = []
    notice_turns = False
    if notice:
        wrapped = wrap("! " + notice)
        shown_notice, notice_turns = window(wrapped, NOTICE_ROWS, notice_scroll)
        notice_rows = [Row(r, invert=True) for r in shown_notice[:min(len(wrapped), NOTICE_ROWS)]]
    size = room - len(asked)
    longest = max((len(block) for block in told_blocks), default=0)
    covers = holds = False
    cut = len(set(whole)) < len(whole)  # a sentence in pieces turns with the question: NEXT turns to its rest
    if (len(asked) + MIN_STORY_ROWS <= room and longest <= size and not cut) or (not told and len(asked) <= room):
        # The question keeps its place at the bottom; the story turns its pages alone in the rows above it, whole
        # sentences at a time, with a blank row between its last row and the question (they never read as one)
        # when two story rows are left beside it; else the page above it ends with a whole sentence.
        gap = 1 if len(told) >= size > MIN_STORY_ROWS and longest < size else 0
        story_rows, scrolls = sentence_window(told_blocks, size - gap, scroll)
        body = [Row(r) for r in story_rows + [""] * gap + asked]
    else:  # a question too long to hold still, or an instruction too long to sit beside it: story and question
        # turn their pages together, each instruction whole on its page, the question a page of its own after them
        asked_blocks = [block for text in ([choice.confirm] if choice is not None and choice.confirm else questions)
                        for block in story_pages.pieces(text, room, wrap)]
        turned = turned_page(told_blocks, asked_blocks, room, scroll, large_type=not notice, whole=whole,
                             big=lambda index: instructions.with_large_destination(
                                 told_events[owners[index]], find_ruleset(state["ruleset"]), room, wrap))
        body, covers, scrolls, at_bottom, holds = turned
        asked = asked[:at_bottom]  # the question's rows on this page (the notice goes just above them)
        if rows_height(body) > room:  # an instruction that takes the option's rows too: the option is on the next
            option_rows = []  # page, with the question
    if notice_rows:  # over the last story rows, just above the question: nothing moves
        at = max(0, room - len(asked) - len(notice_rows))
        body[at:at + len(notice_rows)] = notice_rows
    rows = [header(state, labels), *body]
    rows += option_rows
    told_hint = w.t(READ_ON) if covers and not (choice is not None and choice.confirm) \
        else hint(state, choice, dice_source, w)
    rows.append(Row(fit(told_hint, COLS["small"]), align="center"))
    return Screen(tuple(rows), scrolls=scrolls or notice_turns, name="game", covers=covers, holds=holds)


def rows_height(rows: Sequence[Row]) -> int:
    """How many small rows ``rows`` take."""
    return sum(CELL[r.font][1] for r in rows) // PAGE


def told_pieces(state: Mapping[str, Any], events: Sequence[Mapping[str, Any]], room: int,
                most: int = BODY_ROWS, words: Words = ENGLISH) -> tuple[list[list[str]], list[int], list[int]]:
    """The story's blocks for pages of ``room`` rows, with the index of the event each tells and of the sentence it
    is a piece of: an instruction (a move, an elevator, a hand-over) whole on one page, taking the option's rows too
    if it must (up to ``most`` rows), a long list shared out between whole hand-overs (:mod:`.instructions`); any other sentence whole, or
    one longer than a page cut only between its clauses (:mod:`.story_pages`)."""
    ruleset = find_ruleset(state["ruleset"])
    blocks: list[list[str]] = []
    owners: list[int] = []
    whole: list[int] = []
    for index, event in enumerate(events):
        text = said(event, "text", words)  # in the table's language (the instructions' blocks: English's)
        told = instructions.blocks(event, ruleset, room, most, wrap) if words.english and len(sentences(text)) == 1 \
            else None
        if told is not None:  # each block a whole instruction
            parts = [[block] for block in told]
        else:
            parts = [story_pages.pieces(sentence, room, wrap) for sentence in sentences(text)]
        for part in parts:
            blocks += part
            owners += [index] * len(part)
            whole += [len(set(whole))] * len(part)
    return blocks, owners, whole


#: The hint under a story page that covers the question: NEXT turns to the next page (the question comes last).
READ_ON = N_("NEXT: read on, then pick")


def choice_rows(choice: Choice | None, words: Words = ENGLISH) -> list[Row]:
    """The option row: the highlighted choice between PREV's and NEXT's arrows ("< Pay $50 fine >"), or "NEXT:" and
    the first extra when the cursor is on none. A label is never shortened into words a first-time player must
    decode ("Play Travel fwd 4 sp"): one too long for the row takes a second row, whole."""
    if choice is None or not choice.labels:
        return []
    if not choice.selected:
        return [Row(r, align="center") for r in wrap_two(words.t("NEXT: {choice}", choice=choice.labels[0]), COLS["small"])]
    text = choice.labels[choice.cursor % len(choice.labels)]
    if len(choice.labels) == 1 or choice.confirm:
        return [Row(r, invert=True, align="center") for r in wrap_two(text, COLS["small"])]
    if len(text) <= COLS["small"] - 4:
        return [Row(f"< {text} >", invert=True, align="center")]
    if len(text) <= COLS["small"] - 2:
        return [Row(f"<{text}>", invert=True, align="center")]
    first, last = wrap_two(text, COLS["small"] - 2)  # PREV's arrow before the label, NEXT's after it
    return [Row(f"< {first}", invert=True, align="center"), Row(f"{last} >", invert=True, align="center")]


def wrap_two(text: str, cols: int) -> list[str]:
    """``text`` in at most two rows of ``cols``, whole when it fits (else the second row is shortened)."""
    rows = wrap(text, cols)
    if len(rows) <= 2:
        return rows
    return [rows[0], fit_label(" ".join(rows[1:]), cols)]


def turned_page(told: Sequence[Sequence[str]], asked: Sequence[Sequence[str]], room: int, scroll: int, *,
                large_type: bool = True, whole: Sequence[int] = (),
                big: Callable[[int], list[str] | None] = lambda index: None) -> tuple[list[Row], bool, bool, int, bool]:
    """Page ``scroll`` of the story and the question turning together: its rows, whether it is a story page
    (covering the question, which comes after), whether there are pages to turn, how many rows of the question
    it holds (at its bottom, above the option row, as on every game screen), and whether it holds still (the next
    page goes on with its last sentence: only NEXT turns to it). ``whole``: the sentence each told block is a piece
    of. A page that is one instruction alone is drawn larger: a short one all in large type ("Give Ann the deed of
    Park Place"), else its destination (``big``: the rows with it in large type, for a block's index); an
    instruction that needs the option's rows too takes them (more than ``room`` rows)."""
    turned = story_pages.pages([list(b) for b in [*told, *asked]], room, BODY_ROWS)
    at = scroll % len(turned)
    page = turned[at]
    covers = all(index < len(told) for index, _ in page)
    last = page[-1][0]
    following = turned[(at + 1) % len(turned)][0][0]
    holds = len(turned) > 1 and last < len(told) and following == last + 1 and following < len(told) \
        and len(whole) > following and whole[following] == whole[last]
    alone = large_type and covers and len(page) == 1 and (  # a whole sentence, never a piece of one in large type
        len(whole) <= page[0][0] or list(whole).count(whole[page[0][0]]) == 1)
    rows_of = story_pages.large(" ".join(page[0][1]), room // 2, COLS["large"]) if alone else None
    lines = [story_pages.Large(r) for r in rows_of] if rows_of is not None else \
        (big(page[0][0]) if alone else None)
    if lines is not None and story_pages.height(lines) <= max(room, len(page[0][1])):
        return [Row(r, "large" if isinstance(r, story_pages.Large) else "small") for r in lines] + \
            [Row("")] * (room - story_pages.height(lines)), covers, len(turned) > 1, 0, holds
    told_rows = [r for index, block in page if index < len(told) for r in block]
    question = [r for index, block in page if index >= len(told) for r in block]
    rows = [Row(r) for r in told_rows + [""] * (room - len(told_rows) - len(question)) + question]
    return rows, covers, len(turned) > 1, len(question), holds


def notice_pages(notice: str) -> int:
    """How many pages a notice turns through in its rows (1 when it fits)."""
    return len(page_starts(len(wrap("! " + notice)), NOTICE_ROWS))


def game_over_screen(state: Mapping[str, Any], events: Sequence[Mapping[str, Any]], labels: Labels, *,
                     scroll: int = 0, notice: str | None = None) -> Screen:
    """The winner in large letters; then, turning their pages, a notice, what the last input did (the last
    instructions, why the game was won: "Total worth: ..."), and everyone's cash."""
    winner, w = str(state["winner"]), labels.words
    rows = [Row(w.t("GAME OVER"), invert=True, align="center"),
            Row(fit(winner, COLS["large"]), "large", align="center")]
    size = 4  # the hint on the last row, as on every screen
    told = [e for e in events if e.get("text") and e.get("kind") not in ("new-game",)]
    body = [block for sentence in sentences(f"! {notice}") for block in story_pages.pieces(sentence, size, wrap)] \
        if notice else []
    body += told_pieces(state, told, size, most=size, words=w)[0]  # each instruction (the hand-overs) whole on a page
    standings = []
    for p in state["players"]:
        mark = w.t(" (out)") if p.get("bankrupt") else ""
        standings.append([spread(p["name"] + mark, money(p["cash"], w) if "cash" in p else "")])
    if body:
        body += [[w.t("Cash in hand:") if any("cash" in p for p in state["players"]) else w.t("Players:")]]
    shown, scrolls = sentence_window(body + standings, size, scroll)
    rows += [Row(r) for r in shown]
    rows.append(Row(w.t("MENU held: new game"), align="center"))
    return Screen(tuple(rows), scrolls=scrolls, name="game-over")


# ====================================================================== other screens
def menu_screen(title: str, items: Sequence[str], cursor: int, words: Words = ENGLISH) -> Screen:
    """A list browsed with PREV/NEXT; YES picks, NO (or MENU) leaves."""
    size = BODY_ROWS
    top = max(0, min(cursor - size + 1, len(items) - size)) if cursor >= size else 0
    rows = [Row(fit(title, COLS["small"]), invert=True, align="center")]
    for index in range(top, min(top + size, len(items))):
        mark = ">" if index == cursor else " "
        rows.append(Row(fit(f"{mark}{items[index]}", COLS["small"]), invert=index == cursor))
    rows += [Row("")] * (size - (len(rows) - 1))
    rows.append(Row(words.t("YES: pick  NO: back"), align="center"))
    return Screen(tuple(rows), name="menu")


def deeds_screen(name: str, cash: Any, told: Sequence[str], item: str, cursor: int, count: int,
                 owes: int | None = None, *, confirming: bool = False, words: Words = ENGLISH) -> Screen:
    """A player's acts on their own spaces, one at a time: their cash (and the debt they raise it for), what the
    last act asked the table to do (``told``, at the top), the act under the cursor (highlighted, at the bottom,
    whole: never cut)."""
    asked = wrap(item)[:BODY_ROWS]
    story_rows, _ = window([r for text in told for r in wrap(text)], BODY_ROWS - len(asked), 0)
    amounts = f" {money(cash, words)}" + (words.t(" owes {amount}", amount=money(owes, words)) if owes is not None
                                          else "")
    page = f"{cursor + 1}/{count}"
    room = COLS["small"] - len(page) - 1 - len(amounts)
    left = fit(name, room) + amounts if room >= 3 else amounts.strip()  # the name is cut (or left out), not the money
    rows = [Row(spread(left, page), invert=True),
            *(Row(r) for r in story_rows), *(Row(r, invert=True) for r in asked),
            Row(words.t("YES: confirm  NO: back") if confirming else words.t("< >  YES: do it  NO: done"),
                align="center")]
    return Screen(tuple(rows), name="deeds")


def answered_row(screen: Screen) -> int:
    """The row a press's cue takes: what is being answered — a menu's highlighted item, else the row just above
    the hint (the highlighted option, or the question's last row)."""
    if screen.name == "menu":
        return next((i for i, row in enumerate(screen.rows) if i and row.invert), len(screen.rows) - 2)
    return len(screen.rows) - 2


def confirm_screen(question: str, *, yes: str = N_("YES: do it"), no: str = N_("NO: back"),
                   words: Words = ENGLISH) -> Screen:
    yes, no = words.t(yes), words.t(no)
    rows = [Row(words.t("Are you sure?"), invert=True, align="center")]
    body, _ = window(wrap(question), BODY_ROWS, 0)
    rows += [Row(r) for r in body]
    rows.append(Row(fit(f"{yes}  {no}", COLS["small"]), align="center"))
    return Screen(tuple(rows), name="confirm")


def dice_entry_screen(player: str, values: Sequence[int], cursor: int, label: str = "",
                      words: Words = ENGLISH) -> Screen:
    """Entering real dice (and a chance cube): the value under the cursor between arrows, in large digits."""
    dice = "  ".join(f">{v}<" if i == cursor else f" {v} " for i, v in enumerate(values))
    rows = (
        Row(fit(words.t("{player}: your dice", player=player), COLS["small"]), invert=True, align="center"),
        Row(""),
        Row(dice, "large", align="center"),
        Row(""),
        Row(label or words.t("die {n} of {count}", n=cursor + 1, count=len(values)), align="center"),
        Row(words.t("PREV/NEXT: value"), align="center"),
        Row(words.t("YES: next  NO: back"), align="center"),
    )
    return Screen(rows, name="dice-entry")


def join_screen(qr: Sequence[str] | None, url: str | None, code: str | None, words: Words = ENGLISH) -> Screen:
    """The phone page for everyone at the table: QR code at the left, the join digits and the address at the right.
    Never the host PIN (anyone at the table reads this screen): that is :func:`host_pin_screen`'s."""
    if url is None:
        return no_page_screen("join", words)
    right = 12  # characters beside a 64-pixel QR code
    text = [words.t("Join code"), code or "-", ""] + address_rows(url.removeprefix("http://"), right)
    text = text[:7] + [""] * (7 - len(text)) + [words.t("NEXT: each")]  # each player's own code follows
    rows = tuple(Row(" " * 13 + fit(t, right)) for t in text)
    return Screen(rows, qr=tuple(qr) if qr else None, name="join")


def host_pin_screen(qr: Sequence[str] | None, url: str | None, pin: str | None, words: Words = ENGLISH) -> Screen:
    """The host's own screen (reached only from the host menu, MENU held): the page's QR code and address, and the
    host PIN that opens the host's page on a phone."""
    if url is None:
        return no_page_screen("host-pin", words)
    right = 12
    text = [words.t("HOST ONLY"), words.t("PIN"), pin or "-", ""] + address_rows(url.removeprefix("http://"), right)
    text = text[:7] + [""] * (7 - len(text)) + [words.t("NO: back")]
    rows = tuple(Row(" " * 13 + fit(t, right)) for t in text)  # an inverted row would run over the QR code
    return Screen(rows, qr=tuple(qr) if qr else None, name="host-pin")


def no_page_screen(name: str, words: Words = ENGLISH) -> Screen:
    rows = (Row(words.t("PHONES"), invert=True, align="center"), Row(""),
            *(Row(r) for r in wrap(words.t("The phone page is not running on this table."))),
            Row(words.t("NO: back"), align="center"))
    return Screen(tuple(rows), name=name)


def wifi_join_screen(qr: Sequence[str], ssid: str, password: str, words: Words = ENGLISH) -> Screen:
    """The table's own Wi-Fi: its QR code (a phone's camera joins it), name and password; NEXT: the page's."""
    right = 12
    text = [words.t("Wi-Fi"), *wrap_at(ssid, "-", right), words.t("password"), *wrap_at(password, "-", right)]
    text = text[:7] + [""] * (7 - len(text)) + [words.t("NEXT: page")]
    return Screen(tuple(Row(" " * 13 + fit(t, right)) for t in text), qr=tuple(qr), name="join-wifi")


def wrap_at(text: str, mark: str, cols: int) -> list[str]:
    """``text`` in rows of ``cols``, broken after ``mark`` where it can be ("k7mq-2xtp-" / "9brw")."""
    rows: list[str] = []
    while len(text) > cols:
        cut = text.rfind(mark, 0, cols) + 1 or cols
        rows.append(text[:cut])
        text = text[cut:]
    return rows + [text]


def player_join_screen(qr: Sequence[str], name: str, code: str, page: int, pages: int,
                       words: Words = ENGLISH) -> Screen:
    """One player's own QR code and digits: scanned, that phone joins as them at once."""
    right = 12
    text = [fit(name, right), words.t("joins with"), code, "", "", "", f"{page}/{pages}", words.t("<PREV NEXT>")]
    return Screen(tuple(Row(" " * 13 + t) for t in text), qr=tuple(qr), name="join-player")


def address_rows(address: str, cols: int) -> list[str]:
    """An address in rows of ``cols``, broken after a dot or before the port, never inside a number
    ("127.0.0.1:46 / 217" read as another port)."""
    rows: list[str] = []
    rest = address
    while len(rest) > cols:
        cut = max(rest.rfind(".", 0, cols) + 1, rest.rfind(":", 0, cols + 1), rest.rfind("/", 0, cols + 1))
        cut = cut if cut > 0 else cols
        rows.append(rest[:cut])
        rest = rest[cut:]
    return rows + [rest]


def help_screen(words: Words = ENGLISH) -> Screen:
    """The six buttons' meaning on one screen (a short MENU press), for anyone new at the table."""
    w = words
    rows = (Row(w.t("THE BUTTONS"), invert=True, align="center"),
            Row(w.t("ROLL  roll the dice")), Row(w.t("YES   pick, or answer yes")), Row(w.t("NO    back, or answer no")),
            Row(w.t("PREV NEXT  the choices")), Row(w.t("MENU  this, then players")), Row(w.t("MENU held: host menu")),
            Row(w.t("MENU: players  NO: back"), align="center"))
    return Screen(rows, name="help")


def players_screen(state: Mapping[str, Any], labels: Labels, scroll: int = 0) -> Screen:
    """Every player: cash and place (MENU pressed briefly), the place as printed: beside the cash when it fits,
    else on the row below; a player's rows are never on two pages."""
    blocks, w = [], labels.words
    for p in state["players"]:
        place = labels.spaces.get(p.get("space", ""), p.get("space", ""))
        jail = "in jail" if w.english else w.t("jail")
        status = w.t("out") if p.get("bankrupt") else (jail if p.get("in_jail") else place)
        who = f"{p['name']} {money(p['cash'], w)}" if "cash" in p else p["name"]
        fits = len(who) + 1 + len(status) <= COLS["small"]
        blocks.append([spread(who, status)] if fits else
                      [fit(who, COLS["small"])] + [r.rjust(COLS["small"]) for r in wrap(status)])
    for pool, amount in (state.get("pools") or {}).items():
        blocks.append([spread(label(pool, labels), money(amount, w))])
    shown, scrolls = sentence_window(blocks, BODY_ROWS, scroll)
    rows = (Row(w.t("PLAYERS"), invert=True, align="center"), *(Row(r) for r in shown),
            Row(w.t("MENU: back"), align="center"))
    return Screen(rows, scrolls=scrolls, name="players")


def message_screen(title: str, text: str, hint_text: str = "", scroll: int = 0) -> Screen:
    """A title and a wrapped message (no game yet, faults, set-up)."""
    shown, scrolls = window(wrap(text), BODY_ROWS, scroll)
    rows = (Row(fit(title, COLS["small"]), invert=True, align="center"), *(Row(r) for r in shown),
            Row(fit(hint_text, COLS["small"]), align="center"))
    return Screen(rows, scrolls=scrolls, name="message")
