"""Building a table: ``companion run`` on a Pi, ``companion demo`` anywhere.

Both build the same :class:`Station` — the journal, the one :class:`~companion.table.Table`,
the buttons and the dice roller on gpiozero, the OLED behind :class:`~.devices.display.Display`,
the controller, and the phone page when the web package is there. ``run`` uses the Pi's pins
(lgpio) and the real OLED; ``demo`` uses gpiozero's MockFactory and luma's dummy device, with
keys for buttons (interactive) or a button script on simulated time (headless).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from companion.cards import open_card_book
from companion.config import PhoneDice, TableConfig, parse_quiet_hours
from companion.engine import CompanionError, State, ruleset_ids
from companion.journal import Journal, JournalError
from companion.journal_trouble import JournalUnusable, ask_to_set_aside, hold_journal
from companion.kept import PRIVATE_UMASK
from companion.poweroff import power_off
from companion.seats import Seat
from companion.network import NetworkAdapter
from companion.table import Table, Update
from companion.timelimit import TimeLimit, utc_now

from .devices import clock as clocks
from .devices import nfc
from .devices.buttons import ButtonPanel
from .devices.controller import JoinInfo, PinLock, TableController
from .devices.cues import CueFeed, Cues, CueTarget
from .devices.faults import Device, Kept
from .devices.lights import LightDriver, SeatLeds, SeatLights, ShownLights, StripLights, open_spi
from .devices.dice import RollerDice
from .devices.nfc import NfcReader
from .devices.pn532 import PN532
from .devices.display import DRIVERS, Display
from .devices.pins import PinMap, load_pins
from .devices.roller import DiceRoller
from .devices.sounds import Buzzer, Hush, PiezoTunes, SpeakerTunes, Tunes
from .devices.voice import Mouth, Speaker, open_voice
from .devices.audio import AudioOut

log = logging.getLogger(__name__)

TICK = 0.01  # seconds between the table's polls of buttons, roller time-outs and the display


def default_setup(seed: int) -> dict[str, Any]:
    """The game the demo starts when none is stored: two players of ``addon`` (``classic`` until it exists)."""
    ruleset = "addon" if "addon" in ruleset_ids() else "classic"
    return {"ruleset": ruleset, "players": ["Ann", "Bob"], "seed": seed}


@dataclass
class Station:
    """Everything that runs one table; :meth:`tick` every 10 ms, :meth:`close` at the end."""

    journal: Journal
    table: Table
    controller: TableController
    panel: ButtonPanel
    display: Display
    roller: DiceRoller | None = None
    web: Any = None
    resumed: bool = False
    _closers: list[Callable[[], None]] = field(default_factory=list)
    time_limit: TimeLimit | None = None
    lights: SeatLights | None = None
    reader: NfcReader | None = None  # the NFC reader, when pins.toml has one
    nfc_bus: Any = None  # the bus it talks on (a VirtualPN532 in the demo)

    def tick(self) -> None:
        self.panel.poll()
        if self.reader is not None:
            self.reader.poll()
        if self.time_limit is not None:
            self.time_limit.check()
        self.controller.tick()
        if self.lights is not None:
            self.lights.tick()

    def close(self) -> None:
        for close in reversed(self._closers):
            try:
                close()
            except Exception:  # noqa: BLE001 - close everything we can
                log.exception("while closing")


def build_station(*, journal_path: str | Path, pins: PinMap, pin_factory: Any, open_device: Callable[[], Any],
                  dice: str, clock: clocks.Clock, sleep: clocks.Sleep, setup: dict[str, Any] | None,
                  new_seed: Callable[[], int], on_frame: Callable[[Any], None] | None = None,
                  web: tuple[str, int] | None = None, phone_dice: PhoneDice = "none",
                  web_names: Sequence[str] = (),
                  shutdown: Callable[[], None] | None = None, resume_game: int | None = None,
                  wall_clock: Callable[[], datetime] = utc_now,
                  open_lights: Callable[[], LightDriver] | None = None,
                  open_nfc: Callable[[], Any] | None = None,
                  open_tunes: Callable[[], Tunes] | None = None, hush: Hush | None = None,
                  open_mouth: Callable[[], Mouth] | None = None, cue_targets: Sequence[CueTarget] = (),
                  network: NetworkAdapter | None = None, captive_port: int = 0) -> Station:
    """Open the journal, resume game ``resume_game`` or else the game played last, finished or not (or start ``setup``),
    and wire the devices to it. ``open_lights``: the seat lights' driver (none: no lights); ``open_tunes``: the
    buzzer (none: no buzzer), ``open_mouth``: the voice (none: silent), both quiet while ``hush`` says so (muted from
    the host menu, quiet hours); ``cue_targets``: also told of every input's cues (the demo's ``--json``).
    ``network``: the table's own Wi-Fi (started here, its notices on the OLED), with phones' connectivity checks
    answered on ``captive_port`` (0: not)."""
    closers: list[Callable[[], None]] = [hold_journal(journal_path)]  # the table is its journal's one writer
    try:
        journal = Journal(journal_path)
    except JournalError as error:
        closers[0]()
        raise JournalUnusable(str(error)) from error
    except BaseException:
        closers[0]()
        raise
    closers.append(journal.close)
    try:
        table = Table(journal)
        resumed = table.resume(resume_game) is not None
        if not resumed:
            table.new_game(setup or default_setup(new_seed()), source="host")
        display = Display(open_device, clock=clock, on_frame=on_frame)
        closers.append(display.close)
        controller_box: list[TableController] = []
        server, join, pin_lock = _start_web(
            table, web, phone_dice, Path(journal_path).with_suffix(".phones.json"), web_names,
            cards=lambda: next((c for c in controller_box if c.cards is not None), None), network=network)
        if server is not None:
            closers.append(server.stop)
            if network is not None and captive_port:
                captive = Captive(web[0], captive_port, join)  # type: ignore[index]
                closers.append(captive.stop)
                if network.mode == "home":
                    network.opened = captive.start  # only if the host menu opens the hotspot
                else:
                    captive.start()
        roller = None
        roller_dice = None
        if dice == "roller" or pins.roller:
            roller = DiceRoller(pins.roller, lambda r: controller_box[0].on_roller(r), pin_factory=pin_factory,
                                sleep=sleep, clock=clock)
            closers.append(roller.close)
            roller_dice = RollerDice(roller)
        cards, cards_trouble = open_card_book(Path(journal_path).with_suffix(".cards.json")) \
            if pins.nfc is not None and open_nfc is not None else (None, None)
        controller = TableController(table, display, dice=dice, roller=roller_dice, clock=clock, join_info=join,
                                     shutdown=shutdown, new_seed=new_seed, network=network,
                                     hush=hush if open_tunes or open_mouth else None,  # "Sound" in the host menu
                                     disk_free=lambda: shutil.disk_usage(Path(journal_path).parent).free,
                                     cards=cards, pin_lock=pin_lock)
        controller_box.append(controller)
        closers.append(controller.close)
        if resumed or journal.problems:
            # What the journal's check found stays until the next question: a dropped input is to be undone on
            # the board, a damaged game was not loaded (another was resumed, or a new one started).
            told = [f"Game {table.game.id} resumed where it stopped"] if resumed else []  # type: ignore[union-attr]
            told += [f"Journal: {problem}" for problem in journal.problems]
            controller.say(". ".join(told), sticky=bool(journal.problems))
        reader, nfc_bus = _start_reader(pins, open_nfc, controller, clock) if cards is not None else (None, None)
        if nfc_bus is not None:
            closers.append(nfc_bus.close)
        if cards_trouble:
            controller.say(cards_trouble, sticky=True)
        panel = ButtonPanel(pins.buttons, controller.on_button, pin_factory=pin_factory, clock=clock)
        closers.append(panel.close)
        feed = CueFeed()
        lights = None
        if open_lights is not None:
            count = pins.lights.seats if pins.lights else 8
            lights = SeatLights(_kept("Seat lights", open_lights, clock, controller), count, clock=clock)
            closers.append(lights.close)
            feed.add(lights.on_cues)
        if open_tunes is not None:
            buzzer = Buzzer(_kept("Buzzer", open_tunes, clock, controller), hush or Hush())
            closers.append(buzzer.close)
            feed.add(buzzer.on_cues)
        if open_mouth is not None:
            speaker = Speaker(_kept("Voice", open_mouth, clock, controller), (hush or Hush()).silent, clock)
            closers.append(speaker.close)
            feed.add(speaker.on_cues)
        for target in cue_targets:
            feed.add(target)
        closers.append(table.subscribe(feed))
        if table.state is not None:  # the game resumed (or just started) lights its seats at once
            feed(Update(table.state, [{"kind": "resumed", "text": ""}], "host"))
        controller.refresh()
        if network is not None:
            network.notify = controller.device_notice
            network.start()
            closers.append(network.close)
    except BaseException:
        for close in reversed(closers):
            close()
        raise

    def started_at(game_id: int) -> datetime | None:
        """When the journal created a game: a time limit counts from there."""
        return next((g.created for g in journal.games() if g.id == game_id), None)

    time_limit = TimeLimit(table, started_at, now=wall_clock, warn=controller.announce)
    return Station(journal, table, controller, panel, display, roller, server, resumed, closers, time_limit, lights,
                   reader=reader, nfc_bus=nfc_bus)


def _start_reader(pins: PinMap, open_nfc: Callable[[], Any] | None, controller: TableController,
                  clock: clocks.Clock) -> tuple[NfcReader | None, Any]:
    """The NFC reader on its I2C bus; a bus that cannot be opened (no I2C enabled) is said once, and the table plays
    on its buttons."""
    if pins.nfc is None or open_nfc is None:
        return None, None
    try:
        bus = open_nfc()
    except OSError as error:
        log.warning("NFC reader: %s", error)
        controller.say(f"{nfc.MISSING} ({error.strerror or error})")
        return None, None
    reader = NfcReader(PN532(bus, pins.nfc.address), controller.on_tap, clock=clock,
                       on_fault=controller.reader_fault, on_notice=controller.announce)
    return reader, bus


def _kept(name: str, open_device: Callable[[], Device], clock: clocks.Clock, controller: TableController) -> Kept[Device]:
    """A device beside the OLED (lights, buzzer, speaker) whose faults are notices on it: :class:`.faults.Kept`."""
    return Kept(name, open_device, clock=clock, notify=controller.device_notice,
                close_device=lambda device: device.close())  # type: ignore[attr-defined]


def _start_web(table: Table, web: tuple[str, int] | None, phone_dice: PhoneDice, kept: Path,
               names: Sequence[str] = (), cards: Callable[[], Any] | None = None,
               network: NetworkAdapter | None = None) -> tuple[Any, Callable[[], JoinInfo], PinLock | None]:
    """The phone page, when asked for and when the web package is installed; its PIN, join code,
    cookie key and seats are ``kept`` in that file (beside the journal) from one run to the next. It answers
    to its addresses, local names and ``names`` (:mod:`companion.web.hosts`); ``cards``: the controller, once it has
    a card reader (the host registers cards from the page). Its PIN login, paused after too many wrong PINs, is
    allowed again from the host menu (:class:`PinLock`). While ``network``'s hotspot is up, the page is at the Pi's
    address there, and the join screens lead with its Wi-Fi."""
    if web is None:
        return None, JoinInfo, None
    try:
        from companion.web import Access, create_app, make_server
    except ImportError as error:
        log.warning("no phone page: %s", error)
        return None, JoinInfo, None
    access = Access.kept(kept)
    host, port = web

    def wifi() -> tuple[str, str] | None:
        hotspot = network.hotspot if network is not None else None
        return (hotspot.ssid, hotspot.password) if hotspot is not None else None

    # The name it listens on is one it answers to (the address its screen shows may be that name).
    app = create_app(table, access=access, phone_dice=phone_dice,
                     config={"COMPANION_HOSTS": (*names, host), "COMPANION_WIFI": wifi}, cards=cards)
    try:
        server = make_server(app, host=host, port=port).start()
    except OSError as error:  # the port is taken: any free one will do
        log.warning("port %s: %s; taking a free port", port, error)
        server = make_server(app, host=host, port=0).start()

    def join() -> JoinInfo:
        # Found again each time: the Pi may join the network (or open its own) after the start.
        hotspot = network.address if network is not None else None
        base = f"http://{hotspot}:{server.port}" if hotspot else page_url(host, server.port)
        names = [p["name"] for p in table.state["players"]] if table.state else []
        players = tuple((n, access.player_code(n), access.player_join_url(base, n)) for n in names)
        return JoinInfo(base, access.join_url(base), access.join_code, access.host_pin, players, wifi())

    return server, join, PinLock(lambda: access.pin_paused, access.allow_pin)


class Captive:
    """Phones' connectivity checks answered with a redirect to the page (:mod:`companion.web.captive`) on ``port``
    (80: the Pi's service may bind it, firmware/companion.service). A port that cannot be taken is logged: the page
    works, phones only do not open it by themselves."""

    def __init__(self, host: str, port: int, join: Callable[[], JoinInfo]) -> None:
        self.host, self.port, self.join = host, port, join
        self.server: Any = None

    def start(self) -> None:
        if self.server is not None:
            return
        from companion.web import make_server
        from companion.web.captive import create_captive_app

        server = make_server(create_captive_app(lambda: f"{self.join().url}/"), host=self.host, port=self.port,
                             threads=4)
        try:
            self.server = server.start()
        except OSError as error:
            log.warning("no captive portal on port %s: %s (phones open the page from its QR code)", self.port, error)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()


def page_url(host: str, port: int) -> str:
    """The address phones on the LAN type: this machine's address when serving on all of them.

    Raspberry Pi OS maps the host name to 127.0.1.1 in /etc/hosts, so the name's addresses say nothing: the
    address is the one the route to the LAN leaves from (:func:`lan_address`); without a route, the name's
    addresses, then the name on mDNS ("companion.local", which Raspberry Pi OS announces)."""
    if host not in ("0.0.0.0", "::", ""):
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    address = lan_address()
    if address is None:
        try:
            named = {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
        except OSError:
            named = set()
        lan = sorted(a for a in named if not a.startswith("127."))
        address = lan[0] if lan else f"{socket.gethostname()}.local"
    return f"http://{address}:{port}"


def lan_address() -> str | None:
    """The address this machine's route to a private network leaves from, or None (no network yet). A UDP socket's
    connect only picks the route: no packet is sent."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


# ====================================================================== companion run
def run(config: TableConfig, out: TextIO, *, game: int | None = None) -> int:
    """The table on a Raspberry Pi: lgpio pins, the real OLED, until SIGTERM or the host shuts it down.

    ``game``: the stored game to go on with (else the game played last, finished or not)."""
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
                                    open_device=open_device, dice=config.dice, clock=clocks.monotonic,
                                    sleep=clocks.sleep, setup=None,
                                    new_seed=lambda: int.from_bytes(os.urandom(4), "big") >> 1,
                                    web=(config.web_host, config.web_port) if config.web_port else None,
                                    phone_dice=config.phone_dice, web_names=config.web_names, shutdown=shutdown,
                                    resume_game=game, open_lights=lights_opener(pins, factory),
                                    open_nfc=nfc_opener(pins),
                                    open_tunes=tunes_opener(pins, factory), hush=hush_of(config),
                                    open_mouth=mouth_opener(config.voice, config.voice_model),
                                    network=_network(config), captive_port=config.captive_port)
            break
        except JournalUnusable as error:
            # Said on the OLED (not only in the log, with systemd restarting a blank table every 2 s); YES sets
            # the file aside and a new journal starts.
            log.error("%s", error)
            out.write(f"companion: {error}\ncompanion: the OLED asks whether to set the journal aside\n")
            out.flush()
            if not ask_to_set_aside(error, config.journal, pins=pins, pin_factory=factory, open_device=open_device,
                                    clock=clocks.monotonic, sleep=clocks.sleep, stop=stop, now=utc_now):
                return 1
            game = None
    stored = station.table.game
    out.write(f"companion: {'resumed' if station.resumed else 'started'} game {stored.id if stored else '-'} "
              f"({config.source}, pins {pins.source})\n")
    if station.web is not None:
        out.write(f"companion: phone page on {station.controller.join_info().url}\n")
    out.flush()
    try:
        while not stop.wait(TICK):
            station.tick()
    except KeyboardInterrupt:
        pass
    finally:
        station.close()
    return 0


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


