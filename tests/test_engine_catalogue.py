"""The engine's catalogue (issue 41): every msgid the engine can say is in engine.pot, and every language says
every one of them, with the same placeholders.

engine.pot is made by ``pybabel extract -F babel-engine.cfg`` (companion/engine/extract.py finds the msgids, each
branch of a conditional too); the messages the engine actually makes over every game file and bot games of all
five rulesets (events, prompts, refusals and the messages nested in them) must all be there: a msgid made some other
way (an f-string, a table not marked) would be said in English in every language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from companion.engine import IllegalInput, apply  # noqa: E402
from companion.engine.messages import msgids  # noqa: E402
from tests.golden.record_english import GAME_FILES, game_lines  # noqa: E402
from companion.sim.game import GameSpec, play_game  # noqa: E402

ROOT = Path(__file__).parents[1]
LOCALES = ROOT / "companion" / "words" / "locales"
POT = LOCALES / "engine.pot"
LANGUAGES = ("de", "fr", "es")
PLACEHOLDER = re.compile(r"(?<!\{)\{([a-z_0-9]*)\}(?!\})")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def catalogue(path: Path, locale: str | None = None) -> Any:
    with path.open("rb") as po:
        return read_po(po, locale=locale)


def extracted() -> set[str]:
    """The msgids pybabel extract finds now (as babel-engine.cfg maps the engine's files)."""
    found: set[str] = set()
    method_map = [("companion/engine/**.py", "companion.engine.extract:extract")]
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map):
        found.update([message] if isinstance(message, str) else message)
    return found


def pot_msgids() -> set[str]:
    found: set[str] = set()
    for message in catalogue(POT):
        if message.id:
            found.update([message.id] if isinstance(message.id, str) else message.id)
    return found


def made_messages(*, with_ruleset: bool = False) -> Iterator[Any]:
    """Every message the engine makes over the game files and a bot game of each ruleset, table path (with
    ``with_ruleset``: each as ``(ruleset, message)``)."""
    games = [game_lines(path) for path in GAME_FILES]
    for ruleset in ("classic", "addon", "magie-1904", "magie-1924", "chambers"):
        lines: list[Any] = []
        play_game(GameSpec(ruleset, 4, seed=11), 0, lines, table=True)
        games.append(lines)
    for lines in games:
        state = None
        ruleset = (lines[0].get("setup") or {}).get("ruleset") if lines else None
        for line in lines:
            try:
                state, events = apply(state, line)
            except IllegalInput as refusal:
                if not refusal.literal:
                    yield (ruleset, refusal.message) if with_ruleset else refusal.message
                if state is None:
                    break
                continue
            said = [event for event in events if "msg" in event]
            if state["prompt"] and "msg" in state["prompt"]:
                said.append(state["prompt"])
            yield from ((ruleset, message) for message in said) if with_ruleset else said


def test_the_template_is_made_by_the_extractor_and_up_to_date() -> None:
    assert pot_msgids() == extracted(), "run: pybabel extract -F babel-engine.cfg (docs/languages.md)"
    assert len(pot_msgids()) > 400


def test_every_message_the_engine_makes_is_in_the_template() -> None:
    known = pot_msgids()
    made = {msgid for message in made_messages() for msgid in msgids(message)}
    assert len(made) > 250
    assert made - known == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_msgid_is_translated_with_the_same_placeholders(language: str) -> None:
    po = catalogue(LOCALES / language / "LC_MESSAGES" / "engine.po", language)
    translated = {}
    for message in po:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings), f"{language}: untranslated {ids[0]!r}"
        wanted = set().union(*(placeholders(i) for i in ids))
        for string in strings:
            assert placeholders(string) <= wanted, f"{language}: {string!r} names a placeholder {ids[0]!r} has not"
            # Each form says everything the English says, but a plural form may leave the count to its words.
            assert wanted - {"count"} <= placeholders(string), f"{language}: {string!r} drops one of {sorted(wanted)}"
            string.format_map({name: "x" for name in wanted})  # a valid template: braces doubled, none left open
        if isinstance(message.id, tuple):
            assert len(strings) == po.num_plurals, f"{language}: {ids[0]!r} needs {po.num_plurals} forms"
        translated.update(dict.fromkeys(ids))
    assert pot_msgids() <= set(translated), f"{language}: missing {sorted(pot_msgids() - set(translated))[:5]}"
