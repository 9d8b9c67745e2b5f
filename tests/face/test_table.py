"""The whole table on mock hardware: button presses and roller strobes become journaled inputs.

Every action goes through gpiozero MockFactory pins (tests/face use companion.drivers.virtual),
the real journal (SQLite in a temporary folder), the real engine and the controller; what the
OLED shows is read from the screen layout the controller drew. Time is simulated.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c

from companion.drivers.clock import SimClock
from companion.drivers.display import PagedSSD1306
from companion.drivers.pins import load_pins
from companion.drivers.virtual import VirtualButtons, VirtualI2CBus, VirtualRoller
from companion.engine import find_ruleset
from companion.face import screens
from companion.face.dice import SoftwareDice
from companion.face.join import JoinInfo
from companion.face.screens import Labels
from companion.journal import Journal
from companion.startup.mock import mock_station
from companion.startup.station import Station, build_station

from tests.drivers.panel import SSD1306Ram
from tests.drivers.test_display import expected_pages


#: A person reads a new question before pressing: a press sooner is refused as meant for the screen before
#: (:data:`companion.face.press_guard.GUARD`).
LOOK = "WAIT 700"


def start(**players: dict[str, Any]) -> dict[str, Any]:
    """A classic game in progress: Ann and Bob where the test needs them."""
    return {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 11,
            "start": {"players": {"Ann": {"space": "go"}, "Bob": {"space": "go"}, **players}, "turn": "Ann"}}


@dataclass
class Rig:
    station: Station
    buttons: VirtualButtons
    roller: VirtualRoller
    clock: SimClock

    @property
    def state(self) -> dict[str, Any]:
        return self.station.table.public()  # type: ignore[return-value]

    def text(self) -> str:
        """Everything the OLED shows now, as one line of text (wrapped rows joined)."""
        screen = self.station.controller.screen()
        return " ".join(" ".join(row.text for row in screen.rows).split())

    def shows_whole_notice(self) -> bool:
        """Whether the notice (or standing warning) in view is on the OLED whole, not cut to its rows."""
        notice, _ = self.station.controller.notices.shown(0)
        return notice is not None and f"! {notice}" in self.text()

    def inputs(self) -> list[dict[str, Any]]:
        game = self.station.table.game
        return [json.loads(line) for line in game.export().splitlines()[1:]]  # type: ignore[union-attr]

    def play(self, *lines: str) -> None:
        from companion.drivers.script import parse_script, run_script

        run_script(parse_script(lines), self.buttons, self.roller)


@contextmanager
def table(tmp_path: Path, setup: dict[str, Any] | None = None, dice: str = "roller",
          journal: Path | None = None, **options: Any) -> Iterator[Rig]:
    sim = SimClock()
    with mock_station(journal_path=journal or tmp_path / "games.sqlite3", dice=dice, clock=sim, sleep=sim.sleep,
                      setup=setup, new_seed=lambda: 5, **options) as (station, factory, pins):
        buttons = VirtualButtons(factory, pins.buttons, sim.sleep, after_step=station.tick)
        yield Rig(station, buttons, VirtualRoller(factory, pins.roller, sim.sleep), sim)


def test_roll_and_buy_with_the_roller_and_yes(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        assert "Ann, roll the dice" in t.text() and "ROLL: roll dice" in t.text()
        t.play("ROLL")
        assert t.roller.requests_seen() == 1  # the REQUEST pulse
        t.play("DICE 1 2")
        assert "Buy Baltic Avenue for $60?" in t.text()
        assert "Move Ann's token 3 spaces forward to" in t.text()
        assert "YES: buy $60 NO: auction" in t.text()
        t.play(LOOK, "YES")
        assert t.state["spaces"]["baltic-avenue"]["owner"] == "Ann"
        assert t.inputs() == [{"roll": [1, 2]}, {"answer": "yes"}]


@pytest.mark.parametrize("between", ["WAIT 150", "WAIT 350"])  # the second press's edge 350 and 550 ms after the first
def test_a_double_yes_at_a_buy_prompt_applies_one_input(tmp_path: Path, between: str) -> None:
    """YES, then YES again a moment later: Ann bought Canal Street and the second YES rolled Bob's dice (the roll
    prompt's highlighted row was the roll), an irreversible roll Bob never asked for (issue 38)."""
    setup = start()
    setup["start"]["spaces"] = {"reading-railroad": {"owner": "Bob"}}  # Bob's roll prompt has rows: the roll first
    with table(tmp_path, setup, dice="software") as t:
        faces = iter([0, 1, 2, 2, 4, 5])  # Ann throws 1 and 2 (Baltic Avenue); anything after is Bob's
        t.station.controller.software = SoftwareDice(randbelow=lambda _: next(faces))
        t.play("ROLL", LOOK)
        assert "Buy Baltic Avenue for $60?" in t.text()
        t.play("YES", between, "YES")
        assert t.inputs() == [{"roll": [1, 2]}, {"answer": "yes"}]  # exactly one input for the two presses
        assert "Bob's turn now" in t.text() and "< Roll the dice >" in t.text()
        t.play(LOOK, "YES")  # a YES Bob did mean, on the roll's own row: only ROLL rolls
        assert "Press ROLL to roll the dice" in t.text() and len(t.inputs()) == 2
        t.play("ROLL")
        assert t.inputs()[-1] == {"roll": [3, 3]}


def test_a_press_that_went_down_before_the_question_changed_is_refused(tmp_path: Path) -> None:
    """The controller knows which question the pressed screen showed: an edge from before the change (a press queued
    while the buy was being journaled) was meant for the buy, however late it is handled."""
    from companion.drivers.buttons import ButtonEvent

    with table(tmp_path, start(), dice="software") as t:
        faces = iter([0, 1, 2, 2])
        t.station.controller.software = SoftwareDice(randbelow=lambda _: next(faces))
        t.play("ROLL", LOOK)
        pressed = t.clock()
        t.play("YES", "WAIT 2000")  # the buy, and time for Bob to read his turn
        t.station.controller.on_button(ButtonEvent("ROLL", "press", pressed))  # handled now, pressed before the buy
        assert t.inputs() == [{"roll": [1, 2]}, {"answer": "yes"}] and "Bob's turn now" in t.text()


def test_no_opens_the_auction_held_on_the_buttons_or_the_phones(tmp_path: Path) -> None:
    """A table without phones used to be stuck in every auction (YES: "This is for the phones")."""
    with table(tmp_path, start()) as t:
        t.play("ROLL", "DICE 1 2", LOOK, "NO", LOOK)
        assert t.state["prompt"]["kind"] == "auction"
        assert "Still bidding: Ann, Bob" in t.text() and "Ann: bid $10" in t.text()
        t.play("ROLL")  # nobody rolls in an auction
        t.play("YES")  # Ann bids $10
        assert "Bob: bid $20" in t.text()
        t.play(LOOK, "NEXT")
        assert "Bob: bid $60" in t.text()  # the big step
        t.play("NEXT")
        assert "Bob: bid $110" in t.text()  # the biggest: the phones' quick bids are the same (companion.bids)
        t.play("NEXT", "YES")  # Bob passes
        assert t.inputs() == [{"roll": [1, 2]}, {"answer": "no"}, {"act": {"player": "Ann", "do": "bid", "amount": 10}},
                              {"act": {"player": "Bob", "do": "pass"}}]
        assert t.state["spaces"]["baltic-avenue"]["owner"] == "Ann" and t.state["players"][0]["cash"] == 1490


