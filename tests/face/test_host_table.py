"""The host's table (issue 38, item 7): a fresh journal asks for a game instead of starting one nobody asked for; a
new game over a game in progress is asked first; the host PIN is never on the join screens everyone at the table
reads, only on the host's own screen reached from the host menu (MENU held)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import zxingcpp
from gpiozero.pins.mock import MockFactory
from luma.core.device import dummy
from PIL import Image

from companion.drivers.clock import SimClock
from companion.drivers.pins import load_pins
from companion.drivers.script import parse_script, run_script
from companion.drivers.virtual import VirtualButtons
from companion.face.join import JoinInfo
from companion.face.screens import Screen
from companion.startup.station import Station, build_station

PIN = "7315"
INFO = JoinInfo(url="http://192.168.1.20:8080", join_url="http://192.168.1.20:8080/join#code=482913", code="482913",
                pin=PIN, players=(("Ann", "093114", "http://192.168.1.20:8080/join#code=093114&player=Ann"),
                                  ("Bob", "550271", "http://192.168.1.20:8080/join#code=550271&player=Bob")),
                wifi=("companion-K7MQ", "k7mq-2xtp-9brw"))


@contextmanager
def station(tmp_path: Path, setup: dict[str, Any] | None) -> Iterator[tuple[Station, VirtualButtons,
                                                                            list[tuple[Screen, Image.Image]]]]:
    """A table as ``companion run`` builds it (no ready game), on mock pins; every frame drawn is kept with the
    screen model it was drawn from."""
    sim = SimClock()
    factory = MockFactory()
    pins = load_pins()
    frames: list[tuple[Screen, Image.Image]] = []
    box: list[Station] = []  # the station, once built (its first frame is drawn while it is built)

    def on_frame(image: Image.Image) -> None:
        shown = box[0].controller.shown if box else None
        if shown is not None:
            frames.append((shown, image.copy()))

    built = build_station(journal_path=tmp_path / "games.sqlite3", pins=pins, pin_factory=factory,
                          open_device=lambda: dummy(width=128, height=64, mode="1"), dice="software", clock=sim,
                          sleep=sim.sleep, setup=setup, new_seed=lambda: 1,
                          on_frame=on_frame)
    box.append(built)
    try:
        yield built, VirtualButtons(factory, pins.buttons, sim.sleep, after_step=built.tick), frames
    finally:
        built.close()
        factory.reset()


def press(buttons: VirtualButtons, *lines: str) -> None:
    run_script(parse_script(lines), buttons, None)  # type: ignore[arg-type]  # no roller steps


def text(built: Station) -> str:
    return " ".join(" ".join(row.text for row in built.controller.screen().rows).split())


def test_a_fresh_journal_opens_the_set_up_instead_of_starting_a_game(tmp_path: Path) -> None:
    with station(tmp_path, None) as (built, buttons, _):
        assert built.table.state is None and built.journal.games() == []  # nothing nobody asked for
        assert built.controller.mode == "setup" and "NEW GAME: RULESET" in text(built)
        press(buttons, "YES")  # classic
        assert "NEW GAME: PLAYERS" in text(built)
        press(buttons, "NEXT", "YES", "YES")  # 3 players, start
        state = built.table.public()
        assert state is not None and state["ruleset"] == "classic" and len(state["players"]) == 3
        assert built.controller.mode == "game" and "Player 1, roll the dice" in text(built)


def test_leaving_the_set_up_of_a_fresh_journal_shows_how_to_come_back(tmp_path: Path) -> None:
    with station(tmp_path, None) as (built, buttons, _):
        press(buttons, "NO")
        assert "No game is running. YES: start one." in text(built) and built.table.state is None
        press(buttons, "YES")
        assert "NEW GAME: RULESET" in text(built)


def test_a_new_game_over_a_game_in_progress_is_asked_first(tmp_path: Path) -> None:
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}
    with station(tmp_path, setup) as (built, buttons, _):
        game = built.table.game.id  # type: ignore[union-attr]
        press(buttons, "HOLD MENU 2", "NEXT", "NEXT", "YES")
        assert built.controller.mode == "confirm" and "Start a new game? This one stops here" in text(built)
        press(buttons, "NO")  # not sure: the game goes on
        assert built.controller.mode == "game" and built.table.game.id == game  # type: ignore[union-attr]
        press(buttons, "HOLD MENU 2", "NEXT", "NEXT", "YES", "YES")
        assert built.controller.mode == "setup" and built.table.game.id == game  # type: ignore[union-attr]
        built.table.submit({"act": {"player": "host", "do": "end-game"}}, source="host")
        press(buttons, "WAIT 700", "NO", "HOLD MENU 2")
        labels = [item.label for item in built.controller.items]
        new_game = next(item for item in built.controller.items if item.label == "New game")
        assert new_game.confirm is None, labels  # after the game over there is nothing to lose


def joined_text(screen: Screen) -> str:
    return " ".join(row.text for row in screen.rows)


def qr_text(image: Image.Image) -> str:
    """The QR code on a frame, as a phone's camera reads it."""
    found = zxingcpp.read_barcodes(image.convert("L").resize((512, 256)))
    assert len(found) == 1, "one QR code on the screen"
    return found[0].text


def test_no_frame_of_the_join_screens_holds_the_host_pin(tmp_path: Path) -> None:
    """The PIN used to stand on the join codes' screen, where anyone at the table reads it."""
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}
    with station(tmp_path, setup) as (built, buttons, frames):
        built.controller.join_info = lambda: INFO
        press(buttons, "HOLD MENU 2")
        labels = [item.label for item in built.controller.items]
        press(buttons, *["NEXT"] * labels.index("Join codes"), "YES", *["NEXT"] * 5, *["PREV"] * 5)
        joins = [(screen, image) for screen, image in frames if screen.name.startswith("join")]
        assert {screen.name for screen, _ in joins} == {"join", "join-wifi", "join-player"}
        for screen, image in joins:
            assert PIN not in joined_text(screen), joined_text(screen)
            assert PIN not in qr_text(image), screen.name
        press(buttons, "NO", "HOLD MENU 2", *["NEXT"] * labels.index("Host PIN"), "YES")  # the host's own screen
        shown = built.controller.shown
        assert shown is not None and shown.name == "host-pin" and PIN in joined_text(shown)
        assert "HOST ONLY" in joined_text(shown) and qr_text(frames[-1][1]) == INFO.join_url


def test_the_host_menu_changes_the_tables_language(tmp_path: Path) -> None:
    """MENU held, "Language: English": YES goes to the next language, each named in its own words, and the menu, the
    game's screen and its question are in it at once; round the four back to English, every word as before."""
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3}
    with station(tmp_path, setup) as (built, buttons, frames):
        english = text(built)
        press(buttons, "HOLD MENU 2")
        labels = [item.label for item in built.controller.items]
        at = labels.index("Language: English")
        press(buttons, *["NEXT"] * at, "YES")
        assert "SPIELLEITUNG" in text(built) and "Sprache: Deutsch" in text(built), text(built)
        assert built.controller.language == "de"
        press(buttons, "NO")
        german = text(built)
        assert "Ann, würfle" in german and "1500 $" in german.replace(".", "") and "ROLL: würfeln" in german
        press(buttons, "HOLD MENU 2", *["NEXT"] * at, "YES")
        assert "Langue : Français" in text(built)
        press(buttons, "YES")
        assert "Idioma: Español" in text(built)
        press(buttons, "YES")
        assert "Language: English" in text(built)
        press(buttons, "NO")
        assert text(built) == english  # English again, every word as it was
