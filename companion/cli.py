"""``companion``: the command line. The only place (with table.py) that wires the rooms together."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import gc
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
from companion.startup.speaking import chosen_language, option_language, terminal_words
from companion.words import ENGLISH, N_, Words


def print_story(result: Replay, out: TextIO, ruleset: Ruleset | None = None, language: str = "en") -> None:
    """The game's story, each event's sentence in ``language`` (English: as the engine wrote it), then its summary."""
    board = (ruleset or find_ruleset(result.state["ruleset"])).board
    words = Words.for_language(language, board)  # another language than English needs Babel (the table's extra)
    if language == "en":
        told = [str(event["text"]) for _, event in result.events]
    else:
        from companion.words.engine_messages import say_event

        told = [say_event(words, event) for _, event in result.events]
    for text in told:
        out.write(f"  {text}\n")
    out.write("\n" + summary(result.state, ruleset, words) + "\n")


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    ruleset, w = None, args.words
    try:
        text = read_game_file(args.file)
    except LocalFileRefused as error:  # too large: the user's error, as a file that is not there
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    except OSError as error:  # a file that is not there: the user's error (2), not the game file's (1)
        print(f"companion: {args.file}: {error.strerror}", file=sys.stderr)
        return USAGE
    except UnicodeDecodeError:
        print("companion: " + w.t("{file}: not a game file (not UTF-8 text)", file=args.file), file=sys.stderr)
        return 1
    try:
        if args.board:
            first = json.loads(game_file_lines(text)[0])
            ruleset = board_ruleset(first["setup"]["ruleset"], args.board)
        result = replay(game_file_lines(text), ruleset)
    except GameFileError as error:
        print(f"companion: {args.file}: {line_refusal(error, w)}", file=sys.stderr)
        return 1
    except LocalFileRefused as error:  # the --board file
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    except (CompanionError, ValueError, KeyError) as error:
        print(f"companion: {refusal(error, w)}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(public_state(result.state), out, indent=1 if args.pretty else None)
        out.write("\n")
    else:
        print_story(result, out, ruleset, w.language)
    return 0


def refusal(error: Exception, words: Words) -> str:
    """A refused line's reason in the terminal's language: the engine's message when it carries one (an
    ``IllegalInput``), else the error's own words."""
    message = getattr(error, "message", None)
    if not words.english and isinstance(message, dict) and "msg" in message:
        return words.message(message["msg"], message.get("args") or {}, message.get("plural"))
    return str(error)


