"""The questions' deeds entry ("Build, mortgage") on the buttons, worked out as far as the OLED shows it (issue 43).

Whether a player's entry is there at all is drawn at every question ("< > 1 of 2"): found by trying their acts on the
engine until one is taken. Its words are drawn only with the cursor on it (or as a yes/no question's "NEXT:" row):
worked out then, from the state the screen shows, so a phone's change never leaves words the deeds no longer offer.
Through the mock pins and the real journal, as tests/face/test_table.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.face import choices

from .test_table import LOOK, phone, start, table


def tries_counted(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every act the buttons' choices try on the engine from now on (the deeds entry's tries), in order."""
    tried: list[dict[str, Any]] = []
    real = choices._taken

    def counting(ruleset: Any, state: Any, act: Any) -> bool:
        tried.append(dict(act))
        return real(ruleset, state, act)

    monkeypatch.setattr(choices, "_taken", counting)
    return tried


def monopoly(cash: int, **bob: Any) -> dict[str, Any]:
    """Ann owns Mediterranean and Baltic Avenue (she may build) and Reading Railroad; Bob owns Boardwalk."""
    setup = start(Ann={"space": "go", "cash": cash}, Bob={"space": "go", **bob})
    setup["start"]["spaces"] = {"mediterranean-avenue": {"owner": "Ann"}, "baltic-avenue": {"owner": "Ann"},
                                "reading-railroad": {"owner": "Ann"}, "boardwalk": {"owner": "Bob"}}
    return setup


def test_a_phones_input_tries_the_engine_once_for_an_entry_the_screen_only_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob mortgages Boardwalk on his phone while Ann's roll is on the OLED with the cursor on its own row: the screen
    counts Ann's entry ("1 of 2") but does not say it, so the engine is tried until one act is taken (building on
    Mediterranean Avenue, the first), not for every kind of act its words would name (4 tries before issue 43)."""
    with table(tmp_path, monopoly(500)) as t:
        assert "< Roll the dice >" in t.text() and "1 of 2" in t.text()
        tried = tries_counted(monkeypatch)
        phone(t, {"act": {"player": "Bob", "do": "mortgage", "space": "boardwalk"}})
        assert "mortgage of Boardwalk" in t.text() and "< Roll the dice >" in t.text() and "1 of 2" in t.text()
        assert tried == [{"player": "Ann", "do": "build", "space": "mediterranean-avenue"}]
        tried.clear()
        t.play("WAIT 1000", "NEXT")  # now the words are drawn: worked out, from the act taken on
        assert "< Build, mortgage >" in t.text()
        assert tried and all(act["player"] == "Ann" for act in tried)
        tried.clear()
        phone(t, {"act": {"player": "Bob", "do": "unmortgage", "space": "boardwalk"}})
        assert "< Build, mortgage >" in t.text()  # the same words for the new state: the cursor stays on them
        assert tried  # ... worked out again for it, not kept from the state before
        t.play("WAIT 1000", "YES")
        assert t.station.controller.mode == "deeds" and "Build on Mediterranean Avenue: pay $50" in t.text()


def test_the_act_the_entry_was_found_by_is_tried_first_after_a_phones_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann ($40) cannot build: her entry is found by mortgaging Mediterranean Avenue, after five refusals. A phone's
    input elsewhere tries that act first: one try while it is still taken."""
    with table(tmp_path, monopoly(40)) as t:
        tried = tries_counted(monkeypatch)
        phone(t, {"act": {"player": "Bob", "do": "mortgage", "space": "boardwalk"}})
        assert "< Roll the dice >" in t.text() and "1 of 2" in t.text()
        assert tried == [{"player": "Ann", "do": "mortgage", "space": "mediterranean-avenue"}]
        tried.clear()
        phone(t, {"act": {"player": "Ann", "do": "mortgage", "space": "mediterranean-avenue"}})  # not any more
        assert "1 of 2" in t.text() and tried[0]["do"] == "mortgage" and len(tried) > 1
        assert tried[-1] == {"player": "Ann", "do": "unmortgage", "space": "mediterranean-avenue"}  # $70: lift it