def lights_opener(pins: PinMap, pin_factory: Any) -> Callable[[], LightDriver] | None:
    """What opens the seat lights of ``pins`` (again after a fault): the strip on SPI, or plain LEDs on GPIO; on mock
    pins, lights that only keep their frame."""
    from gpiozero.pins.mock import MockFactory

    lights = pins.lights
    if lights is None:
        return None
    if isinstance(pin_factory, MockFactory):
        return ShownLights
    if lights.kind == "leds":
        return lambda: SeatLeds(lights.pins, pin_factory=pin_factory)
    return lambda: StripLights(open_spi(lights.spi_bus), seat_order=lights.seat_order,
                               leds_per_seat=lights.leds_per_seat, pixel_order=lights.pixel_order,
                               brightness=lights.brightness)


def nfc_opener(pins: PinMap) -> Callable[[], Any] | None:
    """What opens the NFC reader's I2C bus (the kernel's ``/dev/i2c-N``, shared with the OLED), if one is fitted."""
    if pins.nfc is None:
        return None
    from smbus2 import SMBus

    bus = pins.nfc.bus
    return lambda: SMBus(bus)


def tunes_opener(pins: PinMap, pin_factory: Any) -> Callable[[], Tunes] | None:
    """What opens the piezo of ``pins`` (none in the pin map: no buzzer)."""
    pin = pins.buzzer
    if pin is None:
        return None
    return lambda: PiezoTunes(pin, pin_factory=pin_factory, sleep=clocks.sleep)


