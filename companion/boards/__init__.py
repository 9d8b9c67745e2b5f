"""Board data files, one TOML file per ruleset, and the function that reads them."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from companion.engine.errors import BoardError


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
        return tomllib.loads(text), name
    except tomllib.TOMLDecodeError as error:
        raise BoardError(f"{name}: {error}") from None


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise BoardError(f"{path}: {error.strerror}") from None
