"""The command line speaks one language per command: its ``--language``, else the config's (``run``), else the
environment's locale (LC_ALL, LC_MESSAGES, LANG), else English (docs/languages.md); English is as it always was."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli import main
from companion.startup.speaking import chosen_language, environment_language

GAME = Path(__file__).parent / "gamefiles" / "classic" / "auction-nobody-bids.jsonl"


def test_the_option_then_the_config_then_the_environment_then_english() -> None:
    assert chosen_language("fr", "de", {"LANG": "es_ES.UTF-8"}) == "fr"
    assert chosen_language(None, "de", {"LANG": "es_ES.UTF-8"}) == "de"
    assert chosen_language(None, None, {"LANG": "es_ES.UTF-8"}) == "es"
    assert chosen_language(None, None, {"LC_ALL": "de_AT.UTF-8", "LANG": "fr_FR.UTF-8"}) == "de"
    assert chosen_language(None, None, {"LC_MESSAGES": "fr_CA", "LANG": "de_DE"}) == "fr"
    assert chosen_language(None, None, {"LANG": "C.UTF-8"}) == "en"
    assert chosen_language(None, None, {"LANG": "ja_JP.UTF-8"}) == "en"  # a language the table does not speak
    assert chosen_language(None, None, {}) == "en"
    assert environment_language({"LANG": "de_DE@euro"}) == "de"


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return out.getvalue()


def test_replay_speaks_the_environments_language(monkeypatch: pytest.MonkeyPatch) -> None:
    english = run("replay", str(GAME))
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    german = run("replay", str(GAME))
    assert german.endswith("Wartet: Bob, würfle\n") and "Bank: 32 Häuser, 12 Hotels" in german, german
    assert "Eingabe 4, Zug 2 (Bob)" in german and "1.500\u00a0$ auf Baltic Avenue" in german
    assert "Waiting" not in german and " on " not in german
    assert run("replay", str(GAME), "--language", "en") == english  # the option before the environment
    assert "input 4, turn 2 (Bob)" in english and "$ 1500 on Baltic Avenue" in english


def test_check_board_and_a_refused_line_in_spanish(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    board = Path(__file__).parents[1] / "companion" / "boards" / "classic.toml"
    assert "casillas" in run("check-board", "classic", str(board)) and "tablero classic válido" in run(
        "check-board", "classic", str(board))
    game = tmp_path / "game.jsonl"
    game.write_text('{"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1}}\n{"answer": "yes"}\n',
                    encoding="utf-8")
    assert main(["replay", str(game)], io.StringIO()) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"companion: {game}: línea 2: ") and "line 2" not in said, said
