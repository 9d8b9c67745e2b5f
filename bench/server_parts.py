"""Issue 43's components of the server's CPU per action, by thread CPU around them inside `companion run`
(``bench/phones_bench.py --parts``).

Only the bench loads this, in the server's process, through a ``sitecustomize`` it writes for that run
(:data:`SITECUSTOMIZE`, when ``COMPANION_PARTS`` is set); the product never imports it. :func:`install` wraps the
functions of :data:`TIMED` so that each adds the ``time.thread_time`` it took (its callees included) to its
thread's count; SIGUSR1 marks the start of the window (and writes ``PATH.start``), SIGUSR2 writes the counts since
then, with the process's CPU time over the same window, as JSON to ``PATH``. :func:`components` makes the table of
docs/web.md from them: each part is its function's time less the timed functions nested inside it (:data:`NESTING`),
so no time is counted twice, and what no part holds is "the rest".
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The server's sitecustomize for a ``--parts`` run: ``BENCH`` is this folder.
SITECUSTOMIZE = '''
import os
if os.environ.get("COMPANION_PARTS"):
    import sys
    sys.path.insert(0, {bench!r})
    import server_parts
    server_parts.install(os.environ["COMPANION_PARTS"])
'''

#: (module, class or "", function, key): what is timed.
TIMED = [
    ("companion.web.server", "_Connection", "communicate", "communicate"),
    ("flask", "Flask", "__call__", "flask"),
    ("flask", "Flask", "dispatch_request", "view"),
    ("companion.web.websocket", "PhoneSocket", "_receive", "socket"),
    ("companion.web.socket_api", "Inputs", "answer", "message"),
    ("companion.web.socket_api", "Inputs", "respond", "message_view"),  # the input's work (take_input), over the socket
    ("companion.web.asker", "", "json_body", "json_body"),  # a POST's (its request's body)
    ("companion.web.socket_api", "", "parsed", "json_body"),  # a socket message's
    ("companion.web.inputs", "", "reply_body", "reply"),
    ("companion.table", "Table", "submit", "submit"),
    ("companion.table", "Table", "_publish", "publish"),
    ("companion.journal.store", "StoredGame", "submit", "journal"),
    ("companion.journal.store", "", "apply", "apply"),
    ("companion.web.feed", "Feed", "_on_update", "feed"),
    ("companion.web.fanout", "FanOut", "publish", "fanout"),
    ("companion.web.fanout", "FanOut", "_event", "event"),
    ("companion.face.cues", "CueFeed", "__call__", "cues"),
    ("companion.startup.station", "Station", "step", "station"),
    ("companion.face.seat_lights", "SeatLights", "tick", "lights"),
    ("companion.face.controller", "TableController", "refresh", "refresh"),
    ("companion.drivers.nfc", "NfcReader", "poll", "reader"),
    ("companion.drivers.tunes", "PiezoTunes", "play", "buzzer"),
]

#: How the timed functions nest (each on its caller's thread), printed with the figures.
NESTING = ("cheroot's connection.communicate > Flask.__call__ > the view (Flask.dispatch_request) > the body's JSON, "
           "Table.submit, the reply; over the socket, communicate > PhoneSocket._receive (the frames) > "
           "Inputs.answer (the message around its input) > the input's work (Inputs.respond: take_input) > the same; Table.submit > "
           "StoredGame.submit > the engine's apply, and Table._publish > "
           "Feed._on_update > FanOut.publish > FanOut._event, and the cues (CueFeed.__call__); on the OLED's thread "
           "Station.step > TableController.refresh, NfcReader.poll, SeatLights.tick; the buzzer's thread PiezoTunes.play. Each part below is its function "
           "less the timed ones inside it, so none is counted twice")


def _part(spent: dict[str, float], plus: tuple[str, ...], less: tuple[str, ...] = ()) -> float:
    return sum(spent[k] for k in plus) - sum(spent[k] for k in less)


#: docs/web.md's components (its table's names): (name, how it is made of the timed functions, the keys added, the
#: keys taken away). Disjoint: together they are at most the process's CPU.
PARTS: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = [
    ("Flask around POST /api/input", "Flask.__call__ less the view", ("flask",), ("view",)),
    ("the live-stream pushes to {phones} phones", "FanOut.publish", ("fanout",), ()),
    ("the OLED's redraw", "Station.step less the seat lights' tick", ("station",), ("lights",)),
    ("the journal", "StoredGame.submit less the engine's apply", ("journal",), ("apply",)),
    ("cheroot parsing and replying to the POST", "connection.communicate less Flask.__call__", ("communicate",),
     ("flask",)),
    ("the socket's frames and writes (wsproto)", "PhoneSocket._receive less the message; its waits and reads are "
     "the rest's", ("socket",), ("message",)),
    ("the socket's message around its input (was Flask's)", "Inputs.answer less the input's work",
     ("message",), ("message_view",)),
    ("the buzzer's tune thread", "PiezoTunes.play", ("buzzer",), ()),
    ("the engine's apply", "StoredGame.submit's apply", ("apply",), ()),
    ("the rest of the request's thread", "the view less StoredGame.submit and FanOut.publish",
     ("view", "message_view"), ("journal", "fanout")),
    ("the seat lights' tick", "SeatLights.tick", ("lights",), ()),
]

#: Lines under a part: (the part's name, the line's name, keys added, keys taken away).
DETAILS: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = [
    ("the OLED's redraw", "its refresh (the choices found again, the screen laid out, painted, shown)", ("refresh",),
     ()),
    ("the OLED's redraw", "the card reader's poll (at every step of the station, input or not)", ("reader",), ()),
    ("the OLED's redraw", "the rest of the step (the tick's checks: the disk after an input, notices, clocks)",
     ("station",), ("lights", "refresh", "reader")),
    ("the live-stream pushes to {phones} phones", "the event (the views' diff, its JSON and gzip)", ("event",), ()),
    ("the live-stream pushes to {phones} phones", "the writes to the phones", ("fanout",), ("event",)),
    ("the rest of the request's thread", "the body's JSON", ("json_body",), ()),
    ("the rest of the request's thread", "the view's checks (limits, CSRF, the host's rights)",
     ("view", "message_view"), ("json_body", "submit", "reply")),
    ("the rest of the request's thread", "the reply (its delta shared)", ("reply",), ()),
    ("the rest of the request's thread", "the feed's frame, history and ledger", ("feed",), ("fanout",)),
    ("the rest of the request's thread", "the cues", ("cues",), ()),
    ("the rest of the request's thread", "Table.submit's and its publishing's own", ("submit",),
     ("journal", "feed", "cues")),
]
#: The garbage collector's own count (not a part: it runs inside whichever part allocated when a generation filled),
#: by generation.
GC_KEYS = ("gc", "gc0", "gc1", "gc2")
REST = "the rest (cheroot's selector and connections, the idle table, the wrappers' own clocks)"
#: The timed functions no other timed one calls (over the socket, the connection's ``communicate`` runs for the
#: socket's life: it adds nothing within the window): a thread's CPU less these is what no part holds on it.
OUTER = ("communicate", "socket", "station", "buzzer")


# ---------------------------------------------------------------------- in the server's process
class _Counts:
    """Each thread's seconds and calls per key (a thread adds to its own: no lock, no lost update)."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.threads: list[tuple[dict[str, float], dict[str, int]]] = []
        self.natives: list[int] = []  # each one's OS thread id (``/proc/PID/task/TID``)
        self.lock = threading.Lock()

    def mine(self) -> tuple[dict[str, float], dict[str, int]]:
        own = getattr(self.local, "own", None)
        if own is None:
            keys = [*(key for *_, key in TIMED), *GC_KEYS]
            own = self.local.own = (dict.fromkeys(keys, 0.0), dict.fromkeys(keys, 0))
            with self.lock:
                self.threads.append(own)
                self.natives.append(threading.get_native_id())
        return own

    def totals(self) -> dict[str, Any]:
        with self.lock:
            threads, natives = list(self.threads), list(self.natives)
        keys = [*(key for *_, key in TIMED), *GC_KEYS]
        outer = {str(native): sum(t[0][key] for key in OUTER) for native, t in zip(natives, threads)}
        return {"spent": {key: sum(t[0][key] for t in threads) for key in keys}, "outer": outer,
                "calls": {key: sum(t[1][key] for t in threads) for key in keys},
                "process": time.process_time()}


