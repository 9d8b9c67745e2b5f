"""The table's face: buttons and dice in, engine inputs out through the table, the OLED redrawn.

:class:`TableController` is what players touch. It turns debounced button events and dice-roller
strobes into input lines for :meth:`companion.table.Table.submit` (with their source), keeps
what the buttons are doing (the open mode, a class of its own: the game's question in :mod:`.game_mode`, the host
menu, the set-up, a player's deeds, dice being entered... see :mod:`.modes`) and draws every change: layout
(:mod:`.screens`) → pixels (:mod:`.draw`) → :class:`.display.Display`.

The buttons:

* ROLL rolls when the game waits for dice (software dice, the roller, or manual entry);
* YES / NO answer a yes-or-no question; for longer option lists PREV / NEXT browse and YES
  picks (a second YES confirms going bankrupt);
* MENU pressed briefly shows what each button does, pressed again the players; held, it opens the host menu (undo, new game with its
  ruleset, players and options — or finished on the phone page, join codes, dice source, shut down).

Making a trade or a loan offer is for the phones; bidding, building, mortgages, loans and answering an
offer are done on the buttons too (the deeds: :mod:`.choices`).

Threads: button and roller callbacks, the tick and the table's listeners may all call in.
Inputs are submitted under the controller's lock (controller → table, never the other way):
the table's listener only queues the update, and the next :meth:`refresh` draws it.

Over 500 lines: one class, the desk every mode acts through (:class:`.modes.Desk`, :class:`.host_menu.Host`,
the set-up's starter), one lock around the buttons, the roller, the tick and the drawing; each mode, screen and
source of dice is a module of its own (the join screens: :mod:`.join`).
"""

from __future__ import annotations

import collections
import logging
import secrets
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from PIL import Image

from companion.drivers.buttons import ButtonEvent
from companion.drivers.clock import Clock, monotonic
from companion.drivers.display import Display
from companion.drivers.nfc import Tap
from companion.drivers.roller import RollerResult
from companion.drivers.said import Said
from companion.engine import CompanionError, IllegalInput, State, Throw, find_ruleset, public_state
from companion.engine.core import Ruleset
from companion.journal import JournalFull
from companion.table import StaleInput, Table, Update
from companion.words import ENGLISH, LANGUAGES, N_, Words

from . import screens
from .cards import CardBook
from .choices import space_labels
from .deeds_mode import DeedsMode
from .dice import SOURCES, ManualEntry, RollerDice, SoftwareDice
from .draw import Painter
from .game_mode import GameMode
from .host_menu import HostMenu, PinLock
from .join import JoinInfo, host_pin_screen, join_screen
from .modes import DiceEntryMode, ListMode, Mode, with_notice
from .notices import Notices
from .press_guard import PressGuard, new_question
from .screens import Labels, Screen
from .setup_mode import SetUpMode
from .sounds import Hush
from .taps import CardTap, RegisterMode, default_tap, registrations, set_cards

if TYPE_CHECKING:
    from companion.network import NetworkAdapter

log = logging.getLogger(__name__)

DISK_FULL = N_("DISK FULL: not saved; free some space")
#: A short MENU press goes on: the six buttons' meaning, then every player's cash and place, then the game again.
MENU_STEPS = {"game": "help", "help": "players", "players": "game"}
#: Seconds between two looks at the free disk space (a journal write looks at once): the tick runs 100 times a second.
DISK_EVERY = 2.0
#: Free space above the low mark past which an input does not make the tick look at the disk at once (DISK_EVERY
#: does): a journaled input takes a few KB, so two seconds of them cannot bring the disk that far down.
DISK_MARGIN = 100_000_000


PIN_PAUSED = N_("PIN login paused: too many wrong PINs. Host menu: Allow PIN login")