def mouth_opener(voice: str, model: str = "") -> Callable[[], Mouth] | None:
    """What opens the voice (``"off"``: none): espeak-ng, or piper with a voice file, through the audio output."""
    if voice == "off":
        return None
    return lambda: Mouth(open_voice(voice, model), AudioOut())


def hush_of(config: TableConfig) -> Hush:
    """The buzzer's and the voice's quiet: ``sound = false`` starts muted (the host menu unmutes); quiet hours."""
    return Hush(muted=not config.sound, quiet_hours=parse_quiet_hours(config.quiet_hours))


def oled_opener(driver: str, pins: PinMap) -> Callable[[], Any]:
    """What opens the OLED (again after a fault): the paged ``driver`` on the I2C bus and address of
    ``pins``, or luma's dummy for ``"none"``."""
    if driver == "none":
        from luma.core.device import dummy

        return lambda: dummy(width=128, height=64, mode="1")
    from luma.core.interface.serial import i2c

    cls = DRIVERS[driver]
    return lambda: cls(i2c(port=pins.i2c_bus, address=pins.i2c_address))


# ====================================================================== companion demo
def speaker_sound(sound: bool) -> dict[str, Any]:
    """The demo's ``--sound``: the buzzer's tunes and the voice (espeak-ng) on this computer's audio output, with
    the host menu's mute; nothing without it."""
    if not sound:
        return {}
    return {"open_tunes": lambda: SpeakerTunes(AudioOut().play_pcm), "hush": Hush(),
            "open_mouth": mouth_opener("espeak")}


