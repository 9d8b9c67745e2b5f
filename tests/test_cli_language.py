"""The command line speaks one language per command: its ``--language``, else the config's (``run``), else the
environment's locale (LC_ALL, LC_MESSAGES, LANG), else English (docs/languages.md); English is as it always was."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.startup.speaking import chosen_language, environment_language, option_language

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


def test_simulate_reports_in_the_environments_language(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ("simulate", "--ruleset", "addon", "--players", "3", "--games", "3", "--seed", "2", "--quiet",
            "--workers", "1")
    english = run(*argv)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    german = run(*argv)
    lines = german.splitlines()
    assert lines[0] == "addon: 3 Partien mit 3 Bots, Startwert 2", lines[0]
    assert lines[1].startswith("  Tempo        ") and "Spielerzüge/s" in lines[1] and "1 Prozess, " in lines[1]
    assert lines[3].startswith("  beendet      3; abgebrochen an der Grenze von 1.000 Zügen: 0"), lines[3]
    assert "(95-%-KI), Median" in lines[4] and lines[5].startswith("  Siege je Platz 1. Ann ")
    assert "  Landehäufigkeit je Feld (in Brettreihenfolge):" in lines
    assert "\u00a0$" in german and "Triple Play" in german  # the board's dollar after the number, as German puts it
    for english_word in ("games of", "player-turns/s", "finished ", "mean ", "in all", "per game", "wins by seat"):
        assert english_word not in german, english_word
    assert "addon: 3 games of 3 bots, seed 2" in english and "1 worker, " in english  # English as it was
    german_json = json.loads(run(*argv, "--json"))
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert json.loads(run(*argv, "--json"))["results"] == german_json["results"]  # JSON: its keys, in no language


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as stop:
        main(list(argv), io.StringIO())
    assert stop.value.code == 0
    return capsys.readouterr().out


def test_the_help_is_said_in_the_commands_language(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    english = help_text(capsys, "--help")
    assert english.startswith("usage: companion ") and "\noptions:\n" in english and "A banker and referee" in english
    german = help_text(capsys, "--help", "--language", "de")
    assert german.startswith("Aufruf: companion ") and "\nOptionen:\n" in german, german
    assert "diese Hilfe zeigen und beenden" in german and "Ein Bankhalter und Schiedsrichter" in german
    assert "usage:" not in german and "show this help" not in german and "A banker" not in german
    replay = help_text(capsys, "replay", "--language=fr", "--help")
    assert replay.startswith("utilisation : companion replay") and "arguments positionnels:" in replay
    assert "exemple : companion replay game.jsonl" in replay and "the story" not in replay
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    simulate = help_text(capsys, "simulate", "--help")
    assert simulate.startswith("uso: companion simulate") and "sin barra de progreso" in simulate
    assert "pares de partidas, por defecto 500" in simulate and "no progress bar" not in simulate
    games = help_text(capsys, "games", "list", "--help")  # a sub-command's sub-command speaks as well
    assert games.startswith("uso: companion games list") and "mostrar esta ayuda y salir" in games


def test_the_language_option_is_read_before_the_parser() -> None:
    assert option_language(["replay", "x.jsonl", "--language", "de"]) == "de"
    assert option_language(["--help", "--language=fr"]) == "fr"
    assert option_language(["replay", "--", "--language", "de"]) is None  # after "--" it is a file's name
    assert option_language(["replay", "--language"]) is None


def test_simulate_compare_reads_its_sentences_in_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ("simulate", "--ruleset", "classic", "--games", "4", "--quiet", "--workers", "1",
            "--compare", "go_landing_bonus=true")
    english = run(*argv)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    german = run(*argv)
    assert german.startswith("classic: 4 Partienpaare mit 4 Bots, Startwert 0\n  A  die Regeln des Buchs\n"), german
    assert "  Kennzahl (je Partie)" in german and "Dauer (Minuten bei 40 s je Zug)" in german
    assert "Partien dauern " in german and "Minuten bei 40 s je Spielerzug" in german
    assert "  • Der erste Spieler gewinnt " in german and "\u00a0$ → " in german  # money as German writes it
    for english_word in ("pairs of games", "games last", "first player wins", "the book's rules", "per game"):
        assert english_word not in german, english_word
    assert english.startswith("classic: 4 pairs of games of 4 bots, seed 0\n  A  the book's rules\n")
