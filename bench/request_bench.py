"""The acting phone's request alone (issue 43): ``POST /api/input`` through the phone page's WSGI app in this process,
its thread's CPU per request; prints figures, asserts nothing.

``bench/phones_bench.py`` measures the whole server (cheroot, the eight streams, the OLED, the buzzer's thread) at
±15 % between runs on a shared machine; this measures the request's own path, the part issue 43's profile gave 56 %
of the CPU per action: Flask's contexts and hooks, the session, CSRF, the limits, the view, the table's ``submit``
(the journal's synced commit, the feed's frame, the cues to the lights and the buzzer) and the reply's delta. The
game is ``phones_bench``'s (classic, eight players owning two deeds each); the host makes money actions (mortgage,
lift the mortgage) one after the other, each request's environ built before its clock starts. No socket: cheroot's
parsing and writing are not in the figure.

``--phones N``: N phones following the live stream through the feed's fan-out, as ``GET /api/stream`` hands a phone
over once it is up to date (anonymous viewers asking for gzip as browsers do, or ``--plain``), each written to one
end of a socket pair the bench reads outside the clock: the input's event (its view, delta, JSON and gzip, worked out
once) and the writes are then in the request's CPU, as in ``companion run``.

Printed: the thread CPU per request, the best of ``--rounds`` rounds of ``--requests`` (the machine's load makes a
round slower, never faster), and every round's; with ``--parts``, the mean CPU of the parts inside it (each part's
clock costs a little of its own).

    .venv/bin/python bench/request_bench.py [--requests 300] [--rounds 5] [--parts] [--phones 8 [--plain]]
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from functools import partial  # noqa: E402

from werkzeug.test import EnvironBuilder  # noqa: E402

import companion.face.cues as cues_module  # noqa: E402
import companion.web.asker as asker_module  # noqa: E402
import companion.web.feed as feed_module  # noqa: E402
import companion.web.fanout as fanout_module  # noqa: E402
import companion.web.inputs as inputs_module  # noqa: E402
from companion.face.cues import CueFeed  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402
from companion.web import Access, create_app  # noqa: E402
from companion.web.api import seen_as, viewer_of  # noqa: E402
from companion.web.fanout import Tail  # noqa: E402
from phones_bench import DEEDS, HOST_ADDRESS, NAMES, setup  # noqa: E402

PIN = "246810"


class Parts:
    """Thread CPU spent in a few functions, wrapped where they are looked up."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        self.spent[name] = 0.0

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent[name] += time.thread_time() - start

        return timed

    def clear(self) -> None:
        self.spent = dict.fromkeys(self.spent, 0.0)


def follow(context: Any, phones: int, packed: bool) -> list[socket.socket]:
    """``phones`` anonymous phones following the live stream through the feed's fan-out, as ``GET /api/stream``
    hands them over once they are up to date (gzip'd as a browser asks, or plain); each writes to one end of a
    socket pair, whose other end (returned) the bench reads outside the clock."""
    ends = []
    for _ in range(phones):
        kept: dict[str, Any] = {}
        tail = Tail(lambda state, kept=kept: viewer_of(context.access, state, kept),
                    lambda viewer: partial(seen_as, viewer=viewer, story=context.feed.story),
                    context.packer.start if packed else None)
        ours, theirs = socket.socketpair()
        frame = context.feed.latest()
        viewer = tail.viewer_of(frame.state)
        tail.pack(context.feed.catch_up(None, frame, viewer, tail.build(viewer)))
        tail.held = (frame, viewer)
        tail.attach(ours, fanout_module.chunk)  # HTTP/1.1's chunks (taken as ``framed``, a truth, where it is one)
        assert context.feed.fanout.follow(tail), "a phone up to date follows"
        ends.append(theirs)
        theirs.setblocking(False)
    return ends


