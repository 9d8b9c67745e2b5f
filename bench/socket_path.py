"""The wall-clock path of one input message over the socket, stage by stage (``bench/phones_bench.py --path``):
from the acting client's send to the last phone's receipt (issue 43).

Only the bench loads this into `companion run`, through a ``sitecustomize`` it writes for that run (as
bench/server_parts.py: when ``COMPANION_PATH`` is set). :func:`install` wraps the functions of :data:`STAMPED` so that
each call adds ``(key, 0 at its start / 1 at its end, time.perf_counter_ns())`` to a list while the window is open
(SIGUSR1 opens it and writes ``PATH.start``, SIGUSR2 writes the stamps as JSON to ``PATH``). ``perf_counter`` is
``CLOCK_MONOTONIC`` on Linux, the same clock in every process: the bench's own stamps (the host's send, each phone's
wake) line up with the server's. Each wrapper costs a stamp or two (well under a µs each) on the path it measures.

:func:`stages` cuts each action's stamps into :data:`STAGES`; :func:`echo` measures the bench's own clients: a
trivial event written to every phone's socket pair, read by the same selector thread as the phones' sockets.
"""

from __future__ import annotations

import bisect
import importlib
import json
import selectors
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The server's sitecustomize for a ``--path`` run: ``BENCH`` is this folder.
SITECUSTOMIZE = '''
import os
if os.environ.get("COMPANION_PATH"):
    import sys
    sys.path.insert(0, {bench!r})
    import socket_path
    socket_path.install(os.environ["COMPANION_PATH"])
'''

#: (module, class or "", function, key): the functions whose start and end are stamped.
STAMPED = [
    ("companion.web.websocket", "PhoneSocket", "_receive", "receive"),
    ("companion.web.socket_api", "Inputs", "answer", "answer"),
    ("companion.web.socket_api", "Inputs", "respond", "view"),
    ("companion.table", "Table", "submit", "submit"),
    ("companion.journal.store", "Journal", "_append", "commit"),
    ("companion.journal.store", "", "apply", "apply"),
    ("companion.web.feed", "Feed", "_on_update", "feed"),
    ("companion.web.fanout", "FanOut", "publish", "publish"),
    ("companion.web.fanout", "FanOut", "_event", "event"),
    ("companion.web.fanout", "Tail", "send", "send"),
    ("companion.web.websocket", "PhoneSocket", "_write", "reply"),
]

#: The stages of one action: (name, from, to), each a ("client" | key, 0 start / 1 end, "first" | "last") stamp.
STAGES: list[tuple[str, tuple[str, int, str], tuple[str, int, str]]] = [
    ("the socket thread's wake and the frame's read (client send -> _receive)", ("client", 0, "first"),
     ("receive", 0, "first")),
    ("wsproto's parse of the frame (_receive -> Inputs.answer)", ("receive", 0, "first"), ("answer", 0, "first")),
    ("the message's asker (Inputs.answer -> Inputs.respond)", ("answer", 0, "first"), ("view", 0, "first")),
    ("the input's work up to Table.submit (body JSON and id, limits, checks)", ("view", 0, "first"),
     ("submit", 0, "first")),
    ("Table.submit up to the journal's commit (lock, seq checks, encode)", ("submit", 0, "first"),
     ("commit", 0, "first")),
    ("the journal's synced commit (Journal._append)", ("commit", 0, "first"), ("commit", 1, "first")),
    ("commit -> apply (the bookkeeping before)", ("commit", 1, "first"), ("apply", 0, "first")),
    ("the engine's apply", ("apply", 0, "first"), ("apply", 1, "first")),
    ("apply -> the fan-out (listeners before the feed's, frame, story)", ("apply", 1, "first"),
     ("publish", 0, "first")),
    ("the event (views' diff, JSON, deflate)", ("publish", 0, "first"), ("event", 1, "last")),
    ("the frame writes (every following socket's send)", ("event", 1, "last"), ("publish", 1, "first")),
    ("the phones' thread: the last write -> its wake for the last phone", ("publish", 1, "first"),
     ("phones", 0, "last")),
]
#: Beside the path: what comes after the publish on the same thread, before the reply is written.
AFTER = [("publish's end -> the reply's write (history, ledger, cues, OLED's inbox, reply JSON)",
          ("publish", 1, "first"), ("reply", 0, "last"))]


# ---------------------------------------------------------------------- in the server's process
def _stamped(function: Callable[..., Any], key: str, stamps: list[tuple[str, int, int]],
             on: threading.Event) -> Callable[..., Any]:
    clock, add = time.perf_counter_ns, stamps.append

    def stamped(*args: Any, **kwargs: Any) -> Any:
        if not on.is_set():
            return function(*args, **kwargs)
        add((key, 0, clock()))
        try:
            return function(*args, **kwargs)
        finally:
            add((key, 1, clock()))

    return stamped


def install(path: str) -> None:
    """Wrap :data:`STAMPED`; SIGUSR1 opens the window, SIGUSR2 writes its stamps to ``path`` (JSON)."""
    stamps: list[tuple[str, int, int]] = []
    on = threading.Event()
    for module, owner, name, key in STAMPED:
        where: Any = importlib.import_module(module)
        if owner:
            where = getattr(where, owner)
        setattr(where, name, _stamped(getattr(where, name), key, stamps, on))

    def begin(*_: Any) -> None:
        stamps.clear()
        on.set()
        Path(path + ".start").write_text("", encoding="utf-8")

    def end(*_: Any) -> None:
        on.clear()
        Path(path + ".new").write_text(json.dumps(stamps), encoding="utf-8")
        Path(path + ".new").replace(path)

    signal.signal(signal.SIGUSR1, begin)
    signal.signal(signal.SIGUSR2, end)