def _timed(function: Callable[..., Any], key: str, counts: _Counts) -> Callable[..., Any]:
    clock = time.thread_time

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            spent, calls = counts.mine()
            spent[key] += clock() - start
            calls[key] += 1

    return timed


def _count_collections(counts: _Counts) -> None:
    """Add each collection's thread CPU to the thread it ran on (under :data:`GC_KEYS`)."""
    began = threading.local()

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began.at = time.thread_time()
            return
        spent, calls = counts.mine()
        took = time.thread_time() - getattr(began, "at", time.thread_time())
        spent["gc"] += took
        calls["gc"] += 1
        spent[f"gc{info['generation']}"] += took
        calls[f"gc{info['generation']}"] += 1

    gc.callbacks.append(collecting)


def install(path: str) -> None:
    """Wrap :data:`TIMED`; SIGUSR1 starts the window, SIGUSR2 writes what it counted to ``path`` (JSON)."""
    counts = _Counts()
    _count_collections(counts)
    for module, owner, name, key in TIMED:
        where: Any = importlib.import_module(module)
        if owner:
            where = getattr(where, owner)
        setattr(where, name, _timed(getattr(where, name), key, counts))
    start: dict[str, Any] = {}

    def begin(*_: Any) -> None:
        start.update(counts.totals())
        Path(path + ".start").write_text("", encoding="utf-8")

    def end(*_: Any) -> None:
        now = counts.totals()
        window = {"spent": {k: now["spent"][k] - start["spent"][k] for k in now["spent"]},
                  "calls": {k: now["calls"][k] - start["calls"][k] for k in now["calls"]},
                  "process": now["process"] - start["process"],
                  "outer": {t: s - start["outer"].get(t, 0.0) for t, s in now["outer"].items()}}
        Path(path + ".new").write_text(json.dumps(window), encoding="utf-8")
        os.replace(path + ".new", path)

    signal.signal(signal.SIGUSR1, begin)
    signal.signal(signal.SIGUSR2, end)