class TableController:
    """Buttons, dice and the OLED around one :class:`~companion.table.Table`."""

    def __init__(self, table: Table, display: Display, *, dice: str = "software",
                 software: SoftwareDice | None = None, roller: RollerDice | None = None,
                 clock: Clock = monotonic, painter: Painter | None = None,
                 join_info: Callable[[], JoinInfo] | None = None,
                 shutdown: Callable[[], None] | None = None,
                 new_seed: Callable[[], int] = lambda: secrets.randbits(31),
                 disk_free: Callable[[], int] | None = None, hush: Hush | None = None,
                 network: NetworkAdapter | None = None,
                 notice_time: float = 4.0, scroll_time: float = 1.5, disk_low: int = 20_000_000,
                 cards: CardBook | None = None, pin_lock: PinLock | None = None, language: str = "en") -> None:
        if dice not in SOURCES:
            raise ValueError(f"dice source must be one of {', '.join(SOURCES)}, not {dice!r}")
        if dice == "roller" and roller is None:
            raise ValueError("the roller dice source needs a roller")
        self.table, self.display = table, display
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
        self.language = language  # the table's: the OLED's and the voice's (the host menu changes it)
        self.dice_source = dice
        self.software = software or SoftwareDice()
        self.roller = roller
        self.clock = clock
        self.painter = painter or Painter()
        self.join_info = join_info or JoinInfo
        self.shutdown = shutdown
        self.network = network
        self.new_seed = new_seed
        self.disk_free, self.disk_low = disk_free, disk_low
        self.pin_lock = pin_lock
        self.hush = hush  # the buzzer's and the voice's mute (the host menu's "Sound")
        self.scroll_time = scroll_time

        self._lock = threading.RLock()
        self._inbox: collections.deque[Update] = collections.deque()
        self._device_notices: collections.deque[str | Said] = collections.deque()
        self._shown_from: Mode | None = None  # what NO opens again from the players or join screens (None: the game)
        self.join_page = 0  # join codes: 0 the table's, then each player's
        self._mode = "game"  # game | help | players | join | host-pin (the others: ``overlay``)
        self.events: list[dict[str, Any]] = []
        self.game_mode = GameMode(self)  # the game's own question: when no other mode is open
        self._labels_of: dict[tuple[str, str], Labels] = {}
        self.notices = Notices(clock, notice_time=notice_time, scroll_time=scroll_time)
        self._menu_held = False
        self.scroll = 0
        self._scroll_at = 0.0
        self._prompt: Any = None
        self._screen: Screen | None = None
        self._public: tuple[State | None, State | None] = (None, None)  # a state and its public view (see screen)
        self._looked: tuple[Any, ...] | None = None  # what the last screen was built from (see _looks)
        self._disk_at = float("-inf")  # when the free disk space is looked at next
        self._disk_seen: int | None = None  # the free space found at the last look (None: not looked yet)
        self._owed = False  # a change not drawn yet: the panel was still taking the last frame (see tick)
        self._waiting_edge: float | None = None  # time of the button edge whose frame is not drawn yet
        self._own_state: State | None = None  # the state of the last input these buttons sent
        self.guard = PressGuard()  # a press meant for the screen before the question (or a phone) changed it
        self.latencies: list[float] = []  # button edge → first frame handed to the display, seconds
        self.result_latencies: list[float] = []  # button edge → the frame of the input's result
        self._edge_answered = False
        self.closed = False
        self.cards = cards  # the tags of each set, when a card reader is fitted
        self.overlay: Mode | None = None  # a mode of its own class (:mod:`.modes`): a tapped card's, registering
        self._unsubscribe = table.subscribe(self._inbox.append)
        if table.state is not None:
            self._adopt(table.state)

    @property
    def mode(self) -> str:
        """What the buttons are doing: the open mode's name (``dice``, ``window``, ``trade``, ``menu``, ``confirm``,
        ``setup``...), else ``game``, ``players``, ``join`` or ``help``."""
        return self.overlay.name if self.overlay is not None else self._mode

    @property
    def items(self) -> list[Any]:
        """The lines of the list on the OLED (the host menu's, the set-up's: :class:`.modes.Item`)."""
        return self.overlay.items() if isinstance(self.overlay, ListMode) else []

    # ================================================================== inputs from devices
    def on_button(self, event: ButtonEvent) -> None:
        """A debounced button event (from :class:`~companion.drivers.buttons.ButtonPanel`)."""
        with self._lock:
            self._drain()
            if event.kind == "stuck":
                self.notices.warn(f"button:{event.button}",
                                  self.words.t("{button} button stuck down: ignored", button=event.button))
            elif event.kind == "unstuck":
                self.notices.settle(f"button:{event.button}")
                self.say(self.words.t("{button} button works again", button=event.button))
            elif event.button == "MENU":
                self._menu_button(event)
            elif event.kind == "press":
                self._edge(event.at)
                self._press(event.button, event.at)
            self.refresh()

    def on_roller(self, result: RollerResult) -> None:
        """A strobe from the dice roller, accepted or faulty."""
        with self._lock:
            self._drain()
            state = self.table.state
            prompt = state and state.get("prompt")
            rolling = bool(prompt) and prompt["kind"] == "roll"  # type: ignore[index]
            if not rolling:
                self.say(self.words.t("Roller: {fault}", fault=self.words.told(result.fault)) if result.fault
                         else self.words.t("Dice ignored: nobody is rolling now"))
            elif self.roller is not None:
                throws = self._throws(prompt)  # type: ignore[arg-type]
                values, fault = self.roller.accept(result, throws, self.software.throw)
                if fault is not None:
                    self.say(self.words.t("Roller: {fault}", fault=self.words.told(fault)), until_prompt=True)
                    if self.dice_source == "roller" and self.roller.should_retry():
                        self.roller.request(self.clock())  # ask again by itself, a few times
                elif values is not None:
                    missing = throws[len(result.dice or ()):]
                    if missing:
                        self.say(self.words.t("The roller has no third die: the Pi threw it")
                                 if missing[0].key == "roll" else
                                 self.words.t("The roller has no third die: the Pi threw the {die}",
                                              die=self.words.t(missing[0].label).lower()))
                    self._submit(self._ruleset().roll_line(prompt, values), "roller")  # type: ignore[arg-type]
            self.refresh()

    def tick(self) -> None:
        """Call every 10-20 ms: roller time-outs, notices, scrolling, display retries, phone updates. A change from
        elsewhere (a phone's input, a notice's end) is drawn at once when the panel has taken the last frame, else
        held until it has (:meth:`frame_due`): a burst of phones' inputs is drawn once per frame time, its newest
        state (docs/table.md, "The panel's pace")."""
        with self._lock:
            now = self.clock()
            if self.roller is not None and self.roller.timed_out(now):
                self.say(self.words.t("Roller does not answer: check cable, ROLL again"), sticky=True)
            while self._device_notices:  # told by a device from any thread, the table's included
                self.say(self.words.told(self._device_notices.popleft()))
            self.notices.tick(now)
            if self.overlay is not None:
                self.overlay.tick(now)
            if self.disk_free is not None and now >= self._disk_at:
                self._disk_at = now + DISK_EVERY
                self._check_disk()
            if self.pin_lock is not None:
                if self.pin_lock.paused():
                    self.notices.warn("pin", self.words.t(PIN_PAUSED))
                else:
                    self.notices.settle("pin")
            if self._screen is not None and self._screen.scrolls and not self._screen.holds and now >= self._scroll_at:
                self.scroll += 1  # never onto a page that goes on with an instruction: NEXT turns to that one
                self._scroll_at = now + self.scroll_time
            self.display.poll()
            if self._inbox or self._looks() != self._looked:  # an idle tick builds no screen
                if self.display.ready(now):
                    self.refresh()
                else:  # the panel is still taking the last frame: the newest state is drawn when it is free
                    self._owed = True

    def frame_due(self) -> float | None:
        """When a frame held back for the panel's pace (:meth:`tick`) is to be drawn: the clock time the panel is free
        again; None when none is owed. The buttons, the roller and a card draw at once (a person's press)."""
        return self.display.free_at if self._owed else None

    def on_tap(self, tap: Tap) -> None:
        """A card put on the NFC reader (:class:`~.nfc.NfcReader`): the open mode's, else :func:`.taps.default_tap`."""
        with self._lock:
            self._drain()
            self._edge(tap.at)
            self.notices.clear()  # what the last tap said ("Bob: tap your card to answer") is done with
            card = self.cards.find(tap.uid) if self.cards is not None else None
            seen = CardTap(tap.uid, card, tap.at)
            if self.overlay is None or self._mode != "game" or not self.overlay.card(seen):
                state = self.table.state
                mode = default_tap(self, seen, state["ruleset"] if state is not None else None)
                if mode is not None:
                    self.open(mode)
            self.refresh()

    def reader_fault(self, text: Said | None) -> None:
        """The NFC reader stopped answering (a warning that stands), or answers again (None)."""
        with self._lock:
            if text is None:
                self.notices.settle("nfc")
                self.say(self.words.t("NFC reader works again"))
            else:
                self.notices.warn("nfc", self.words.told(text))

    # ================================================================== what the modes may do (modes.Desk)
    def game(self) -> State | None:
        return self.table.state

    def labels(self) -> Labels:
        state = self.table.state
        return self._labels(state) if state is not None else Labels(words=self.words)

    def set_language(self, language: str) -> None:
        """The table's language from now on: the OLED's words, and the voice's (the host menu's "Language")."""
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
        self.language = language
        log.info("language: %s", language)

    @property
    def words(self) -> Words:
        """The table's words (its language; the board's currency and names once a game is under way)."""
        state = self.table.state
        return self._labels(state).words if state is not None else (
            ENGLISH if self.language == "en" else Words.for_language(self.language))

    def submit(self, line: dict[str, Any], source: str) -> bool:
        return self._submit(line, source)

    def open(self, mode: Mode | None) -> None:
        self._back()
        self.overlay = mode

    def open_deeds(self, player: str, *, space: str | None = None, source: str = "button") -> None:
        self._open_deeds(player, space, source)

    def is_open(self, mode: Mode) -> bool:
        return self.overlay is mode

    def roll(self) -> None:
        self.game_mode.press("ROLL")

    def story(self) -> list[dict[str, Any]]:
        return self.events

    def own(self) -> bool:
        return self.table.state is self._own_state

    def notice(self) -> str | None:
        return self.notices.shown(self.scroll)[0]

    def register_cards(self) -> None:
        """The host menu's "Register cards": the deeds in board order, then the players' cards."""
        state = self.table.state
        if state is None or self.cards is None:
            return
        players = [p["name"] for p in state["players"]]
        self.open(RegisterMode(self, self.cards, set_cards(state["ruleset"], players), seated=tuple(players)))

    def cards_status(self) -> dict[str, Any]:
        """The current set's registrations and what the reader waits for (the host's phone page), from any thread."""
        with self._lock:
            self._drain()
            state = self.table.state
            if state is None or self.cards is None:
                return {"reader": self.cards is not None, "edition": None, "asking": None, "cards": []}
            asking = self.overlay.asking if isinstance(self.overlay, RegisterMode) else None
            return registrations(self.cards, state["ruleset"], [p["name"] for p in state["players"]], asking)

    def register_from(self, kind: str, name: str) -> None:
        """The host's phone page: the next tag tapped is that card, and the walk goes on from it (as "Register cards"
        does on the OLED). Raises ``IllegalInput`` for a card the set does not have."""
        with self._lock:
            self._drain()
            state = self.table.state
            if state is None or self.cards is None:
                raise IllegalInput("no card reader, or no game: nothing to register")
            players = [p["name"] for p in state["players"]]
            cards = set_cards(state["ruleset"], players)
            at = next((i for i, c in enumerate(cards) if (c.kind, c.name) == (kind, name)), None)
            if at is None:
                raise IllegalInput(f"no {kind} card {name!r} in this set")
            self.open(RegisterMode(self, self.cards, cards, seated=tuple(players), start=at))
            self.refresh()

    def stop_registering(self) -> None:
        with self._lock:
            if isinstance(self.overlay, RegisterMode):
                self.open(None)
                self.refresh()

    def _seat_cards(self, players: list[str]) -> None:
        """A new game's seats: "Ann: tap your card", each in turn (YES keeps a card registered before)."""
        state = self.table.state
        if state is None or self.cards is None:
            return
        cards = set_cards(state["ruleset"], players, deeds=False)
        self.open(RegisterMode(self, self.cards, cards, title="SEATS", seated=tuple(players)))

    # ================================================================== buttons
    def _menu_button(self, event: ButtonEvent) -> None:
        """MENU held: the host menu. Released before that: the players (or back from a menu)."""
        if event.kind == "press":
            self._menu_held = False
        elif event.kind == "hold":
            self._menu_held = True
            self.open(HostMenu(self))
        elif event.kind == "release" and not self._menu_held and self.overlay is not None:
            if self.overlay.menu_leaves:
                self._edge(event.at)
                self._back()
        elif event.kind == "release" and not self._menu_held and self._mode in MENU_STEPS:
            self._edge(event.at)  # the buttons' help, then the players, then back to the game
            self._mode = MENU_STEPS[self._mode]
            self.scroll = 0
        elif event.kind == "release" and not self._menu_held:
            self._edge(event.at)
            self._back()

    def _edge(self, at: float) -> None:
        self._waiting_edge, self._edge_answered = at, False

    def _press(self, button: str, at: float) -> None:
        refusal = self.guard.refusal(button, at, self.words)
        if refusal and self._mode == "game" and (self.overlay is None or self.overlay.guarded):
            # People press a few hundred ms after what they saw: a press whose button went down before the question
            # changed, or this soon after, was meant for the screen before (it would roll the next player's dice,
            # buy, pay or accept something nobody chose). Refused, never applied.
            self.say(refusal)
            return
        if self.overlay is not None and self._mode == "game":
            self.overlay.press(button)
        elif self._mode == "game" and button in ("PREV", "NEXT") and self._screen is not None and \
                self._screen.covers:  # a story page over the question: turn the pages (the last one is the question)
            self.scroll += 1 if button == "NEXT" else -1
            self._scroll_at = self.clock() + 2 * self.scroll_time  # time to read the page turned to
        elif self._mode == "join" and button in ("PREV", "NEXT"):
            self.join_page += 1 if button == "NEXT" else -1  # the table's code, then each player's
        elif self._mode == "help":
            if button in ("NO", "YES"):
                self._mode = "game"
        elif self._mode in ("players", "join", "host-pin"):
            if button in ("NO", "YES"):
                # back to the new game's options when they led here
                self._mode, self.overlay, self._shown_from = "game", self._shown_from, None
        else:
            self.game_mode.press(button)

    def _back(self) -> None:
        self._mode, self._shown_from, self.overlay = "game", None, None
        self.game_mode.clear()

    # ================================================================== a player's deeds
    def _open_deeds(self, player: str, space: str | None = None, source: str = "button") -> None:
        """Build, mortgage, sell...: the player's acts on their own spaces (:mod:`.deeds_mode`)."""
        self.open(DeedsMode(self, player, space=space, source=source))

    # ================================================================== dice
    def _ruleset(self) -> Ruleset:
        return find_ruleset(self.table.state["ruleset"])  # type: ignore[index]

    def _throws(self, prompt: Mapping[str, Any]) -> tuple[Throw, ...]:
        """What the roll needs: its dice, and magie-1924's chance cube after doubles."""
        return self._ruleset().throws(prompt)

    def roll_dice(self, prompt: Mapping[str, Any]) -> None:
        if self.dice_source == "software":
            self._submit(self._ruleset().roll_line(prompt, self.software.throw(self._throws(prompt))), "software")
        elif self.dice_source == "manual":
            player = str(prompt.get("player") or "")
            self.open(DiceEntryMode(self, ManualEntry(self._throws(prompt)), player,
                                    lambda values: self._submit(self._ruleset().roll_line(prompt, values), "manual")))
        elif self.roller is not None:
            self.say(self.words.t("Rolling..."), until_prompt=True)
            self.roller.faults = 0
            self.roller.request(self.clock())

    # ================================================================== what the host menu may do (host_menu.Host)
    def next_dice_source(self) -> str:
        sources = [s for s in SOURCES if s != "roller" or self.roller is not None]
        self.dice_source = sources[(sources.index(self.dice_source) + 1) % len(sources)]
        log.info("dice source: %s", self.dice_source)
        return self.dice_source

    def new_game(self) -> None:
        self.open(SetUpMode(self))

    def show(self, screen: str, *, back: Mode | None = None) -> None:
        self.open(None)
        self._mode, self.scroll, self.join_page, self._shown_from = screen, 0, 0, back

    # ================================================================== what the set-up may do (setup_mode.Starter)
    def start(self, ruleset: str, players: list[str], options: dict[str, Any]) -> None:
        setup = {"ruleset": ruleset, "players": players, "seed": self.new_seed(), "options": options}
        try:
            self._own_state = self.table.new_game(setup, source="button")
        except CompanionError as error:
            self.say(self._refusal(error))
            return
        self._back()
        self._drain()
        self._seat_cards(players)

    def phone_page(self) -> bool:
        return bool(self.join_info().url)

    # ================================================================== submitting
    def _submit(self, line: dict[str, Any], source: str) -> bool:
        state = self.table.state
        if self._waiting_edge is not None:
            self._acknowledge(line)
        try:
            self._own_state = self.table.submit(line, source=source, expect_seq=state["seq"] if state else None).state
        except StaleInput as error:  # a phone's input came first, between the press and the journal
            self.say(self.words.t("Answered on a phone first: look, then press again"))
            log.info("refused %s from %s: %s", line, source, error)
            return False
        except JournalFull as error:
            self.notices.warn("disk", self.words.t(DISK_FULL))  # stands until an input is saved again
            self.notices.clear()  # "Rolling...": nothing rolled, the warning says why
            log.error("not saved, %s from %s: %s", line, source, error)
            return False
        except CompanionError as error:
            self.say(self._refusal(error))
            log.info("refused %s from %s: %s", line, source, error)
            return False
        self.notices.settle("disk", only=self.words.t(DISK_FULL))
        self._drain()
        return True

    def _refusal(self, error: CompanionError) -> str:
        """A refusal in the table's language: the engine's message when it has one (an ``IllegalInput``'s ``msg``
        and its arguments), else its English sentence."""
        msg = getattr(error, "msg", None)
        if self.language == "en" or not isinstance(msg, str):
            return str(error)
        args = getattr(error, "params", None) or {}
        return self.words.message(msg, args if isinstance(args, dict) else {}, getattr(error, "plural", None))

    def _acknowledge(self, line: dict[str, Any]) -> None:
        """Show at once that a press was taken: a cue only, never the dice or the outcome, which appear
        after the journal has synced the input (so a power cut never hides a roll the table saw). The cue takes
        the row being answered (:func:`.screens.answered_row`), not the hint: the result rewrites that row anyway,
        and the hint, often the same after the input, is not sent twice."""
        words = self.words
        if "roll" in line:
            text = words.t("Rolling...")
        elif "answer" in line:
            text = words.t("{answer}...", answer=screens.label(str(line["answer"]), Labels(words=words)))
        elif "undo" in line:
            text = words.t("Undoing...")
        else:
            act = words.t(str(line.get("act", {}).get("do", "")).replace("-", " ").capitalize())
            text = words.t("{answer}...", answer=act)
        screen = self._screen or self.screen()
        cue = screens.Row(screens.fit(text, screens.COLS["small"]), invert=True, align="center")
        at = screens.answered_row(screen)
        ack = screens.Screen((*screen.rows[:at], cue, *screen.rows[at + 1:]), screen.qr, False, "ack")
        self._draw(ack)

    def announce(self, text: str | Said) -> None:
        """A notice from outside the buttons and the roller (the game's clock, the NFC reader), from any thread;
        a driver's :class:`~companion.drivers.said.Said` is said in the table's language."""
        with self._lock:
            self.say(self.words.told(text))

    def device_notice(self, text: str | Said) -> None:
        """A notice from a device beside the OLED (the seat lights, the buzzer, the voice), from any thread: shown at
        the next tick, without waiting for the controller's lock (a device may be told of an input while the table's
        lock is held, and a press holds the controller's lock while it submits)."""
        self._device_notices.append(text)

    def say(self, text: str, *, sticky: bool = False, until_prompt: bool = False) -> None:
        """Show a notice over the last story rows (a fault, a refusal): :class:`.notices.Notices`."""
        self.notices.say(text, self.scroll, sticky=sticky, until_prompt=until_prompt)

    def _check_disk(self) -> None:
        try:
            free = self.disk_free() if self.disk_free else None
        except OSError:
            return
        self._disk_seen = free
        if free is None or self.notices.warnings.get("disk") == self.words.t(DISK_FULL):
            return
        if free < self.disk_low:
            self.notices.warn("disk", self.words.t("Disk almost full ({mb} MB): free some space",
                                                   mb=self.words.number(free // 1_000_000)))
        else:
            self.notices.settle("disk")

    # ================================================================== drawing
    def _drain(self) -> None:
        if not self._inbox:
            return
        place, asked = self._place(), self._prompt
        if self._disk_seen is None or self._disk_seen < self.disk_low + DISK_MARGIN:
            self._disk_at = float("-inf")  # the journal was written near the low mark: look at the next tick
        while self._inbox:
            update = self._inbox.popleft()
            before, elsewhere = self._prompt, update.state is not self._own_state
            if elsewhere:
                self._changed_elsewhere()
            if update.events:
                self.events = list(update.events)
                if (self._mode != "game" or self.overlay is not None) and \
                        any(e.get("kind") in ("new-game", "resumed") for e in update.events):
                    self._back()  # a game started (or resumed) on the phone page: show it
            self._adopt(update.state)
            if not elsewhere and new_question(before, self._prompt, update.line):  # a phone's is guarded as such
                self.guard.question_changed(self.clock(), before, self._prompt)
        state = self.table.state
        if self._mode == "game" and state is not None and state is self._own_state:  # after the buttons' own input
            self.game_mode.restart(state)
        elif place is not None and (self.mode == "deeds" or self._prompt == asked):
            self._find_again(place)  # the same choice, or the start (an offer answered on a phone is gone)

    def _place(self) -> str | None:
        """What the cursor is on (the choice's key), in the list the screen showed."""
        if self.overlay is not None:
            return self.overlay.place()
        return self.game_mode.place() if self._mode == "game" else None

    def _find_again(self, key: str) -> None:
        """After a phone's change, put the cursor back on the same choice (never on whatever took its place: a
        YES there would sell the house a phone had just built); if it is gone, back to the start."""
        state = self.table.state
        if state is None:
            return
        if self.overlay is not None:
            self.overlay.find_again(key)
        elif self._mode == "game":
            self.game_mode.find_again(key)

    def _changed_elsewhere(self) -> None:
        """The game changed from a phone (or the host's page, the timer): what the buttons were about to confirm,
        enter or undo was meant for the screen before."""
        self.guard.changed_elsewhere(self.clock())
        if self.overlay is not None:
            self.overlay.changed()
        self.game_mode.changed()

    def _adopt(self, state: State) -> None:
        prompt = state.get("prompt")
        if prompt != self._prompt:
            self._prompt = prompt
            if self._mode == "game":
                self.game_mode.restart(state)
            self.scroll = 0
            self._scroll_at = self.clock() + self.scroll_time
            if self.overlay is not None:
                self.overlay.prompt_changed(prompt)
            self.notices.prompt_changed()  # "Rolling...", a roller fault: over with the roll

    def _labels(self, state: State) -> Labels:
        key = (state["ruleset"], self.language)
        if key not in self._labels_of:  # a board's labels never change (in one language)
            ruleset = find_ruleset(key[0])
            words = ENGLISH if self.language == "en" else Words.for_language(self.language, ruleset.board)
            self._labels_of[key] = space_labels(ruleset, words)
        return self._labels_of[key]

    def screen(self) -> Screen:
        """The layout for what the table shows now."""
        if self.overlay is not None and self._mode == "game":
            screen = self.overlay.screen()
            return screen if self.overlay.shows_notice else with_notice(screen, self.notices.shown(self.scroll)[0])
        state = self._public_view()
        words = self.words
        if self._mode == "join":
            return join_screen(self.join_info(), self.join_page, words)
        if self._mode == "host-pin":
            return host_pin_screen(self.join_info(), words)
        if state is None:
            return screens.message_screen(words.t("NO GAME"), words.t("No game is running. YES: start one."),
                                          words.t("YES: new game"))
        labels = self._labels(state)
        if self._mode == "help":
            return screens.help_screen(words)
        if self._mode == "players":
            return screens.players_screen(state, labels, self.scroll)
        choice = self.game_mode.choice(self.table.state)  # the whole state: a card is offered if the engine takes it
        notice, notice_page = self.notices.shown(self.scroll)
        return screens.game_screen(state, self.events, labels, choice=choice, notice=notice,
                                   notice_scroll=notice_page, dice_source=self.dice_source, scroll=self.scroll)

    def _public_view(self) -> State | None:
        """The table's state as DESIGN.md shows it, made once per state (a state is never changed once built)."""
        state = self.table.state
        if self._public[0] is not state:
            self._public = (state, public_state(state) if state is not None else None)
        return self._public[1]

    def _looks(self) -> tuple[Any, ...]:
        """Everything :meth:`screen` is built from that may change between two presses: the tick builds the screen
        again only when this changed (objects compare by identity first, so an idle tick compares a few pointers). An open
        mode counts as itself: what it shows changes on a press or a card, which draw at once, or when it closes."""
        game = self.game_mode
        return (self.table.state, self.events, self._mode, game.cursor, game.selected, game.confirming,
                self.join_page, self.dice_source, self.scroll, self.overlay,
                self.notices.key(),
                self.join_info() if self._mode in ("join", "host-pin") else None)  # phones join while the codes are shown

    def refresh(self) -> None:
        """Draw the current screen if it changed (the display skips equal frames as well)."""
        with self._lock:
            self._owed = False
            self._drain()
            self._looked = self._looks()
            screen = self.screen()
            if screen == self._screen:
                self._waiting_edge = None
                return
            self._draw(screen)
            if self._waiting_edge is not None:
                self.result_latencies.append(self.clock() - self._waiting_edge)
                self._waiting_edge = None

    def _draw(self, screen: Screen) -> None:
        """Paint and hand a screen to the display; the first frame after a button edge is timed."""
        self._screen = screen
        self.display.show(self.painter.painted(screen))
        if self._waiting_edge is not None and not self._edge_answered:
            self.latencies.append(self.clock() - self._waiting_edge)
            self._edge_answered = True

    @property
    def shown(self) -> Screen | None:
        """The screen last handed to the display (``name`` says which layout: ``ack`` for a press's cue)."""
        return self._screen

    def frame(self) -> Image.Image:
        """The current screen as pixels (for tests and the terminal)."""
        return self.painter.paint(self.screen())

    def close(self) -> None:
        self._unsubscribe()
        self.closed = True