# ---------------------------------------------------------------------- in the bench
def _at(stamps: list[tuple[str, int, int]], point: tuple[str, int, str]) -> int | None:
    key, edge, which = point
    found = [t for k, e, t in stamps if k == key and e == edge]
    if not found:
        return None
    return found[0] if which == "first" else found[-1]


def stages(server: list[tuple[str, int, int]], asked: list[int], sent: list[int], woken: list[int],
           received: list[int], wakes: list[int]) -> dict[str, list[float]]:
    """Each stage's µs per action: ``server`` the server's stamps, ``asked`` when the bench began each action
    (its figure's start), ``sent`` the client's send of its message, ``woken`` the phones' thread's wake for the last
    phone to have it, ``received`` that phone's read of it (the bench's figure's end), ``wakes`` every wake of the
    phones' thread with a socket ready; ns, the same clock."""
    server = sorted(server, key=lambda s: s[2])
    times = [t for *_, t in server]
    out: dict[str, list[float]] = {CLIENT: []}
    out.update({name: [] for name, *_ in [*STAGES, *AFTER]})
    out[LAST] = []
    out[FIRST] = []
    out[SERVER] = []
    out[WHOLE] = []
    for i, start in enumerate(sent):
        stop = sent[i + 1] if i + 1 < len(sent) else received[i] + 1
        own = server[bisect.bisect_left(times, start):bisect.bisect_left(times, stop)]
        own += [("client", 0, start), ("phones", 0, woken[i])]
        for name, begin, end in [*STAGES, *AFTER]:
            x, y = _at(own, begin), _at(own, end)
            if x is not None and y is not None:
                out[name].append((y - x) / 1000)
        out[CLIENT].append((start - asked[i]) / 1000)
        out[LAST].append((received[i] - woken[i]) / 1000)
        first = _at(own, ("publish", 0, "first"))
        if first is not None:
            write = [t for k, e, t in own if k == "send" and e == 1 and t > first]
            after = wakes[bisect.bisect_left(wakes, write[0]):] if write else []
            if after:
                out[FIRST].append((after[0] - write[0]) / 1000)
        written = _at(own, ("publish", 1, "first"))
        if written is not None:
            out[SERVER].append((written - start) / 1000)
        out[WHOLE].append((received[i] - asked[i]) / 1000)
    return out


CLIENT = "the acting client's message (JSON, wsproto's frame) before its send"
LAST = "the phones' thread: its wake -> the last phone's read (the phones read before it)"
FIRST = "beside: the fan-out's first write -> the phones' thread's first wake after it"
SERVER = "the server's part: the message's send -> the last phone's frame written"
WHOLE = "the whole: the bench's 'all phones updated'"


def report(path: Path, asked: list[int], sent: list[int], woken: list[int], received: list[int],
           wakes: list[int], echoed: list[float], phones: int) -> str:
    """The stages' p50 and mean (µs) as the bench prints them, and the echo of its own clients."""
    from pi_box import percentile

    server = [tuple(s) for s in json.loads(path.read_text(encoding="utf-8"))]
    found = stages(server, asked, sent, woken, received, wakes)
    lines = [f"the path of one input over the socket, wall µs per action (perf_counter stamps in the server and the "
             f"bench, one clock; {len(sent)} actions; p50 and mean; the stages' p50s need not add up to the "
             f"whole's):"]
    for name, values in found.items():
        if name == AFTER[0][0]:
            continue
        if values:
            lines.append(f"  {name}: p50 {percentile(values, 0.5):.0f} µs, mean {sum(values) / len(values):.0f} µs")
    after = found[AFTER[0][0]]
    if after:
        lines.append(f"  beside the path, on the message's thread: {AFTER[0][0]}: p50 {percentile(after, 0.5):.0f} "
                     f"µs")
    lines.append(f"  the bench's own clients alone (an {phones}-socket echo through a thread shaped as the phones', "
                 f"no server, no parse): p50 {percentile(echoed, 0.5):.0f} µs, p99 {percentile(echoed, 0.99):.0f} "
                 f"µs")
    return "\n".join(lines)


def echo(phones: int, rounds: int, event: bytes) -> list[float]:
    """The bench's own clients alone: ``rounds`` times, ``event`` written to ``phones`` socket pairs one after the
    other (as the fan-out writes), µs until a thread shaped as the phones' (:class:`phones_bench.Phones`: a select,
    a recv per ready socket, then its condition notified) has read the last one: their wake and reads without the
    frame's parse."""
    pairs = [socket.socketpair() for _ in range(phones)]
    chosen = selectors.DefaultSelector()
    for index, (_, b) in enumerate(pairs):
        b.setblocking(False)
        chosen.register(b, selectors.EVENT_READ, index)
    arrived = [0] * phones
    done, stop, changed = threading.Event(), threading.Event(), threading.Condition()
    left = [0]

    def run() -> None:
        while not stop.is_set():
            for key, _ in chosen.select(0.1):
                now = time.perf_counter_ns()
                if key.fileobj.recv(65536):  # type: ignore[union-attr]
                    arrived[key.data] = now
                    left[0] -= 1
                    if left[0] == 0:
                        done.set()
            with changed:
                changed.notify_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    got: list[float] = []
    try:
        for _ in range(rounds):
            done.clear()
            left[0] = phones
            start = time.perf_counter_ns()
            for a, _ in pairs:
                a.send(event)
            done.wait(5)
            got.append((max(arrived) - start) / 1000)
            time.sleep(0.003)  # as an action's pace: the thread asleep in its select when the next comes
    finally:
        stop.set()
        thread.join(timeout=5)
        chosen.close()
        for a, b in pairs:
            a.close()
            b.close()
    return got
