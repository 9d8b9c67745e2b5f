"""Every game file under tests/gamefiles/ replays to its expected final state.

``NAME.jsonl`` is a game file (DESIGN.md's format); ``NAME.expected.json`` holds the part of the final public state
the rule under test decides (objects match on the keys given, lists item by item). A file whose expected JSON has
``"error"`` must stop at that line with that message instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine import public_state
from companion.gamefile import GameFileError, replay
from companion.engine.rules import find_ruleset

from .conftest import assert_subset

ROOT = Path(__file__).parent / "gamefiles"
FILES = sorted(ROOT.glob("*/*.jsonl"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_game_file(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    lines = path.read_text().splitlines()
    if "error" in expected:
        with pytest.raises(GameFileError) as caught:
            replay(lines)
        assert str(caught.value) == expected["error"]
        return
    result = replay(lines)
    state = public_state(result.state)
    assert_subset(expected, state)
    ledger_total(result.state)


def ledger_total(state: dict) -> None:
    """Money is conserved: players + pools + bank always sum to zero (the bank started at 0)."""
    total = sum(p.get("cash", 0) for p in state["players"]) + sum(state["pools"].values())
    assert total + state.get("bank_balance", 0) == 0


def test_every_file_has_expectations() -> None:
    assert FILES, "no game files found"
    for path in FILES:
        assert path.with_suffix(".expected.json").exists(), f"{path.name} has no expected state"


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924", "chambers"])
def test_every_verb_is_used_by_an_accepted_line_of_a_game_file(ruleset: str) -> None:
    """The README's promise: each verb (and host verb) is shown in use by a game file of its ruleset, or of the
    ruleset it builds on (``addon`` on ``classic``), on a line the engine accepts."""
    rules = find_ruleset(ruleset)
    families = [r for r in ("classic", "addon", "magie-1904", "magie-1924", "chambers")
                if isinstance(rules, type(find_ruleset(r)))]
    used: set[str] = set()
    for family in families:
        for path in sorted((ROOT / family).glob("*.jsonl")):
            if "error" in json.loads(path.with_suffix(".expected.json").read_text()):
                continue  # a file that stops at a refused line shows that refusal, not the verb in use
            for line in path.read_text().splitlines()[1:]:
                act = json.loads(line).get("act")
                if isinstance(act, dict):
                    used.add(str(act.get("do")))
    missing = (set(rules.verbs()) | set(rules.host_verbs())) - used
    assert not missing, f"{ruleset}: no game file uses {sorted(missing)}"
