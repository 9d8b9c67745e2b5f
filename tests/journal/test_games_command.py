"""``companion games``: import a game file, list it, show it, export it unchanged."""

from __future__ import annotations

import io
from pathlib import Path

from companion.cli import main

EXAMPLE = Path(__file__).parents[2] / "companion" / "examples" / "classic-short.jsonl"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_import_list_show_export_round_trip(tmp_path: Path) -> None:
    journal = str(tmp_path / "games.sqlite3")
    assert run("games", "--journal", journal, "import", str(EXAMPLE)) == (0, "imported as game 1 (4 inputs)\n")
    code, listing = run("games", "--journal", journal, "list")
    assert code == 0 and "classic" in listing and "Ann, Bob" in listing and "won by Ann" in listing
    code, shown = run("games", "--journal", journal, "show", "1")
    assert code == 0 and "Winner: Ann" in shown
    code, exported = run("games", "--journal", journal, "export", "1")
    assert code == 0
    assert exported.splitlines() == [line for line in EXAMPLE.read_text().splitlines() if line.strip()]


def test_a_bad_game_file_is_refused_with_its_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"setup": {"ruleset": "classic", "players": ["Ann", "Bob"]}}\n{"roll": [9, 9]}\n')
    code, _ = run("games", "--journal", str(tmp_path / "g.sqlite3"), "import", str(bad))
    assert code == 1
    assert "line 2: a die shows 1 to 6, not 9" in capsys.readouterr().err
    assert run("games", "--journal", str(tmp_path / "g.sqlite3"), "list") == (0, "no games stored\n")
