"""The live fan-out alone (issue 43): one input's events written to every following phone, in this process; prints
figures, asserts nothing.

``bench/phones_bench.py --parts`` gives the fan-out's thread CPU inside the running server (±15 % between runs on a
shared machine); this runs the same ``FanOut.publish`` over the same game's money actions with nothing else around
it: the inputs are applied first (a journal on tmpfs when there is one), then each one's frame is handed to the feed
and published, as ``Feed._on_update`` does, to ``--phones`` phones following over the page's websocket (a text frame
of permessage-deflate, the compressor shared as in ``companion run``), each phone's socket a TCP connection on
loopback read by this process outside the clock.

Printed: the thread CPU per publish, its event (``FanOut._event``: the views, the diff, the JSON, the deflate) and its
writes (the rest of ``publish``), the best of ``--rounds`` rounds (the machine's load makes a round slower, never
faster) and every round's; the bytes per phone per action. ``--bare`` hands the frames to the feed without
publishing (nothing else changes). Each publish is called through ``functools.reduce`` (used nowhere else on the
way), so that callgrind counts the fan-out's instructions alone, the one figure that repeats on a shared machine::

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \
        .venv/bin/python bench/fanout_bench.py --actions 300 --rounds 1

    .venv/bin/python bench/fanout_bench.py [--actions 300] [--rounds 5] [--phones 9] [--bare]
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial, reduce
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from companion.journal import Journal  # noqa: E402
from companion.table import Table, Update  # noqa: E402
from companion.web import Access, create_app  # noqa: E402
from companion.web.api import seen_as, viewer_of  # noqa: E402
from companion.web.fanout import FanOut, Tail  # noqa: E402
from companion.web.feed import Frame  # noqa: E402
from companion.web.websocket import deflated_frame  # noqa: E402
from phones_bench import DEEDS, NAMES, setup  # noqa: E402
from request_bench import drain  # noqa: E402


def connected_pair(listener: socket.socket) -> tuple[socket.socket, socket.socket]:
    """Both ends of one TCP connection on loopback (the server's, the phone's), TCP_NODELAY as cheroot's."""
    phone = socket.create_connection(listener.getsockname())
    ours, _ = listener.accept()
    ours.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    phone.setblocking(False)
    return ours, phone


def read_elsewhere(ends: list[socket.socket]) -> Callable[[], int]:
    """Read ``ends`` in a child process asleep in ``select`` until something comes; a function that ends it and
    gives the bytes it read."""
    done_read, done_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        total = 0
        try:
            while True:
                ready, _, _ = select.select([*ends, done_read], [], [])
                if done_read in ready:
                    break
                total += drain(ready)
        finally:
            os.write(done_write, str(total).encode() + b"\n")
            os._exit(0)
    for end in ends:
        end.close()

    def finish() -> int:
        os.write(done_write, b".")
        os.waitpid(pid, 0)
        return int(os.read(done_read, 64).strip(b".\n") or 0)

    return finish


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--phones", type=int, default=9, help="phones following (the bench's 8 and the host's)")
    parser.add_argument("--bare", action="store_true", help="hand the frames to the feed, publish nothing")
    parser.add_argument("--waiting", action="store_true",
                        help="the phones read in a process of their own, asleep in select until a frame comes (as "
                             "phones_bench's do: each send then wakes it), not read by this one between publishes")
    args = parser.parse_args()
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as folder, Journal(Path(folder) / "games.sqlite3") as journal:
        table = Table(journal)
        table.new_game(setup(len(NAMES)))
        app = create_app(table, access=Access(host_pin="246810", join_code="135790"), phone_dice="manual",
                         secret_key=os.urandom(32))
        ctx = app.extensions["companion"]
        feed = ctx.feed
        feed._unsubscribe()  # the updates are handed to it below, one by one
        updates: list[Update] = []
        table.subscribe(updates.append)
        mortgaged = dict.fromkeys(DEEDS, False)
        for i in range(50 + args.actions * args.rounds):
            deed, name = DEEDS[i % len(DEEDS)], NAMES[i % len(DEEDS) // 2]
            verb = "unmortgage" if mortgaged[deed] else "mortgage"
            table.submit({"act": {"player": name, "do": verb, "space": deed}}, source="bench")
            mortgaged[deed] = not mortgaged[deed]
        listener = socket.create_server(("127.0.0.1", 0))
        ends: list[socket.socket] = []
        for _ in range(args.phones):
            kept: dict[str, Any] = {}
            tail = Tail(lambda state, kept=kept: viewer_of(ctx.access, state, kept),
                        lambda viewer: partial(seen_as, viewer=viewer, story=feed.story), ctx.deflater)
            frame = feed.latest()
            viewer = tail.viewer_of(frame.state)
            tail.pack(feed.catch_up(None, frame, viewer, tail.build(viewer)))
            tail.held = (frame, viewer)
            ours, phone = connected_pair(listener)
            tail.attach(ours, deflated_frame)
            assert feed.fanout.follow(tail), "a phone up to date follows"
            ends.append(phone)
        drain(ends)

        spent = {"event": 0.0}
        event = FanOut._event

        def timed_event(self: FanOut, *a: Any) -> Any:
            start = time.thread_time()
            try:
                return event(self, *a)
            finally:
                spent["event"] += time.thread_time() - start

        FanOut._event = timed_event  # type: ignore[method-assign]
        game = table.game.id if table.game is not None else None
        feeding = iter(updates)

        def publish(*_: Any) -> None:
            feed.fanout.publish()

        def one() -> float:
            update = next(feeding)
            start = time.thread_time()
            with feed._changed:
                feed._frames.append(Frame(game, update.state, update.before, update.events))
                feed.story.learn(update.events)
            if not args.bare:
                reduce(publish, (0, 0))  # publish() alone, inside a C function callgrind can be told to count
            return time.thread_time() - start

        received = 0
        for _ in range(50):
            one()
        drain(ends)
        reader = read_elsewhere(ends) if args.waiting else None
        rounds = []
        for _ in range(args.rounds):
            spent["event"], whole = 0.0, 0.0
            for _ in range(args.actions):
                whole += one()
                received += drain(ends) if reader is None else 0
                if reader is not None:
                    time.sleep(0.0005)  # the phones read it, as they would between inputs
            rounds.append((1e6 * whole / args.actions, 1e6 * spent["event"] / args.actions))
        handed_back = dict(feed.fanout.handed_back)
        if reader is not None:
            received = reader()
    load = os.getloadavg()[0]
    best = min(rounds)
    what = "handing the frame to the feed alone (--bare)" if args.bare else "FanOut.publish"
    print(f"{what}, {args.phones} phones over the websocket (permessage-deflate): {best[0]:.1f} µs of thread CPU "
          f"per action (best of {args.rounds} rounds of {args.actions}; each: "
          f"{', '.join(f'{r[0]:.1f}' for r in rounds)}); load average {load:.1f}")
    if not args.bare:
        print(f"  the event: {best[1]:.1f} µs; the writes and the rest: {best[0] - best[1]:.1f} µs "
              f"({(best[0] - best[1]) / args.phones:.1f} a phone)")
        print(f"  bytes per phone per action: {received / (args.actions * args.rounds) / args.phones:.1f}; "
              f"handed back: {handed_back or 'none'}")


if __name__ == "__main__":
    main()