def demo_journal_path() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "companion" / "demo.sqlite3"


@contextmanager
def mock_station(*, journal_path: str | Path, dice: str, clock: clocks.Clock, sleep: clocks.Sleep,
                 setup: dict[str, Any] | None, new_seed: Callable[[], int], pins: PinMap | None = None,
                 on_frame: Callable[[Any], None] | None = None, web: tuple[str, int] | None = None,
                 shutdown: Callable[[], None] | None = None,
                 web_names: Sequence[str] = (), open_tunes: Callable[[], Tunes] | None = None,
                 hush: Hush | None = None, open_mouth: Callable[[], Mouth] | None = None,
                 open_lights: Callable[[], LightDriver] = ShownLights,
                 cue_targets: Sequence[CueTarget] = ()) -> Iterator[tuple[Station, Any, PinMap]]:
    """A station on gpiozero's MockFactory pins, luma's dummy OLED and a virtual PN532 whose cards are the demo's
    (:func:`~.devices.virtual_nfc.register_demo_set`); seat lights that keep their frame; the buzzer and its mute
    when asked for."""
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    from .devices.virtual_nfc import VirtualPN532, register_demo_set

    pins = pins or load_pins()
    factory = MockFactory()
    chip = VirtualPN532(clock)
    station = build_station(journal_path=journal_path, pins=pins, pin_factory=factory,
                            open_device=lambda: dummy(width=128, height=64, mode="1"), dice=dice, clock=clock,
                            sleep=sleep, setup=setup, new_seed=new_seed, on_frame=on_frame, web=web,
                            phone_dice="software", web_names=web_names, shutdown=shutdown, open_lights=open_lights,
                            open_nfc=lambda: chip, open_tunes=open_tunes, hush=hush,
                            open_mouth=open_mouth, cue_targets=cue_targets)
    state, cards = station.table.state, station.controller.cards
    if state is not None and cards is not None:
        register_demo_set(cards, state["ruleset"], [p["name"] for p in state["players"]])
    try:
        yield station, factory, pins
    finally:
        station.close()
        factory.reset()