def drain(ends: list[socket.socket]) -> int:
    """Read what the phones were sent; the bytes."""
    total = 0
    for end in ends:
        while True:
            try:
                data = end.recv(1 << 16)
            except BlockingIOError:
                break
            total += len(data)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--parts", action="store_true", help="the mean CPU of the parts inside the request")
    parser.add_argument("--phones", type=int, default=0, help="phones following through the fan-out (socket pairs)")
    parser.add_argument("--plain", action="store_true", help="the following phones do not ask for gzip")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "games.sqlite3") as journal:
        table = Table(journal)
        table.new_game(setup(len(NAMES)))
        table.subscribe(CueFeed())  # the lights' and the buzzer's cues, worked out as `companion run` does
        app = create_app(table, access=Access(host_pin=PIN, join_code="135790"), phone_dice="manual",
                         secret_key=os.urandom(32))
        client = app.test_client()
        here = {"REMOTE_ADDR": HOST_ADDRESS}
        csrf = client.get("/api/session", environ_base=here).get_json()["csrf"]
        login = client.post("/api/host/login", json={"pin": PIN}, headers={"X-CSRFToken": csrf}, environ_base=here)
        assert login.status_code == 200, login.get_json()
        csrf = client.get("/api/session", environ_base=here).get_json()["csrf"]
        cookie = client.get_cookie("companion")
        assert cookie is not None
        parts = Parts()
        if args.parts:
            app.view_functions["api.post_input"] = parts.wrap(  # the limits, the checks and all below
                "the view", app.view_functions["api.post_input"])
            asker_module.json_body = parts.wrap("  the body's JSON", asker_module.json_body)
            table.submit = parts.wrap("  the table's submit", table.submit)  # type: ignore[method-assign]
            table._publish = parts.wrap("    its listeners", table._publish)  # type: ignore[method-assign]
            cues_module.cues_of = parts.wrap("      the cues", cues_module.cues_of)
            feed_module.Feed._record = parts.wrap(  # type: ignore[method-assign]
                "      the feed's history", feed_module.Feed._record)
            fanout_module.FanOut.publish = parts.wrap(  # type: ignore[method-assign]
                "      the fan-out (with --phones)", fanout_module.FanOut.publish)
            fanout_module.FanOut._event = parts.wrap(  # type: ignore[method-assign]
                "        its events (the view, its delta and JSON, the gzip)", fanout_module.FanOut._event)
            inputs_module.reply_body = parts.wrap("  the reply", inputs_module.reply_body)
            feed_module.diff = parts.wrap("    the delta's diff", feed_module.diff)
        ends = follow(app.extensions["companion"], args.phones, not args.plain)
        received = 0
        game = table.game.id if table.game is not None else None
        mortgaged = dict.fromkeys(DEEDS, False)

        def one(i: int) -> float:
            deed, name = DEEDS[i % len(DEEDS)], NAMES[i % len(DEEDS) // 2]
            verb = "unmortgage" if mortgaged[deed] else "mortgage"
            seq = table.state["seq"] if table.state is not None else 0
            body = {"input": {"act": {"player": name, "do": verb, "space": deed}}, "seq": seq, "game": game}
            environ = EnvironBuilder(path="/api/input", method="POST", json=body, environ_base=here, headers={
                "X-CSRFToken": csrf, "Cookie": f"companion={cookie.value}", "Host": "localhost",
                "Accept-Encoding": "gzip, deflate, br"}).get_environ()
            statuses: list[str] = []
            start = time.thread_time()
            answer = app.wsgi_app(environ, lambda status, headers, exc_info=None: statuses.append(status))
            b"".join(answer)
            getattr(answer, "close", lambda: None)()
            spent = time.thread_time() - start
            assert statuses[0].startswith("200"), statuses
            mortgaged[deed] = not mortgaged[deed]
            nonlocal received
            received += drain(ends)
            return spent

        for i in range(50):  # warm: every deed mortgaged and lifted, the recent frames full
            one(i)
        parts.clear()
        received = 0
        rounds = [1e6 * sum(one(i) for i in range(args.requests)) / args.requests for _ in range(args.rounds)]
    load = os.getloadavg()[0]
    print(f"POST /api/input in process, the host's money actions: {min(rounds):.0f} µs of thread CPU per request "
          f"(best of {args.rounds} rounds of {args.requests}; each: {', '.join(f'{r:.0f}' for r in rounds)}); "
          f"load average {load:.1f}")
    total = args.requests * args.rounds
    if ends:
        print(f"  {args.phones} phones following through the fan-out ({'plain' if args.plain else 'gzip'}): "
              f"{received / total / len(ends):.0f} bytes per phone per request")
    for name, spent in parts.spent.items():
        print(f"  {name}: {1e6 * spent / total:.0f} µs")


if __name__ == "__main__":
    main()
