"""``companion games``: list, show, export and import the games kept in a journal.

What it prints to a person is said by ``args.words`` (the command line's language, set by ``companion.cli.main``:
the table's catalogue), a state by ``args.summary`` (``companion.account.summary`` in that language): this room
imports neither."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from companion.engine import CompanionError
from companion.localfiles import LocalFileRefused, read_game_file

from .store import Journal


def add_parser(sub: Any, t: Callable[[str], str] = str) -> None:
    """Register ``companion games`` on the CLI's sub-parsers, its help said by ``t`` (the command line's
    ``Words.t``: the journal imports no words)."""
    p = sub.add_parser("games", help=t("the stored games: list, show, export, import"))
    p.add_argument("--journal", help=t("the journal file (default: the config's journal, else the demo's)"))
    actions = p.add_subparsers(dest="action")
    actions.add_parser("list", help=t("every stored game (the default)"))
    show = actions.add_parser("show", help=t("where a game stands (continue it with `companion run --game ID`)"))
    show.add_argument("id", type=int)
    export = actions.add_parser("export", help=t("write a game as a game file (JSON Lines)"))
    export.add_argument("id", type=int)
    export.add_argument("-o", "--output", help=t("file to write (default: standard output)"))
    imp = actions.add_parser("import", help=t("store a game file as a new game"))
    imp.add_argument("file", help=t("game file, or - for standard input"))
    p.set_defaults(func=run)


def default_journal() -> Path:
    """The config's journal if it exists (the Pi), else the demo table's."""
    from companion.config import demo_journal_path, load_config

    configured = Path(load_config(None).journal)
    return configured if configured.exists() else demo_journal_path()


def run(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.journal) if args.journal else default_journal()
    action = args.action or "list"
    if action != "import" and not path.exists():
        print("companion: " + args.words.t("no journal at {path} (no game stored yet; --journal FILE names another)",
                                           path=path), file=sys.stderr)
        return 2  # a user's mistake (a path that is not there): one line, status 2, as every command's
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with Journal(path) as journal:
            for problem in journal.told:
                print(f"companion: {path}: {args.words.told(problem)}", file=sys.stderr)
            return ACTIONS[action](journal, args, out)
    except LocalFileRefused as error:  # a game file too large to import: the user's error
        print(f"companion: {error}", file=sys.stderr)
        return 2
    except (CompanionError, OSError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print("companion: " + args.words.t("{file}: not a game file (not UTF-8 text)", file=args.file), file=sys.stderr)
        return 1


def list_games(journal: Journal, args: argparse.Namespace, out: TextIO) -> int:
    games = journal.games()
    if not games:
        out.write(args.words.t("no games stored") + "\n")
    for info in games:
        w = args.words
        status = w.t("won by {player}", player=info.winner) if info.winner else (info.problem or w.t("in progress"))
        out.write(f"{info.id:>4}  {info.ruleset:<11} {', '.join(info.players):<30} "
                  + w.t("{n} inputs", n=f"{info.inputs:>5}") + f"  {info.updated:%Y-%m-%d %H:%M}  {status}\n")
    return 0


def show_game(journal: Journal, args: argparse.Namespace, out: TextIO) -> int:
    game = journal.open_game(args.id)
    out.write(args.summary(game.state) + "\n"
              + args.words.t("Continue it at the table with: {command}", command=f"companion run --game {game.id}") + "\n")
    return 0


def export_game(journal: Journal, args: argparse.Namespace, out: TextIO) -> int:
    text = journal.open_game(args.id).export()
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 0


def import_game(journal: Journal, args: argparse.Namespace, out: TextIO) -> int:
    game = journal.import_game(read_game_file(args.file))
    out.write(args.words.t("imported as game {n} ({inputs} inputs)", n=game.id, inputs=game.state["seq"]) + "\n")
    return 0


ACTIONS = {"list": list_games, "show": show_game, "export": export_game, "import": import_game}
