"""Board data files, one TOML file per ruleset, and the function that reads them."""

from __future__ import annotations

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
        name, text = str(path), _read(path)
    else:
        name = f"{ruleset_or_path}.toml"
        resource = resources.files(__name__).joinpath(name)
        if not resource.is_file():
            raise BoardError(f"no bundled board for ruleset {ruleset_or_path!r}")
        text = resource.read_text(encoding="utf-8")
    try:
        data = parse_toml(text, name)
    except tomllib.TOMLDecodeError as error:
        raise BoardError(f"{name}: {error}") from None
    base = data.get("game", {}).get("extends")
    if base:
        data = extend(read_board_file(base)[0], data, name)
    return data, name


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