def demo_headless(script: list[str], *, setup: dict[str, Any] | None, frames: Path | None, dice: str = "roller",
                  journal_path: str | Path | None = None, cues: list[dict[str, Any]] | None = None) -> State:
    """Play a button script on simulated time; returns the final public state. ``cues``: gets one line per frame with
    the seat lights then and the sounds and sentences since the frame before (:class:`CueRecorder`)."""
    from .devices.clock import SimClock
    from .devices.script import parse_script, run_script
    from .devices.virtual import VirtualButtons, VirtualRoller
    from .devices.virtual_nfc import VirtualCards

    steps = parse_script(script)
    sim = SimClock()
    writer = FrameWriter(frames) if frames is not None else None
    lights = ShownLights()
    recorder = CueRecorder(lights, cues) if cues is not None else None

    def on_frame(image: Any) -> None:
        if writer is not None:
            writer(image)
        if recorder is not None:
            recorder.frame()

    with tempfile.TemporaryDirectory(prefix="companion-demo-") as scratch:
        path = journal_path or Path(scratch) / "demo.sqlite3"
        with mock_station(journal_path=path, dice=dice, clock=sim, sleep=sim.sleep, setup=setup,
                          new_seed=lambda: 1, on_frame=on_frame, open_lights=lambda: lights,
                          cue_targets=[recorder.on_cues] if recorder else []) as (station, factory, pins):
            buttons = VirtualButtons(factory, pins.buttons, sim.sleep, after_step=station.tick)
            roller = VirtualRoller(factory, pins.roller, sim.sleep)
            cards = VirtualCards(station.nfc_bus, buttons.wait) if station.nfc_bus is not None else None
            run_script(steps, buttons, roller, cards)
            buttons.wait(0.5)
            state = station.table.public()
    if state is None:
        raise CompanionError("the demo ended without a game")
    return state


