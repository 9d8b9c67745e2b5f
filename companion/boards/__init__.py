"""Board data files, one TOML file per ruleset, and the function that reads them.

Each bundled board's TOML is also kept parsed, as JSON beside it (``classic.json`` for ``classic.toml``): reading it
is ~0.15 ms where parsing the TOML is ~6 ms here, ~0.2 s of a Pi Zero 2 W's start (issue 43). The TOML is the board's
source; ``python -m companion.boards`` writes the JSON again after a board is changed, and
tests/test_board_loader.py fails while any JSON differs from its TOML parsed. A user's board file is parsed.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from companion.errors import BoardError
from companion.localfiles import MAX_SETTINGS_BYTES, parse_toml, read_text


def read_board_file(ruleset_or_path: str | Path) -> tuple[dict[str, Any], str]:
    """Parse a bundled board (by ruleset id) or a user's board file (by path).

    Returns the parsed TOML and the name to use for it in error messages.
    """
    path = Path(ruleset_or_path)
    if path.suffix == ".toml":
        name = str(path)
        data = parse_board(_read(path), name)
    else:
        name = f"{ruleset_or_path}.toml"
        resource = resources.files(__name__).joinpath(name)
        if not resource.is_file():
            raise BoardError(f"no bundled board for ruleset {ruleset_or_path!r}")
        parsed = resources.files(__name__).joinpath(f"{ruleset_or_path}.json")
        data = json.loads(parsed.read_text(encoding="utf-8")) if parsed.is_file() else \
            parse_board(resource.read_text(encoding="utf-8"), name)
    base = data.get("game", {}).get("extends")
    if base:
        data = extend(read_board_file(base)[0], data, name)
    return data, name


def parse_board(text: str, name: str) -> dict[str, Any]:
    """A board file's TOML, its errors as :class:`BoardError`."""
    try:
        return parse_toml(text, name)
    except tomllib.TOMLDecodeError as error:
        raise BoardError(f"{name}: {error}") from None


def write_parsed(folder: Path | None = None) -> list[Path]:
    """Each bundled board's TOML parsed, written as the JSON beside it (``python -m companion.boards``)."""
    folder = folder or Path(__file__).parent
    written = []
    for board in sorted(folder.glob("*.toml")):
        target = board.with_suffix(".json")
        target.write_text(json.dumps(parse_board(_read(board), board.name), ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")
        written.append(target)
    return written


def extend(base: dict[str, Any], child: dict[str, Any], name: str) -> dict[str, Any]:
    """A board that ``extends`` another: its spaces and cards are added to the base's.

    A space or card whose id is already in the base changes only the keys it gives (so the
    addon board can give the four utilities their four rents without copying the outer board);
    options (and their one-line texts) are merged, the child's winning.
    """
    merged = {**base, **{k: v for k, v in child.items() if k not in {"spaces", "cards", "options", "option_text", "game"}}}
    merged["game"] = {**base.get("game", {}), **child["game"]}
    merged["options"] = {**base.get("options", {}), **child.get("options", {})}
    merged["option_text"] = {**base.get("option_text", {}), **child.get("option_text", {})}
    for key in ("spaces", "cards"):
        items = [dict(item) for item in base.get(key, [])]
        index = {item.get("id"): i for i, item in enumerate(items)}
        for item in child.get(key, []):
            if not isinstance(item, dict) or "id" not in item:
                raise BoardError(f"{name}: {key}: every entry needs an id")
            if item["id"] in index:
                items[index[item["id"]]].update(item)
            else:
                items.append(dict(item))
        merged[key] = items
    return merged


def _read(path: Path) -> str:
    try:
        return read_text(path, MAX_SETTINGS_BYTES, "a board file")
    except OSError as error:
        raise BoardError(f"{path}: {error.strerror}") from None
