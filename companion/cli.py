"""``companion``: the command line. The only place (with table.py) that wires the rooms together."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from companion.account import summary
from companion.boardcheck import check_keys, check_names
from companion.config import TABLE_LANGUAGES
from companion.engine import CompanionError, find_ruleset, public_state
from companion.engine.core import Ruleset
from companion.engine.rules import load_ruleset, ruleset_class
from companion.gamefile import GameFileError, Replay, game_file_lines, replay
from companion.journal import command as games
from companion.localfiles import LocalFileRefused, read_game_file


def print_story(result: Replay, out: TextIO, ruleset: Ruleset | None = None, language: str = "en") -> None:
    """The game's story, each event's sentence in ``language`` (English: as the engine wrote it), then its summary."""
    if language == "en":
        told = [str(event["text"]) for _, event in result.events]
    else:
        from companion.words import Words  # another language needs Babel (the table's extra)
        from companion.words.engine_messages import say_event

        words = Words.for_language(language, (ruleset or find_ruleset(result.state["ruleset"])).board)
        told = [say_event(words, event) for _, event in result.events]
    for text in told:
        out.write(f"  {text}\n")
    out.write("\n" + summary(result.state, ruleset) + "\n")


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    ruleset = None
    try:
        text = read_game_file(args.file)
    except LocalFileRefused as error:  # too large: the user's error, as a file that is not there
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    except OSError as error:  # a file that is not there: the user's error (2), not the game file's (1)
        print(f"companion: {args.file}: {error.strerror}", file=sys.stderr)
        return USAGE
    except UnicodeDecodeError:
        print(f"companion: {args.file}: not a game file (not UTF-8 text)", file=sys.stderr)
        return 1
    try:
        if args.board:
            first = json.loads(game_file_lines(text)[0])
            ruleset = board_ruleset(first["setup"]["ruleset"], args.board)
        result = replay(game_file_lines(text), ruleset)
    except GameFileError as error:
        print(f"companion: {args.file}: {error}", file=sys.stderr)
        return 1
    except LocalFileRefused as error:  # the --board file
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    except (CompanionError, ValueError, KeyError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(public_state(result.state), out, indent=1 if args.pretty else None)
        out.write("\n")
    else:
        print_story(result, out, ruleset, args.language)
    return 0


def board_ruleset(ruleset: str, path: str) -> Ruleset:
    """A ruleset with a user's board file, every key of which its bundled board knows (a misspelt key is refused
    with its key path and line); an unknown ruleset is a ``CompanionError`` too."""
    try:
        ruleset_class(ruleset)
        check_keys(ruleset, path)
        loaded = load_ruleset(ruleset, path)
        check_names(loaded.board)
        return loaded
    except KeyError as error:  # the registry's unknown ruleset
        raise CompanionError(str(error.args[0]) if error.args else str(error)) from None


def cmd_check_board(args: argparse.Namespace, out: TextIO) -> int:
    try:
        ruleset = board_ruleset(args.ruleset, args.file)
    except (CompanionError, ValueError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    board = ruleset.board
    out.write(f"{board.source}: {len(board.spaces)} spaces, {len(board.groups)} groups, "
              f"{len(board.cards)} cards — a valid {args.ruleset} board\n")
    return 0


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    """The simulated table (companion/startup/demo/): keys as buttons, or a button script on simulated time."""
    from companion.config import demo_journal_path
    from companion.startup.demo.headless import bundled_script, demo_headless
    from companion.startup.demo.interactive import demo_interactive

    try:
        if args.setup and not args.input:
            print("companion: --setup goes with --input (the bundled script plays its own game)", file=sys.stderr)
            return 2
        if args.headless or not sys.stdin.isatty():
            setup: dict[str, Any] | None
            setup, script = bundled_script()
            if args.input:
                setup = json.loads(Path(args.setup).read_text(encoding="utf-8")) if args.setup else None
                script = Path(args.input).read_text(encoding="utf-8").splitlines()
            elif not args.json:
                out.write("Not a terminal: playing the bundled button script (companion/examples/table-demo.buttons)\n")
            cues: list[dict[str, Any]] | None = [] if args.json else None
            state = demo_headless(script, setup=setup.get("setup", setup) if setup else None,
                                  frames=Path(args.frames) if args.frames else None, dice=args.dice or "roller",
                                  cues=cues, language=args.language)
        else:
            journal = Path(args.journal) if args.journal else demo_journal_path()
            return demo_interactive(dice=args.dice or "roller", journal_path=journal, port=args.port, out=out,
                                    sound=args.sound, screen=args.screen, language=args.language)
    except (CompanionError, OSError, ValueError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    if args.json:  # the cues of each frame (lights, sounds, sentences), then the final state
        for line in cues or []:
            out.write(json.dumps(line) + "\n")
        json.dump(state, out)
        out.write("\n")
    else:
        out.write(summary(state) + "\n")
    return 0


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    """The table on a Raspberry Pi (companion/startup/pi.py)."""
    from gpiozero.exc import GPIOZeroError

    from companion.config import load_config
    from companion.startup.pi import run

    try:
        config = load_config(args.config)
        if args.pins:
            config = dataclasses.replace(config, pins=args.pins)
        return run(config, out, game=args.game)
    except (ImportError, GPIOZeroError) as error:  # no lgpio (not a Pi), no /dev/gpiochip, GPIO busy
        print(f"companion run: no Raspberry Pi pins here ({error}): on a PC try `companion demo`, or put "
              f"pin_factory = \"mock\" in a config file (--config FILE)", file=sys.stderr)
        return USAGE
    except LocalFileRefused as error:  # a config or pin map too large or nested too deeply
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    except (CompanionError, OSError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1


#: The exit status of a user's error: a command or option mistyped, a file that is not there, an unknown ruleset, a
#: board file with an unknown key, an extra not installed, ``run`` off a Pi. (1: a game file's line was refused.)
USAGE = 2

HELP = """\
A banker and referee for cardboard board games: a Raspberry Pi with six buttons, a dice roller and an
OLED beside the board, and a page for every phone at the table.

