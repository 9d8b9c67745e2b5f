"""OLED instructions never split (issue 38, item 3): every event of every ruleset, as the game screen pages it.

"Take the elevator at / Short Line to East" → "Elevator: move Bob's / token 8 spaces forward to" → "Beacon Street on the
/ inner board" read as if the destination were "East", and a page could hold "Avenue" alone. The stories of bot games
of all five rulesets and of every game file are drawn beside their question (with and without an option row), page
after page: each page must be whole pieces of the story and the question in order (whole sentences, or a sentence too
long for a page cut only between its clauses), and no cut between two pieces may fall inside the name of a space, a
card or a player.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import CompanionError, apply, find_ruleset, new_game, public_state
from companion.face import instructions, screens, story_pages
from companion.face.choices import space_labels
from companion.face.screens import Choice, Labels
from companion.gamefile import game_file_lines, parse_lines
from companion.sim import GameSpec, play_game

RULESETS = ["classic", "addon", "magie-1904", "magie-1924", "chambers"]
GAMEFILES = Path(__file__).parents[1] / "gamefiles"
#: The option rows a question may have: none, a yes/no question's "NEXT: Mortgage", a list's highlighted row, and
#: one that takes two rows ("NEXT: Lift a mortgage," / "mortgage").
CHOICES = (None, Choice(("Mortgage",), selected=False), Choice((screens.ROLL_LABEL, "Mortgage")),
           Choice(("Lift a mortgage, mortgage",), selected=False))


def stories(ruleset: str) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every state after an input and the events that input brought: bot games, then the game files."""
    games: list[list[dict[str, Any]]] = []
    for seed in (1, 2, 3):
        lines: list[dict[str, Any]] = []
        play_game(GameSpec(ruleset, 3 if seed < 3 else 4, seed=seed, turn_cap=120), 0, lines)
        games.append(lines)
    for path in sorted((GAMEFILES / ruleset).glob("*.jsonl")):
        try:
            games.append([line for _, line in parse_lines(game_file_lines(path.read_text(encoding="utf-8")))])
        except CompanionError:
            continue  # a file that tests a bad line
    for lines in games:
        try:
            state, events = new_game(lines[0]["setup"])
        except (CompanionError, KeyError):
            continue  # a file that tests a bad setup
        yield state, events
        for line in lines[1:]:
            try:
                state, events = apply(state, line)
            except CompanionError:
                break  # the rest of a game file that tests a refusal
            yield state, events


def names(ruleset: str, state: dict[str, Any]) -> set[str]:
    """The names a page must never cut: spaces, cards and players of more than one word."""
    rules = find_ruleset(ruleset)
    found = {s.name for s in rules.board.spaces} | {rules.card_name(c) for c in rules.board.cards}
    found |= set(space_labels(rules).spaces.values()) | {p["name"] for p in state["players"]}
    return {n for n in found if " " in n}


def cut_names(first: str, second: str, known: set[str]) -> list[str]:
    """The names that run across the cut between ``first`` and ``second``."""
    joined = f"{first} {second}"
    return [n for n in known if n in joined and not (n in first or n in second)
            and any(m.start() < len(first) < m.end() for m in re.finditer(re.escape(n), joined))]


def story_text(screen: screens.Screen, asked: list[str], choice: Choice | None) -> str:
    """The story on a page: the body's rows without the question's and the option rows."""
    options = {row.text for row in screens.choice_rows(choice)}
    rows = [row.text for row in screen.rows[1:-1]]
    while rows and rows[-1] in options:
        rows.pop()
    while rows and not rows[-1]:
        rows.pop()
    if rows[-len(asked):] == asked:
        rows = rows[:-len(asked)]
    return plain(" ".join(r for r in rows if r))


