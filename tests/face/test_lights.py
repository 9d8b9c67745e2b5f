"""The seat lights: plain LEDs on gpiozero's MockFactory through a real table and journal (the strip's driver against
a fake SPI bus: tests/drivers/test_lights.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.drivers.clock import SimClock
from companion.drivers.faults import Kept
from companion.drivers.said import Said
from companion.drivers.lights import SeatLeds
from companion.face.cues import CueFeed
from companion.engine import IllegalInput, apply, find_ruleset
from companion.face.seat_lights import BLINK, CHASE_STEP, SeatLights
from companion.journal import Journal
from companion.seats import led_rgb, seats
from companion.sim.registry import strategy_for
from companion.table import Table

GAMES = Path(__file__).resolve().parents[1] / "gamefiles"
LED_PINS = (7, 8, 9, 10, 11, 15)
#: One game of each ruleset: debts, auctions, doubles, jail, a winner among them.
SCRIPTED = ["classic/bankrupt-in-a-second-debt", "classic/auction-three-bidders", "addon/backwards-used-up-by-third-doubles",
            "magie-1904/lot-tickets", "magie-1924/jail-fine-and-throw-of-six",
            "chambers/leaving-chamber-returns-cards-to-bottom"]


class Rig:
    """A table on a real journal, its cues feeding plain seat LEDs on mock pins, on simulated time."""

    def __init__(self, tmp_path: Path) -> None:
        self.factory = MockFactory()
        self.clock = SimClock()
        self.journal = Journal(tmp_path / "games.sqlite3")
        self.table = Table(self.journal)
        self.notices: list[Said] = []
        self.leds = SeatLeds(LED_PINS, pin_factory=self.factory)
        self.lights = SeatLights(Kept("Seat lights", lambda: self.leds, clock=self.clock, notify=self.notices.append),
                                 len(LED_PINS), clock=self.clock)
        feed = CueFeed()
        feed.add(self.lights.on_cues)
        self.table.subscribe(feed)

    def values(self) -> tuple[int, ...]:
        return tuple(int(self.factory.pin(p).state) for p in LED_PINS)

    def wait(self, seconds: float) -> None:
        self.clock.sleep(seconds)
        self.lights.tick()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.journal.close()
    r.factory.reset()


def waited_for(state: dict[str, Any]) -> set[str]:
    """Whom the game waits for, read off the state as DESIGN.md shows it."""
    prompt = state.get("prompt")
    if not prompt or state.get("winner"):
        return set()
    names = {n for n in prompt.get("waiting", []) if n != prompt.get("bidder")} if prompt["kind"] == "auction" \
        else {prompt["player"]} if prompt.get("player") else set()
    return names | ({state["trade"]["with"]} if state.get("trade") else set())


@pytest.mark.parametrize("game", SCRIPTED)
def test_each_input_lights_the_seats_the_table_waits_for(rig: Rig, game: str) -> None:
    lines = [json.loads(line) for line in (GAMES / f"{game}.jsonl").read_text().splitlines() if line.strip()]
    rig.table.new_game(lines[0]["setup"])
    seen = []
    for line in [None, *lines[1:]]:
        if line is not None:
            rig.table.submit(line, source="test")
        state = rig.table.state
        assert state is not None
        names = [p["name"] for p in state["players"]]
        if state["seq"] and any(e["kind"] == "roll" and len(e.get("dice", [])) > 1 and e["dice"][0] == e["dice"][1]
                                for e in rig.table.game.events):  # type: ignore[union-attr]
            rig.wait(CHASE_STEP * len(names) * 2)  # the doubles' chase first
        expected = tuple(int(i < len(names) and names[i] in waited_for(state)) for i in range(len(LED_PINS)))
        assert rig.values() == expected, f"after {line}: {rig.values()} (waiting for {waited_for(state)})"
        seen.append(expected)
    assert any(any(v) for v in seen)
    assert rig.notices == []


def test_a_debt_blinks_on_the_debtors_seat_until_it_is_paid(rig: Rig) -> None:
    rig.table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "start": {
        "players": {"Ann": {"cash": 1500, "space": "go"}, "Bob": {"cash": 1950, "space": "short-line"}},
        "spaces": {"boardwalk": {"owner": "Ann", "hotel": True}, "park-place": {"owner": "Ann"},
                   "reading-railroad": {"owner": "Bob"}}, "turn": "Bob"}})
    assert rig.values() == (0, 1, 0, 0, 0, 0)  # Bob's turn: his seat steady
    rig.table.submit({"roll": [3, 1]}, source="test")  # Boardwalk with a hotel: $2000, Bob has $1950
    blinking = []
    for _ in range(4):
        blinking.append(rig.values()[1])
        rig.wait(BLINK)
    assert blinking == [1, 0, 1, 0] and rig.values()[0] == 0
    rig.table.submit({"act": {"player": "Bob", "do": "mortgage", "space": "reading-railroad"}}, source="test")
    assert rig.values() == (1, 0, 0, 0, 0, 0)  # paid: Ann's turn, steady
    rig.wait(BLINK)
    assert rig.values() == (1, 0, 0, 0, 0, 0)


def test_doubles_run_a_chase_round_the_table_then_the_seat_waited_for(rig: Rig) -> None:
    rig.table.new_game({"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 1})
    rig.table.submit({"roll": [2, 2]}, source="test")  # Ann: Reading Railroad, to buy
    chase = []
    for _ in range(6):
        chase.append(rig.values())
        rig.wait(CHASE_STEP)
    assert chase == [(1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0)] * 2
    assert rig.lights.frame[0] == led_rgb("#ff6b6b")  # in Ann's colour
    rig.wait(CHASE_STEP)
    assert rig.values() == (1, 0, 0, 0, 0, 0)


def test_all_off_once_the_game_is_won(rig: Rig) -> None:
    rig.table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
    assert rig.values() == (1, 0, 0, 0, 0, 0)
    rig.table.submit({"act": {"player": "Bob", "do": "bankrupt"}}, source="test")
    assert rig.table.state["winner"] == "Ann"  # type: ignore[index]
    assert rig.values() == (0,) * 6


def test_a_failing_light_is_a_notice_and_the_game_goes_on(rig: Rig) -> None:
    class Unplugged:
        def show(self, frame: Any) -> None:
            raise OSError(5, "Input/output error")

        def close(self) -> None:
            pass

    rig.lights.driver.open_device = Unplugged
    rig.table.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
    rig.table.submit({"roll": [1, 2]}, source="test")
    assert rig.table.state["seq"] == 1  # type: ignore[index]
    assert [str(n) for n in rig.notices] == ["Seat lights: input/output error"]
    rig.lights.driver.open_device = lambda: rig.leds
    rig.wait(2.0)  # past the back-off
    assert str(rig.notices[-1]) == "Seat lights: working again" and rig.values() == (1, 0, 0, 0, 0, 0)


def test_on_the_table_a_strip_that_fails_is_a_notice_on_the_oled_and_the_game_goes_on(tmp_path: Path) -> None:
    from .test_table import start, table

    class NoSPI:
        def __init__(self) -> None:
            raise FileNotFoundError(2, "No such file or directory", "/dev/spidev0.0")

    with table(tmp_path, start(), dice="software", open_lights=NoSPI) as t:
        t.buttons.wait(0.1)
        assert "Seat lights: no such file or directory" in t.text()
        t.play("ROLL")
        assert t.state["seq"] == 1  # the roll was taken
        t.station.controller.frame().save(tmp_path / "notice.png")


def test_the_seats_kept_between_inputs_are_each_state_s_seats(tmp_path: Path) -> None:
    """The cue feed works out the seats again only when the players' names change (a new game, other players, another
    order): what each target is handed is the seats of the state it is told about, input after input."""
    def taken(state: Any, line: Any) -> bool:
        try:
            apply(state, line)
        except IllegalInput:
            return False
        return True

    handed: list[tuple[Any, list[Any]]] = []
    with Journal(tmp_path / "games.sqlite3") as journal:
        table = Table(journal)
        feed = CueFeed()
        feed.add(lambda cues, at_table: handed.append((table.state, at_table)), speech=False)
        table.subscribe(feed)
        for players in (["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy"], ["Bob", "Ann"], ["Ann", "Bob", "Cy", "Dee"]):
            table.new_game({"ruleset": "classic", "players": players, "seed": 3})
            bot = strategy_for("classic")(find_ruleset("classic"), random.Random(len(players)))
            for _ in range(3):
                state = table.state
                assert state is not None
                table.submit(next(line for line in [bot.next_input(state), *bot.fallback(state)]
                                  if taken(state, line)), source="host")
    assert len(handed) == 16
    for state, at_table in handed:
        assert at_table == seats(state)
    assert handed[1][1] is not handed[2][1]  # each target its own list, which it may keep
