"""``companion``: the command line. The only place (with table.py) that wires the rooms together."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from companion.engine import CompanionError, State, public_state
from companion.engine.rules import load_ruleset
from companion.gamefile import GameFileError, Replay, replay
from companion.journal import command as games
from companion.sim import command as simulate


def summary(state: State) -> str:
    """A readable account of a state: players, deeds, pools, what the game waits for."""
    lines = [f"{state['ruleset']} — input {state['seq']}, turn {state['turn']['number']} ({state['turn']['player']})"]
    owners: dict[str, list[str]] = {}
    for sid, rec in state.get("spaces", {}).items():
        if rec.get("owner"):
            mark = "".join([
                f" {rec['houses']}h" if rec.get("houses") else "",
                " hotel" if rec.get("hotel") else "",
                " (mortgaged)" if rec.get("mortgaged") else "",
            ])
            owners.setdefault(rec["owner"], []).append(sid + mark)
    for p in state["players"]:
        status = " bankrupt" if p.get("bankrupt") else (" in jail" if p.get("in_jail") else "")
        cash = f"${p['cash']:>5}" if "cash" in p else ""
        lines.append(f"  {p['name']:<10} {cash} on {p['space']}{status}")
        if owners.get(p["name"]):
            lines.append("             " + ", ".join(owners[p["name"]]))
        if p.get("cards"):
            lines.append("             cards: " + ", ".join(p["cards"]))
    for pool, amount in state.get("pools", {}).items():
        lines.append(f"  {pool}: ${amount}")
    if state.get("bank"):
        lines.append("  bank: " + ", ".join(f"{v} {k}" for k, v in state["bank"].items()))
    if state.get("winner"):
        lines.append(f"Winner: {state['winner']}")
    elif state.get("prompt"):
        lines.append(f"Waiting: {state['prompt']['text']}")
    return "\n".join(lines)


def print_story(result: Replay, out: TextIO) -> None:
    for _, event in result.events:
        out.write(f"  {event['text']}\n")
    out.write("\n" + summary(result.state) + "\n")


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    ruleset = None
    try:
        text = Path(args.file).read_text(encoding="utf-8") if args.file != "-" else sys.stdin.read()
    except OSError as error:
        print(f"companion: {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    try:
        if args.board:
            first = json.loads(text.splitlines()[0])
            ruleset = load_ruleset(first["setup"]["ruleset"], args.board)
        result = replay(text.splitlines(), ruleset)
    except GameFileError as error:
        print(f"companion: {args.file}: {error}", file=sys.stderr)
        return 1
    except (CompanionError, ValueError, KeyError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(public_state(result.state), out, indent=1 if args.pretty else None)
        out.write("\n")
    else:
        print_story(result, out)
    return 0


def cmd_check_board(args: argparse.Namespace, out: TextIO) -> int:
    try:
        ruleset = load_ruleset(args.ruleset, args.file)
    except (CompanionError, ValueError) as error:
        print(f"companion: {error}", file=sys.stderr)
        return 1
    board = ruleset.board
    out.write(f"{board.source}: {len(board.spaces)} spaces, {len(board.groups)} groups, "
              f"{len(board.cards)} cards — a valid {args.ruleset} board\n")
    return 0


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    """For now: replay the bundled example game and tell its story."""
    example = resources.files("companion.examples").joinpath("classic-short.jsonl").read_text(encoding="utf-8")
    result = replay(example.splitlines())
    out.write("A short classic game, replayed from companion/examples/classic-short.jsonl:\n\n")
    print_story(result, out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="run a game file (JSON Lines) and print the story or the final state")
    p.add_argument("file", help="game file, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the final state object of DESIGN.md")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.add_argument("--board", help="a board file of your own edition instead of the bundled one")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("check-board", help="validate a board file of your own edition")
    p.add_argument("ruleset")
    p.add_argument("file")
    p.set_defaults(func=cmd_check_board)
    p = sub.add_parser("demo", help="the simulated table")
    p.set_defaults(func=cmd_demo)
    games.add_parser(sub)
    simulate.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args: Any = build_parser().parse_args(argv)
    return int(args.func(args, out or sys.stdout))


if __name__ == "__main__":
    sys.exit(main())
