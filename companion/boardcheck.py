"""Misspelt keys in a user's board file: every key must be one the bundled board of its ruleset uses.

The engine takes a board's spaces, cards and options as open tables (a ruleset reads the keys it knows), so a
misspelt key (``prise = 60``) used to be accepted in silence and the price left out. ``companion check-board``
and ``replay --board`` compare each key with the keys the bundled board of the same ruleset uses in the same
place (``[game]``, ``[[spaces]]``, ``[[cards]]``, ``[options]``, the top-level tables), and refuse one that none
uses, with its key path, its line in the file and the nearest known key.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from companion.boards import read_board_file
from companion.localfiles import MAX_SETTINGS_BYTES, parse_toml, read_text
from companion.errors import BoardError
from companion.engine.board import Board
from companion.words import LANGUAGES

#: Top-level tables whose keys are names the board's author chooses (each preset's id, each language of its
#: names), not keys to check here (``names`` is checked by :func:`check_names`).
NAMED_TABLES = frozenset({"presets", "names"})
#: What a ``[names.<lang>]`` table may name, and where the board keeps those ids.
NAME_KINDS = ("spaces", "cards", "decks", "cube")


def vocabulary(data: Mapping[str, Any]) -> dict[str, set[str]]:
    """The keys a board uses, by place: "" (top level), "game", "options", "spaces", "cards", and each other
    top-level table by its name."""
    known: dict[str, set[str]] = {"": set(data)}
    for place, value in data.items():
        for table in (value if isinstance(value, list) else [value]):
            if isinstance(table, Mapping):
                known.setdefault(place, set()).update(table)
    return known


def unknown_keys(data: Mapping[str, Any], known: Mapping[str, set[str]]) -> Iterator[tuple[str, str, int | None]]:
    """(key path, key, index in its array of tables) for every key of ``data`` that ``known`` does not have."""
    for place, value in data.items():
        if place not in known[""] and place not in NAMED_TABLES:
            yield place, place, None
            continue
        if place in NAMED_TABLES:
            continue  # the engine checks each preset's text and options
        tables = value if isinstance(value, list) else [value]
        for index, table in enumerate(tables):
            if not isinstance(table, Mapping):
                continue
            for key in table:
                if key not in known.get(place, set()):
                    at = f"[{index}]" if isinstance(value, list) else ""
                    yield f"{place}{at}.{key}", key, index if isinstance(value, list) else None


def key_line(text: str, place: str, index: int | None, key: str) -> int | None:
    """The line (1-based) where ``key`` is written in table ``place`` (its ``index``-th, for an array of tables)."""
    lines = text.splitlines()
    header = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    seen, inside = -1, place == ""
    for number, line in enumerate(lines, 1):
        match = header.match(line)
        if match:
            name = match.group(1)
            if name == place:
                seen += 1
            inside = name == place and (index is None or seen == index)
            if place == "" or (inside and name == key and index is None):
                if name == key:
                    return number
            continue
        if inside and re.match(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=", line):
            return number
    return None


def check_keys(ruleset: str, path: str | Path) -> None:
    """Refuse a board file with a key its ruleset's bundled board never uses (``BoardError``, one line)."""
    data, name = read_board_file(path)
    text = read_text(path, MAX_SETTINGS_BYTES, "a board file")
    own = parse_toml(text, name)  # the file's own keys, before ``extends``
    known = vocabulary(read_board_file(ruleset)[0])
    for key_path, key, index in unknown_keys(own, known):
        place = key_path.split(".")[0].split("[")[0] if "." in key_path else ""
        line = key_line(text, place, index, key)
        near = difflib.get_close_matches(key, sorted(known.get(place, known[""])), n=1)
        hint = f" (did you mean `{near[0]}`?)" if near else ""
        where = f"{name}, line {line}" if line else name
        raise BoardError(f"{where}: {key_path}: unknown key for a {ruleset} board{hint}")


def check_names(board: Board) -> None:
    """Refuse a ``[names.<lang>]`` table (an edition's own names of its spaces, cards, decks and cube faces in a
    language: a chamber is named as its deck, a face of magie-1924's cube by its number, ``"5" = "..."``) for a
    language the table does not speak, naming a kind other than spaces, cards, decks or cube, an id the board does not
    have, or a name that is not a non-empty string (``BoardError``, one line)."""
    names = board.data.get("names", {})
    where = f"{board.source}: names"
    if not isinstance(names, Mapping):
        raise BoardError(f"{where}: expected a table of languages ([names.de.spaces] ...)")
    cube = board.data.get("cube")
    ids: dict[str, Mapping[str, Any] | list[str]] = {
        "spaces": board.by_id, "cards": board.cards, "decks": list(board.decks),
        "cube": [str(face.get("face")) for face in cube if isinstance(face, Mapping)] if isinstance(cube, list) else []}
    for language, kinds in names.items():
        if language not in LANGUAGES:
            raise BoardError(f"{where}.{language}: not a language of the table (known: {', '.join(LANGUAGES)})")
        if not isinstance(kinds, Mapping):
            raise BoardError(f"{where}.{language}: expected tables of {', '.join(NAME_KINDS)}")
        for kind, table in kinds.items():
            if kind not in NAME_KINDS:
                near = difflib.get_close_matches(kind, NAME_KINDS, n=1)
                hint = f" (did you mean `{near[0]}`?)" if near else ""
                raise BoardError(f"{where}.{language}.{kind}: unknown kind of name{hint}")
            if not isinstance(table, Mapping):
                raise BoardError(f"{where}.{language}.{kind}: expected a table of ids and names")
            for item, name in table.items():
                if item not in ids[kind]:
                    near = difflib.get_close_matches(item, sorted(ids[kind]), n=1)
                    hint = f" (did you mean `{near[0]}`?)" if near else ""
                    raise BoardError(f"{where}.{language}.{kind}.{item}: the board has no such id{hint}")
                if not isinstance(name, str) or not name.strip():
                    raise BoardError(f"{where}.{language}.{kind}.{item}: expected a name, found {name!r}")
