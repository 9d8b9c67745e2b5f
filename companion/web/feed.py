"""The live feed: one subscription to the table that brings every open stream each input (through :mod:`.fanout`
for the phones that are up to date, else by waking the stream's thread), the recent states and their views, and
the cash history.

Each accepted input becomes a :class:`Frame`. A stream shows a frame as its phone may see it (:class:`Viewer`: the
host's, a seat's or anyone's view); each view of a frame is built once, by the first stream (or reply) that needs it,
and shared by every other that shows the same, and so is what changed since the frame before (:mod:`.delta`, which
is what a stream sends a phone holding that frame: :meth:`Feed.catch_up`): eight phones following one input cost
one or a few small serialisations, not eight of the whole state. The streams are served first, before the history
and the ledger are written.
"""

from __future__ import annotations

import json
import threading
from collections import Counter, deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any, NamedTuple

from companion.engine import CompanionError, Event, State
from companion.gamefile import game_file_lines, replay
from companion.table import Table, Update

from .delta import diff, same
from .fanout import FanOut
from .ledger import Ledger
from .worth import Owed, Worths
from .addresses import device, is_own
from .story_words import StoryWords

HISTORY_POINTS = 400
#: A live stream's first text: the pause before the browser opens a dropped stream again (ms).
RETRY = "retry: 1000\n\n"
RECENT_FRAMES = 16  # the inputs a stream may be behind and still be sent what changed, not the whole state
#: JSON without spaces, as ``json.dumps(value, separators=(",", ":"))`` makes it, by one encoder (``json.dumps`` with
#: arguments makes an encoder at every call). Not looking for cycles (a state is JSON: a tree), which costs the
#: encoder a dict entry for every list and object: the same text, ~15 % sooner. The encoder's C half is made once
#: too (``JSONEncoder.encode`` makes one at every call: 7,000 of the 52,000 instructions of an input's operations).
_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
_C_ENCODER = c_make_encoder and c_make_encoder(None, _ENCODER.default, encode_basestring_ascii, None, ":", ",", False,
                                               False, True)


def compact(value: Any) -> str:
    """``value`` as JSON without spaces (``json.dumps(value, separators=(",", ":"))``'s text)."""
    return "".join(_C_ENCODER(value, 0)) if _C_ENCODER else _ENCODER.encode(value)


class Viewer(NamedTuple):
    """Whom a view is for: the host (who sees every card) or not, and the player whose seat the phone holds."""

    host: bool
    player: str | None
    language: str = "en"  # the phone's (companion.web.phone_words): a view in another says the prompt in it


class View:
    """One frame as one viewer may see it: the value, and its JSON (the whole state) once asked for."""

    __slots__ = ("value", "_text")

    def __init__(self, value: State) -> None:
        self.value = value
        self._text: str | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = compact(self.value)
        return self._text


class Frame:
    """One state the table published (an input accepted, a game started or resumed) and its views, built on demand
    and kept for every stream that shows it."""

    def __init__(self, game: int | None, state: State, before: State | None = None,
                 events: Sequence[Event] = ()) -> None:
        self.game, self.state, self.before, self.events = game, state, before, events
        self.event_id = f"{game}:{state['seq']}"
        self._views: dict[Hashable, View] = {}
        self._changes: dict[int, tuple[View, View, str]] = {}  # id of the view before: it, the view now, the ops
        self._lock = threading.Lock()

    def changes(self, before: View, now: View) -> str:
        """What changed from ``before`` (a view of the frame before this one) to ``now`` (this frame's view for the
        same viewer): :func:`.delta.diff`'s operations as JSON, worked out once for every stream that sends them."""
        with self._lock:
            found = self._changes.get(id(before))
            if found is None or found[0] is not before or found[1] is not now:
                found = (before, now, compact(diff(before.value, now.value)))
                self._changes[id(before)] = found
            return found[2]

    def view(self, viewer: Hashable, build: Callable[[State, Sequence[Event]], State]) -> View:
        """The frame as ``viewer`` sees it (``build`` makes it from the state and its input's events): built once, and a view equal to one
        already built for another viewer is that one (a game without face-down cards looks the same to all)."""
        with self._lock:
            found = self._views.get(viewer)
            if found is None:
                value = build(self.state, self.events)
                found = next((v for v in self._views.values() if same(v.value, value)), None) or View(value)
                self._views[viewer] = found
            return found


