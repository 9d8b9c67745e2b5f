"""``companion run``: the table on a Raspberry Pi (lgpio pins, the real OLED), until SIGTERM or the host shuts it
down; a journal that cannot be opened is set aside from the OLED (:mod:`.journal_trouble`)."""

from __future__ import annotations

import gc
import logging
import os
import signal
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion.config import TableConfig
from companion.drivers import clock as clocks
from companion.drivers.pins import PinMap, load_pins
from companion.kept import PRIVATE_UMASK
from companion.network import NetworkAdapter
from companion.poweroff import power_off
from companion.timelimit import utc_now
from companion.words import ENGLISH, Words

from .journal_trouble import JournalUnusable, ask_to_set_aside
from .parts import hush_of, lights_opener, mouth_opener, nfc_opener, oled_frame_time, oled_opener, tunes_opener
from .station import build_station

if TYPE_CHECKING:
    from .presses import PressFifo

log = logging.getLogger(__name__)


def run(config: TableConfig, out: TextIO, *, game: int | None = None, words: Words = ENGLISH) -> int:
    """The table on a Raspberry Pi: lgpio pins, the real OLED, until SIGTERM or the host shuts it down.

    ``game``: the stored game to go on with (else the game played last, finished or not); ``words``: the terminal's
    language (the table's: :mod:`.speaking`)."""
    w = words
    os.umask(PRIVATE_UMASK)  # the journal, the kept access and Wi-Fi, the logs: the owner's alone (companion.kept)
    pins = load_pins(config.pins)
    factory = _pin_factory(config.pin_factory)
    open_device = oled_opener(config.display, pins)
    Path(config.journal).parent.mkdir(parents=True, exist_ok=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())  # before anything is said: systemd may stop us at once

    def shutdown() -> None:
        stop.set()
        power_off()  # logind, allowed by firmware/polkit-companion.rules

    while True:
        try:
            station = build_station(journal_path=config.journal, pins=pins, pin_factory=factory,
                                    open_device=open_device, frame_time=oled_frame_time(pins), dice=config.dice,
                                    clock=clocks.monotonic, sleep=clocks.sleep, setup=None,
                                    new_seed=lambda: int.from_bytes(os.urandom(4), "big") >> 1,
                                    web=(config.web_host, config.web_port) if config.web_port else None,
                                    phone_dice=config.phone_dice, web_names=config.web_names, shutdown=shutdown,
                                    resume_game=game, open_lights=lights_opener(pins, factory),
                                    open_nfc=None if config.pin_factory == "mock" else nfc_opener(pins),
                                    open_tunes=tunes_opener(pins, factory), hush=hush_of(config),
                                    open_mouth=mouth_opener(config.voice, config.voice_model),
                                    language=config.language,
                                    network=_network(config), captive_port=config.captive_port)
            break
        except JournalUnusable as error:
            gc.enable()  # the OLED's question may wait long (cmd_run paused the collections for the start)
            # Said on the OLED (not only in the log, with systemd restarting a blank table every 2 s); YES sets
            # the file aside and a new journal starts.
            log.error("%s", error)
            out.write(f"companion: {error}\ncompanion: " + w.t("the OLED asks whether to set the journal aside") + "\n")
            out.flush()
            if not ask_to_set_aside(error, config.journal, pins=pins, pin_factory=factory, open_device=open_device,
                                    clock=clocks.monotonic, sleep=clocks.sleep, stop=stop, now=utc_now,
                                    language=config.language):
                return 1
            game = None
    gc.freeze()  # what the start made lives as long as the table: later collections need not look at it again
    gc.enable()
    stored = station.table.game
    what = (w.t("resumed game {n}", n=stored.id) if station.resumed else w.t("started game {n}", n=stored.id)) \
        if stored else w.t("no game yet: the OLED asks for its ruleset and players")
    out.write(f"companion: {what} (" + w.t("{config}, pins {pins}", config=config.source, pins=pins.source) + ")\n")
    if station.web is not None:
        out.write("companion: " + w.t("phone page on {url}", url=station.controller.join_info().url) + "\n")
    out.flush()

    def on_sigterm(*_: Any) -> None:
        stop.set()
        station.wake.set()  # the loop sleeps at most IDLE_TICK: a shutdown from the host menu is seen within it

    signal.signal(signal.SIGTERM, on_sigterm)
    presses = _mock_presses(config, factory, pins)
    try:
        station.run(stop)
    except KeyboardInterrupt:
        pass
    finally:
        if presses is not None:
            presses.close()
        station.close()
    return 0


def _mock_presses(config: TableConfig, factory: Any, pins: PinMap) -> PressFifo | None:
    """The FIFO of test presses ``mock_presses`` names, on mock pins only (the config refuses it otherwise)."""
    if not config.mock_presses or config.pin_factory != "mock":
        return None
    from .presses import PressFifo  # with the button scripts' parser and unittest.mock: only for a FIFO

    return PressFifo(config.mock_presses, factory, pins, roller=config.dice == "roller").start()


def _network(config: TableConfig) -> NetworkAdapter:
    """The network adapter ``network`` asks for (the host menu switches it); its name and password beside the
    journal."""
    return NetworkAdapter(config.network, credentials=Path(config.journal).with_suffix(".wifi.json"),
                          country=config.wifi_country, channel=config.hotspot_channel)


def _pin_factory(name: str) -> Any:
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)  # PWM too: the buzzer's tones
    if name == "rpigpio":  # Raspberry Pi OS before Bookworm; not the Pi 5 (README: "Pin factories")
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    return None  # "auto": gpiozero's own choice (GPIOZERO_PIN_FACTORY)