def line_refusal(error: GameFileError, words: Words) -> str:
    """A game file's refused line in the terminal's language: "line 3: <the engine's refusal>" (the engine's
    message, kept as the error's context); a line that is not a game's line at all is said as the reader wrote it."""
    refused = error.__context__
    if words.english or not isinstance(refused, CompanionError) or getattr(refused, "literal", True):
        return str(error)
    return words.t("line {n}: {reason}", n=error.line_number, reason=refusal(refused, words))


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
    board, w = ruleset.board, args.words
    out.write(f"{board.source}: " + w.t("{spaces} spaces, {groups} groups, {cards} cards — a valid {ruleset} board",
                                         spaces=len(board.spaces), groups=len(board.groups), cards=len(board.cards),
                                         ruleset=args.ruleset) + "\n")
    return 0


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    """The simulated table (companion/startup/demo/): keys as buttons, or a button script on simulated time."""
    from companion.config import demo_journal_path
    from companion.startup.demo.headless import bundled_script, demo_headless
    from companion.startup.demo.interactive import demo_interactive

    try:
        if args.setup and not args.input:
            print("companion: " + args.words.t("--setup goes with --input (the bundled script plays its own game)"),
                  file=sys.stderr)
            return 2
        if args.headless or not sys.stdin.isatty():
            setup: dict[str, Any] | None
            setup, script = bundled_script()
            if args.input:
                setup = json.loads(Path(args.setup).read_text(encoding="utf-8")) if args.setup else None
                script = Path(args.input).read_text(encoding="utf-8").splitlines()
            elif not args.json:
                out.write(args.words.t("Not a terminal: playing the bundled button script ({path})",
                                       path="companion/examples/table-demo.buttons") + "\n")
            cues: list[dict[str, Any]] | None = [] if args.json else None
            state = demo_headless(script, setup=setup.get("setup", setup) if setup else None,
                                  frames=Path(args.frames) if args.frames else None, dice=args.dice or "roller",
                                  cues=cues, language=args.words.language)
        else:
            journal = Path(args.journal) if args.journal else demo_journal_path()
            return demo_interactive(dice=args.dice or "roller", journal_path=journal, port=args.port, out=out,
                                    sound=args.sound, screen=args.screen, language=args.words.language)
    except (CompanionError, OSError, ValueError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return USAGE
    if args.json:  # the cues of each frame (lights, sounds, sentences), then the final state
        for line in cues or []:
            out.write(json.dumps(line) + "\n")
        json.dump(state, out)
        out.write("\n")
    else:
        out.write(summary(state, None, args.words) + "\n")
    return 0


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    """The table on a Raspberry Pi (companion/startup/pi.py)."""
    # The start's imports and set-up make objects by the hundred thousand and free few: no collections while they
    # are made (~5% of the start's instructions); run() freezes what the start made and collects again once the
    # table is built (issue 43).
    gc.disable()
    try:
        return _run(args, out)
    finally:
        gc.enable()


def _run(args: argparse.Namespace, out: TextIO) -> int:
    from gpiozero.exc import GPIOZeroError

    from companion.config import load_config
    from companion.startup.pi import run

    w: Words = args.words
    try:
        config = load_config(args.config)
        w = terminal_words(chosen_language(None, config.language))  # the table's language, the terminal's too
        if args.pins:
            config = dataclasses.replace(config, pins=args.pins)
        return run(config, out, game=args.game, words=w)
    except (ImportError, GPIOZeroError) as error:  # no lgpio (not a Pi), no /dev/gpiochip, GPIO busy
        print("companion run: " + w.t("no Raspberry Pi pins here ({error}): on a PC try `companion demo`, or put "
                                       "pin_factory = \"mock\" in a config file (--config FILE)", error=error),
              file=sys.stderr)
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

HELP = N_("""\
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
""")

EXAMPLES = {
    "replay": N_("example: companion replay game.jsonl        (the story, then a summary)\n"
                 "         companion replay game.jsonl --json  (the final state object)"),
    "check-board": N_("example: companion check-board classic my-edition.toml\n"
                      "(start from a copy of the bundled board: companion/boards/classic.toml)"),
    "demo": N_("example: companion demo                         (keys as buttons; q quits; the game is kept)\n"
               "         companion demo --headless --input my.buttons --frames frames/"),
    "run": N_("example: companion run --config /etc/companion/config.toml   "
              "(on the Raspberry Pi; firmware/install.sh)"),
}


class Parser(argparse.ArgumentParser):
    """argparse with a user's mistake said on one line (and where the help is), exit status 2, and its own few words
    ("usage:", "options:", the help option's) in the command line's language: ``words``, given to each sub-command's
    parser too (argparse's ``gettext`` reads ``.mo`` files only, which we do not write: docs/languages.md)."""

    def __init__(self, *args: Any, words: Words = ENGLISH, **kwargs: Any) -> None:
        kwargs["formatter_class"] = speaking(kwargs.get("formatter_class", argparse.HelpFormatter), words)
        kwargs["add_help"] = False  # its own -h, said in the language
        super().__init__(*args, **kwargs)
        self.words = words
        self._positionals.title = words.t("positional arguments")
        self._optionals.title = words.t("options")
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                          help=words.t("show this help message and exit"))

    def add_subparsers(self, **kwargs: Any) -> Any:
        """Sub-commands whose parsers speak as this one."""
        kwargs.setdefault("parser_class", functools.partial(type(self), words=self.words))
        return super().add_subparsers(**kwargs)

    def error(self, message: str) -> Any:  # argparse's NoReturn
        self.exit(USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def speaking(formatter: type[argparse.HelpFormatter], words: Words) -> type[argparse.HelpFormatter]:
    """``formatter`` with its "usage: " in ``words``' language."""

    class Speaking(formatter):  # type: ignore[valid-type,misc]
        def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
            super().add_usage(usage, actions, groups, words.t("usage: ") if prefix is None else prefix)

    return Speaking


class Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (importlib.metadata is ~15 ms of a table's
    start here, a third of a second on a Pi Zero: issue 43)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        sys.stdout.write(f"companion {version()}\n")  # as argparse's "version" action says it
        parser.exit()


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("companion")
    except PackageNotFoundError:  # run from the sources without an install
        return "unknown (not installed)"


def build_parser(*, simulator: bool = True, words: Words = ENGLISH) -> argparse.ArgumentParser:
    """The command line, its help in ``words``' language; ``simulator=False`` (``companion run``): ``simulate``
    without its options, so that the table's start does not import the simulator (issue 43)."""
    t = words.t
    parser = Parser(prog="companion", description=t(HELP), formatter_class=argparse.RawDescriptionHelpFormatter,
                    words=words)
    parser.add_argument("--version", action=Version,
                        help=t("show program's version number and exit"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        spoken = t(text)
        epilog = EXAMPLES.get(name)
        return sub.add_parser(name, help=spoken, description=spoken[:1].upper() + spoken[1:] + ".",
                              epilog=t(epilog) if epilog else None,
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    p = command("replay", N_("run a game file (JSON Lines) and print the story or the final state"))
    p.add_argument("file", help=t("game file, or - for standard input"))
    p.add_argument("--json", action="store_true", help=t("print the final state object of DESIGN.md"))
    p.add_argument("--pretty", action="store_true", help=t("indent the JSON"))
    p.add_argument("--board", help=t("a board file of your own edition instead of the bundled one"))
    p.add_argument("--language", choices=list(TABLE_LANGUAGES),
                   help=t("the story's language (default: the locale's, LC_ALL/LC_MESSAGES/LANG, else en as the "
                          "engine wrote it; docs/languages.md)"))
    p.set_defaults(func=cmd_replay)
    p = command("check-board", N_("validate a board file of your own edition"))
    p.add_argument("ruleset", help=t("classic, addon, magie-1904, magie-1924 or chambers"))
    p.add_argument("file", help=t("the board file (TOML)"))
    p.set_defaults(func=cmd_check_board)
    p = command("demo", N_("the simulated table: keys as buttons, or --headless with a button script"))
    p.add_argument("--headless", action="store_true", help=t("play a button script on simulated time, no terminal"))
    p.add_argument("--input", help=t("the button script (ROLL, YES, NO, PREV, NEXT, MENU, HOLD, DICE, WAIT, TAP)"))
    p.add_argument("--setup", help=t("headless: a JSON file with the setup object (else a new two-player game)"))
    p.add_argument("--frames", help=t("headless: write every new OLED frame to this folder as PNG"))
    p.add_argument("--json", action="store_true",
                   help=t("headless: print each frame's cues (seat lights, sounds, sentences), then the final state"))
    p.add_argument("--dice", choices=["roller", "software", "manual"], help=t("dice source (default: roller)"))
    p.add_argument("--language", choices=list(TABLE_LANGUAGES),
                   help=t("the table's language: the OLED's, the voice's and the terminal's (default: the locale's, "
                          "LC_ALL/LC_MESSAGES/LANG, else en; docs/languages.md)"))
    p.add_argument("--journal", help=t("interactive: the games file (default: ~/.local/share/companion/demo.sqlite3)"))
    p.add_argument("--port", type=int, default=8080, help=t("interactive: the phone page's port (default 8080)"))
    p.add_argument("--sound", action="store_true",
                   help=t("interactive: play the buzzer's cues and the voice (espeak-ng) on this computer's speaker"))
    p.add_argument("--screen", choices=["auto", "text", "pixels"], default="auto",
                   help=t("interactive: the OLED as text (any terminal) or pixels (130x37 or more); auto: by size"))
    p.set_defaults(func=cmd_demo)
    p = command("run", N_("the table on a Raspberry Pi (buttons, dice roller, OLED, phone page)"))
    p.add_argument("--config", help=t("config file (default: /etc/companion/config.toml, else defaults)"))
    p.add_argument("--pins", help=t("pin map (default: /etc/companion/pins.toml, else hardware/pins.toml, as the "
                                    "package bundles it)"))
    p.add_argument("--game", type=int, help=t("go on with this stored game (`companion games list`), not the last one"))
    p.set_defaults(func=cmd_run)
    games.add_parser(sub, t)
    if simulator:
        from companion.sim import command as simulate

        simulate.add_parser(sub, words)
    else:
        sub.add_parser("simulate")
    return parser


#: The packages of the ``table`` extra (and ``web`` within it): a command that needs one says which install has it.
TABLE_PACKAGES = {"gpiozero", "luma", "PIL", "smbus2", "flask", "cheroot", "segno"}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    words = terminal_words(chosen_language(option_language(argv)))  # before the parser: its help is said in it
    args: Any = build_parser(simulator=argv[:1] != ["run"], words=words).parse_args(argv)
    args.words = words
    args.summary = lambda state: summary(state, None, args.words)  # `games show`: the journal imports no words
    try:
        return int(args.func(args, out or sys.stdout))
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing not in TABLE_PACKAGES:
            raise
        print(f"companion {args.command}: " + args.words.t(
            "needs the table's packages ({missing} is not installed): pip install -e '.[table]' (or pip install "
            "'companion[table]')", missing=missing), file=sys.stderr)
        return USAGE


if __name__ == "__main__":
    sys.exit(main())
