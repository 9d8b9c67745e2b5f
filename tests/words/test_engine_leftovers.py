"""What the engine still said in English after its sentences became messages (issue 41), said in each language now:
the undo's description of the input it takes back, whose prompt a refusal names, magie-1924's cube faces and the
chambers' names (board data: ``[names.<lang>]``). English stays byte for byte (also tests/test_english_golden.py).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("babel")

from companion.cli import main  # noqa: E402
from companion.engine import IllegalInput, apply, find_ruleset  # noqa: E402
from companion.engine.board import Board  # noqa: E402
from companion.engine.core import ANSWER_WORDS, VERBS, WHOSE  # noqa: E402
from companion.engine.messages import english, msgids  # noqa: E402
from companion.engine.rules import load_ruleset  # noqa: E402
from companion.face.draw import latin1  # noqa: E402
from companion.words import Words  # noqa: E402
from companion.words.engine_messages import say  # noqa: E402

RULESETS = ("classic", "addon", "magie-1904", "magie-1924", "chambers")
LANGUAGES = ("de", "fr", "es")
BOARDS = Path(__file__).parents[2] / "companion" / "boards"
#: Words a language writes as the English does.
SAME = {"es": {"no"}}


def old_describe(ruleset: Any, line: Mapping[str, Any]) -> str:
    """The f-string description the engine made before it was a message (the reference for the English)."""
    def name(value: Any) -> str:
        if isinstance(value, list):
            from companion.engine.messages import names_of
            return names_of(name(v) for v in value)
        if isinstance(value, str) and value in ruleset.board.by_id:
            return ruleset.board.by_id[value].name
        if isinstance(value, str) and value in ruleset.board.cards:
            return ruleset.card_name(value)
        return str(value)

    if "act" in line:
        act = dict(line["act"])
        who, verb = act.pop("player", "?"), str(act.pop("do", "?")).replace("-", " ")
        rest = " ".join(name(v) for v in act.values() if not isinstance(v, Mapping))
        return f"{who} {verb} {rest}".strip()
    return f"answer {name(line['answer'])}"


def inputs(ruleset: Any) -> list[dict[str, Any]]:
    """Acts of every verb (and host verb) with a space, a card, a list, a number and a player; every answer word."""
    space, card = next(iter(ruleset.board.by_id)), next(iter(ruleset.board.cards), "none")
    lines: list[dict[str, Any]] = []
    for verb in [*VERBS, "not-a-verb"]:
        for who in ("Ann", "host"):
            lines.append({"act": {"player": who, "do": verb}})
            lines.append({"act": {"player": who, "do": verb, "space": space, "card": card, "amount": 1500,
                                  "to": "Bob", "spaces": [space, space], "give": {"cash": 5}}})
    lines += [{"answer": word} for word in [*ANSWER_WORDS, space, card, "Bob", 3]]
    return lines


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_undos_description_is_the_english_it_was(ruleset_id: str) -> None:
    ruleset = find_ruleset(ruleset_id)
    for line in inputs(ruleset):
        assert english(ruleset.describe(line), ruleset) == old_describe(ruleset, line)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_undos_description_is_said_in_the_language(language: str) -> None:
    ruleset = find_ruleset("classic")
    words = Words.for_language(language, ruleset.board)
    catalogue = words.catalogue._catalog  # gettext's own table
    for line in inputs(ruleset):
        message = ruleset.describe(line)
        for msgid in msgids(message):
            assert catalogue.get(msgid), f"{language}: {msgid!r} has no translation"
        said = say(words, {"msg": "Undone: {input}", "args": {"input": message}})
        verb = str((line.get("act") or {}).get("do", ""))
        if verb in VERBS:
            english_verb = re.compile(rf"(?<!\w){re.escape(VERBS[verb])}(?!\w)")
            assert not english_verb.search(said) or VERBS[verb] in SAME.get(language, ()), said
        if line.get("answer") in ANSWER_WORDS and line["answer"] not in SAME.get(language, ()):
            assert f"»{line['answer']}«" not in said and f"« {line['answer']} »" not in said \
                and f"«{line['answer']}»" not in said, said
        assert "?" not in latin1(said), f"{said!r}: a letter the OLED's fonts cannot draw"
    german = Words.for_language("de", ruleset.board)
    undone = {"msg": "Undone: {input}", "args": {"input": ruleset.describe(
        {"act": {"player": "Ann", "do": "build", "space": "baltic-avenue"}})}}
    assert say(german, undone) == "Rückgängig: Ann – bauen: Baltic Avenue"
    assert english(undone, ruleset) == "Undone: Ann build Baltic Avenue"


def test_an_undo_in_a_game_is_said_in_german() -> None:
    state, _ = apply(None, {"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}})
    state, _ = apply(state, {"roll": [1, 2]})
    state, _ = apply(state, {"answer": "yes"})
    state, events = apply(state, {"undo": 1})
    german = Words.for_language("de", find_ruleset("classic").board)
    assert events[0]["text"] == "Undone: answer yes"
    assert say(german, events[0]) == "Rückgängig: Antwort »ja«"


@pytest.mark.parametrize("language", LANGUAGES)
def test_whose_prompt_is_a_sentence_per_kind(language: str) -> None:
    words = Words.for_language(language, find_ruleset("classic").board)
    for kind, msgid in WHOSE.items():
        translated = words.catalogue._catalog.get(msgid)
        assert translated and translated != msgid, (language, kind)
        assert kind not in translated, translated  # the kind's English id is not quoted in the sentence
    state, _ = apply(None, {"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3,
                                      "start": {"players": {"Bob": {"in_jail": True}}}}})
    try:
        apply(state, {"act": {"player": "Bob", "do": "pay-fine"}})
    except IllegalInput as refusal:
        assert str(refusal) == "it is Ann's roll, not Bob's"
        assert "roll" not in say(words, refusal.message)
    else:
        raise AssertionError("Bob paid his fine in Ann's turn")


def edition(tmp_path: Path, board: str, extra: str) -> Path:
    path = tmp_path / f"{board}-edition.toml"
    path.write_text((BOARDS / f"{board}.toml").read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


def test_an_edition_names_its_cube_faces_per_language(tmp_path: Path) -> None:
    path = edition(tmp_path, "magie-1924", '\n[names.de.cube]\n5 = "Beim Hühnerdiebstahl erwischt: ins Gefängnis"\n')
    assert main(["check-board", "magie-1924", str(path)], out=io.StringIO()) == 0
    ruleset = load_ruleset("magie-1924", path)
    said = {"msg": "Chance cube {n}: {face_text}", "args": {"n": 5, "face_text": 5}}
    assert english(said, ruleset) == "Chance cube 5: Caught robbing a hen-roost: go to jail"
    assert say(Words.for_language("de", ruleset.board), said) == \
        "Zufallswürfel 5: Beim Hühnerdiebstahl erwischt: ins Gefängnis"
    # A face it does not name is said as the cube prints it (as a card is).
    ten = {"msg": "Chance cube {n}: {face_text}", "args": {"n": 10, "face_text": 10}}
    assert say(Words.for_language("de", ruleset.board), ten).endswith("The players will now call you Senator")


def test_check_board_refuses_a_cube_face_the_cube_has_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = edition(tmp_path, "magie-1924", '\n[names.de.cube]\n7 = "Sieben"\n')
    assert main(["check-board", "magie-1924", str(path)], out=io.StringIO()) != 0
    assert "names.de.cube.7: the board has no such id" in capsys.readouterr().err
    path = edition(tmp_path, "classic", '\n[names.de.cube]\n5 = "Fünf"\n')
    assert main(["check-board", "classic", str(path)], out=io.StringIO()) != 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_chambers_are_named_in_the_language(language: str) -> None:
    ruleset = find_ruleset("chambers")
    board: Board = ruleset.board
    assert check_bundled("chambers") == 0
    words = Words.for_language(language, board)
    english_names = set(ruleset.path.names.values())
    for chamber in ruleset.path.names:
        said = say(words, {"msg": "{player} is on the start of {chamber} already",
                           "args": {"player": "Ann", "chamber": chamber}})
        assert not any(name in said for name in english_names), said
    assert english({"msg": "{player} is on the start of {chamber} already",
                    "args": {"player": "Ann", "chamber": "chess"}}, ruleset) == \
        "Ann is on the start of the chess chamber already"
    if language == "de":
        assert say(words, {"msg": "No skill card is left in {chamber}: nothing happens",
                           "args": {"chamber": "chess"}}) == \
            "In der Schachkammer ist keine Fertigkeitskarte mehr: nichts geschieht"


def check_bundled(board: str) -> int:
    return main(["check-board", board, str(BOARDS / f"{board}.toml")], out=io.StringIO())


@pytest.mark.parametrize("language", LANGUAGES)
def test_street_groups_and_decks_in_passing_are_said_in_the_language(language: str) -> None:
    from companion.engine.rules.estate import GROUPS

    for ruleset_id in ("classic", "addon"):
        board = find_ruleset(ruleset_id).board
        words = Words.for_language(language, board)
        streets = {space.group for space in board.spaces if space.kind == "street"}
        assert streets <= set(GROUPS), sorted(streets - set(GROUPS))
        for group in streets:
            assert words.catalogue._catalog.get(group), f"{language}: group {group!r} has no translation"
    classic = find_ruleset("classic")
    words = Words.for_language(language, classic.board)
    mortgaged = {"msg": "{why}: a street of the {group} group is mortgaged",
                 "args": {"why": {"msg": "{player} cannot build on {space}",
                                  "args": {"player": "Ann", "space": "oriental-avenue"}}, "group": "light-blue"}}
    assert english(mortgaged, classic) == "Ann cannot build on Oriental Avenue: a street of the light-blue group is " \
                                          "mortgaged"
    assert "light-blue" not in say(words, mortgaged)
    empty = {"msg": "The {pile} deck is empty", "args": {"pile": "chest"}}
    assert english(empty, classic) == "The chest deck is empty"
    assert "Community Chest" in say(words, empty) and "chest deck" not in say(words, empty)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_or_space_the_english_names_by_its_id_is_named_in_the_language(language: str) -> None:
    classic = find_ruleset("classic")
    used = {"msg": "{player} uses {ident} and leaves jail",
            "args": {"player": "Ann", "ident": "chance-get-out-of-jail-free"}}
    assert english(used, classic) == "Ann uses chance-get-out-of-jail-free and leaves jail"
    assert say(Words.for_language("en", classic.board), used) == english(used, classic)
    said = say(Words.for_language(language, classic.board), used)
    assert "chance-get-out-of-jail-free" not in said and classic.card_name("chance-get-out-of-jail-free") in said
    traded = {"msg": "{player} cannot trade {ident}: {player} does not own it",
              "args": {"player": "Bob", "ident": "baltic-avenue"}}
    assert english(traded, classic) == "Bob cannot trade baltic-avenue: Bob does not own it"
    assert "baltic-avenue" not in say(Words.for_language(language, classic.board), traded)
    assert "Baltic Avenue" in say(Words.for_language(language, classic.board), traded)
    malformed = {"msg": "{player} cannot trade {ident}: {player} does not own it",
                 "args": {"player": "Bob", "ident": "narnia"}}
    assert "narnia" in say(Words.for_language(language, classic.board), malformed)  # as sent