def test_the_entry_says_what_the_deeds_offer_right_after_a_phone_changed_the_cash(tmp_path: Path) -> None:
    """Ann ($40) may only mortgage; her phone mortgages Reading Railroad ($140): she may build and lift it. The cursor
    was on "Mortgage": it is not left on the entry that took its place (issue 38's rule), whose words are the new
    ones, and YES there opens the deeds as they are now."""
    with table(tmp_path, monopoly(40)) as t:
        t.play("NEXT")
        assert "< Mortgage >" in t.text()
        phone(t, {"act": {"player": "Ann", "do": "mortgage", "space": "reading-railroad"}})
        assert "< Roll the dice >" in t.text() and "Mortgage" not in t.text().split("roll the dice")[-1]
        t.play("WAIT 1000", "NEXT")
        assert "Build, lift a mortgage" in " ".join(t.text().replace("< ", "").replace(" >", "").split())
        t.play("YES")
        assert t.station.controller.mode == "deeds"
        assert "Build on Mediterranean Avenue: pay $50" in t.text() and "Ann $140" in t.text()
        t.play("NO", "WAIT 1000", "NEXT")
        phone(t, {"act": {"player": "Ann", "do": "unmortgage", "space": "reading-railroad"}})  # $30 again
        assert "< Roll the dice >" in t.text()
        t.play("WAIT 1000", "NEXT")
        assert "< Mortgage >" in t.text()
        t.play("YES")
        assert "Mortgage Mediterranean Avenue: get $30" in t.text()
        assert "Build" not in t.text() and "Lift" not in t.text()


def test_a_yes_no_questions_next_row_says_the_deeds_as_a_phone_left_them(tmp_path: Path) -> None:
    """At the buy question the entry is drawn without the cursor on it ("NEXT: Mortgage"): its words are worked out
    for each state, so a mortgage from a phone (cash, and a deed to lift) shows at once."""
    setup = start(Ann={"space": "go", "cash": 40})
    setup["start"]["spaces"] = {"reading-railroad": {"owner": "Ann"}, "short-line": {"owner": "Ann"}}
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 1 2")
        assert "Buy Baltic Avenue for $60?" in t.text() and "NEXT: Mortgage" in t.text()
        phone(t, {"act": {"player": "Ann", "do": "mortgage", "space": "reading-railroad"}})
        assert "NEXT: Lift a mortgage, mortgage" in t.text()
        t.play("WAIT 1000", "NEXT", "NEXT")  # the story's next page (the question's), then onto the entry
        assert "YES: pick" in t.text()
        t.play("YES")
        assert "Lift the mortgage on Reading Railroad: pay $110" in t.text()


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924", "chambers"])
def test_the_buttons_list_read_as_the_screen_reads_it_is_the_whole_list(ruleset: str, tmp_path: Path) -> None:
    """At every state of bot games, the game's question on a station (its deeds entry found from the state before's,
    its words worked out when read) reads as the list with every label worked out (:func:`.choices.prompt_choices`):
    the label under the cursor wherever it is, the count, each choice's key, and looking a key up (after a phone's
    change) finds its place."""
    from companion.engine import apply, new_game
    from companion.sim import GameSpec, play_game

    for seed in (4, 6):
        lines: list[dict[str, Any]] = []
        play_game(GameSpec(ruleset, 3, seed=seed), 0, lines)
        with table(tmp_path, lines[0]["setup"], journal=tmp_path / f"{ruleset}-{seed}.sqlite3") as t:
            game, labels = t.station.controller.game_mode, t.station.controller.labels()
            state, _ = new_game(lines[0]["setup"])
            for line in lines[1:120]:
                whole = choices.prompt_choices(state, labels)
                for cursor in range(len(whole)):
                    actions = game.choices(state)
                    game.cursor, game.selected = cursor, True
                    shown = game.choice(state)
                    assert shown is not None and len(shown.labels) == len(whole)
                    assert shown.labels[cursor] == whole[cursor].label, (state["seq"], cursor)
                    key = choices.choice_key(whole[cursor])
                    assert actions[cursor].key == key
                    found = next(i for i, a in enumerate(actions) if choices.may_be(a.choice, key))  # find_again's
                    assert found == [choices.choice_key(c) for c in whole].index(key)
                if not whole:
                    assert game.choice(state) is None
                state, _ = apply(state, line)