class CueRecorder:
    """The demo's ``--json`` cues: with each frame, each player's seat light then (their colour, or null when off),
    and the buzzer's cues and the voice's sentences since the frame before."""

    def __init__(self, lights: ShownLights, lines: list[dict[str, Any]]) -> None:
        self.lights, self.lines = lights, lines
        self.seats: list[Seat] = []
        self.sounds: list[str] = []
        self.speech: list[str] = []

    def on_cues(self, cues: Cues, seats: list[Seat]) -> None:
        self.seats = seats
        self.sounds += cues.sounds
        self.speech += cues.speech

    def frame(self) -> None:
        lit = self.lights.frame
        self.lines.append({"frame": len(self.lines) + 1,
                           "lights": {s.name: s.colour if s.index < len(lit) and any(lit[s.index]) else None
                                      for s in self.seats},
                           "sounds": self.sounds, "speech": self.speech})
        self.sounds, self.speech = [], []


class FrameWriter:
    """Writes every frame handed to the display as ``frame-0001.png``, ``frame-0002.png``, ..."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def __call__(self, image: Any) -> None:
        self.count += 1
        image.save(self.folder / f"frame-{self.count:04d}.png")


def bundled_script() -> tuple[dict[str, Any], list[str]]:
    """The short scripted game the demo plays when its input is not a terminal."""
    folder = resources.files("companion.examples")
    setup = json.loads(folder.joinpath("table-demo.json").read_text(encoding="utf-8"))
    script = folder.joinpath("table-demo.buttons").read_text(encoding="utf-8").splitlines()
    return setup, script


KEYS = {"r": "ROLL", " ": "ROLL", "y": "YES", "\r": "YES", "\n": "YES", "n": "NO", "p": "PREV", ",": "PREV",
        "\x1b[D": "PREV", ".": "NEXT", "\x1b[C": "NEXT", "m": "MENU"}
HELP = ("keys: r/space ROLL · y/enter YES · n NO · p/←/, PREV · ./→ NEXT",
        "      m MENU · M hold MENU (host menu) · t tap a card · q or Ctrl-C quit")
TAP_TIME = 0.4  # a card typed after t stays on the (virtual) reader this long
#: A held key's repeats come this close together (every 30-40 ms; 80 at the slowest common setting): a key again
#: within this long of the last one is a repeat. It is also how long a key's button stays down.
KEY_HOLD = 0.09
#: Terminals start repeating a held key after a delay (250 ms to about a second): the same key again within this
#: long of its press waits ``KEY_HOLD`` to see whether repeats follow it (a key held) or not (a key tapped again).
REPEAT_DELAY = 1.1
MENU_HOLD = 2.0  # ``M``: MENU held this long, the host menu
KEY_GAP = 0.03  # a button up at least this long between two presses (longer than the buttons' 20 ms debounce)


class HeldKeys:
    """Terminal keys as buttons, so that a key held down (the terminal repeats it) is one press, as a button held
    down is, and a key tapped again is another press (``M``: MENU held 2 s, the host menu).

    A terminal gives no key-up, only the repeats: after a press, the same key again within ``REPEAT_DELAY`` is
    held back ``KEY_HOLD``; if another follows that fast it is the terminal's repeat (the key is held: nothing is
    pressed until it has been let go), else a second tap, pressed as soon as the button is up again."""

    def __init__(self, down: Callable[[str], None], up: Callable[[str], None]) -> None:
        self.down, self.up = down, up
        self._until: dict[str, float] = {}  # buttons down, and when each goes up
        self._pressed: dict[str, float] = {}  # when each button was last pressed
        self._last: dict[str, float] = {}  # when each key was last typed (a repeat comes within KEY_HOLD)
        self._waiting: dict[str, float] = {}  # the same key again soon after its press: a tap, or repeats?
        self._repeating: set[str] = set()  # keys held down (the terminal repeating them)
        self._queued: set[str] = set()  # taps to press once the button has been up KEY_GAP
        self._up_at: dict[str, float] = {}  # when each button went up

    def typed(self, keys: list[str], now: float) -> None:
        for key in keys:
            name = "MENU" if key == "M" else KEYS.get(key)
            if name is None:
                continue
            repeat = now - self._last.get(name, float("-inf")) <= KEY_HOLD
            self._last[name] = now
            if not repeat:  # what release() would have found by now: the key let go, a tap waiting
                self._let_go(name)
                if self._waiting.pop(name, None) is not None:
                    self._queued.add(name)
            if key == "M":  # the host menu: MENU held, whatever was typed before it
                self._waiting.pop(name, None)
                self._queued.discard(name)
                if name in self._until:
                    self._until[name] = max(self._until[name], now + MENU_HOLD)
                else:
                    self._press(name, now, MENU_HOLD)
            elif name in self._until and self._until[name] > now + KEY_HOLD:
                continue  # MENU held for the host menu: a tap of m does not cut it short
            elif name in self._repeating:
                continue
            elif name in self._waiting or (repeat and name in self._until):  # repeats: the key is held
                self._waiting.pop(name, None)
                self._repeating.add(name)
                if name in self._until:
                    self._until[name] = now + KEY_HOLD
            elif now - self._pressed.get(name, float("-inf")) < REPEAT_DELAY:
                self._waiting[name] = now
            else:
                self._press(name, now, KEY_HOLD)

    def release(self, now: float) -> None:
        for name, when in list(self._until.items()):
            if now >= when:
                self.up(name)
                del self._until[name]
                self._up_at[name] = now
        for name, when in list(self._waiting.items()):
            if now >= when + KEY_HOLD:  # no repeat followed: tapped again
                del self._waiting[name]
                self._queued.add(name)
        for name in list(self._queued):
            if name not in self._until and now - self._up_at.get(name, float("-inf")) >= KEY_GAP:
                self._queued.discard(name)
                self._press(name, now, KEY_HOLD)
        for name in list(self._repeating):
            if now - self._last[name] > KEY_HOLD:
                self._let_go(name)

    def _let_go(self, name: str) -> None:
        """A key held (repeating) is let go: its next key is a press again, however soon."""
        if name in self._repeating:
            self._repeating.discard(name)
            self._pressed.pop(name, None)

    def _press(self, name: str, now: float, hold: float) -> None:
        self.down(name)
        self._pressed[name] = now
        self._until[name] = now + hold


class CardPrompt:
    """``t`` in the terminal demo: type a card's name (a player's, a space id such as ``boardwalk``), Enter taps it
    on the virtual reader; Esc, or Enter on nothing, taps nothing. Ctrl-C and Ctrl-D still quit."""

    def __init__(self) -> None:
        self.typing: str | None = None  # the name so far, while one is typed

    def typed(self, keys: list[str]) -> tuple[list[str], str | None]:
        """The keys that are buttons (or quit), and the card to tap if Enter ended a name."""
        rest, tapped = [], None
        for key in keys:
            if key in ("\x03", "\x04") or (self.typing is None and key != "t"):
                rest.append(key)
            elif self.typing is None:
                self.typing = ""
            elif key in ("\r", "\n"):
                tapped, self.typing = self.typing.strip() or None, None
            elif key == "\x1b":
                self.typing = None
            elif key in ("\x7f", "\b"):
                self.typing = self.typing[:-1]
            elif len(key) == 1 and key.isprintable():
                self.typing += key
        return rest, tapped

    def line(self) -> str | None:
        """What the terminal shows while a name is typed."""
        return None if self.typing is None else f"tap which card? {self.typing}_  (enter: tap · esc: cancel)"


def split_keys(text: str) -> list[str]:
    """The keys in one read of the terminal: characters, and the arrows' escape sequences whole."""
    keys, i = [], 0
    while i < len(text):
        if text.startswith("\x1b[", i) and i + 2 < len(text):
            keys.append(text[i:i + 3])
            i += 3
        else:
            keys.append(text[i])
            i += 1
    return keys


