"""Command-line manners: ``--version``, a ``--help`` written for people (each command with an example), and every
user error one line on stderr with exit status 2, never a traceback. Each is run as a user would run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BAD_BOARD = '[game]\nruleset = "classic"\n\n[[spaces]]\nid = "go"\nname = "GO"\nkind = "go"\n\n' \
            '[[spaces]]\nid = "x"\nprise = 60\n'


def companion(*args: str, before: str = "pass", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``companion ARGS`` in a fresh interpreter (``before``: Python run first, to take a package away)."""
    code = f"import sys; {before}; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_version_and_a_help_for_people() -> None:
    version = companion("--version")
    assert version.returncode == 0 and version.stdout.startswith("companion ")
    helped = companion("--help")
    assert helped.returncode == 0 and "Start here:" in helped.stdout
    for name in ("demo", "run", "replay", "games", "simulate", "check-board"):
        assert f"companion {name}" in helped.stdout  # an example of each
    assert "example: companion check-board classic" in companion("check-board", "--help").stdout


def one_line_usage_error(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr
    return run.stderr


@pytest.mark.parametrize(("args", "said"), [
    (("check-board", "monopoly", "x.toml"), "unknown ruleset 'monopoly' (known: classic, addon"),
    (("check-board", "classic", "nowhere.toml"), "nowhere.toml: No such file or directory"),
    (("replay", "nowhere.jsonl"), "nowhere.jsonl: No such file or directory"),
    (("demo", "--headless", "--input", "nowhere.buttons"), "No such file or directory"),
    (("fly",), "invalid choice: 'fly'"),
    (("games", "--journal", "nowhere.sqlite3", "show", "1"), "no journal at nowhere.sqlite3"),
    (("simulate", "--ruleset", "monopoly"), "invalid choice: 'monopoly'"),
    (("demo", "--dice", "loaded"), "invalid choice: 'loaded'"),
])
def test_a_users_mistake_is_one_line_and_status_2(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    assert said in one_line_usage_error(companion(*args, cwd=tmp_path))


def test_an_unknown_key_in_a_board_file_is_named_with_its_path_and_line(tmp_path: Path) -> None:
    board = tmp_path / "my-edition.toml"
    board.write_text(BAD_BOARD, encoding="utf-8")
    said = one_line_usage_error(companion("check-board", "classic", str(board)))
    assert f"{board}, line 11: spaces[1].prise: unknown key for a classic board (did you mean `price`?)" in said


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924", "chambers"])
def test_the_bundled_boards_and_their_own_usage_pass(ruleset: str) -> None:
    run = companion("check-board", ruleset, str(ROOT / "companion" / "boards" / f"{ruleset}.toml"))
    assert run.returncode == 0 and f"a valid {ruleset} board" in run.stdout, run.stderr
    first_lines = (ROOT / "companion" / "boards" / f"{ruleset}.toml").read_text(encoding="utf-8")[:600]
    assert "`companion check-board my" not in first_lines  # the comment's usage names the ruleset


def test_a_missing_extra_names_the_install_that_brings_it() -> None:
    said = one_line_usage_error(companion("demo", "--headless", before="sys.modules['gpiozero'] = None"))
    assert "gpiozero is not installed" in said and "pip install -e '.[table]'" in said


def test_run_without_a_pi_says_what_to_do_instead(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'display = "none"\nweb_port = 0\npin_factory = "lgpio"\n'
                      f'journal = "{tmp_path / "games.sqlite3"}"\n', encoding="utf-8")
    said = one_line_usage_error(companion("run", "--config", str(config), before="sys.modules['lgpio'] = None"))
    assert "no Raspberry Pi pins here" in said and "companion demo" in said and 'pin_factory = "mock"' in said


def hostile_file(folder: Path, kind: str, suffix: str) -> Path:
    """A file nested 100,000 deep (TOML: brackets, then dotted keys; tomllib recurses into each), or over its
    bound (sparse: no disk is written)."""
    path = folder / f"{kind}{suffix}"
    if kind == "deep":
        path.write_text("display = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    elif kind == "dotted":
        path.write_text("a." * 5_000 + "b = 1\n", encoding="utf-8")
    else:
        from companion.localfiles import MAX_GAME_FILE_BYTES

        with path.open("wb") as file:
            file.truncate(MAX_GAME_FILE_BYTES + 1)
    return path


@pytest.mark.parametrize(("command", "kind"), [
    *((command, kind) for command in ("check-board", "run") for kind in ("deep", "dotted", "large")),
    ("replay", "large"), ("import", "large"),  # a game file's line nested too deeply: status 1, its number (test_cli)
])
def test_a_file_too_deep_or_too_large_is_one_line_and_status_2(tmp_path: Path, command: str, kind: str) -> None:
    """A TOML nested 100,000 deep ended check-board and run --config in a RecursionError's traceback."""
    toml, game = hostile_file(tmp_path, kind, ".toml"), hostile_file(tmp_path, kind, ".jsonl")
    args = {"check-board": ("check-board", "classic", str(toml)), "run": ("run", "--config", str(toml)),
            "replay": ("replay", str(game)),
            "import": ("games", "--journal", str(tmp_path / "games.sqlite3"), "import", str(game))}[command]
    said = one_line_usage_error(companion(*args, cwd=tmp_path))
    assert ("nested too deeply" if kind != "large" else "too large") in said
