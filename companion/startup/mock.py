"""A station on mock parts, for the demo and the tests: gpiozero's MockFactory pins, luma's dummy OLED, a virtual
PN532 whose cards are the demo's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.face.cards import CardBook
from companion.drivers import clock as clocks
from companion.drivers.lights import LightDriver, ShownLights
from companion.drivers.pins import PinMap, load_pins
from companion.drivers.speech import Mouth
from companion.drivers.tunes import Tunes
from companion.face.cues import CueTarget
from companion.face.sounds import Hush

from .station import Station, build_station


def register_demo_set(book: CardBook, edition: str, players: list[str]) -> None:
    """The demo's set is registered already: each card's UID is :func:`demo_uid` of a player's name or a deed's
    space id (``TAP Ann``, ``TAP boardwalk``); any other name is an unknown card."""
    from companion.drivers.virtual_nfc import demo_uid
    from companion.face.taps import set_cards

    with book.batch():
        for card in set_cards(edition, players):
            if book.uid(card.edition, card.kind, card.name) is None and book.find(demo_uid(card.name)) is None:
                book.register(card, demo_uid(card.name))


@contextmanager
def mock_station(*, journal_path: str | Path, dice: str, clock: clocks.Clock, sleep: clocks.Sleep,
                 setup: dict[str, Any] | None, new_seed: Callable[[], int], pins: PinMap | None = None,
                 on_frame: Callable[[Any], None] | None = None, web: tuple[str, int] | None = None,
                 shutdown: Callable[[], None] | None = None,
                 web_names: Sequence[str] = (), open_tunes: Callable[[], Tunes] | None = None,
                 hush: Hush | None = None, open_mouth: Callable[[], Mouth] | None = None,
                 open_lights: Callable[[], LightDriver] = ShownLights,
                 cue_targets: Sequence[CueTarget] = (), language: str = "en",
                 frame_time: float = 0.0) -> Iterator[tuple[Station, Any, PinMap]]:
    """A station on gpiozero's MockFactory pins, luma's dummy OLED and a virtual PN532 whose cards are the demo's
    (:func:`register_demo_set`); seat lights that keep their frame; the buzzer and its mute
    when asked for. ``frame_time``: the OLED's pace (:func:`build_station`); 0, the default: every state drawn, as the
    demo's recorder keeps them."""
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    from companion.drivers.virtual_nfc import VirtualPN532

    pins = pins or load_pins()
    factory = MockFactory()
    chip = VirtualPN532(clock)
    station = build_station(journal_path=journal_path, pins=pins, pin_factory=factory,
                            open_device=lambda: dummy(width=128, height=64, mode="1"), dice=dice, clock=clock,
                            sleep=sleep, setup=setup, new_seed=new_seed, on_frame=on_frame, web=web,
                            phone_dice="software", web_names=web_names, shutdown=shutdown, open_lights=open_lights,
                            open_nfc=lambda: chip, open_tunes=open_tunes, hush=hush,
                            open_mouth=open_mouth, cue_targets=cue_targets, language=language,
                            ready_game=True, frame_time=frame_time)  # the demo: a two-player game at once (README)
    state, cards = station.table.state, station.controller.cards
    if state is not None and cards is not None:
        register_demo_set(cards, state["ruleset"], [p["name"] for p in state["players"]])
    try:
        yield station, factory, pins
    finally:
        station.close()
        factory.reset()
