"""Building a station: the ONE place that wires the journal, the table, the parts, the face, the phone page and
the network together.

:func:`build_station` makes the same :class:`Station` for ``companion run`` on a Pi (:mod:`.pi`: lgpio pins, the
real OLED) and for ``companion demo`` anywhere (:mod:`.mock`: gpiozero's MockFactory, luma's dummy device): the
journal, the one :class:`~companion.table.Table`, the buttons and the dice roller on gpiozero, the OLED behind
:class:`~companion.drivers.display.Display`, the controller, the seat lights, the buzzer and the voice, the card
reader, and the phone page (:mod:`.phone_page`) when the web package is there.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from companion.face.cards import open_card_book
from companion.config import PhoneDice
from companion.drivers import clock as clocks
from companion.drivers import nfc
from companion.drivers.buttons import ButtonPanel
from companion.drivers.display import Display
from companion.drivers.faults import Device, Kept
from companion.drivers.said import N_, Said, reason
from companion.drivers.lights import LightDriver
from companion.drivers.nfc import NfcReader
from companion.drivers.pins import PinMap
from companion.drivers.pn532 import PN532
from companion.drivers.roller import DiceRoller
from companion.drivers.speech import Mouth
from companion.drivers.tunes import Tunes
from companion.engine import ruleset_ids
from companion.face.controller import TableController
from companion.face.cues import CueFeed, CueTarget
from companion.face.dice import RollerDice
from companion.face.seat_lights import SeatLights
from companion.face.sounds import Buzzer, Hush
from companion.face.voice import Speaker
from companion.journal import Journal, JournalError
from companion.network import NetworkAdapter
from companion.table import Table, Update
from companion.timelimit import TimeLimit, utc_now

from .journal_trouble import JournalUnusable, hold_journal
from .phone_page import Captive, start_web

log = logging.getLogger(__name__)


TICK = 0.01  # seconds between the table's polls of buttons, roller time-outs and the display while something moves
IDLE_TICK = 0.1  # seconds between the face's looks at its timers (notices, pages, the disk) while nothing moves
LEVELS_EVERY = 1.0  # seconds between readings of the buttons' levels while the edges say nothing (a lost edge)
CLOCK_EVERY = 1.0  # seconds between the time limit's checks
LATE = 1e-6  # seconds: the loop's deadline and the panel's free time, one computed from the other, may differ by this


def free_space(folder: str) -> int:
    """Bytes free for an ordinary user in ``folder``'s filesystem (``shutil.disk_usage``'s ``free``, without its
    tuple: asked after every input)."""
    fs = os.statvfs(folder)
    return fs.f_bavail * fs.f_frsize


def default_setup(seed: int) -> dict[str, Any]:
    """The game the demo starts when none is stored (``ready_game``): two players of ``addon`` (``classic`` until it
    exists). A table (``companion run``) starts none: it opens the set-up."""
    ruleset = "addon" if "addon" in ruleset_ids() else "classic"
    return {"ruleset": ruleset, "players": ["Ann", "Bob"], "seed": seed}


@dataclass
class Station:
    """Everything that runs one table; :meth:`tick` every 10 ms (or :meth:`run`), :meth:`close` at the end."""

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
    #: Set by what should not wait for the next idle tick (a button's edge, an accepted input, SIGTERM).
    wake: threading.Event = field(default_factory=threading.Event)
    _due: dict[str, float] = field(default_factory=dict)  # clock time of the next look at: levels, clock
    #: While the loop sleeps (:meth:`asleep`), the clock time by which it looks again; inf while it runs.
    _looks_by: float = float("inf")

    def tick(self) -> None:
        """Everything at once: every 10 ms in the demo and the tests (on their clocks)."""
        self.panel.poll()
        if self.reader is not None:
            self.reader.poll()
        if self.time_limit is not None:
            self.time_limit.check()
        self.controller.tick()
        if self.lights is not None:
            self.lights.tick()

    def run(self, stop: threading.Event, clock: clocks.Clock = clocks.monotonic) -> None:
        """Until ``stop`` (and :attr:`wake`) is set: the table's loop on a Pi, asleep while nothing moves.

        The buttons' edges come from gpiozero's callbacks (they wake the loop), so their levels are read every
        10 ms only while a button is down or chatter is left to settle, else once a second (an edge the pin
        driver lost); the seat lights' frame only when it changes by itself (a blink, the chase; the cues of an
        input show at once); the time limit once a second; the face's timers (notices, pages turning, the disk)
        every 100 ms, or at once after an input (it wakes the loop, unless the loop looks again by the time the
        panel is free anyway: :meth:`on_update`). With no NFC reader (it is polled): ~10 wake-ups a second when
        idle, not 100."""
        while not stop.is_set():
            self.wake.clear()
            self.step(clock())
            self.wake.wait(self.asleep(clock()))
            self.awake()

    def step(self, now: float) -> None:
        """What is due at ``now`` (:meth:`run`)."""
        if not self.panel.settled() or now >= self._due.get("levels", 0.0):
            self._due["levels"] = now + LEVELS_EVERY
            self.panel.poll()
        if self.reader is not None:
            self.reader.poll()
        if self.time_limit is not None and now >= self._due.get("clock", 0.0):
            self._due["clock"] = now + CLOCK_EVERY
            self.time_limit.check()
        self.controller.tick()
        if self.lights is not None and now >= self._due.get("lights", 0.0):
            self.lights.tick()
            self._due["lights"] = self.lights.next_change() or float("inf")

    def idle_for(self, now: float) -> float:
        """Seconds until something is due (:meth:`run`)."""
        if self.reader is not None or not self.panel.settled():
            return TICK  # a card reader is polled; a button down is timed (hold, stuck); the roller calls back
        due = list(self._due.values())
        frame = self.controller.frame_due()  # a change held back for the panel's pace
        if frame is not None:
            due.append(frame)
        return min([IDLE_TICK, *(at - now for at in due)])

    def asleep(self, now: float) -> float:
        """The seconds the loop sleeps from ``now`` (:meth:`idle_for`), noted for :meth:`on_update`; :meth:`awake` when
        it wakes."""
        wait = max(0.0, self.idle_for(now))
        self._looks_by = now + wait
        return wait

    def awake(self) -> None:
        """The loop has woken (:meth:`asleep`): until it sleeps again, every input sets :attr:`wake`."""
        self._looks_by = float("inf")

    def on_update(self, update: Update) -> None:
        """An accepted input (any thread): the face shows it and the lights' new cues are timed at once. The loop is
        woken unless it looks again by the time the panel has taken its last frame anyway: woken sooner it would
        only hold the change for then (:meth:`TableController.tick`), so a burst of phones' inputs wakes it about
        twice per frame time, not at every input (the lights show the cues at the input, on the input's thread;
        the same frames at the same times either way)."""
        self._due["lights"] = 0.0
        if self._looks_by > self.display.free_at + LATE:
            self.wake.set()

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
                  network: NetworkAdapter | None = None, captive_port: int = 0, ready_game: bool = False,
                  language: str = "en", frame_time: float = 0.0) -> Station:
    """Open the journal, resume game ``resume_game`` or else the game played last, finished or not (or start ``setup``;
    with none, the demo's two-player game when ``ready_game``, else the OLED opens the set-up: ruleset, players), and
    wire the devices to it. ``open_lights``: the seat lights' driver (none: no lights); ``open_tunes``: the
    buzzer (none: no buzzer), ``open_mouth``: the voice (none: silent), both quiet while ``hush`` says so (muted from
    the host menu, quiet hours); ``cue_targets``: also told of every input's cues (the demo's ``--json``).
    ``network``: the table's own Wi-Fi (started here, its notices on the OLED), with phones' connectivity checks
    answered on ``captive_port`` (0: not). ``language``: the table's (the OLED's and the voice's; the host menu
    changes it). ``frame_time``: the seconds the OLED takes to take a frame (:func:`~companion.drivers.display.frame_time`:
    a burst of phones' inputs is drawn at that pace; 0: every state drawn, as the demo's recorder and the tests want).
    """
    closers: list[Callable[[], None]] = [hold_journal(journal_path)]  # the table is its journal's one writer
    try:
        journal = Journal(journal_path, check_all=False)  # the game it resumes, and the others when opened
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
        if not resumed and (setup is not None or ready_game):
            table.new_game(setup or default_setup(new_seed()), source="host")
        display = Display(open_device, clock=clock, on_frame=on_frame, frame_time=frame_time)
        closers.append(display.close)
        controller_box: list[TableController] = []
        server, join, pin_lock = start_web(
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
                                     disk_free=partial(free_space, str(Path(journal_path).parent)),
                                     cards=cards, pin_lock=pin_lock, language=language)
        controller_box.append(controller)
        closers.append(controller.close)
        if resumed or journal.problems:
            # What the journal's check found stays until the next question: a dropped input is to be undone on
            # the board, a damaged game was not loaded (another was resumed, or a new one started).
            words = controller.words
            told = [words.t("Game {n} resumed where it stopped", n=table.game.id)] if resumed else []  # type: ignore[union-attr]
            told += [words.t("Journal: {problem}", problem=words.told(problem)) for problem in journal.told]
            controller.say(". ".join(told), sticky=bool(journal.problems))
        if table.state is None:
            controller.new_game()  # a fresh journal: the host picks the ruleset and the players (or on the phone)
        reader, nfc_bus = _start_reader(pins, open_nfc, controller, clock) if cards is not None else (None, None)
        if nfc_bus is not None:
            closers.append(nfc_bus.close)
        if cards_trouble:
            controller.say(controller.words.told(cards_trouble), sticky=True)
        wake = threading.Event()
        panel = ButtonPanel(pins.buttons, controller.on_button, pin_factory=pin_factory, clock=clock,
                            on_edge=wake.set)
        closers.append(panel.close)
        feed = CueFeed(lambda: controller.words)
        lights = None
        if open_lights is not None:
            count = pins.lights.seats if pins.lights else 8
            lights = SeatLights(_kept(N_("Seat lights"), open_lights, clock, controller), count, clock=clock)
            closers.append(lights.close)
            feed.add(lights.on_cues, speech=False)
        if open_tunes is not None:
            buzzer = Buzzer(_kept(N_("Buzzer"), open_tunes, clock, controller), hush or Hush())
            closers.append(buzzer.close)
            feed.add(buzzer.on_cues, speech=False)
        if open_mouth is not None:
            speaker = Speaker(_kept(N_("Voice"), open_mouth, clock, controller), (hush or Hush()).silent, clock,
                              language=lambda: controller.language)
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
    station = Station(journal, table, controller, panel, display, roller, server, resumed, closers, time_limit, lights,
                      reader=reader, nfc_bus=nfc_bus, wake=wake)
    # after the face's and the cues' (they have it when it wakes); a phone's input's once its reply is written
    closers.append(table.subscribe(station.on_update, waker=True))
    return station


def _start_reader(pins: PinMap, open_nfc: Callable[[], Any] | None, controller: TableController,
                  clock: clocks.Clock) -> tuple[NfcReader | None, Any]:
    """The NFC reader on its I2C bus; a bus that cannot be opened (no I2C enabled) is said once, and the table plays
    on its buttons."""
    if pins.nfc is None or open_nfc is None:
        return None, None
    try:
        bus = open_nfc()
    except FileNotFoundError as error:  # no such I2C bus (I2C not enabled, or not a Pi): no reader, not a fault
        log.info("no NFC reader: %s", error)
        controller.say(controller.words.told(nfc.MISSING))
        return None, None
    except OSError as error:
        log.warning("NFC reader: %s", error)
        controller.say(controller.words.told(Said(N_("{missing} ({reason})"), {"missing": nfc.MISSING,
                                                                                "reason": reason(error)})))
        return None, None
    reader = NfcReader(PN532(bus, pins.nfc.address), controller.on_tap, clock=clock,
                       on_fault=controller.reader_fault, on_notice=controller.announce)
    return reader, bus


def _kept(name: str, open_device: Callable[[], Device], clock: clocks.Clock, controller: TableController) -> Kept[Device]:
    """A device beside the OLED (lights, buzzer, speaker) whose faults are notices on it: :class:`~companion.drivers.faults.Kept`."""
    return Kept(name, open_device, clock=clock, notify=controller.device_notice,
                close_device=lambda device: device.close())  # type: ignore[attr-defined]