def demo_interactive(*, dice: str, journal_path: Path, port: int, out: TextIO, sound: bool = False,
                     screen: str = "auto") -> int:
    """Keys act as the buttons; the OLED is drawn in the terminal (``screen``: "auto", "text" or "pixels",
    :func:`.devices.terminal.frame_text`), the seat lights below it; the phone page is served. ``sound``: the
    buzzer's tunes and the voice on this computer's speaker."""
    import random
    import select
    import termios
    import time
    import tty

    from .devices.lights import blocks
    from .devices.terminal import frame_text
    from .devices.virtual import VirtualButtons, VirtualRoller
    from .devices.virtual_nfc import demo_uid

    journal_path.parent.mkdir(parents=True, exist_ok=True)
    latest: list[Any] = [None]
    stop = threading.Event()
    with mock_station(journal_path=journal_path, dice=dice, clock=clocks.monotonic, sleep=clocks.sleep,
                      setup=None, new_seed=lambda: random.SystemRandom().randrange(2**31),
                      on_frame=lambda image: latest.__setitem__(0, image), web=("0.0.0.0", port),
                      shutdown=stop.set, **speaker_sound(sound)) as (station, factory, pins):
        buttons = VirtualButtons(factory, pins.buttons, clocks.sleep)
        roller = VirtualRoller(factory, pins.roller, clocks.sleep)
        rng = random.SystemRandom()
        url = station.controller.join_info().url
        held = HeldKeys(buttons.down, buttons.up)
        cards = CardPrompt()
        lift_at: float | None = None  # when the card typed after t leaves the reader
        asking: str | None = None  # the prompt line shown
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        shown: Any = None
        lit: Any = None  # the seat lights drawn
        size = shutil.get_terminal_size((80, 24))
        # Back from Ctrl-Z (fg): the shell gave the terminal back in line mode; take it again and redraw.
        resumed = threading.Event()
        previous_cont = signal.signal(signal.SIGCONT, lambda *_: resumed.set())
        try:
            tty.setcbreak(fd)
            out.write("\x1b[2J")
            while not stop.is_set():
                ready, _, _ = select.select([sys.stdin], [], [], TICK)
                now = time.monotonic()
                if resumed.is_set():
                    resumed.clear()
                    tty.setcbreak(fd)
                    out.write("\x1b[2J")
                    shown = None
                if ready:
                    keys, tapped = cards.typed(split_keys(os.read(fd, 64).decode(errors="ignore")))
                    if tapped is not None and station.nfc_bus is not None:
                        station.nfc_bus.place(demo_uid(tapped))
                        lift_at = now + TAP_TIME
                    if any(key in ("q", "\x03", "\x04") for key in keys):
                        keys = keys[:min(keys.index(k) for k in ("q", "\x03", "\x04") if k in keys)]
                        stop.set()  # after the keys typed before it
                    held.typed(keys, now)
                held.release(now)
                if lift_at is not None and now >= lift_at:
                    station.nfc_bus.remove()
                    lift_at = None
                if cards.line() != asking:
                    asking, shown = cards.line(), None  # the prompt line changed: draw again
                station.tick()
                roller.answer_requests(lambda: tuple(rng.randint(1, 6) for _ in pins.roller.dice))
                now_size = shutil.get_terminal_size((80, 24))
                if now_size != size:  # resized: draw everything again, at the new size
                    size, shown = now_size, None
                    out.write("\x1b[2J")
                if station.lights is not None and station.lights.frame != lit:
                    lit, shown = station.lights.frame, None  # a seat lit, blinking or off: draw again
                if latest[0] is not shown and latest[0] is not None:
                    shown = latest[0]
                    picture = frame_text(shown, size.columns, size.lines, station.controller.shown, screen)
                    keys_help = (HELP[0], asking) if asking is not None else HELP
                    names = [p["name"] for p in station.table.state["players"]] if station.table.state else []
                    out.write("\x1b[H" + picture.replace("\n", "\x1b[K\n") + "\x1b[K\n")
                    out.write(f"seats: {blocks(lit[:len(names)] if lit else (), names)}\x1b[K\n")
                    out.write(f"phone page: {url or 'not running'}\x1b[K\n" + "\x1b[K\n".join(keys_help) + "\x1b[J")
                    out.flush()
        except KeyboardInterrupt:  # Ctrl-C as a signal (cbreak mode keeps signals): a way to quit like q
            pass
        finally:
            signal.signal(signal.SIGCONT, previous_cont)
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    out.write(f"\nThe game is saved in {journal_path}: `companion demo` resumes it.\n")
    return 0
