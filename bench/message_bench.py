"""A phone's input over the websocket in process (issue 43): ``Inputs.answer`` on a message, as the socket's thread
calls it, without the socket; the thread CPU of the rest of the request's thread by part, as ``phones_bench.py
--parts`` names them; prints figures, asserts nothing.

``phones_bench.py`` measures the whole server with the host acting for every player (a player's phone may send 8
inputs in 5 seconds: a burst of 300 is the host's), so a seated player's input is measured here (``--player``: Ann's
phone mortgaging and lifting the mortgage of her own deeds, the rate limits' windows emptied every 7 inputs). The game
is ``phones_bench``'s (classic, eight players owning two deeds each, a fortune each so that the interest never runs
out); the journal on tmpfs (``/dev/shm``); eight anonymous phones following through the fan-out (``request_bench``'s
socket pairs, read outside the clock); the lights (``ShownLights``) and the buzzer (not started) on the cues.

Printed: each part's thread CPU per input, the best of ``--rounds`` rounds of ``--inputs`` (and the median).
``--dump FILE``: every reply, the phones' bytes, the history and the ledger's story read at the end, and each input's
cues (and the lights' frame), to compare two trees byte for byte.

    .venv/bin/python bench/message_bench.py [--inputs 300] [--rounds 5] [--player] [--dump FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import companion.face.cues as cues_module  # noqa: E402
import companion.journal.store as store_module  # noqa: E402
import companion.table as table_module  # noqa: E402
import companion.web.fanout as fanout_module  # noqa: E402
import companion.web.feed as feed_module  # noqa: E402
import companion.web.inputs as inputs_module  # noqa: E402
import companion.web.socket_api as socket_module  # noqa: E402
from companion.drivers.faults import Kept  # noqa: E402
from companion.drivers.lights import ShownLights  # noqa: E402
from companion.drivers.tunes import Note  # noqa: E402
from companion.face.seat_lights import SeatLights  # noqa: E402
from companion.face.sounds import Buzzer, Hush  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402
from companion.web import Access, create_app  # noqa: E402
from companion.web.socket_api import Inputs  # noqa: E402
from companion.words import ENGLISH  # noqa: E402
from phones_bench import DEEDS, NAMES, setup  # noqa: E402
from request_bench import follow  # noqa: E402

PIN, CODE = "246810", "135790"
#: (owner, function, key): what is timed, as bench/server_parts.py names it.
TIMED = [(socket_module.Inputs, "respond", "message_view"), (socket_module, "parsed", "json_body"),
         (inputs_module, "reply_body", "reply"), (table_module.Table, "submit", "submit"),
         (store_module.StoredGame, "submit", "journal"), (feed_module.Feed, "_on_update", "feed"),
         (fanout_module.FanOut, "publish", "fanout"), (cues_module.CueFeed, "__call__", "cues")]
#: The parts (server_parts.DETAILS' names): keys added, keys taken away.
PARTS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("the body's JSON", ("json_body",), ()),
    ("the view's checks (limits, CSRF, the host's rights)", ("message_view",), ("json_body", "submit", "reply")),
    ("the reply (its delta shared)", ("reply",), ()),
    ("the feed's frame, history and ledger", ("feed",), ("fanout",)),
    ("the cues", ("cues",), ()),
    ("Table.submit's and its publishing's own", ("submit",), ("journal", "feed", "cues")),
    ("the rest of the request's thread", ("message_view",), ("journal", "fanout")),
]


class NoTunes:
    """A buzzer's tunes that play nothing (the buzzer's thread is not started: its cues wait)."""

    def play(self, notes: Sequence[Note]) -> None:
        pass

    def close(self) -> None:
        pass


def timed(spent: dict[str, float]) -> None:
    """Wrap :data:`TIMED`: each adds its thread CPU (its callees included) to ``spent``."""
    for owner, name, key in TIMED:
        function, clock = getattr(owner, name), time.thread_time

        def wrapper(*args: Any, _function: Callable[..., Any] = function, _key: str = key, **kwargs: Any) -> Any:
            start = clock()
            try:
                return _function(*args, **kwargs)
            finally:
                spent[_key] = spent.get(_key, 0.0) + clock() - start

        setattr(owner, name, wrapper)


def session_of(app: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The session a phone has after POSTing ``body`` to ``path`` (the host's login, a player's join)."""
    client = app.test_client()
    csrf = client.get("/api/session").get_json()["csrf"]
    answer = client.post(path, json=body, headers={"X-CSRFToken": csrf})
    assert answer.status_code == 200, answer.get_json()
    with client.session_transaction() as kept:
        return dict(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--player", action="store_true", help="Ann's phone acts for Ann (else the host for all)")
    parser.add_argument("--dump", help="write every reply, the phones' bytes, the history, the story and the cues")
    args = parser.parse_args()

    spent: dict[str, float] = {}
    timed(spent)
    folder = Path(tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    journal = Journal(folder / "games.sqlite3")
    table = Table(journal)
    game = setup(8)
    for player in game["start"]["players"].values():
        player["cash"] = 10**6
    table.new_game(game)
    app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual", secret_key="bench")
    context = app.extensions["companion"]
    cues = cues_module.CueFeed(lambda: ENGLISH)
    lights = SeatLights(Kept("lights", ShownLights, clock=time.monotonic, notify=lambda *_: None), 8,
                        clock=time.monotonic)
    buzzer = Buzzer(Kept("buzzer", NoTunes, clock=time.monotonic, notify=lambda *_: None), Hush(), start=False)
    cues.add(lights.on_cues, speech=False)
    cues.add(buzzer.on_cues, speech=False)
    told: list[str] = []
    if args.dump:  # the voice's sentences too: a target that reads them
        cues.add(lambda said, seats: told.append(json.dumps([said.as_json(), said.prompt, [s.name for s in seats],
                                                             list(lights.frame), list(buzzer._waiting)])))
    table.subscribe(cues)
    kept = (session_of(app, "/api/join", {"code": CODE, "player": "Ann"}) if args.player
            else session_of(app, "/api/host/login", {"pin": PIN}))
    inputs = Inputs(context, kept, "127.0.0.1", ENGLISH, math.inf)
    ends = follow(context, 8, True)
    received: list[bytes] = []
    replies: list[bytes] = []
    mortgaged = dict.fromkeys(DEEDS, False)

    def drain() -> None:
        for end in ends:
            while True:
                try:
                    received.append(end.recv(1 << 16))
                except (BlockingIOError, socket.timeout):
                    break

    def run(count: int) -> None:
        seq = table.state["seq"]  # type: ignore[index]
        for i in range(count):
            name = "Ann" if args.player else NAMES[i % 8]
            deed = DEEDS[i % 2] if args.player else DEEDS[2 * (i % 8) + (i // 8) % 2]
            if args.player and i % 7 == 0:
                context.limiter.reset()  # a player's phone sends 8 inputs in 5 seconds at most
            act = {"player": name, "do": "unmortgage" if mortgaged[deed] else "mortgage", "space": deed}
            body = {"input": {"act": act}, "seq": seq, "game": table.game.id, "id": i}  # type: ignore[union-attr]
            message = json.dumps(body, separators=(",", ":")).encode()
            reply = inputs.answer(message)
            answer = json.loads(reply)
            assert answer["status"] == 200, answer
            mortgaged[deed] = not mortgaged[deed]
            seq = answer["body"]["seq"]
            replies.append(reply)
            drain()

    rounds: list[dict[str, float]] = []
    for _ in range(args.rounds):
        spent.clear()
        run(args.inputs)
        rounds.append({name: (sum(spent.get(k, 0.0) for k in plus) - sum(spent.get(k, 0.0) for k in less))
                       * 1e6 / args.inputs for name, plus, less in PARTS})
    who = "Ann's phone, her own deeds" if args.player else "the host's, for every player"
    print(f"a phone's input message in process (Inputs.answer), {who}; eight phones following; load average "
          f"{os.getloadavg()[0]:.1f}; thread CPU per input, best of {args.rounds} rounds of {args.inputs} (median):")
    for name, _, _ in PARTS:
        values = [r[name] for r in rounds]
        print(f"  {name}: {min(values):.1f} µs ({statistics.median(values):.1f})")
    if args.dump:
        feed = context.feed
        Path(args.dump).write_bytes(b"\n".join(replies))
        Path(args.dump + ".phones").write_bytes(b"".join(received))
        Path(args.dump + ".history").write_text(json.dumps(feed.history()), encoding="utf-8")
        Path(args.dump + ".story").write_text(json.dumps(feed.ledger.story(NAMES)), encoding="utf-8")
        Path(args.dump + ".cues").write_text("\n".join(told), encoding="utf-8")
        print(f"  written: {args.dump} (and .phones, .history, .story, .cues)")
    journal.close()


if __name__ == "__main__":
    main()