def plain(text: str) -> str:
    """Words alone: an instruction's destination on rows of its own leaves the colon after it behind."""
    return " ".join(re.sub(r"[^\w$&'.()-]+", " ", text).split())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_page_ends_mid_name_or_starts_with_a_fragment(ruleset: str) -> None:
    """Every page is whole pieces of the story and the question; a move, an elevator, a hand-over is never in
    pieces (one page, taking the option's rows if it must); a page turns by itself only to the start of a sentence
    (a page that goes on with one holds until NEXT)."""
    labels = space_labels(find_ruleset(ruleset))
    failures: list[str] = []
    kinds: set[str] = set()
    long_ones = pages_checked = instructions_checked = 0
    for whole, events in stories(ruleset):
        state = public_state(whole)
        if state.get("winner") is not None or state.get("prompt") is None:
            continue
        known = names(ruleset, state)
        for choice in CHOICES:
            questions = screens.prompt_lines(state, labels, choice)
            asked = [r for q in questions for r in screens.wrap(q)]
            room = screens.BODY_ROWS - len(screens.choice_rows(choice))
            told = [e for e in events if e.get("text") and e.get("kind") != "new-game"
                    and not any(e["text"] in q for q in questions) and not (state.get("trade") and e["kind"] == "trade")]
            blocks, owners, sentence = screens.told_pieces(state, told, room)
            units = [plain(" ".join(block)) for block in blocks]
            for i in range(len(blocks) - 1):
                if sentence[i] == sentence[i + 1]:
                    failures += [f"{units[i]!r} | {units[i + 1]!r}: cuts {n!r}"
                                 for n in cut_names(units[i], units[i + 1], known)]
            for i, block in enumerate(blocks):
                if instructions.is_instruction(told[owners[i]]):
                    instructions_checked += 1
                    if sentence.count(sentence[i]) > 1 or story_pages.height(block) > screens.BODY_ROWS:
                        failures.append(f"{told[owners[i]]['text']!r} takes more than one page ({choice})")
            long_ones += len(set(sentence)) < len(sentence)
            starts = {units[i] for i in range(len(units)) if i == 0 or sentence[i] != sentence[i - 1]}
            kinds.update(e["kind"] for e in events if e.get("text"))
            asking = [choice.confirm] if choice is not None and choice.confirm else questions
            question = [plain(" ".join(block)) for text in asking for block in story_pages.pieces(text, room, screens.wrap)]
            starts |= set(question)
            units += question
            joined = {" ".join(units[i:j]) for i in range(len(units)) for j in range(i + 1, len(units) + 1)}
            seen = set()
            before: screens.Screen | None = None
            for scroll in range(40):
                screen = screens.game_screen(state, events, labels, choice=choice, scroll=scroll)
                page = story_text(screen, asked, choice)
                if before is not None and not before.holds and page and not any(page.startswith(u) for u in starts):
                    failures.append(f"page {page!r} was turned to by time, in the middle of a sentence")
                if screen.rows in seen:
                    break
                seen.add(screen.rows)
                before = screen
                pages_checked += 1
                if page and page not in joined:
                    failures.append(f"page {page!r} is not whole pieces of {units}")
    assert not failures, "\n".join(sorted(set(failures))[:15])
    print(ruleset, pages_checked, sorted(kinds), long_ones, instructions_checked)
    assert len(kinds) >= 6 and pages_checked > 1000, kinds  # every kind of event the games have was drawn
    assert instructions_checked > 100


@pytest.mark.parametrize("ruleset", RULESETS)
def test_at_game_over_each_hand_over_is_whole_on_its_page(ruleset: str) -> None:
    """The game-over screen has four rows under the winner: a bankruptcy's hand-over of many deeds was cut between
    the items of its list ("...(mortgaged)," / "Vermont Avenue (mortgaged) and ..."); now each page is a whole
    hand-over naming the taker."""
    labels = space_labels(find_ruleset(ruleset))
    over = 0
    for whole, events in stories(ruleset):
        state = public_state(whole)
        if state.get("winner") is None:
            continue
        over += 1
        told = [e for e in events if e.get("text") and e.get("kind") != "new-game"]
        blocks, owners, sentence = screens.told_pieces(state, told, 4, most=4)
        for i, block in enumerate(blocks):
            if instructions.is_instruction(told[owners[i]]):
                assert sentence.count(sentence[i]) == 1 and len(block) <= 4, told[owners[i]]["text"]
        shown = {screens.game_screen(state, events, labels, scroll=s).rows for s in range(30)}
        assert all(screens.rows_height(rows) == 8 for rows in shown)  # the whole 64 pixels, never more
    assert over > 0 or ruleset == "addon"  # its bot games stop at the turn cap before anyone wins