# ---------------------------------------------------------------------- in the bench
def components(window: dict[str, Any], actions: int, phones: int) -> list[tuple[str, str, float, float]]:
    """(name, what it is, µs per action, share of the process's CPU) for each part, its details (indented names),
    the parts together, the rest, and the whole."""
    spent, whole = window["spent"], window["process"]
    rows = []
    for name, made, plus, less in PARTS:
        rows.append((name.format(phones=phones), made, _part(spent, plus, less)))
        rows += [(f"  {detail}", "", _part(spent, p, m)) for part, detail, p, m in DETAILS if part == name]
    together = sum(_part(spent, plus, less) for _, _, plus, less in PARTS)
    rows += [("the parts together", "", together), (REST, "the whole less the parts", whole - together),
             ("the whole", "the process's CPU, every thread", whole)]
    return [(name, made, 1e6 * seconds / actions, 100 * seconds / whole) for name, made, seconds in rows]


def outer(path: Path) -> dict[str, float]:
    """Each thread's seconds inside the timed functions (:data:`OUTER`) over the window, by its OS thread id."""
    window = json.loads(path.read_text(encoding="utf-8"))
    return dict(window.get("outer", {}))


def report(path: Path, actions: int, phones: int) -> str:
    """The parts per action from the window the server wrote to ``path``, as the bench prints them."""
    window = json.loads(path.read_text(encoding="utf-8"))
    calls = window["calls"]
    lines = [f"the server's CPU per action by part (time.thread_time around each inside `companion run`, "
             f"{actions} actions; Table.submit called {calls['submit'] / actions:.2f} times per action, "
             f"the view {(calls['view'] + calls['message_view']) / actions:.2f}, "
             f"Station.step {calls['station'] / actions:.2f} (its refresh {calls['refresh'] / actions:.2f}), "
             f"PiezoTunes.play {calls['buzzer'] / actions:.2f}); load average {os.getloadavg()[0]:.1f}",
             f"how they nest: {NESTING}"]
    for name, made, micro, share in components(window, actions, phones):
        said = f" ({made})" if made else ""
        lines.append(f"  {name}: {micro:.0f} µs, {share:.1f} %{said}")
    spent = window["spent"]
    if "gc" in spent:  # inside the parts above, wherever a generation filled
        lines.append(f"  of which Python's garbage collector (inside the parts above): "
                     f"{1e6 * spent['gc'] / actions:.0f} µs, {100 * spent['gc'] / window['process']:.1f} %; "
                     f"collections per action: " + ", ".join(
                         f"generation {g} {calls[f'gc{g}'] / actions:.2f} ({1e6 * spent[f'gc{g}'] / actions:.0f} µs)"
                         for g in range(3)))
    return "\n".join(lines)
