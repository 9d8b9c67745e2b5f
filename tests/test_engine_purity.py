"""The engine imports nothing from the adapters and uses no clock, randomness, threads or I/O of its own."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).parents[1] / "companion" / "engine"
FORBIDDEN = {"random", "secrets", "time", "datetime", "os", "threading", "sqlite3", "socket", "subprocess",
             "companion.journal", "companion.drivers", "companion.face", "companion.web", "companion.table", "companion.cli"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = path.relative_to(ENGINE.parent).with_suffix("").parts[: -node.level]
                found.add(".".join(["companion", *parts[1:], node.module or ""]).rstrip("."))
            else:
                found.add(node.module or "")
    return found


def test_engine_imports_no_adapter() -> None:
    files = list(ENGINE.rglob("*.py"))
    assert len(files) > 5
    for path in files:
        for module in imported_modules(path):
            for bad in FORBIDDEN:
                assert not (module == bad or module.startswith(bad + ".")), f"{path.name} imports {module}"

