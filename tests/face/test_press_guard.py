"""No press acts for a question its presser did not see, over bot games of every ruleset.

The bots of :mod:`companion.sim` choose each input; it is sent as these buttons' own (the controller's submit, as a
press on a choice does), on a table with mock pins, the real journal and simulated time. After every input that
takes the game to another player's question, another kind of question, or past a roll or an answer, each button a
player may press twice (YES, NO, ROLL, PREV, NEXT) is pressed 350 ms later: none may journal an input, move the
cursor or start a "YES again"; the notice says what changed. The same press a second later is the game's again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.drivers.buttons import ButtonEvent
from companion.drivers.clock import SimClock
from companion.face.controller import TableController
from companion.face.press_guard import GUARDED
from companion.sim import GameSpec, play_game
from companion.startup.mock import mock_station

RULESETS = ["classic", "addon", "magie-1904", "magie-1924", "chambers"]
DOUBLE = 0.35  # seconds between the press that sent an input and the second one (issue 38's double YES)


def journaled(controller: TableController) -> int:
    return controller.table.game.export().count("\n")  # type: ignore[union-attr]


def looks(controller: TableController) -> tuple[Any, ...]:
    """What a refused press must leave as it was: the game, the cursor, a pending "YES again", the open mode."""
    game = controller.game_mode
    return controller.table.state, game.cursor, game.selected, game.confirming, controller.mode


def new_question(before: dict[str, Any] | None, after: dict[str, Any] | None, line: dict[str, Any]) -> bool:
    """A question its presser did not see: another player's or another kind, or anything after a roll or an
    answer (the roll's result, the answer's outcome)."""
    if before is None or after is None:
        return before != after
    moved_on = ("roll" in line or "answer" in line) and before != after
    return moved_on or (before.get("player"), before.get("kind")) != (after.get("player"), after.get("kind"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_double_press_applies_an_input_to_a_question_its_presser_did_not_see(tmp_path: Path,
                                                                                 ruleset: str) -> None:
    lines: list[dict[str, Any]] = []
    play_game(GameSpec(ruleset, 3, seed=5, turn_cap=40), 0, lines)
    clock = SimClock()
    checked: dict[str, int] = {}
    with mock_station(journal_path=tmp_path / "games.sqlite3", dice="software", clock=clock, sleep=clock.sleep,
                      setup=lines[0]["setup"], new_seed=lambda: 1) as (station, _, _):
        controller = station.controller
        for number, line in enumerate(lines[1:], start=2):
            before = controller.table.state["prompt"]  # type: ignore[index]
            pressed = clock()
            assert controller.submit(line, "button"), f"line {number}: {line} refused"
            controller.refresh()
            after = (controller.table.state or {}).get("prompt")
            if not new_question(before, after, line) or controller.mode != "game":
                clock.advance(1.0)
                continue
            for button in GUARDED:
                count, seen = journaled(controller), looks(controller)
                controller.on_button(ButtonEvent(button, "press", pressed + DOUBLE))
                assert journaled(controller) == count, \
                    f"line {number}: {button} applied {controller.table.game.export().splitlines()[-1]}"  # type: ignore[union-attr]
                assert looks(controller) == seen, f"line {number}: {button} changed the buttons' place"
                notice = controller.notice() or ""
                assert "look, then press again" in notice, f"line {number}: {button}: {notice!r}"
                if after and after.get("player") and after.get("player") != (before or {}).get("player") and \
                        after.get("kind") != "auction":
                    assert notice.startswith(f"{after['player']}'s turn now"), notice
                checked[button] = checked.get(button, 0) + 1
            clock.advance(1.0)  # a second later the question is the players' again
            controller.notices.clear()
            controller.on_button(ButtonEvent("NEXT", "press", clock()))
            assert "look, then press again" not in (controller.notice() or "") or controller.mode != "game"
            controller.on_button(ButtonEvent("PREV", "press", clock()))
            controller.notices.clear()
    assert min(checked.values(), default=0) >= 20, checked  # many questions of the game were pressed on twice
