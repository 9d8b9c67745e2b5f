"""Cards on the NFC reader at a table without phones: each tap goes through a virtual PN532 on I2C, the real
driver and reader (:mod:`companion.drivers.nfc`), the controller, the journal (SQLite) and the engine."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.face.cards import Card
from companion.drivers.clock import SimClock
from companion.drivers.nfc import STOPPED
from companion.drivers.script import parse_script, run_script
from companion.drivers.virtual import VirtualButtons, VirtualRoller
from companion.drivers.virtual_nfc import VirtualCards, VirtualPN532, demo_uid
from companion.face.taps import UNKNOWN
from companion.startup.mock import mock_station

from .test_table import Rig as TableRig

SETUP = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 7,
         "start": {"players": {"Ann": {"cash": 1500, "space": "go"}, "Bob": {"cash": 1500, "space": "go"}},
                   "spaces": {"mediterranean-avenue": {"owner": "Ann"}, "baltic-avenue": {"owner": "Ann"},
                              "reading-railroad": {"owner": "Bob"}, "oriental-avenue": {"owner": "Bob"}},
                   "turn": "Ann"}}


@dataclass
class Rig(TableRig):
    """The table's test rig with the card reader's virtual cards and the journal's path."""

    cards: VirtualCards
    journal: Path

    @property
    def chip(self) -> VirtualPN532:
        return self.station.nfc_bus  # type: ignore[no-any-return]

    def play(self, *lines: str) -> None:
        run_script(parse_script(lines), self.buttons, self.roller, self.cards)

    def sources(self) -> list[tuple[str, str]]:
        """(source, line) of every accepted input, from the journal itself."""
        with closing(sqlite3.connect(self.journal)) as db:
            rows = db.execute("SELECT source, line FROM records WHERE outcome = 'ok' OR outcome IS NULL "
                              "ORDER BY id").fetchall()
        return [row for row in rows if not row[1].startswith('{"setup"')]

    def highlight(self, label: str, limit: int = 40) -> None:
        """NEXT until the highlighted row of a menu starts with ``label``."""
        for _ in range(limit):
            screen = self.station.controller.screen()
            if any(row.invert and row.text.lstrip(">").startswith(label) for row in screen.rows[1:]):
                return
            self.play("NEXT")
        raise AssertionError(f"{label!r} not in the menu: {self.text()}")


@contextmanager
def table(tmp_path: Path, setup: dict[str, Any] | None = None) -> Iterator[Rig]:
    sim = SimClock()
    journal = tmp_path / "games.sqlite3"
    with mock_station(journal_path=journal, dice="roller", clock=sim, sleep=sim.sleep, setup=setup or SETUP,
                      new_seed=lambda: 5) as (station, factory, pins):
        buttons = VirtualButtons(factory, pins.buttons, sim.sleep, after_step=station.tick)
        assert station.nfc_bus is not None  # pins.toml has the reader: the demo's is a virtual PN532
        yield Rig(station=station, buttons=buttons, roller=VirtualRoller(factory, pins.roller, sim.sleep), clock=sim,
                  cards=VirtualCards(station.nfc_bus, buttons.wait), journal=journal)


PLAY = """
# a purchase: Ann throws 8 from GO, Vermont Avenue; its sticker tapped, YES buys it
ROLL
DICE 3 5
TAP vermont-avenue
YES
# a trade: Ann offers Vermont Avenue and $20 for Bob's Oriental Avenue; Bob taps his card and accepts
TAP Ann
NEXT
YES
TAP vermont-avenue
TAP Bob
TAP oriental-avenue
YES
NEXT
NEXT
YES
YES
TAP Bob
YES
YES
# a build: Mediterranean Avenue's sticker, build (it costs $50: YES twice)
TAP mediterranean-avenue
YES
YES
NO
# a mortgage: Bob's card, then Reading Railroad's sticker
TAP Bob
TAP reading-railroad
YES
"""