Start here:
  companion demo                          the simulated table in this terminal (keys are the buttons)

Each command, with an example (companion COMMAND --help says more):
  demo          companion demo
                companion demo --headless --input my.buttons --frames frames/
  run           companion run --config /etc/companion/config.toml   (on the Raspberry Pi)
  replay        companion replay tests/gamefiles/classic/auction-nobody-bids.jsonl
  games         companion games list
  simulate      companion simulate --ruleset addon --players 4 --games 1000
  check-board   companion check-board classic my-edition.toml
"""

EXAMPLES = {
    "replay": "example: companion replay game.jsonl        (the story, then a summary)\n"
              "         companion replay game.jsonl --json  (the final state object)",
    "check-board": "example: companion check-board classic my-edition.toml\n"
                   "(start from a copy of the bundled board: companion/boards/classic.toml)",
    "demo": "example: companion demo                         (keys as buttons; q quits; the game is kept)\n"
            "         companion demo --headless --input my.buttons --frames frames/",
    "run": "example: companion run --config /etc/companion/config.toml   (on the Raspberry Pi; firmware/install.sh)",
}


class Parser(argparse.ArgumentParser):
    """argparse with a user's mistake said on one line (and where the help is), exit status 2."""

    def error(self, message: str) -> Any:  # argparse's NoReturn
        self.exit(USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("companion")
    except PackageNotFoundError:  # run from the sources without an install
        return "unknown (not installed)"


def build_parser(*, simulator: bool = True) -> argparse.ArgumentParser:
    """The command line; ``simulator=False`` (``companion run``): ``simulate`` without its options, so that the
    table's start does not import the simulator (issue 43)."""
    parser = Parser(prog="companion", description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"companion {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                              epilog=EXAMPLES.get(name), formatter_class=argparse.RawDescriptionHelpFormatter)

    p = command("replay", "run a game file (JSON Lines) and print the story or the final state")
    p.add_argument("file", help="game file, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the final state object of DESIGN.md")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.add_argument("--board", help="a board file of your own edition instead of the bundled one")
    p.add_argument("--language", choices=list(TABLE_LANGUAGES), default="en",
                   help="the story's language (default: en, as the engine wrote it; docs/languages.md)")
    p.set_defaults(func=cmd_replay)
    p = command("check-board", "validate a board file of your own edition")
    p.add_argument("ruleset", help="classic, addon, magie-1904, magie-1924 or chambers")
    p.add_argument("file", help="the board file (TOML)")
    p.set_defaults(func=cmd_check_board)
    p = command("demo", "the simulated table: keys as buttons, or --headless with a button script")
    p.add_argument("--headless", action="store_true", help="play a button script on simulated time, no terminal")
    p.add_argument("--input", help="the button script (ROLL, YES, NO, PREV, NEXT, MENU, HOLD, DICE, WAIT, TAP)")
    p.add_argument("--setup", help="headless: a JSON file with the setup object (else a new two-player game)")
    p.add_argument("--frames", help="headless: write every new OLED frame to this folder as PNG")
    p.add_argument("--json", action="store_true",
                   help="headless: print each frame's cues (seat lights, sounds, sentences), then the final state")
    p.add_argument("--dice", choices=["roller", "software", "manual"], help="dice source (default: roller)")
    p.add_argument("--language", choices=list(TABLE_LANGUAGES), default="en",
                   help="the table's language: the OLED's and the voice's (default: en; docs/languages.md)")
    p.add_argument("--journal", help="interactive: the games file (default: ~/.local/share/companion/demo.sqlite3)")
    p.add_argument("--port", type=int, default=8080, help="interactive: the phone page's port (default 8080)")
    p.add_argument("--sound", action="store_true",
                   help="interactive: play the buzzer's cues and the voice (espeak-ng) on this computer's speaker")
    p.add_argument("--screen", choices=["auto", "text", "pixels"], default="auto",
                   help="interactive: the OLED as text (any terminal) or pixels (130x37 or more); auto: by size")
    p.set_defaults(func=cmd_demo)
    p = command("run", "the table on a Raspberry Pi (buttons, dice roller, OLED, phone page)")
    p.add_argument("--config", help="config file (default: /etc/companion/config.toml, else defaults)")
    p.add_argument("--pins", help="pin map (default: /etc/companion/pins.toml, else hardware/pins.toml, as the "
                                     "package bundles it)")
    p.add_argument("--game", type=int, help="go on with this stored game (`companion games list`), not the last one")
    p.set_defaults(func=cmd_run)
    games.add_parser(sub)
    if simulator:
        from companion.sim import command as simulate

        simulate.add_parser(sub)
    else:
        sub.add_parser("simulate")
    return parser


#: The packages of the ``table`` extra (and ``web`` within it): a command that needs one says which install has it.
TABLE_PACKAGES = {"gpiozero", "luma", "PIL", "smbus2", "flask", "cheroot", "segno"}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args: Any = build_parser(simulator=argv[:1] != ["run"]).parse_args(argv)
    try:
        return int(args.func(args, out or sys.stdout))
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing not in TABLE_PACKAGES:
            raise
        print(f"companion {args.command}: needs the table's packages ({missing} is not installed): "
              f"pip install -e '.[table]' (or pip install 'companion[table]')", file=sys.stderr)
        return USAGE


if __name__ == "__main__":
    sys.exit(main())
