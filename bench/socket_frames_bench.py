"""A socket phone's messages read and answered alone (issue 43): ``PhoneSocket._receive`` with a fixed reply, in this
process; prints figures, asserts nothing.

``bench/phones_bench.py --parts`` gives "the socket's frames and writes (wsproto)" inside the running server; this
runs the same ``_receive`` over money actions as the bench's host sends them (JSON, compressed by wsproto's client
with permessage-deflate, masked: one frame a message), each answered by a reply of a money action's size written to
a real socket pair (read by this process outside the clock), nothing else around it. ``--wsproto``: every byte read
by wsproto's general parser (the lean path of :mod:`companion.web.one_frame` off). ``--cold``: between messages the
thread sleeps and a buffer larger than the caches is read, as the server's thread sleeps between inputs while the
other threads run. Each message is received through ``functools.reduce`` (used nowhere else on the way), so that
callgrind counts its instructions alone, the figure that repeats on a shared machine::

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \\
        .venv/bin/python bench/socket_frames_bench.py --messages 1000 --rounds 1 [--wsproto]

    .venv/bin/python bench/socket_frames_bench.py [--messages 3000] [--rounds 5] [--wsproto] [--cold]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
import zlib
from functools import reduce
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wsproto import ConnectionType  # noqa: E402
from wsproto.connection import Connection  # noqa: E402
from wsproto.events import Message  # noqa: E402
from wsproto.extensions import PerMessageDeflate  # noqa: E402

from companion.web.context import MAX_INPUT_BODY  # noqa: E402
from companion.web.fanout import FanOut, Tail  # noqa: E402
from companion.web.websocket import PhoneSocket, deflate_accepted  # noqa: E402

DEEDS = ["baltic-avenue", "vermont-avenue", "st-charles-place", "new-york-avenue", "illinois-avenue"]
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
#: A money action's reply as the server gives it (its ops and words: ~250 bytes).
REPLY = ('{"id":%d,"status":200,"body":{"game":1,"seq":%d,"base":%d,"ops":[["r",["players",1,"cash"],1450],'
         '["r",["players",2,"cash"],1550],["a",["log"],"Bob paid Cy $50"]],"events":["Bob paid Cy $50"]}}')


def messages(count: int) -> list[dict[str, object]]:
    """The host's money actions as the bench sends them (its ``SocketHost``: the body and its id)."""
    return [{"input": {"pay": {"from": NAMES[n % 8], "to": NAMES[(n + 3) % 8], "amount": 10 + n % 190},
                       "note": DEEDS[n % 5]}, "seq": n, "game": 1, "id": n + 1} for n in range(count)]


def connected(lean: bool) -> tuple[PhoneSocket, Connection, socket.socket]:
    """A server's PhoneSocket with permessage-deflate agreed as a browser's offer gets it, the client's wsproto, and
    the phone's end of the socket pair."""
    offer = PerMessageDeflate()
    answer, deflate = deflate_accepted(f"{offer.name}; {offer.offer()}")  # type: ignore[misc]
    offer.finalize(answer)
    client = Connection(ConnectionType.CLIENT, [offer])
    ours, phone = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    phone.setblocking(False)
    fanout = FanOut(SimpleNamespace(closed=False, latest=lambda: None))
    tail = Tail(lambda state: "anyone", lambda viewer: lambda state, events: state, None)
    count = iter(range(1, 1 << 30))

    def reply(data: bytes) -> bytes:
        n = next(count)
        return (REPLY % (n, n, n - 1)).encode()

    served = PhoneSocket(ours, b"", tail, fanout, answer=reply, behind=lambda: None, closed=lambda: False,
                         keepalive=3600.0, max_message=MAX_INPUT_BODY, deflate=deflate, lean=lean)
    return served, client, phone


def drain(phone: socket.socket) -> None:
    try:
        while phone.recv(1 << 20):
            pass
    except BlockingIOError:
        pass


def one_round(count: int, lean: bool, cold: bytes | None) -> tuple[float, float]:
    """The thread CPU of ``count`` messages' ``_receive`` (µs a message) and its median."""
    served, client, phone = connected(lean)
    frames = [bytes(client.send(Message(data=json.dumps(m, separators=(",", ":"))))) for m in messages(count)]
    spent = []
    receive = served._receive
    for frame in frames:
        if cold is not None:
            time.sleep(0.0005)
            zlib.crc32(cold)
        start = time.thread_time_ns()
        reduce(lambda _, data: receive(data), (frame,), None)
        spent.append(time.thread_time_ns() - start)
        drain(phone)
    spent.sort()
    return sum(spent) / len(spent) / 1000, spent[len(spent) // 2] / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--wsproto", action="store_true", help="every byte read by wsproto (the lean path off)")
    parser.add_argument("--cold", action="store_true", help="sleep and read 32 MB between messages")
    args = parser.parse_args()
    cold = os.urandom(32 << 20) if args.cold else None
    rounds = [one_round(args.messages, not args.wsproto, cold) for _ in range(args.rounds)]
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{'wsproto' if args.wsproto else 'lean'}{' cold' if args.cold else ''}: {args.messages} messages, "
          f"load {load}")
    print("µs a message (thread CPU: the read, the reply's frame and write): best round mean "
          f"{min(r[0] for r in rounds):.1f}, median {min(r[1] for r in rounds):.1f}; every round's mean "
          + ", ".join(f"{r[0]:.1f}" for r in rounds))


if __name__ == "__main__":
    main()