def test_a_table_without_phones_buys_trades_builds_and_mortgages_by_tap(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        t.play(*PLAY.splitlines())
        owners = {k: (v["owner"], v["houses"], v["mortgaged"]) for k, v in t.state["spaces"].items() if v["owner"]}
        assert owners == {"mediterranean-avenue": ("Ann", 1, False), "baltic-avenue": ("Ann", 0, False),
                          "oriental-avenue": ("Ann", 0, False), "vermont-avenue": ("Bob", 0, False),
                          "reading-railroad": ("Bob", 0, True)}
        assert [(p["name"], p["cash"]) for p in t.state["players"]] == [("Ann", 1330), ("Bob", 1620)]
        sources = [source for source, _ in t.sources()]
        assert sources == ["roller", "tap:vermont-avenue", "tap:Ann", "tap:Bob", "tap:mediterranean-avenue",
                           "tap:Bob"]


def test_a_deed_tapped_at_its_buy_question_asks_first(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        t.play("ROLL", "DICE 3 5", "TAP vermont-avenue")
        assert "Buy Vermont Avenue for $100?" in t.text() and "YES: buy it" in t.text()
        t.play("NO")
        assert t.state["spaces"]["vermont-avenue"]["owner"] is None
        assert t.state["prompt"]["kind"] == "buy"  # still asked: YES/NO (or the sticker again) answer it


def test_an_unknown_card_is_said_and_changes_nothing(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        before = t.state
        t.play("TAP a-card-nobody-registered")
        assert UNKNOWN.split(":")[0] in t.text() and "register it in the host menu" in t.text()
        assert t.state == before and t.sources() == []


def test_a_card_of_another_set_is_refused(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        t.station.controller.cards.register(Card("magie-1904", "players", "Ann"), demo_uid("old-card"))  # type: ignore[union-attr]
        t.play("TAP old-card")
        assert "another set" in t.text()


def test_a_players_window_closes_by_itself_and_its_deed_taps_are_theirs(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        t.play("TAP Ann")
        assert t.text().startswith("Ann $1500") and "Make an offer" in t.text()
        t.play("TAP reading-railroad")
        assert "Reading Railroad is not Ann's" in t.text()
        t.play("WAIT 9000")
        assert "Ann, roll the dice" in t.text()


def test_registering_walks_the_deeds_in_board_order_a_lost_sticker_and_a_refused_tag(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        t.play("HOLD MENU 2")
        t.highlight("Register cards")
        t.play("YES")
        assert "REGISTER 1/30" in t.text() and "Tap the sticker of Mediterranean Avenue" in t.text()
        t.play("TAP new-sticker")  # Mediterranean's sticker was lost: a new one
        assert "REGISTER 2/30" in t.text() and "Baltic Avenue" in t.text()
        t.play("TAP boardwalk")  # a sticker of this set already: refused, nothing changes
        assert "already Boardwalk's" in t.text() and "REGISTER 2/30" in t.text()
        t.play("PREV", "PREV")  # round from the first deed to the players' cards, at the end
        assert "REGISTER 30/30" in t.text() and "Bob: tap your card" in t.text()
        t.play("NO")
        t.play("TAP mediterranean-avenue")  # the lost one, found again: it no longer counts
        assert "Unknown card" in t.text()
        t.play("TAP new-sticker")
        assert "Ann $1500" in t.text() and "1/2" in t.text()  # Ann's deed: its acts (Build, mortgage)


def test_seats_of_a_new_game_register_a_lost_card(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        t.play("HOLD MENU 2")
        t.highlight("New game")
        t.play("YES", "YES")  # over a game in progress: asked first
        t.highlight("Property trading game")
        t.play("YES", "YES", "YES")  # the same players, start
        assert "SEATS 1/2" in t.text() and "Ann: tap your card" in t.text() and "YES keeps the one registered" in t.text()
        t.play("TAP ann spare")  # Ann lost hers: a new card (a name of two words: the script's TAP takes the rest)
        assert "Bob: tap your card" in t.text()
        t.play("YES")  # Bob keeps his
        t.play("TAP Ann")
        assert "Unknown card" in t.text()
        t.play("TAP ann spare")
        assert t.text().startswith("Ann $1500")
        t.play("TAP Bob")
        assert t.text().startswith("Bob $1500")


def test_a_reader_that_stops_answering_is_said_and_the_buttons_do_everything(tmp_path: Path) -> None:
    with table(tmp_path) as t:
        t.play("WAIT 500")
        t.chip.plugged = False
        t.play("WAIT 3000")
        assert str(STOPPED) in t.text()
        t.play("ROLL", "DICE 3 5", "WAIT 700", "YES")  # read the question, then buy
        assert t.state["spaces"]["vermont-avenue"]["owner"] == "Ann"
        t.chip.plugged = True
        t.play("WAIT 2000")
        assert str(STOPPED) not in t.text()
        t.play("TAP Bob")
        assert t.text().startswith("Bob $1500")


def test_run_opens_the_readers_bus_through_smbus2_and_a_missing_bus_is_said(tmp_path: Path) -> None:
    from dataclasses import replace

    from companion.drivers.pins import load_pins
    from companion.drivers.virtual import virtual_smbus
    from companion.startup.parts import nfc_opener
    from companion.startup.station import _start_reader

    pins = load_pins()
    chip = VirtualPN532(SimClock())
    with virtual_smbus(chip):  # type: ignore[arg-type]  # smbus2.SMBus(1) opens the virtual PN532
        assert nfc_opener(pins)() is chip  # type: ignore[misc]
    assert nfc_opener(replace(pins, nfc=None)) is None
    with table(tmp_path) as t:

        def no_i2c() -> None:
            raise FileNotFoundError(2, "No such file or directory", "/dev/i2c-1")

        assert _start_reader(pins, no_i2c, t.station.controller, t.clock) == (None, None)
        t.station.controller.refresh()
        assert "No NFC reader: buttons only" in t.text()