def test_a_faulty_reading_is_shown_and_asked_again(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("ROLL", "DICE 7 2")
        assert "die A read 7" in t.text() and t.shows_whole_notice()
        assert t.roller.requests_seen() == 2  # asked again by itself
        assert t.inputs() == []
        t.play("DICE 3 3")  # unsteady too? no: a good one now
        assert t.inputs() == [{"roll": [3, 3]}]
        assert "die A read 7" not in t.text()  # the fault notice ends with the roll


def test_three_faults_wait_for_roll_again(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("ROLL", "DICE 0 0")
        assert "no dice on its lines: plugged in?" in t.text() and t.shows_whole_notice()
        t.play("DICE 7 7", "DICE 0 7")
        assert t.roller.requests_seen() == 3  # the first and two retries
        assert t.inputs() == []
        t.play("ROLL")
        assert t.roller.requests_seen() == 4


def test_a_silent_roller_is_reported(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("ROLL", "WAIT 3500")
        assert "does not answer" in t.text() and "ROLL again" in t.text() and t.shows_whole_notice()
        t.play("WAIT 10000")
        assert "does not answer" in t.text()  # stays until the roll is made
        t.play("ROLL", "DICE 2 2")
        assert "does not answer" not in t.text() and t.inputs() == [{"roll": [2, 2]}]


def test_a_long_refusal_turns_its_pages_before_it_fades(tmp_path: Path) -> None:
    """An engine refusal longer than the notice's two rows is shown page by page, then fades."""
    reason = "Cat has $136 and Lot 16 costs $160: borrow first, or rent it (answer no)"
    with table(tmp_path, start()) as t:
        t.station.controller.say(reason)
        seen = set()
        for _ in range(40):  # 8 s in steps of 200 ms
            seen.update(t.text().split())
            t.play("WAIT 200")
        assert set(("! " + reason).split()) <= seen
        assert "Cat" not in t.text()  # faded


def test_dice_when_nobody_rolls_are_ignored(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("ROLL", "DICE 1 2", "DICE 5 5")
        assert "Dice ignored" in t.text() and t.shows_whole_notice()
        assert t.inputs() == [{"roll": [1, 2]}]


def test_prev_next_browse_options_and_yes_picks(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("ROLL", "DICE 1 3")  # income tax
        assert "< Pay $200 >" in t.text() and "< > 1 of 2 YES: pick" in t.text()
        t.play(LOOK, "NEXT")
        assert "< Pay 10% of worth >" in t.text()
        t.play("NEXT", "PREV", "YES")
        assert "Pay 10% of worth? YES again" in t.text() and t.inputs()[-1] == {"roll": [1, 3]}  # it pays: asked
        t.play("YES")
        assert t.inputs()[-1] == {"answer": "percent"}
        assert t.state["players"][0]["cash"] == 1500 - 150


def test_refusals_are_shown(tmp_path: Path) -> None:
    with table(tmp_path, start(Ann={"space": "go", "cash": 10})) as t:
        t.play("ROLL", "DICE 1 2", LOOK, "YES")
        assert "Ann has $10 and Baltic Avenue costs $60" in t.text()
        assert t.inputs() == [{"roll": [1, 2]}]


def test_manual_dice_entry(tmp_path: Path) -> None:
    with table(tmp_path, start(), dice="manual") as t:
        t.play("ROLL")
        assert "your dice" in t.text() and ">1<" in t.text()
        t.play("NEXT", "NEXT", "YES", "PREV", "YES")  # die 1: 3; die 2: 6 (1 - 1 wraps)
        assert t.inputs() == [{"roll": [3, 6]}]
        assert t.state["players"][0]["space"] == "connecticut-avenue"


def test_software_dice(tmp_path: Path) -> None:
    with table(tmp_path, start(), dice="software") as t:
        t.play("ROLL")
        (line,) = t.inputs()
        assert len(line["roll"]) == 2 and all(1 <= v <= 6 for v in line["roll"])


@pytest.mark.parametrize(("dice", "presses"), [
    ("roller", ("ROLL", "DICE 1 2")),
    ("software", ("ROLL",)),
    ("manual", ("ROLL", "YES", "NEXT", "YES")),  # dice 1 and 2
])
def test_every_roll_is_journaled_with_its_source(tmp_path: Path, dice: str, presses: tuple[str, ...]) -> None:
    """The journal keeps beside each line who sent it: the dice source for a roll, "button" for an answer."""
    path = tmp_path / "games.sqlite3"
    with table(tmp_path, start(), dice=dice, journal=path) as t:
        faces = iter([0, 1])  # the software dice show 1 and 2 here too: every source rolls Ann onto Baltic Avenue
        t.station.controller.software = SoftwareDice(randbelow=lambda _: next(faces))
        t.play(*presses)
        assert t.inputs() == [{"roll": [1, 2]}]
        t.play(LOOK, "YES")  # buy Baltic Avenue
        assert t.inputs()[-1] == {"answer": "yes"}
        game_id = t.station.table.game.id  # type: ignore[union-attr]
    with closing(sqlite3.connect(path)) as db:
        sources = db.execute("SELECT source FROM records WHERE game = ? ORDER BY id", (game_id,)).fetchall()
    assert sources[-2:] == [(dice,), ("button",)]


MAGIE_1924 = {"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9,
              "start": {"players": {"Ann": {"cards": ["wayback", "slambang-trolley"]}}}}


@pytest.mark.parametrize(("dice", "presses", "software_faces", "cube"), [
    ("roller", ("ROLL", "DICE 1 1", LOOK, "ROLL", "DICE 2 1 3"), [], 15),  # die C is the cube: 3 reads 15
    ("roller", ("ROLL", "DICE 1 1", LOOK, "ROLL", "DICE 2 1"), [3], 20),  # a two-dice roller: the Pi throws the cube
    ("software", ("ROLL", LOOK, "ROLL"), [0, 0, 1, 0, 3], 20),  # 1 and 1, then 2, 1 and the cube's fourth face
    ("manual", ("ROLL", "YES", "YES", LOOK, "ROLL", "YES", "YES", "NEXT", "NEXT", "YES"), [], 15),
])
def test_the_throw_after_doubles_brings_the_chance_cube_from_every_source(
        tmp_path: Path, dice: str, presses: tuple[str, ...], software_faces: list[int], cube: int) -> None:
    """magie-1924: after doubles the roll needs the chance cube too; every dice source supplies it."""
    with table(tmp_path, MAGIE_1924, dice=dice) as t:
        faces = iter(software_faces)
        t.station.controller.software = SoftwareDice(randbelow=lambda _: next(faces))
        t.play(*presses)
        assert t.inputs()[-1]["cube"] == cube, t.text()
        assert f"the cube shows {cube}" in " ".join(t.station.table.state["log"])  # type: ignore[index]


def test_a_press_is_answered_at_once_by_a_cue_that_never_shows_the_dice(tmp_path: Path) -> None:
    """The cue goes to the OLED before the input is journaled; the dice appear only after the sync."""
    with table(tmp_path, start(), dice="software") as t:
        frames: list[tuple[str, str, int]] = []  # (layout, its text, inputs journaled when it was drawn)
        show = t.station.display.show

        def recording(image: Any, data: bytes | None = None) -> bool:
            shown = t.station.controller.shown
            assert shown is not None
            frames.append((shown.name, " ".join(row.text for row in shown.rows), len(t.inputs())))
            return show(image, data)

        t.station.display.show = recording  # type: ignore[method-assign]
        t.play("ROLL")
        (line,) = t.inputs()
        a, b = line["roll"]
        cue, result = frames[0], frames[-1]
        assert cue[0] == "ack" and "Rolling..." in cue[1] and cue[2] == 0
        assert "rolls" not in cue[1]
        assert result[0] == "game" and f"Ann rolls {a} and {b}" in result[1] and result[2] == 1


@contextmanager
def paged_station(tmp_path: Path, setup: dict[str, Any], dice: str) -> Iterator[tuple[Station, VirtualButtons,
                                                                                    VirtualI2CBus]]:
    """A station whose OLED is the paged SSD1306 driver on a recording I2C bus (simulated time)."""
    sim = SimClock()
    factory = MockFactory()
    pins = load_pins()
    bus = VirtualI2CBus()
    station = build_station(journal_path=tmp_path / "g.sqlite3", pins=pins, pin_factory=factory,
                            open_device=lambda: PagedSSD1306(i2c(bus=bus)), dice=dice, clock=sim,
                            sleep=sim.sleep, setup=setup, new_seed=lambda: 1)
    try:
        yield station, VirtualButtons(factory, pins.buttons, sim.sleep, after_step=station.tick), bus
    finally:
        station.close()
        factory.reset()


def pages_written(bus: VirtualI2CBus) -> set[int]:
    """The controller pages a paged SSD1306 driver opened a window on (COLUMNADDR a b, PAGEADDR p p)."""
    return {payload[4] for _, control, payload in bus.transfers if control == 0x00 and payload[:1] == b"\x21"}


def test_a_press_cue_takes_the_answered_row_and_leaves_the_hint_unsent(tmp_path: Path) -> None:
    """The cue replaces the row being answered (just above the hint), which the result rewrites anyway; the hint
    row stays. A roll whose result asks for the next roll (rent paid, Bob rolls) never sends the hint's page: when
    the cue took the hint row, every input's result had to write it back (one page in eight, every time)."""
    setup = {**start(), "start": {**start()["start"], "spaces": {"baltic-avenue": {"owner": "Bob"},
                                                               "oriental-avenue": {"owner": "Ann"}}}}
    with paged_station(tmp_path, setup, dice="software") as (station, buttons, bus):
        faces = iter([0, 1])  # 1 and 2: Ann lands on Bob's Baltic Avenue and pays the rent
        station.controller.software = SoftwareDice(randbelow=lambda _: next(faces))
        before = station.controller.frame()
        asked = station.controller.shown
        assert asked is not None and asked.rows[-2].text == "< Roll the dice >"  # the option row: both own a street
        shown: list[screens.Screen] = []
        show = station.display.show

        def recording(image: Any, data: bytes | None = None) -> bool:
            assert station.controller.shown is not None
            shown.append(station.controller.shown)
            return show(image, data)

        station.display.show = recording  # type: ignore[method-assign]
        bus.reset()
        buttons.press("ROLL")
        cue, result = shown[0], shown[-1]
        assert cue.name == "ack" and cue.rows[-2].text == "Rolling..." and cue.rows[-1] == asked.rows[-1]
        assert cue.rows[:-2] == asked.rows[:-2]
        assert result.name == "game" and result.rows[-3].text == "Bob, roll the dice"
        assert result.rows[-1] == asked.rows[-1]  # the same hint for Bob as for Ann
        assert station.table.public()["players"][0]["cash"] == 1500 - 4  # type: ignore[index]
        written = pages_written(bus)
        assert 7 not in written and 6 in written, written
        panel = SSD1306Ram()  # and what the panel holds is the result, whole
        panel.ram = [bytearray(expected_pages(before)[p * 128:(p + 1) * 128]) for p in range(8)]
        panel.feed(bus)
        assert panel.pages() == expected_pages(station.controller.frame())



def test_host_menu_undo(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("ROLL", "DICE 1 2", LOOK, "YES")
        assert t.state["spaces"]["baltic-avenue"]["owner"] == "Ann"
        t.play("HOLD MENU 2")
        assert "HOST MENU" in t.text() and ">Undo last input" in t.text()
        t.play("YES")
        assert t.state["spaces"]["baltic-avenue"]["owner"] is None
        assert t.state["prompt"]["kind"] == "buy"
        assert "Undone: answer yes" in t.text()


def test_host_menu_new_game_setup(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("HOLD MENU 2", "NEXT", "NEXT")  # undo, end game, new game
        assert ">New game" in t.text()
        t.play("YES")  # over a game in progress: asked first
        assert "Start a new game? This one stops here" in t.text() and "YES: do it" in t.text()
        t.play("YES")
        assert "NEW GAME: RULESET" in t.text()
        t.play("NEXT", "YES")  # addon
        assert "NEW GAME: PLAYERS" in t.text() and "Same: Ann, Bob" in t.text()
        t.play("NEXT", "NEXT", "YES")  # 3 players
        assert "NEW GAME: OPTIONS" in t.text() and ">Start the game" in t.text()
        assert t.state["ruleset"] == "classic"  # nothing starts before the options step
        t.play("YES")
        assert t.state["ruleset"] == "addon"
        assert [p["name"] for p in t.state["players"]] == ["Player 1", "Player 2", "Player 3"]
        assert t.state["options"] == find_ruleset("addon").board.options  # the board's defaults


def test_new_game_options_are_set_with_the_buttons(tmp_path: Path) -> None:
    """Yes/no options and options with a list of choices: YES moves one to its next value."""
    with table(tmp_path, start()) as t:
        t.play("HOLD MENU 2", "NEXT", "NEXT", "YES", "YES", "NEXT", "YES", "YES")  # new game (sure), addon, same players
        assert "NEW GAME: OPTIONS" in t.text()
        labels = [item.label for item in t.station.controller.items]
        assert labels[1] == "Official short game: off"  # the preset, then classic's house rules, then addon's own
        t.play(*["NEXT"] * labels.index("transition: even total"), "YES")
        assert ">transition: even step" in t.text()
        t.play("NEXT", "YES")
        assert ">double trouble: doubles" in t.text()
        t.play("PREV", "YES", "YES")  # transition: even total, then even step again
        t.play(*["PREV"] * labels.index("transition: even total"), "YES")  # start
        assert t.state["ruleset"] == "addon" and [p["name"] for p in t.state["players"]] == ["Ann", "Bob"]
        assert t.state["options"]["transition"] == "even_step"
        assert t.state["options"]["double_trouble"] == "doubles"
        exported = t.station.table.game.export()  # type: ignore[union-attr]
        assert json.loads(exported.splitlines()[0])["setup"]["options"] == {
            "transition": "even_step", "double_trouble": "doubles"}


def test_new_game_options_without_a_phone_page_offer_what_the_buttons_can_set(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("HOLD MENU 2", "NEXT", "NEXT", "YES", "YES", "YES", "YES")  # new game (sure), classic, same players
        items = t.station.controller.items
        assert [a.label for a in items] == [  # classic's amounts are on the phone; its house rules on the buttons
            "Start the game", "Official short game: off", "free parking: nothing", "go landing bonus: off",
            "auctions: on", "rent in jail: on", "even build: on", "buy after first lap: off"]


def test_the_official_short_game_is_one_row_of_the_set_up(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("HOLD MENU 2", "NEXT", "NEXT", "YES", "YES", "YES", "YES")  # new game (sure), classic, same players
        t.play("NEXT", "YES")
        assert ">Official short game: on" in t.text()
        t.play("PREV", "YES")  # start
        assert {k: t.state["options"][k] for k in ("deal_deeds", "houses_before_hotel", "end_after_bankruptcies")} \
            == {"deal_deeds": 2, "houses_before_hotel": 3, "end_after_bankruptcies": 2}
        assert all(sum(1 for rec in t.state["spaces"].values() if rec["owner"] == name) == 2 for name in ("Ann", "Bob"))


def test_new_game_set_up_finished_on_the_phone(tmp_path: Path) -> None:
    """The last item shows the page's address and the host PIN (the host's own screen, reached from the host menu);
    the game the phone starts is then shown."""
    with table(tmp_path, start()) as t:
        t.station.controller.join_info = lambda: JoinInfo(url="http://table.local:8080/", code="4821", pin="7315",
                                                          join_url="http://table.local:8080/join?code=4821")
        t.play("HOLD MENU 2", "NEXT", "NEXT", "YES", "YES", "YES", "YES")  # new game (sure), classic, same players
        assert t.station.controller.items[-1].label == "More on your phone"
        t.play("PREV", "YES")
        assert t.station.controller.mode == "host-pin" and "7315" in t.text() and "table.local" in t.text()
        t.play("NO")  # back to the new game's options, the choices made still there (it went back to the old game)
        assert t.station.controller.mode == "setup" and t.station.controller.items[-1].label == "More on your phone"
        t.play("YES")
        assert t.station.controller.mode == "host-pin"
        t.station.table.new_game({"ruleset": "classic", "players": ["Cy", "Di"], "seed": 3,
                                  "options": {"start_cash": 2000}}, source="host")  # the phone's host set-up
        t.station.controller.tick()
        assert t.station.controller.mode == "game" and "Cy, roll the dice" in t.text()


def test_a_game_with_a_time_limit_is_ended_by_the_table(tmp_path: Path) -> None:
    """`end_at_minutes`: five minutes before, the OLED says so; at the end the table sends end-game (worth wins)."""
    from datetime import timedelta

    with table(tmp_path, {**start(), "options": {"end_at_minutes": 30}}) as t:
        created = t.station.journal.games()[0].created
        t.station.time_limit.now = lambda: created + timedelta(minutes=25, seconds=30)  # type: ignore[union-attr]
        t.play("WAIT 20")
        assert "5 minutes left in this game" in t.text()
        t.station.time_limit.now = lambda: created + timedelta(minutes=30)  # type: ignore[union-attr]
        t.play("WAIT 20")
        assert "GAME OVER" in t.text() and t.state["winner"] == "Ann"  # equal worth: the first in turn order
        assert t.inputs()[-1] == {"act": {"player": "host", "do": "end-game"}}


def test_menu_short_press_shows_the_buttons_then_the_players(tmp_path: Path) -> None:
    with table(tmp_path, start(Bob={"space": "boardwalk", "cash": 77})) as t:
        t.play("MENU")
        assert "THE BUTTONS" in t.text() and "ROLL roll the dice" in t.text() and "MENU held: host menu" in t.text()
        t.play("MENU")
        assert "PLAYERS" in t.text() and "Bob $77" in t.text() and "Boardwalk" in t.text()
        t.play("MENU")
        assert "Ann, roll the dice" in t.text()
        t.play("MENU", "NO")  # NO leaves the help too
        assert "Ann, roll the dice" in t.text()


@pytest.mark.parametrize(("seconds", "shows"), [(0.08, "THE BUTTONS"), (1.2, "THE BUTTONS"), (1.5, "HOST MENU"),
                                                (2, "HOST MENU")])
def test_menu_released_before_the_hold_time_is_a_short_press(tmp_path: Path, seconds: float, shows: str) -> None:
    with table(tmp_path, start()) as t:
        t.play(f"HOLD MENU {seconds}")
        assert shows in t.text()


def test_stuck_button_warning_on_the_oled(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.buttons.down("NEXT")
        t.buttons.wait(21)
        assert "NEXT button stuck down" in t.text() and t.shows_whole_notice()
        t.play("ROLL", "DICE 1 2", LOOK, "YES")  # the game goes on
        assert t.state["spaces"]["baltic-avenue"]["owner"] == "Ann"
        t.play("WAIT 10000")
        assert "NEXT button stuck down" in t.text()  # stands while the button is down
        t.buttons.up("NEXT")
        t.play("WAIT 100")
        assert "NEXT button works again" in t.text()
        t.play("WAIT 10000")
        assert "NEXT button" not in t.text()


def test_jail_pay_or_play_a_card(tmp_path: Path) -> None:
    setup = start(Ann={"space": "jail", "in_jail": True, "cards": ["chance-get-out-of-jail-free"]})
    with table(tmp_path, setup) as t:
        assert "< Roll the dice >" in t.text()  # where the cursor starts: YES only rolls
        t.play("NEXT")
        assert "< Pay $50 fine >" in t.text()
        t.play("NEXT")
        assert "< Play Get out of jail free >" in t.text()  # as printed, whole on two rows; arrows: more choices
        t.play("YES")
        assert "Play Get out of jail free? YES again" in t.text() and not t.inputs()  # a card is played on a 2nd YES
        t.play("YES")
        assert t.inputs() == [{"act": {"player": "Ann", "do": "use-card", "card": "chance-get-out-of-jail-free"}}]
        assert not t.state["players"][0]["in_jail"]


def test_bankruptcy_needs_a_second_yes(tmp_path: Path) -> None:
    setup = start(Bob={"space": "pennsylvania-avenue", "cash": 100})
    setup["start"]["spaces"] = {"boardwalk": {"owner": "Ann", "hotel": True}, "park-place": {"owner": "Ann"}}
    setup["start"]["turn"] = "Bob"
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 2 3")
        assert "Go bankrupt" in t.text()
        t.play(LOOK, "YES")
        assert "YES again" in t.text() and t.state["winner"] is None
        t.play("NO", "YES")
        assert t.state["winner"] is None
        t.play("YES")
        assert t.state["winner"] == "Ann"
        assert "GAME OVER" in t.text() and "Ann" in t.text()


def test_a_bankruptcy_is_told_whole_on_the_oled_and_by_the_voice(tmp_path: Path) -> None:
    """"Bob is bankrupt: everything goes to Ann" said nothing of handing over the deeds, cards and money or taking
    the token off: now each hand-over is an event the OLED pages through, the voice says and the page shows."""
    from companion.face.cues import sentences

    setup = start(Bob={"space": "pennsylvania-avenue", "cash": 100, "cards": ["chance-get-out-of-jail-free"]})
    setup["start"]["spaces"] = {"boardwalk": {"owner": "Ann", "hotel": True}, "park-place": {"owner": "Ann"},
                                "reading-railroad": {"owner": "Bob", "mortgaged": True},
                                "oriental-avenue": {"owner": "Bob", "mortgaged": True}}
    setup["start"]["turn"] = "Bob"
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 2 3", LOOK)
        before = t.station.table.state
        assert "Go bankrupt" in t.text()  # nothing left to mortgage: the only way out
        t.play("YES", "YES")
        assert t.state["winner"] == "Ann"
        told = [e["text"] for e in t.station.controller.events]
        hand_overs = ["Bob is bankrupt: everything goes to Ann",
                      "Give Ann Bob's deeds of Reading Railroad (mortgaged) and Oriental Avenue (mortgaged)",
                      "Give Ann Bob's Get out of jail free card", "Bob pays Ann $100 (everything left)",
                      "Take Bob's token off the board"]
        assert [text for text in told if text in hand_overs] == hand_overs  # in the order the table does them
        pages = set()
        for _ in range(10):
            pages.add(t.text())
            t.play("WAIT 1600")
        for sentence in hand_overs:  # each one whole on a page of the game-over screen
            assert any(sentence in page for page in pages), sentence
        said = sentences(before, t.station.table.state, t.station.controller.events)  # type: ignore[arg-type]
        assert all(f"{s}." in said or any(s.replace("$100", "one hundred dollars") in x for x in said)
                   for s in hand_overs), said


def test_a_table_without_phones_builds_and_mortgages_with_the_buttons(tmp_path: Path) -> None:
    """Before rolling, "Build, mortgage" opens the player's deeds, one act a page with what it costs; YES does it
    and the list follows (even building); the instruction for the table stays in view; NO leaves; ROLL rolls."""
    setup = start(Ann={"space": "go", "cash": 500})
    setup["start"]["spaces"] = {"mediterranean-avenue": {"owner": "Ann"}, "baltic-avenue": {"owner": "Ann"},
                                "reading-railroad": {"owner": "Ann"}}
    with table(tmp_path, setup) as t:
        assert "NEXT: Build, mortgage" not in t.text() and "< Roll the dice >" in t.text()
        t.play("NEXT")
        assert "< Build, mortgage >" in t.text()
        t.play("YES")
        assert "Ann $500" in t.text() and "Build on Mediterranean Avenue: pay $50" in t.text() and "1/5" in t.text()
        t.play("NEXT", "YES")  # Baltic Avenue: it costs money, so YES again
        assert "Build on Baltic Avenue: pay $50? YES again" in t.text() and not t.inputs()
        t.play("YES")
        assert "Put a house on Baltic Avenue" in t.text() and "Ann $450" in t.text()
        # The list follows, and the cursor goes on building: Mediterranean (not Baltic again: build evenly).
        assert "Build on Mediterranean Avenue: pay $50" in t.text() and "1/3" in t.text()
        t.play("YES", "YES")
        t.station.controller.announce("Dice ignored: nobody is rolling now")
        assert "! Dice ignored: nobody is" in t.text()  # a notice is read on the deeds' page too
        t.play("NO")
        assert "Ann, roll the dice" in t.text()
        assert t.inputs() == [{"act": {"player": "Ann", "do": "build", "space": "baltic-avenue"}},
                              {"act": {"player": "Ann", "do": "build", "space": "mediterranean-avenue"}}]
        t.play("NEXT", "YES", "ROLL")  # from the deeds, ROLL rolls
        assert t.roller.requests_seen() == 1 and t.station.controller.mode == "game"


def test_a_debtor_without_a_phone_raises_money_with_the_buttons(tmp_path: Path) -> None:
    """A debt prompt used to say "Raise the money on your phone": without phones the only way out was bankruptcy."""
    setup = start(Bob={"space": "pennsylvania-avenue", "cash": 100})
    setup["start"]["spaces"] = {"boardwalk": {"owner": "Ann", "houses": 1}, "park-place": {"owner": "Ann"},
                                "oriental-avenue": {"owner": "Bob"}, "vermont-avenue": {"owner": "Bob"},
                                "connecticut-avenue": {"owner": "Bob", "houses": 1}, "reading-railroad": {"owner": "Bob"}}
    setup["start"]["turn"] = "Bob"
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 2 3")  # Boardwalk with a house: $200
        assert "< Mortgage, sell >" in t.text()
        pages = set()
        for _ in range(4):  # the story and the question are long: they scroll
            pages.add(t.text())
            t.play("WAIT 1600")
        assert any("Raise it below or on a phone" in page for page in pages)
        t.play("YES")
        assert "Mortgage Reading Railroad: get $100" in t.text() and "1/2" in t.text()  # no street of a built group
        t.play("NEXT")
        assert "Sell a building on Connecticut Avenue: get $25" in t.text()
        t.play("YES")
        # The list follows (the light blue streets may be mortgaged now), the cursor on the nearest act that does
        # not undo the sale; the instruction for the table is in view.
        assert "Take a house off Connecticut Avenue" in t.text() and "Bob $125 owes $200" in t.text()
        assert "Mortgage Oriental Avenue: get $50" in t.text() and "2/4" in t.text()
        t.play("PREV", "YES")
        assert t.station.controller.mode == "game"  # the debt is paid: the game goes on
        assert t.state["prompt"]["player"] == "Ann" and t.state["players"][1]["cash"] == 25
        assert t.state["spaces"]["reading-railroad"]["mortgaged"]
        assert t.inputs()[-2:] == [{"act": {"player": "Bob", "do": "sell", "space": "connecticut-avenue"}},
                                   {"act": {"player": "Bob", "do": "mortgage", "space": "reading-railroad"}}]


def test_next_turns_the_story_pages_that_cover_the_question_then_browses(tmp_path: Path) -> None:
    """A question too long to sit beside the story turns its pages with it; each page is whole instructions, NEXT
    turns them (the cursor stays), and on the question's own page NEXT browses its choices again."""
    setup = start(Bob={"space": "pennsylvania-avenue", "cash": 100})
    setup["start"]["spaces"] = {"boardwalk": {"owner": "Ann", "houses": 1}, "park-place": {"owner": "Ann"},
                                "oriental-avenue": {"owner": "Bob"}, "reading-railroad": {"owner": "Bob"}}
    setup["start"]["turn"] = "Bob"
    with table(tmp_path, setup) as t:
        controller = t.station.controller
        controller.scroll_time = 30.0  # no turning by time in this test
        t.play("ROLL", "DICE 2 3", LOOK)
        assert controller.shown is not None and controller.shown.covers  # the story's first page, over the question
        first, cursor = t.text(), controller.game_mode.cursor
        pages = [first]
        while controller.shown is not None and controller.shown.covers and len(pages) < 10:
            t.play("NEXT")
            pages.append(t.text())
            assert controller.game_mode.cursor == cursor  # NEXT turned a page, it did not browse
        assert len(pages) >= 2 and "Move Bob's token 5 spaces forward to Boardwalk" in pages[0]
        assert "sell, mortgage or trade" in pages[-1] and "< Mortgage >" in pages[-1]  # the question's own page
        t.play("NEXT")
        assert controller.game_mode.cursor != cursor  # now NEXT browses


def test_time_never_turns_to_the_rest_of_a_sentence_next_does(tmp_path: Path) -> None:
    """Pages turned by themselves every 1.5 s, also from the first clauses of a long sentence to the rest of it
    (issue 38: "pages advance with NEXT and rotate only between whole instructions"). A 1924 deal of eight cards is
    longer than a page: its first page holds until NEXT; from the rest, time turns on to a whole sentence again."""
    setup = {"ruleset": "magie-1924", "players": ["Ann", "Bob", "Cat"], "seed": 3}
    with table(tmp_path, setup) as t:
        controller = t.station.controller
        controller.events = [{"kind": "say", "text": "Bob is dealt P. D. Q. Railroad, Ting-a-Ling Telephone, Gold mine "
                              "(idle land), Market Square, Idle land 1, Soakum Lighting System, Idle land 3 and Idle "
                              "land 5"}]
        t.play("WAIT 100")
        first = t.text()
        assert "Bob is dealt" in first and "NEXT: read on" in first and controller.shown is not None
        assert controller.shown.holds
        t.play("WAIT 5000")  # three turns' worth of time: the page holds
        assert t.text() == first
        t.play("NEXT")
        assert "Idle land 3 and Idle land 5" in t.text() and "Bob is dealt" not in t.text()
        t.play("WAIT 3500")  # from there time turns on (a page turned to is given two turns), to the sentence's start
        assert t.text() == first


def test_a_1904_debtor_without_a_phone_borrows_from_the_bank_with_the_buttons(tmp_path: Path) -> None:
    """magie-1904 asks a debtor with free lots to borrow (no other answer): without phones the game was stuck."""
    setup = {"ruleset": "magie-1904", "players": ["Ann", "Bob"], "seed": 4,
             "start": {"players": {"Ann": {"cash": 3, "space": "lot-18"}},
                       "spaces": {"lot-19": {"owner": "Ann"}, "lot-20": {"owner": "Bob"}}}}
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 1 3")
        assert t.state["prompt"]["kind"] == "debt" and "< Borrow >" not in t.text() and "Borrow" in t.text()
        t.play(LOOK, "YES")
        assert "Borrow on Lot 19: get $100" in t.text()
        t.play("YES")
        assert t.station.controller.mode == "game" and t.state["prompt"]["player"] == "Bob"
        assert t.inputs()[-1] == {"act": {"player": "Ann", "do": "borrow", "amount": 100, "spaces": ["lot-19"]}}
        assert t.state["players"][0]["cash"] == 83  # as in the game file debt-paid-by-borrowing


def test_a_1924_real_estate_office_is_used_with_the_buttons(tmp_path: Path) -> None:
    setup = {"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9,
             "start": {"players": {"Ann": {"cards": ["idle-land-1"]}}}}
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 3 4")
        assert t.state["prompt"]["kind"] == "real-estate-office"
        assert "Buy, sell" in t.text()
        t.play(LOOK, "YES")
        assert "Buy an idle land card: pay $" in t.text()
        t.play("NEXT")
        assert "Sell Idle land 1: get $" in t.text()
        t.play("YES")  # sold: buying is refused now (one or the other), so nothing is left
        assert t.inputs()[-1] == {"act": {"player": "Ann", "do": "sell-idle", "cards": ["idle-land-1"]}}
        assert t.station.controller.mode == "game" and "Done" in t.text()


def test_an_offer_from_a_phone_is_read_and_answered_on_the_buttons(tmp_path: Path) -> None:
    """A trade offered to a player without a phone used to read "answer on the phone": they could not answer it."""
    setup = start()
    setup["start"]["spaces"] = {"baltic-avenue": {"owner": "Bob"}}
    with table(tmp_path, setup) as t:
        t.station.table.submit({"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cash": 200},
                                        "get": {"spaces": ["baltic-avenue"]}}}, source="web")
        t.play("WAIT 20")
        pages = set()
        for _ in range(3):
            pages.add(t.text())
            t.play("WAIT 1600")
        assert any("Ann offers Bob $200 for Baltic Avenue: Bob, accept or reject" in page for page in pages)
        assert "NEXT: Bob: accept offer" in t.text() and "YES: pick" not in t.text()
        t.play("YES", "YES")  # not on the offer yet: YES takes nothing (it may be Ann pressing)
        assert t.state["trade"] and t.inputs() == [t.inputs()[0]]
        t.play("NEXT")
        assert "< Bob: accept offer >" in t.text() and "YES: pick" in t.text()
        t.play("NO")  # back: nothing chosen
        assert "NEXT: Bob: accept offer" in t.text()
        t.play("NEXT", "YES")
        assert "Bob: accept it?" in t.text() and "YES: confirm" in t.text() and t.state["trade"]
        t.play("YES")
        assert t.state["trade"] is None and t.state["spaces"]["baltic-avenue"]["owner"] == "Ann"
        assert t.inputs()[-1] == {"act": {"player": "Bob", "do": "accept"}}
        assert t.state["prompt"] == {**t.state["prompt"], "kind": "roll", "player": "Ann"}  # Ann still rolls next


def test_a_buyer_short_of_cash_mortgages_from_the_buy_question(tmp_path: Path) -> None:
    """The refusal said "sell or mortgage first" and the buy question offered no deeds: the lot went to auction."""
    setup = start(Ann={"space": "go", "cash": 40})
    setup["start"]["spaces"] = {"reading-railroad": {"owner": "Ann"}, "short-line": {"owner": "Ann"}}
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 1 2")
        assert "Buy Baltic Avenue for $60?" in t.text() and "NEXT: Mortgage" in t.text()
        assert "YES: buy $60 NO: auction" in t.text()  # YES and NO still answer the question
        t.play(LOOK, "YES")
        assert "Ann has $40 and Baltic Avenue costs $60" in t.text() and t.state["prompt"]["kind"] == "buy"
        t.play("NEXT")
        assert "YES: pick NO: back" in t.text()
        t.play("YES")  # the deeds
        assert "Mortgage Reading Railroad: get $100" in t.text()
        t.play("YES", "NO")  # mortgaged; back to the question (its page follows the story's)
        pages = set()
        for _ in range(4):
            pages.add(t.text())
            t.play("WAIT 1600")
        assert any("Buy Baltic Avenue for $60?" in page and "YES: buy $60 NO: auction" in page for page in pages), pages
        t.play("YES")
        assert t.state["spaces"]["baltic-avenue"]["owner"] == "Ann" and t.state["players"][0]["cash"] == 80


def test_the_deeds_close_when_the_debt_is_paid_and_doubles_roll_again(tmp_path: Path) -> None:
    """The debtor stayed in the list under "Doubles: roll again" (not shown), the rent payment not shown either."""
    setup = start(Bob={"space": "short-line", "cash": 1950})
    setup["start"]["spaces"] = {"park-place": {"owner": "Ann", "hotel": True}, "boardwalk": {"owner": "Ann", "hotel": True},
                                "reading-railroad": {"owner": "Bob"}, "short-line": {"owner": "Bob"}}
    setup["start"]["turn"] = "Bob"
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 2 2")  # Boardwalk with a hotel: $2000
        assert t.state["prompt"]["kind"] == "debt"
        t.play(LOOK, "YES", "YES")  # the deeds; mortgage a railroad: paid
        assert t.station.controller.mode == "game" and t.state["prompt"]["kind"] == "roll"
        assert "roll again" in t.text()  # the game's screen again, with the story of the payment (it scrolls)
        assert "Bob pays Ann $2000 rent for Boardwalk" in [e["text"] for e in t.station.controller.events]


def test_the_fine_and_bids_the_player_cannot_pay_are_not_offered(tmp_path: Path) -> None:
    setup = start(Ann={"space": "jail", "in_jail": True, "cash": 10})
    with table(tmp_path, setup) as t:
        assert "Pay $50 fine" not in t.text()  # YES said "Ann has $10: the fine is $50"
    setup = start(Ann={"space": "go", "cash": 5})
    with table(tmp_path, setup, journal=tmp_path / "second.sqlite3") as t:
        t.play("ROLL", "DICE 1 2", LOOK, "NO")  # Baltic Avenue to auction: Ann has $5
        labels = [a.label for a in t.station.controller.game_mode.choices(t.station.table.state)]
        assert "Ann: bid $10" not in labels and "Ann: pass" in labels and "Bob: bid $10" in labels


def phone(t: Rig, line: dict[str, Any]) -> None:
    """An input from a phone (not these buttons), drawn at the next tick."""
    t.station.table.submit(line, source="phone:test")
    t.play("WAIT 20")


def test_a_press_just_after_a_phone_changed_the_game_is_refused(tmp_path: Path) -> None:
    """A YES meant for the screen before: an offer withdrawn and made again for $1 under Bob's "accept it?" was
    accepted for $1 (a mixed-table audit)."""
    setup = start()
    setup["start"]["spaces"] = {"boardwalk": {"owner": "Bob"}}
    with table(tmp_path, setup) as t:
        phone(t, {"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cash": 300},
                          "get": {"spaces": ["boardwalk"]}}})
        t.play("WAIT 1000", "NEXT", "YES")
        assert "Bob: accept it?" in t.text()
        phone(t, {"act": {"player": "Ann", "do": "reject"}})
        phone(t, {"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cash": 1},
                          "get": {"spaces": ["boardwalk"]}}})
        assert "accept it?" not in t.text()  # the question was about the $300 offer
        t.play("YES")
        assert "Changed on a phone" in t.text() and t.state["trade"]["give"]["cash"] == 1
        t.play("WAIT 1000", "YES")  # later: nothing is selected any more (an offer is one NEXT away)
        assert t.state["trade"] is not None and t.state["spaces"]["boardwalk"]["owner"] == "Bob"


def test_the_deeds_cursor_stays_on_its_act_when_a_phone_acts(tmp_path: Path) -> None:
    """A phone built on Baltic Avenue while the cursor was on "Mortgage Mediterranean Avenue": the cursor landed on
    "Sell a building on Baltic Avenue", and YES sold the house just built."""
    setup = start(Ann={"space": "go", "cash": 500})
    setup["start"]["spaces"] = {"mediterranean-avenue": {"owner": "Ann"}, "baltic-avenue": {"owner": "Ann"},
                                "reading-railroad": {"owner": "Ann"}}
    with table(tmp_path, setup) as t:
        t.play("NEXT", "YES", "NEXT", "NEXT", "NEXT", "NEXT")
        assert "Mortgage Reading Railroad: get $100" in t.text()
        phone(t, {"act": {"player": "Ann", "do": "build", "space": "baltic-avenue"}})
        assert "Mortgage Reading Railroad: get $100" in t.text()
        assert "Put a house" not in t.text()  # the phone's act is not told as if it were the buttons'
        t.play("WAIT 1000", "YES")
        assert t.inputs()[-1] == {"act": {"player": "Ann", "do": "mortgage", "space": "reading-railroad"}}


def test_a_phone_input_closes_the_host_menu_and_the_dice_entry(tmp_path: Path) -> None:
    """The host menu's undo took back a phone's build instead of the mistake it was opened for; half-entered dice
    were sent as the next player's roll."""
    with table(tmp_path, start()) as t:
        t.play("HOLD MENU 2")
        assert t.station.controller.mode == "menu"
        phone(t, {"roll": [1, 2]})
        assert t.station.controller.mode == "game" and "Changed on a phone" in t.text()
    with table(tmp_path, start(), dice="manual", journal=tmp_path / "manual.sqlite3") as t:
        t.play("ROLL", "NEXT")
        assert t.station.controller.mode == "dice"
        phone(t, {"roll": [1, 2]})
        assert t.station.controller.mode == "game"


def test_the_deeds_close_rather_than_offer_only_the_undoing_of_the_last_act(tmp_path: Path) -> None:
    """With one deed, after a mortgage the only act left was lifting it: a second YES cost $10."""
    setup = start(Ann={"space": "go", "cash": 500})
    setup["start"]["spaces"] = {"reading-railroad": {"owner": "Ann"}}
    with table(tmp_path, setup) as t:
        t.play("NEXT", "YES", "YES")
        assert t.state["spaces"]["reading-railroad"]["mortgaged"] and t.station.controller.mode == "game"
        t.play("WAIT 1000", "NEXT", "YES")  # back on the roll question: the deeds again offer the lift, asked twice
        assert "Lift the mortgage on Reading Railroad: pay $110? YES again" not in t.text()
        t.play("YES")
        assert "YES again" in t.text()
        assert t.inputs() == [{"act": {"player": "Ann", "do": "mortgage", "space": "reading-railroad"}}]


def test_a_new_question_starts_at_its_start_not_where_the_last_one_was(tmp_path: Path) -> None:
    """After the buttons' own input the cursor stayed on the choice it was on: a roll made with "Bob: accept offer"
    highlighted started the next question on it, and YES there began accepting the offer (a re-run audit)."""
    setup = start()
    setup["start"]["spaces"] = {"boardwalk": {"owner": "Bob"}}
    with table(tmp_path, setup) as t:
        phone(t, {"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cash": 300},
                          "get": {"spaces": ["boardwalk"]}}})
        t.play("WAIT 1000", "NEXT")
        assert "< Bob: accept offer >" in t.text()
        t.play("ROLL", "DICE 1 3")  # income tax: its own options come first
        assert "< Pay $200 >" in t.text()
        t.play(LOOK, "YES", "YES")  # it pays: asked twice
        assert t.state["players"][0]["cash"] == 1300 and t.state["trade"] is not None


def test_chambers_one_die_and_its_star_prompt(tmp_path: Path) -> None:
    setup = {"ruleset": "chambers", "players": ["Ann", "Bob"], "seed": 1}
    with table(tmp_path, setup) as t:
        t.play("ROLL", "DICE 6 4")
        assert t.inputs() == [{"roll": [6]}]  # one die: the roller's die A
        assert "< Draw a card >" in t.text()
        t.play(LOOK, "NEXT")
        assert "< Move 6 >" in t.text()
        t.play("YES")
        assert t.inputs()[-1] == {"answer": "move"}


def test_phone_inputs_are_drawn_at_the_next_tick(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.play("ROLL", "DICE 1 2")
        t.station.table.submit({"answer": "no"}, source="web")
        t.buttons.wait(0.02)
        assert "Auction of Baltic Avenue" in t.text()


def test_resume_after_a_power_cut(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    with table(tmp_path, start(), journal=journal) as t:
        t.play("ROLL", "DICE 1 2")
        before = t.state
    with table(tmp_path, None, journal=journal) as t:  # no setup: the stored game is resumed
        assert t.station.resumed
        assert t.state == before
        assert "resumed where it stopped" in t.text() and "Buy Baltic Avenue" in t.text()
        t.play("YES")
        assert t.state["spaces"]["baltic-avenue"]["owner"] == "Ann"


def test_a_restart_after_a_game_over_comes_back_to_that_game_not_an_older_one(tmp_path: Path) -> None:
    """The power goes off while the players read the result: it is still there when the table comes back, with
    the way to a new game; an older game left unfinished is not resumed in its place."""
    journal = tmp_path / "games.sqlite3"
    with table(tmp_path, start(), journal=journal) as t:
        t.play("ROLL", "DICE 1 2")  # game 1, left unfinished
    with Journal(journal) as stored:
        ended = stored.new_game({"ruleset": "classic", "players": ["Cy", "Di"], "seed": 3})
        ended.submit({"act": {"player": "host", "do": "end-game"}})
        winner = ended.state["winner"]
    with table(tmp_path, None, journal=journal) as t:
        assert t.station.resumed and t.station.table.game.id == ended.id  # type: ignore[union-attr]
        assert t.state["winner"] == winner is not None
        assert "GAME OVER" in t.text() and "MENU held: new game" in t.text()


def test_demo_default_game_is_a_two_player_addon_game(tmp_path: Path) -> None:
    with table(tmp_path, None) as t:
        assert t.state["ruleset"] == "addon" and [p["name"] for p in t.state["players"]] == ["Ann", "Bob"]
        assert t.state["prompt"]["kind"] == "roll"


def test_display_unplugged_the_game_goes_on_and_it_recovers(tmp_path: Path) -> None:
    with paged_station(tmp_path, start(), dice="roller") as (station, buttons, bus):
        roller = VirtualRoller(buttons.factory, load_pins().roller, buttons.sleep)
        bus.plugged = False
        buttons.press("ROLL")
        roller.present(1, 2)
        buttons.wait(0.7)  # a person reads the question
        buttons.press("YES")
        assert station.table.public()["spaces"]["baltic-avenue"]["owner"] == "Ann"  # type: ignore[index]
        assert not station.display.available and station.display.faults >= 1
        bus.plugged = True
        bus.reset()
        buttons.wait(35)  # the longest back-off
        assert station.display.available
        panel = SSD1306Ram()
        panel.feed(bus)
        assert panel.pages() == expected_pages(station.controller.frame())



def test_a_full_disk_is_reported_and_the_input_not_lost(tmp_path: Path) -> None:
    from companion.engine import IllegalInput
    from companion.journal import JournalFull

    with table(tmp_path, start()) as t:
        db = t.station.journal._db  # the journal's own connection: cap its size as a full disk would
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        for size in (200, 20, 1):  # refused inputs are journaled too: fill the disk with them, to the brim
            for _ in range(100_000):
                try:
                    t.station.table.submit({"answer": "x" * size}, source="test")
                except JournalFull:
                    break
                except IllegalInput:
                    pass
            else:
                pytest.fail("the disk never filled")
        t.station.controller.disk_free = lambda: 1_000  # what the disk says when it is full
        t.play("ROLL", "DICE 1 2")
        assert "DISK FULL: not saved; free some space" in t.text() and t.shows_whole_notice()
        assert t.state["prompt"]["kind"] == "roll"  # nothing applied
        t.play("WAIT 10000")
        assert "DISK FULL: not saved; free some space" in t.text()  # stands: not replaced by "almost full"
        db.execute("PRAGMA max_page_count = 1000000")  # space freed
        t.station.controller.disk_free = lambda: 10**9
        t.play("ROLL", "DICE 1 2")
        assert t.inputs() == [{"roll": [1, 2]}]
        t.play("WAIT 100")
        assert "DISK" not in t.text()


def test_low_disk_space_is_reported_before_inputs_fail(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        t.station.controller.disk_free = lambda: 5_000_000
        t.play("WAIT 2020")  # the disk is looked at every DISK_EVERY (2 s) when no input is journaled
        assert "Disk almost full (5 MB)" in t.text() and t.shows_whole_notice()
        t.play("ROLL", "DICE 1 2", "WAIT 10000")
        assert "Disk almost full" in t.text()  # stands through the game while the disk is low
        t.station.controller.disk_free = lambda: 10**9  # space freed
        t.play("WAIT 2020")
        assert "Disk almost full" not in t.text()


def test_a_new_game_shows_its_set_up_instructions(tmp_path: Path) -> None:
    """What to deal and where to put the pieces reached the OLED only as "A new game begins"."""
    with table(tmp_path, start()) as t:
        t.station.table.new_game({"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 2})
        t.play("WAIT 20")
        told = " ".join(e["text"] for e in t.station.controller.events)
        assert "A new game begins" in told and "Ann is dealt" in told and "Bob is dealt" in told
        pages = [" ".join(r.text for r in screens.game_screen(t.state, t.station.controller.events, Labels({}),
                                                                 scroll=k).rows) for k in range(8)]
        assert any("Ann is dealt" in page for page in pages)  # the story turns its pages to it
