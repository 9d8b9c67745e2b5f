"""The table: the one writer that owns the current game and serialises every input.

Buttons, the dice roller and the phones all call :meth:`Table.submit`; one lock orders them,
the journal stores each input (synced) before the engine applies it, and listeners (the OLED,
the phones' live streams) are told of every new state.

A listener that only wakes another thread (the OLED's loop) may be a *waker*: inside :meth:`Table.answering` (a
phone's message, until its reply is written) it is told when the block ends, not at once. The thread it wakes could
not run before then anyway: the answering thread holds Python's GIL until its next system call, the reply's write, so
woken earlier it would only wake, find the GIL taken, sleep on it again and be signalled at that write (issue 43:
futex calls and context switches an input, for no earlier frame). Anywhere else (a button on the OLED's own thread)
a waker is told at once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.engine import Event, IllegalInput, State, public_state

log = logging.getLogger(__name__)


class GameStore(Protocol):
    """What the table needs of a stored game (``companion.journal.StoredGame``)."""

    id: int
    state: State
    events: list[Event]  # those of the last input (of the set-up, for a game just started)

    def submit(self, line: dict[str, Any], *, source: str = "") -> tuple[State, list[Event]]: ...


class GameJournal(Protocol):
    """What the table needs of the journal (``companion.journal.Journal``)."""

    def new_game(self, setup: dict[str, Any]) -> GameStore: ...

    def open_game(self, game_id: int) -> GameStore: ...

    def latest_game(self) -> GameStore | None: ...


@dataclass(frozen=True)
class Update:
    """One accepted input: the new state, what happened, and who sent it; ``before``: the state it was applied to
    (None for a game started or resumed)."""

    state: State
    events: list[Event]
    source: str
    line: Mapping[str, Any] = field(default_factory=dict)
    before: State | None = None


Listener = Callable[[Update], None]


class Table:
    """Owns the current game; every input from every device goes through :meth:`submit`."""

    def __init__(self, journal: GameJournal, game: GameStore | None = None) -> None:
        self.journal = journal
        self._game = game
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Listener] = []
        self._wakers: list[Listener] = []
        self._held = threading.local()  # per thread: the wakers' updates held by :meth:`answering`, innermost last

    # ------------------------------------------------------------------ game
    @property
    def game(self) -> GameStore | None:
        return self._game

    @property
    def state(self) -> State | None:
        """The full current state (private keys included), or None before a game exists."""
        return self._game.state if self._game else None

    def public(self) -> State | None:
        """The current state as DESIGN.md shows it."""
        return public_state(self._game.state) if self._game else None

    def new_game(self, setup: dict[str, Any], *, source: str = "host") -> State:
        with self._lock:
            self._game = self.journal.new_game(setup)
            # The set-up's own events follow: what to deal and where to put the pieces (lot tickets, hands...).
            events = [{"kind": "new-game", "text": "A new game begins"}, *self._game.events]
            self._publish(Update(self._game.state, events, source))
            return self._game.state

    def resume(self, game_id: int | None = None, *, source: str = "host") -> State | None:
        """Open a stored game (the one played most recently, finished or not, when no id is given)."""
        with self._lock:
            game = self.journal.open_game(game_id) if game_id is not None else self.journal.latest_game()
            if game is None:
                return None
            self._game = game
            self._publish(Update(game.state, [{"kind": "resumed", "text": f"Game {game.id} resumed"}], source))
            return game.state

    # ------------------------------------------------------------------ inputs
    def submit(self, line: dict[str, Any], *, source: str, expect_seq: int | None = None,
               expect_game: int | None = None) -> Update:
        """Journal and apply one input line; raises ``IllegalInput`` (nothing changes) if refused.

        ``expect_seq`` (and ``expect_game``): refuse the input if the game has moved on, or another game
        has started, since the sender looked at it (a phone acting on an older state; a new game's first
        state has the same ``seq`` 0 as the last one's).
        """
        with self._lock:
            if self._game is None:
                raise IllegalInput("no game is running: start one first")
            if expect_game is not None and expect_game != self._game.id:
                raise StaleInput(f"another game has started (game {self._game.id}, not {expect_game})")
            if expect_seq is not None and expect_seq != self._game.state["seq"]:
                raise StaleInput(f"someone else acted first (the game is at input {self._game.state['seq']}, "
                                 f"not {expect_seq})")
            before = self._game.state
            state, events = self._game.submit(dict(line), source=source)
            update = Update(state, events, source, line, before)
            self._publish(update)
            return update

    # ------------------------------------------------------------------ listening
    def subscribe(self, listener: Listener, *, waker: bool = False) -> Callable[[], None]:
        """Call ``listener`` after every accepted input; returns a function that unsubscribes. ``waker``: after the
        other listeners, and inside :meth:`answering` when the block ends (see the module's text)."""
        listeners = self._wakers if waker else self._listeners
        with self._lock:
            listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in listeners:
                    listeners.remove(listener)

        return unsubscribe

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Hold the wakers' calls for the inputs this thread makes until the block ends (raised out of or not);
        blocks nest, each making its own at its end. A block is to end before its thread waits on anything (a slow
        phone's write): what it holds would wait with it."""
        blocks: list[list[tuple[Listener, Update]]] | None = getattr(self._held, "blocks", None)
        if blocks is None:
            blocks = self._held.blocks = []
        held: list[tuple[Listener, Update]] = []
        blocks.append(held)
        try:
            yield
        finally:
            blocks.pop()
            for waker, update in held:
                _tell(waker, update)

    def wait_for_change(self, seq: int, timeout: float) -> State | None:
        """Block until the state changes from the one at ``seq`` (another input, or another game
        replacing it) or ``timeout`` passes; returns the current state."""
        with self._changed:
            seen = (self._game, seq)
            self._changed.wait_for(lambda: self.state is not None and (self._game, self.state["seq"]) != seen, timeout)
            return self.state

    def _publish(self, update: Update) -> None:
        self._changed.notify_all()
        for listener in list(self._listeners):
            _tell(listener, update)
        blocks: list[list[tuple[Listener, Update]]] | None = getattr(self._held, "blocks", None)
        for waker in list(self._wakers):
            if blocks:
                blocks[-1].append((waker, update))
            else:
                _tell(waker, update)


def _tell(listener: Listener, update: Update) -> None:
    try:
        listener(update)
    except Exception:  # a broken display must never stop the game
        log.exception("listener %r failed", listener)


class StaleInput(IllegalInput):
    """An input made on an older state than the current one (the web answers 409)."""
