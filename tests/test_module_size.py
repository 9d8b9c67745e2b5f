"""Small modules with one job: none over 500 lines outside the rulesets themselves (``companion/engine/rules/``)
unless its docstring says why ("Over 500 lines: ...")."""

from __future__ import annotations

import ast
from pathlib import Path

COMPANION = Path(__file__).parents[1] / "companion"
RULES = COMPANION / "engine" / "rules"
LIMIT = 500


def test_no_module_over_500_lines_without_a_reason_in_its_docstring() -> None:
    unexplained = []
    for path in sorted(COMPANION.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.is_relative_to(RULES):
            continue
        if text.count("\n") > LIMIT and "Over 500 lines:" not in (ast.get_docstring(ast.parse(text)) or ""):
            unexplained.append(f"{path.relative_to(COMPANION)}: {text.count(chr(10))} lines")
    assert unexplained == []