class Feed:
    """Counts the table's updates and keeps each player's cash after every input of the current game."""

    def __init__(self, table: Table, *, history_points: int = HISTORY_POINTS) -> None:
        self.table = table
        self.version = 0
        self.closed = False
        self._changed = threading.Condition()
        self._history: deque[dict[str, Any]] = deque(maxlen=history_points)
        self._game: int | None = None
        self._frames: deque[Frame] = deque(maxlen=RECENT_FRAMES)
        self.story = StoryWords(self._replayed)  # the log's lines by their events, for phones in other languages
        self._replayed_game: int | None = None
        if table.state is not None:
            events = table.game.events if table.game is not None else ()
            self._frames.append(Frame(self._game_id(), table.state, events=events))
            self.story.learn(events)
        self.ledger = Ledger()
        self._worths = Worths()  # the players' net worth, counted when the history is read
        # the points whose worth is not counted yet, each with what it is counted from (a suffix of the history's)
        self._owed: deque[tuple[dict[str, Any], Owed]] = deque(maxlen=history_points)
        self._record(table.state, self._game_id())
        self.ledger.seed(table.state, self._game)
        self.fanout = FanOut(self)  # the streams whose phones are up to date, written to without their threads
        self._unsubscribe = table.subscribe(self._on_update)

    def latest(self) -> Frame | None:
        """The table's newest state as a frame (None before any game)."""
        with self._changed:
            return self._frames[-1] if self._frames else None

    def frame_of(self, update: Update) -> Frame:
        """The frame of ``update`` (a new one if it is no longer among the recent ones)."""
        with self._changed:
            found = next((f for f in reversed(self._frames) if f.state is update.state), None)
        return found or Frame(self._game_id(), update.state, update.before, update.events)

    def frame_before(self, frame: Frame) -> Frame | None:
        """The frame whose state ``frame`` followed (a new one if it is no longer among the recent ones); None for
        a game started or resumed."""
        if frame.before is None:
            return None
        with self._changed:
            found = next((f for f in reversed(self._frames) if f.state is frame.before), None)
        return found or Frame(frame.game, frame.before)

    def frames_of(self, update: Update) -> tuple[Frame, Frame | None]:
        """:meth:`frame_of` ``update`` and :meth:`frame_before` it, in one look when they are the newest two (the
        reply to the input just published: no other came between)."""
        with self._changed:
            if len(self._frames) > 1:
                last, before = self._frames[-1], self._frames[-2]
                if last.state is update.state and last.before is not None and before.state is last.before:
                    return last, before
        frame = self.frame_of(update)
        return frame, self.frame_before(frame)

    def catch_up(self, held: Frame | None, latest: Frame, viewer: Viewer, build: Callable[[State, Sequence[Event]], State]) -> str:
        """The events that bring a phone holding ``held`` (as ``viewer`` saw it; None: nothing) to ``latest``: what
        changed input by input while ``held`` is among the recent frames and the inputs since follow each other in
        one game, else the whole state. A ``delta`` event's data is the operations alone (:mod:`.delta`): they
        apply to the state of the event before it on the same stream (the one resumed from with ``Last-Event-ID``),
        its id says the state they bring."""
        changes = self.changes_since(held, latest, viewer, build) if held is not None else None
        return changes if changes is not None else sse(latest.event_id, "state", latest.view(viewer, build).text())

    def changes_since(self, held: Frame, latest: Frame, viewer: Viewer,
                      build: Callable[[State, Sequence[Event]], State]) -> str | None:
        """The ``delta`` events that bring a phone holding ``held`` to ``latest`` (:meth:`catch_up`); None if only
        the whole state would."""
        chain = self._chain(held, latest)
        if chain is None:
            return None
        if len(chain) == 1:  # one input behind: every following phone after an input
            return sse(latest.event_id, "delta", latest.changes(held.view(viewer, build), latest.view(viewer, build)))
        parts, before = [], held.view(viewer, build)
        for frame in chain:
            now = frame.view(viewer, build)
            parts.append(sse(frame.event_id, "delta", frame.changes(before, now)))
            before = now
        return "".join(parts)

    def _chain(self, held: Frame, latest: Frame) -> list[Frame] | None:
        """The frames after ``held`` up to ``latest``, each the state after the one before; None if there is none
        such (``held`` is no longer among the recent frames, or a game started or resumed since)."""
        if latest.before is not None and latest.before is held.state and latest.game == held.game:
            return [latest]  # the phone holds the state before: every following phone after an input (no scan)
        with self._changed:
            frames = list(self._frames)
        start = next((i for i, f in enumerate(frames) if f is held), None)
        end = next((i for i, f in enumerate(frames) if f is latest), None)
        if start is None or end is None or end < start:
            return None
        chain = frames[start + 1:end + 1]
        previous = held
        for frame in chain:
            if frame.before is not previous.state or frame.game != previous.game:
                return None
            previous = frame
        return chain

    def close(self) -> None:
        """Stop listening and release every waiting stream."""
        self._unsubscribe()
        with self._changed:
            self.closed = True
            self._changed.notify_all()
        self.fanout.close()

    def wait(self, version: int, timeout: float) -> int:
        """Block until the version differs from ``version`` (or timeout, or close); returns the version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != version or self.closed, timeout)
            return self.version

    def poke(self) -> None:
        """Wake every stream with no new state: what a phone may see has changed (a seat freed, host rights taken)."""
        with self._changed:
            self.version += 1
            self._changed.notify_all()
        self.fanout.publish()

    def history(self) -> dict[str, Any]:
        """``{"game": id, "points": [{"seq": n, "cash": {name: cash}, "worth": {name: worth}}]}`` since the game was
        opened here (``worth`` where the ruleset counts it: each point's counted now if it was not yet, once)."""
        with self._changed:
            for point, owed in self._owed:  # in the order of the inputs: the worths' count follows the board
                if worth := self._worths.count(owed):
                    point["worth"] = worth
            self._owed.clear()
            return {"game": self._game, "points": list(self._history)}

    # ------------------------------------------------------------------ internals
    def _replayed(self) -> list[Event]:
        """Every event of the current game, replayed from its journal (the story of a game resumed here): once per
        game, then nothing."""
        game = self.table.game
        export = getattr(game, "export", None)
        if game is None or export is None or game.id == self._replayed_game:
            return []
        self._replayed_game = game.id
        try:
            return [event for _, event in replay(game_file_lines(export())).events]
        except (CompanionError, ValueError):
            return []

    def _game_id(self) -> int | None:
        game = self.table.game
        return game.id if game is not None else None

    def _on_update(self, update: Update) -> None:
        game = self._game_id()
        with self._changed:  # the streams first: they wait on this, the history and the ledger can follow
            self._frames.append(Frame(game, update.state, update.before, update.events))
            self.story.learn(update.events)  # before any view of it is built
            self.version += 1
            self._changed.notify_all()
        self.fanout.publish()  # the phones that are up to date, from this thread: no stream's thread wakes
        self._record(update.state, game)
        self.ledger.record(update, game)

    def _record(self, state: dict[str, Any] | None, game: int | None) -> None:
        if state is None:
            return
        cash = {p["name"]: p["cash"] for p in state["players"] if "cash" in p}
        point = {"seq": state["seq"], "cash": cash}
        owed = self._worths.owed(state, cash)  # its worth, counted when the history is read
        with self._changed:
            if game != self._game or (self._history and state["seq"] < self._history[-1]["seq"]):
                self._history.clear()
                self._owed.clear()
                self._game = game
            # a point like the last (the same state published again: its worth the same too) is not added
            last = self._history[-1] if self._history else None
            if last is None or last["seq"] != point["seq"] or last["cash"] != cash:
                self._history.append(point)
                if owed is not None:
                    self._owed.append((point, owed))


def sse(event_id: str, kind: str, data: str) -> str:
    """One server-sent event (its fields without the optional space after the colon: every byte counts)."""
    return f"id:{event_id}\nevent:{kind}\ndata:{data}\n\n"


@dataclass(eq=False)
class Slot:
    """One live stream's hold on a server thread; ``ended`` is set when it must yield (to a player's phone, to its
    own phone's newer stream, or because its session id was replaced)."""

    device: str
    member: bool  # a joined player's phone, or the host's
    session: str | None = None  # the phone's session id (None: a phone that never had one)
    ended: threading.Event = field(default_factory=threading.Event)
    on_end: Callable[[], None] = lambda: None  # wakes the stream holding it (set by the stream)


class StreamSlots:
    """The live streams held open: each holds one of the server's threads until the phone goes away.

    All of them hold ``total`` at most (the server's 48 threads leave 16 for requests), one device ``per_address``
    (a phone reconnecting holds two for a moment; a few tabs), of which ``anonymous_per_address`` for anonymous
    viewers, and one session (a phone's cookie, from whatever addresses) ``per_session``: its newest stream
    replaces its oldest, so a cookie copied to many devices holds no more than the phone it came from. A joined
    player's phone (or the host's) always gets one: when every slot is held, the oldest anonymous viewer's stream
    (of the device holding the most) yields its slot and ends; its page tries again later. So a device on the
    network holding streams open can neither starve every phone's requests nor keep a player off the live updates.
    The Pi itself (:func:`.addresses.is_own`) has no per-device limit.
    """

    def __init__(self, *, per_address: int = 4, anonymous_per_address: int = 2, per_session: int = 3,
                 total: int = 32) -> None:
        self.per_address, self.anonymous_per_address, self.total = per_address, anonymous_per_address, total
        self.per_session = per_session
        self._held: list[Slot] = []
        self._lock = threading.Lock()

    def take(self, address: str | None, *, member: bool = False, session: str | None = None) -> Slot | None:
        """A slot for a stream from ``address`` (``member``: a joined player's phone or the host's; ``session``:
        the phone's session id), or None."""
        key = device(address)
        with self._lock:
            yielding: list[Slot] = []
            if session is not None:
                own = [s for s in self._held if s.session == session]
                if len(own) >= self.per_session:
                    yielding.append(own[0])  # this phone's newest stream replaces its oldest
            held = [s for s in self._held if s not in yielding]
            mine = [s for s in held if s.device == key]
            if not is_own(address):
                anonymous = [s for s in mine if not s.member]
                if len(mine) >= self.per_address:
                    if not (member and anonymous):
                        return None
                    yielding.append(anonymous[0])  # this device's own anonymous view yields to its player's
                elif not member and len(anonymous) >= self.anonymous_per_address:
                    return None
            remaining = [s for s in held if s not in yielding]
            if len(remaining) >= self.total:
                victim = self._yielding(remaining) if member else None
                if victim is None:
                    return None
                yielding.append(victim)
            for slot in yielding:
                self._end(slot)
            slot = Slot(key, member, session)
            self._held.append(slot)
            return slot

    def end_session(self, session: str) -> None:
        """End the streams of ``session``: its id was replaced by a fresh one (joining, logging in or out)."""
        with self._lock:
            for slot in [s for s in self._held if s.session == session]:
                self._end(slot)

    def give_back(self, slot: Slot) -> None:
        with self._lock:
            if slot in self._held:
                self._held.remove(slot)

    def held(self) -> int:
        with self._lock:
            return len(self._held)

    @staticmethod
    def _yielding(held: list[Slot]) -> Slot | None:
        """The anonymous stream to end for a player's: the oldest of the device holding the most."""
        anonymous = [s for s in held if not s.member]
        if not anonymous:
            return None
        counts = Counter(s.device for s in anonymous)
        return next(s for s in anonymous if counts[s.device] == max(counts.values()))

    def _end(self, slot: Slot) -> None:
        self._held.remove(slot)
        slot.ended.set()
        slot.on_end()
