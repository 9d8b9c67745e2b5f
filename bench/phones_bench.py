"""Eight phones following the live stream while the host makes money actions (issue 43's comparison); prints figures,
asserts nothing.

`companion run` (as systemd starts it: mock pins, software dice, the phone page on loopback; tests/web/running.py)
with a game of eight players, each owning two deeds. Eight phones (one loopback address each, each joined as its
player) follow the game as the page does (``--transport``); the host sends ``--actions`` money actions (mortgage,
lift the mortgage, in turn round the table) one after the other, each once every phone has the one before. Printed:

* the server's CPU per action: the process's CPU time (user and system, every thread) over the actions, divided by
  their number, and its user and system parts (bench/syscall_count.py's ``cpu_split``); beside it the same at the
  reference speed (this machine's CPU time of the n-body loop of bench/pi_box.py, scaled to
  :data:`REFERENCE_STEP_US`), so that the figure travels between machines; and the idle table's own CPU (nothing
  happening, the phones following) per second, over the same time, which the figure includes;
* how often the server's threads are woken, idle (a second) and per action: the kernel's count of each thread's
  voluntary context switches (``/proc/PID/task/*/status``), each a thread that slept and was woken; and per action
  its involuntary ones, a thread put aside while it could run (another woken on its core); and each busy thread's
  CPU per action (exact: ``/proc/PID/task/TID/schedstat``), its user/system split, its wakes (with ``--parts``,
  what of its CPU no part holds: "the rest" by thread);
* all phones updated: from the action's request sent to the last phone's bytes read, p50 and p99, every ready phone
  read before any is parsed (eight phones each read their own; the bench's one thread would otherwise make the
  last wait for the seven others' parsing, ~20 µs each); beside it that serial figure, as measured before;
* bytes per phone per action: everything each phone's socket received over the actions (HTTP chunk framing or the
  websocket's frame heads, and server-sent events' fields included), divided by the actions; the stream's phones ask
  for gzip as a browser does (``Accept-Encoding: gzip, deflate``), and ``--plain`` counts the stream as a client
  that does not ask gets it (the websocket sends no gzip: docs/web.md, "The socket");
* the host's reply: its round trip and its bytes;
* each phone's state at the end against ``GET /api/state`` (its own view): the stream's updates add up.

``--show``: the last event the first phone received, as it came (what one action costs a phone, byte by byte).

``--profile FILE``: the server's threads under yappi (CPU clock) over the actions only, the functions with the most
CPU written to FILE (per action), for finding where the time goes (yappi: ``pip install yappi``).

``--parts``: the server's CPU per action split into issue 43's components (docs/web.md's table: Flask, the streams,
the OLED, the journal, cheroot, the buzzer, the engine, the rest of the request's thread, the seat lights, the rest),
each by the thread CPU around its functions inside the server (bench/server_parts.py, loaded into `companion run`
only for this), with its share of the process's CPU over the same actions.

``--path`` (socket only): the wall time of one input's path, from the acting client's send to the last phone's
read, stage by stage (bench/socket_path.py: stamps in the server and in the bench on one clock), beside an echo of the
bench's own clients alone.

``--pace SECONDS``: after the back-to-back actions, ``--paced-actions`` more, each SECONDS after the one before, as
at a real table, and their figures (with ``--parts``, their parts): the OLED draws a burst once per its panel's frame
time (docs/table.md, "The panel's pace"), which a table's pace never makes; and there the idle table's own CPU over
the same time is part of each action's (printed with and without it).

``--syscalls``: the server's system calls per action, by kind and by thread, and the idle table's per second
(bench/syscall_count.py: ``perf trace -s``, else ``strace -f -c``; the tracer slows the server, so that run's times
are not comparable with the others').

``--kernel``: the server's kernel time per action, sampled over the actions (bench/kernel_time.py: ``perf record``,
4000 samples a second with their kernel stacks): by system call and what inside it (the virtual disk's notify, the
receiving end's TCP, waking a thread, switching), and by thread; the user/system split every run prints is the
kernel's 250 Hz tick accounting, good to only ~±7 points over a run.

``--switch-interval SECONDS``: the server's ``sys.setswitchinterval`` (how long a thread waiting for the GIL lets the
running one go on before asking for it; Python's default 5 ms), to measure its effect.

``--transport``: ``socket`` (the default: the page's websocket, as the page now follows and acts: each phone's
events as text frames, the host's inputs as messages on its own socket, bench/socket_clients.py) or ``stream``
(``GET /api/stream`` and ``POST /api/input`` over a keep-alive connection: the page's fallback, and the profile before
issue 43's socket).

    .venv/bin/python bench/phones_bench.py [--actions 300] [--phones 8] [--profile FILE | --parts | --path | --syscalls | --kernel]
        [--show] [--plain] [--language de] [--transport socket|stream] [--pace SECONDS [--paced-actions 40]]
        [--switch-interval SECONDS]

The machine is shared: its load makes every figure worse, never better (CPU time less so than wall time).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import kernel_time  # noqa: E402
import server_parts  # noqa: E402
import socket_path  # noqa: E402
import syscall_count  # noqa: E402
from pi_box import nbody_seconds, percentile  # noqa: E402
from tests.web.running import RunningTable  # noqa: E402
from tests.web.sse import MergedConnection, patched  # noqa: E402

#: The n-body loop's CPU time per step on the machine the targets were set on (the 2-core development machine,
#: 2026-11-28, best of three runs at load 8): a figure measured elsewhere is scaled by this over that machine's own.
REFERENCE_STEP_US = 4.43
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
DEEDS = ["mediterranean-avenue", "baltic-avenue", "oriental-avenue", "vermont-avenue", "connecticut-avenue",
         "st-charles-place", "states-avenue", "virginia-avenue", "st-james-place", "tennessee-avenue",
         "new-york-avenue", "kentucky-avenue", "indiana-avenue", "illinois-avenue", "atlantic-avenue",
         "ventnor-avenue"]
HOST_ADDRESS = "127.0.5.100"
WITHIN = 30.0
TARGETS = {"cpu": 0.8, "cpu_first": 3.0, "p50": 1.0, "p99": 4.0, "bytes": 250}
#: Issue 43's measure of the open-source web banker (monopoly-money: Node, a websocket per phone, nothing persisted).
PEER = "0.83 ms CPU per action, all 8 phones p50 1.1 ms / p99 4.3 ms, 210 bytes per phone per action"


def setup(players: int) -> dict[str, Any]:
    """Classic, ``players`` players each owning two deeds (none mortgaged), Ann to roll."""
    names = NAMES[:players]
    return {"ruleset": "classic", "players": names, "seed": 1, "start": {
        "players": {n: {"cash": 1500, "space": "go", "cards": [], "in_jail": False} for n in names},
        "spaces": {DEEDS[i]: {"owner": names[i // 2], "houses": 0, "hotel": False, "mortgaged": False}
                   for i in range(2 * players)},
        "pools": {}, "turn": names[0]}}


# ---------------------------------------------------------------------- the phones
class Follower:
    """One phone's live stream on a raw socket: every byte received counted, its events parsed and applied as the
    page applies them, and the time each ``seq`` arrived."""

    ENDED = "the stream ended"  # the phone's broken reason when its connection closes

    def __init__(self, table: RunningTable, source: str, cookie: str, *, gzip: bool = True) -> None:
        self.table, self.source, self.cookie = table, source, cookie
        self.sock = socket.create_connection((table.host, table.port), timeout=WITHIN, source_address=(source, 0))
        asked = "Accept-Encoding: gzip, deflate\r\n" if gzip else ""  # as Chromium asks for any answer
        self.sock.sendall((f"GET /api/stream HTTP/1.1\r\nHost: {table.host}:{table.port}\r\n"
                           f"Accept: text/event-stream\r\n{asked}Cookie: {cookie}\r\n\r\n").encode())
        self.inflate: Any = None  # the body's gzip, when the server sent it so
        self.sock.setblocking(False)
        self.received = 0
        self.raw = b""  # bytes not parsed yet (the head, then chunk framing)
        self.head = True
        self.text = b""  # the body, de-chunked, not yet parsed into events
        self.state: dict[str, Any] | None = None
        self.game: int | None = None
        self.arrived: dict[int, float] = {}  # each seq's arrival: its bytes' read (perf_counter)
        self.parsed_after: dict[int, float] = {}  # each seq once the phones before it in the bench's thread were parsed
        self.parsing = 0.0  # when the bench's thread began parsing this phone's last read
        self.woke = 0.0  # when the phones' thread woke for this read (perf_counter)
        self.woken: dict[int, float] = {}  # the wake before the read that had each seq (``--path``)
        self.broken: str | None = None
        self.last_event = ""  # the last event as received (its fields, de-chunked)

    def receive(self) -> bytes:
        """What the socket holds now (b"" if nothing; the stream's end marks the phone broken)."""
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return b""
        if not data:
            self.broken = self.broken or self.ENDED
        return data

    def take(self, data: bytes, now: float) -> None:
        """Parse ``data``, read at ``now``."""
        self.received += len(data)
        self.raw += data
        if self.head:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            status = self.raw.split(b"\r\n", 1)[0]
            if b" 200 " not in status:
                self.broken = status.decode()
            if b"\r\ncontent-encoding: gzip" in self.raw[:end].lower():
                self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
            self.raw, self.head = self.raw[end + 4:], False
        self._unchunk()
        self._events(now)

    def _unchunk(self) -> None:
        while True:
            line_end = self.raw.find(b"\r\n")
            if line_end < 0:
                return
            size = int(self.raw[:line_end].split(b";")[0], 16)
            if len(self.raw) < line_end + 2 + size + 2:
                return
            data = self.raw[line_end + 2:line_end + 2 + size]
            self.text += self.inflate.decompress(data) if self.inflate is not None else data
            self.raw = self.raw[line_end + 2 + size + 2:]

    def _events(self, now: float) -> None:
        while (end := self.text.find(b"\n\n")) >= 0:
            block, self.text = self.text[:end].decode(), self.text[end + 2:]
            self.last_event = block
            fields: dict[str, str] = {}
            for line in block.split("\n"):
                if line and not line.startswith(":"):
                    key, _, value = line.partition(":")
                    fields[key] = fields.get(key, "") + value.removeprefix(" ")
            kind, data = fields.get("event"), fields.get("data")
            if data is None:
                continue
            game = int(fields.get("id", "0:0").split(":")[0])
            if kind == "state":
                self.state, self.game = json.loads(data), game
            elif kind == "delta":  # what changed since the event before
                if self.state is None or game != self.game:
                    self.broken = "a delta before the state, or of another game"
                    continue
                self.state = patched(self.state, json.loads(data))
            else:
                continue
            self.arrived.setdefault(self.state["seq"], now)  # type: ignore[index]
            self.parsed_after.setdefault(self.state["seq"], self.parsing)  # type: ignore[index]
            self.woken.setdefault(self.state["seq"], self.woke)


class Phones:
    """The phones' streams, read by one thread (a selector), so that the bench's own threads do not slow them."""

    def __init__(self, followers: list[Follower]) -> None:
        self.followers = followers
        self.changed = threading.Condition()
        self.stop = threading.Event()
        self.selector = selectors.DefaultSelector()
        self.wakes: list[float] = []  # each wake with a socket ready (``--path``)
        for follower in followers:
            self.selector.register(follower.sock, selectors.EVENT_READ, follower)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            ready = self.selector.select(0.1)
            woke = time.perf_counter()
            if ready:
                self.wakes.append(woke)
            # Every ready phone read before any is parsed, each stamped at its read, as eight phones would each
            # read their own; the bench's one thread then parses them one after another (``parsed_after``: the
            # figure as this bench measured it before, the last phone waiting for the seven others' parsing).
            read = [(key.data, key.data.receive(), time.perf_counter()) for key, _ in ready]
            for follower, data, at in read:
                follower.woke, follower.parsing = woke, time.perf_counter()
                if data:
                    follower.take(data, at)
            with self.changed:
                self.changed.notify_all()

    def all_have(self, seq: int, within: float = WITHIN) -> float | None:
        """When the last phone had ``seq`` (perf_counter), or None if one did not in time."""
        deadline = time.monotonic() + within
        with self.changed:
            while not all(f.state is not None and f.state["seq"] >= seq for f in self.followers):
                left = deadline - time.monotonic()
                if left <= 0 or any(f.broken for f in self.followers):
                    return None
                self.changed.wait(min(left, 0.1))
            return max(min(t for s, t in f.arrived.items() if s >= seq) for f in self.followers)

    def parsed_serially(self, seq: int) -> float:
        """When the bench's one thread began parsing ``seq`` for its last phone (after :meth:`all_have`)."""
        return max(min(t for s, t in f.parsed_after.items() if s >= seq) for f in self.followers)

    def received(self) -> int:
        return sum(f.received for f in self.followers)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for follower in self.followers:
            follower.sock.close()


# ---------------------------------------------------------------------- the host
class Host:
    """The host's one keep-alive connection: its cookie and CSRF token, each reply's time and size."""

    def __init__(self, table: RunningTable) -> None:
        self.headers = table.signed_in("/api/host/login", {"pin": table.pin}, source=HOST_ADDRESS)
        self.conn = MergedConnection(table.host, table.port, timeout=WITHIN, source_address=(HOST_ADDRESS, 0))

    def open(self) -> None:
        """What the host's page opens when it loads, before its first tap (over POSTs: nothing more)."""

    def post(self, path: str, body: Any) -> tuple[int, Any, int]:
        data = json.dumps(body, separators=(",", ":")).encode()
        self.conn.request("POST", path, body=data, headers={**self.headers, "Content-Type": "application/json"})
        response = self.conn.getresponse()
        raw = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.headers["Cookie"] = cookie.split(";", 1)[0]
        return response.status, json.loads(raw) if raw else None, len(raw)

    def get(self, path: str) -> Any:
        self.conn.request("GET", path, headers=self.headers)
        response = self.conn.getresponse()
        return json.loads(response.read())


def new_seq(reply: Any) -> int:
    """The seq an accepted input's reply is at (the whole state, or what changed)."""
    return int(reply["state"]["seq"]) if "state" in reply else int(reply["seq"])


def money_actions(host: Host, phones: Phones, count: int, players: int, game: int, seq: int,
                  mortgaged: dict[str, bool], asked: list[tuple[float, int]] | None = None,
                  serially: list[float] | None = None,
                  pace: float = 0.0) -> tuple[list[float], list[float], list[int], int]:
    """``count`` actions, each once every phone has the one before (and ``pace`` seconds after the one before began,
    as at a real table): all-phones delays, reply times and sizes (and into ``asked``, each action's start and seq;
    into ``serially``, the delays as parsed one phone after another)."""
    delays, replies, sizes = [], [], []
    due = time.perf_counter()
    for i in range(count):
        if pace:
            time.sleep(max(0.0, due - time.perf_counter()))
            due = max(due, time.perf_counter()) + pace
        name = NAMES[i % players]
        deed = DEEDS[2 * (i % players) + (i // players) % 2]
        verb = "unmortgage" if mortgaged[deed] else "mortgage"
        body = {"input": {"act": {"player": name, "do": verb, "space": deed}}, "seq": seq, "game": game}
        sent = time.perf_counter()
        status, reply, size = host.post("/api/input", body)
        replied = time.perf_counter()
        if status != 200:
            raise SystemExit(f"action {i} ({verb} {deed}) refused: {status} {reply}")
        mortgaged[deed] = not mortgaged[deed]
        seq = new_seq(reply)
        if asked is not None:
            asked.append((sent, seq))
        last = phones.all_have(seq)
        if last is None:
            broken = [f.broken for f in phones.followers if f.broken]
            raise SystemExit(f"not every phone had seq {seq} within {WITHIN} s {broken}")
        delays.append(last - sent)
        if serially is not None:
            serially.append(phones.parsed_serially(seq) - sent)
        replies.append(replied - sent)
        sizes.append(size)
    return delays, replies, sizes, seq


# ---------------------------------------------------------------------- profiling
SITECUSTOMIZE = '''
import os, signal
if os.environ.get("COMPANION_YAPPI"):
    import yappi
    yappi.set_clock_type("cpu")
    def _start(*_):
        yappi.clear_stats()
        yappi.start(builtins=True, profile_threads=True)
    def _stop(*_):
        yappi.stop()
        yappi.get_func_stats().save(os.environ["COMPANION_YAPPI"], type="pstat")
    signal.signal(signal.SIGUSR1, _start)
    signal.signal(signal.SIGUSR2, _stop)
'''


def server_hook(folder: Path, sitecustomize: str, variable: str, file: str) -> None:
    """``companion run`` (started after this) loads ``sitecustomize`` (after the hooks asked before), with
    ``variable`` naming ``folder / file``."""
    custom = folder / "custom"
    if not custom.exists():
        custom.mkdir()
        os.environ["PYTHONPATH"] = f"{custom}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    with (custom / "sitecustomize.py").open("a", encoding="utf-8") as hooks:
        hooks.write(sitecustomize)
    os.environ[variable] = str(folder / file)


#: The server's ``sys.setswitchinterval`` for a ``--switch-interval`` run (the variable holds the seconds).
SWITCH_INTERVAL = '''
import os
if os.environ.get("COMPANION_SWITCH_INTERVAL"):
    import sys
    sys.setswitchinterval(float(os.environ["COMPANION_SWITCH_INTERVAL"]))
'''


def write_profile(path: Path, stats_file: Path, actions: int) -> None:
    """The functions with the most CPU (their own, and with what they call), per action, into ``path``."""
    import pstats

    with path.open("w", encoding="utf-8") as out:
        stats = pstats.Stats(str(stats_file), stream=out)
        out.write(f"yappi, CPU clock, every thread of `companion run`, over {actions} actions (divide by it)\n")
        stats.sort_stats("cumulative").print_stats(160)
        stats.sort_stats("tottime").print_stats(50)


# ---------------------------------------------------------------------- main
def cpu_figures(cpu: float, actions: int, idle_per_second: float, wall: float, here_us: float,
                split: tuple[float, float]) -> str:
    per = 1000 * cpu / actions
    scaled = per * REFERENCE_STEP_US / here_us
    idle_share = 1000 * idle_per_second * wall / actions
    user, system = split
    if user + system:  # the ticks' split of the exact total (RunningTable.cpu_seconds: the process's CPU clock)
        user, system = cpu * user / (user + system), cpu * system / (user + system)
    return (f"server CPU per action: {per:.2f} ms here, {scaled:.2f} ms at the reference speed "
            f"(target <= {TARGETS['cpu']} ms, first milestone <= {TARGETS['cpu_first']} ms); of which the idle "
            f"table's own {idle_share:.2f} ms; user {1000 * user / actions:.2f} ms, system (the kernel's, in the "
            f"server's calls) {1000 * system / actions:.2f} ms ({100 * system / max(user + system, 1e-9):.0f} %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--phones", type=int, default=8, choices=range(1, 9), metavar="1-8")
    parser.add_argument("--warm-up", type=int, default=24, help="actions before the measured ones")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of the idle table measured")
    parser.add_argument("--steps", type=int, default=50_000, help="n-body steps of the reference loop")
    hooks = parser.add_mutually_exclusive_group()
    hooks.add_argument("--profile", type=Path, help="write the server's profile over the actions here")
    hooks.add_argument("--parts", action="store_true", help="the server's CPU per action by component (thread CPU)")
    hooks.add_argument("--path", action="store_true",
                       help="the wall time of one input's path over the socket, stage by stage (socket only)")
    hooks.add_argument("--syscalls", action="store_true",
                       help="the server's system calls per action, by kind and thread (perf trace, else strace)")
    hooks.add_argument("--kernel", action="store_true",
                       help="the server's kernel time per action by call and thread, sampled (perf record)")
    parser.add_argument("--kernel-data", type=Path, help="with --kernel: keep perf's samples here (perf report -i)")
    parser.add_argument("--switch-interval", type=float,
                        help="the server's sys.setswitchinterval, seconds (Python's default 0.005): how long a thread "
                             "waiting for the GIL lets the running one go on before it asks for it")
    parser.add_argument("--language", default="en", help="the phones' language (de, fr, ...: issue 41)")
    parser.add_argument("--plain", action="store_true", help="phones that do not ask for gzip (the stream's)")
    parser.add_argument("--transport", choices=("socket", "stream"), default="socket",
                        help="the page's websocket (inputs and events), or the live stream and POSTs before it")
    parser.add_argument("--show", action="store_true", help="print the last event the first phone received")
    parser.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                        help="then as many actions again (--paced-actions), each SECONDS after the one before, as at "
                             "a real table: its figures printed after the back-to-back ones")
    parser.add_argument("--paced-actions", type=int, default=40, help="how many actions --pace makes")
    parser.add_argument("--runs", type=int, default=1, metavar="N",
                        help="the whole bench N times, each on a fresh table with the reference loop measured again, "
                             "then each run's figures and their median and worst (the figure swings run to run)")
    args = parser.parse_args()
    if args.path and args.pace:
        parser.error("--pace measures CPU (and --parts): not with --path")

    runs = [one_run(args, parser) for _ in range(args.runs)]
    if args.runs > 1:
        print(runs_report(runs))


def one_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> RunFigures:
    """The bench once, on a fresh table in a folder of its own; its headline figures."""
    here_us = nbody_seconds(args.steps) * 1e6 / args.steps
    print(f"reference loop (n-body of bench/pi_box.py, Python {sys.version.split()[0]}): {here_us:.2f} us of CPU per "
          f"step here; the reference speed {REFERENCE_STEP_US} us (figures 'at the reference speed' are scaled by "
          f"{REFERENCE_STEP_US / here_us:.2f}); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        if args.profile:
            server_hook(Path(folder), SITECUSTOMIZE, "COMPANION_YAPPI", "profile.pstat")
        if args.parts:
            site = server_parts.SITECUSTOMIZE.format(bench=str(ROOT / "bench"))
            server_hook(Path(folder), site, "COMPANION_PARTS", "parts.json")
        if args.path:
            if args.transport != "socket":
                parser.error("--path follows the socket's messages: --transport socket")
            site = socket_path.SITECUSTOMIZE.format(bench=str(ROOT / "bench"))
            server_hook(Path(folder), site, "COMPANION_PATH", "path.json")
        # every run: the threads named after Python's (by_thread's, and --syscalls' counts)
        server_hook(Path(folder), syscall_count.SITECUSTOMIZE, "COMPANION_SYSCALLS", "syscalls.txt")
        if args.switch_interval is not None:
            server_hook(Path(folder), SWITCH_INTERVAL, "COMPANION_SWITCH_INTERVAL", "")
            os.environ["COMPANION_SWITCH_INTERVAL"] = str(args.switch_interval)
            print(f"the server's switch interval: {args.switch_interval * 1000:g} ms (Python's default 5)")
        table = RunningTable(Path(folder))
        try:
            return run(table, args, here_us, Path(folder))
        finally:
            table.stop()


#: The two profiles: what the page does now, and what it did before (and does where it cannot open a websocket).
TRANSPORTS = {"socket": "the page's websocket (/api/socket): each phone's events as frames, the host's inputs as "
                        "messages on its own (which follows the game too)",
              "stream": "the live stream (/api/stream) and POST /api/input, the page's fallback (before issue 43's "
                        "socket)"}


def clients(transport: str) -> tuple[type[Follower], type[Host]]:
    """The phones' and the host's classes for ``transport``."""
    if transport == "stream":
        return Follower, Host
    from socket_clients import SocketFollower, SocketHost

    return SocketFollower, SocketHost


def wait_for(path: Path, within: float = 30.0) -> Path:
    """``path``, once the server has written it (it answers the bench's signals between its own steps)."""
    deadline = time.monotonic() + within
    while not path.exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"the server did not write {path.name} within {within:g} s")
        time.sleep(0.05)
    return path


def wake_ups(pid: int) -> tuple[int, int]:
    """How many times the threads of process ``pid`` have gone to sleep and been woken so far, and been put aside by
    the scheduler while they could run (the kernel's counts of voluntary and involuntary context switches, every
    thread; 0 where there is no /proc)."""
    counts = syscall_count.switches(pid).values()
    return sum(v for v, _ in counts), sum(i for _, i in counts)


def path_report(path: Path, asked: list[tuple[float, int]], host: Host, phones: Phones, count: int) -> str:
    """``--path``: each action's stages from the server's stamps at ``path`` and the bench's own."""
    woken, received = [], []
    for _, seq in asked:
        last = max(phones.followers, key=lambda f: f.arrived[seq])
        woken.append(int(1e9 * last.woken[seq]))
        received.append(int(1e9 * last.arrived[seq]))
    sends: list[int] = host.sends  # type: ignore[attr-defined]
    wakes = [int(1e9 * w) for w in list(phones.wakes)]
    echoed = socket_path.echo(count, len(asked), b"x" * 90)
    return socket_path.report(wait_for(path), [int(1e9 * a) for a, _ in asked], sends, woken, received, wakes, echoed,
                              count)


def paced(table: RunningTable, args: argparse.Namespace, host: Host, phones: Phones, game: int, seq: int,
          mortgaged: dict[str, bool], idle: float, here_us: float, folder: Path) -> int:
    """``--pace``: ``--paced-actions`` actions, each ``--pace`` seconds after the one before (a table's pace, not a
    burst): the CPU per action with and without the idle table's own over the same time, the phones' delays, and
    (``--parts``) the parts. Returns the last seq."""
    if args.parts:
        for done in ("parts.json", "parts.json.start"):
            (folder / done).unlink(missing_ok=True)
        os.kill(table.proc.pid, signal.SIGUSR1)
        wait_for(folder / "parts.json.start")
    cpu, wall = table.cpu_seconds(), time.monotonic()
    user, system = syscall_count.cpu_split(table.proc.pid)
    delays, _, _, seq = money_actions(host, phones, args.paced_actions, args.phones, game, seq, mortgaged,
                                      pace=args.pace)
    cpu, wall = table.cpu_seconds() - cpu, time.monotonic() - wall
    user_after, system_after = syscall_count.cpu_split(table.proc.pid)
    if args.parts:
        os.kill(table.proc.pid, signal.SIGUSR2)
    n = len(delays)
    own = 1000 * (cpu - idle * wall) / n
    print(f"at a table's pace: {n} money actions, one every {args.pace:g} s ({wall:.1f} s)")
    print("  " + cpu_figures(cpu, n, idle, wall, here_us, (user_after - user, system_after - system)))
    print(f"  less the idle table's own: {own:.2f} ms per action here, {own * REFERENCE_STEP_US / here_us:.2f} ms at "
          f"the reference speed; load average {os.getloadavg()[0]:.1f}")
    print(f"  all {args.phones} phones updated: p50 {1000 * percentile(delays, 0.5):.1f} ms, "
          f"p99 {1000 * percentile(delays, 0.99):.1f} ms")
    if args.parts:
        print("  " + server_parts.report(wait_for(folder / "parts.json"), n, args.phones).replace("\n", "\n  "))
    return seq


class RunFigures(NamedTuple):
    """One run's headline figures: CPU per action (ms) here and at the reference speed, the phones' p50 and p99
    (ms), the load average as it ended."""

    here: float
    scaled: float
    p50: float
    p99: float
    load: float


def runs_report(runs: list[RunFigures]) -> str:
    """``--runs``: each run's figures, then the median and the worst of the CPU at the reference speed."""
    lines = [f"{len(runs)} runs, server CPU per action at the reference speed (here), all phones p50 / p99:"]
    lines += [f"  run {n}: {r.scaled:.2f} ms ({r.here:.2f}), p50 {r.p50:.1f} / p99 {r.p99:.1f} ms, load {r.load:.1f}"
              for n, r in enumerate(runs, 1)]
    scaled = sorted(r.scaled for r in runs)
    met = sum(s <= TARGETS["cpu"] for s in scaled)
    lines.append(f"  median {statistics.median(scaled):.2f} ms, worst {scaled[-1]:.2f} ms, best {scaled[0]:.2f} ms; "
                 f"{met} of {len(runs)} runs within the target (<= {TARGETS['cpu']} ms)")
    return "\n".join(lines)


def run(table: RunningTable, args: argparse.Namespace, here_us: float, folder: Path) -> RunFigures:
    print(f"start-up of companion run to the phone page's address: {table.startup:.1f} s")
    print(f"transport: {TRANSPORTS[args.transport]}")
    following, acting = clients(args.transport)
    host = acting(table)
    status, reply, _ = host.post("/api/host/new-game", {"setup": setup(args.phones)})
    assert status == 200, reply
    game = int(host.get("/api/session")["game_id"])
    followers = []
    for n in range(args.phones):
        source = f"127.0.5.{n + 1}"
        joined = table.signed_in("/api/join", {"code": table.join_code, "player": NAMES[n]}, source=source)
        if args.language != "en":  # the phone chose its language (the page's ?lang=): its views are said in it
            status, _, got = table.request("GET", f"/?lang={args.language}", source=source, headers=joined)
            assert status == 200, status
            joined["Cookie"] = got.get("Set-Cookie", "").split(";")[0] or joined["Cookie"]
        followers.append(following(table, source, joined["Cookie"], gzip=not args.plain))
    phones = Phones(followers)
    seq = int(host.get("/api/state")["seq"])
    if phones.all_have(seq) is None:
        raise SystemExit(f"the phones' streams did not start: {[f.broken for f in followers]}")
    mortgaged = {deed: False for deed in DEEDS}
    tracer, idle_calls, idle_seconds = None, {}, 0.0
    if args.syscalls:  # the idle table's calls over its measure (the tracer's own start included, as idle)
        using = syscall_count.tool()
        if using is None:
            raise SystemExit("--syscalls needs perf (perf trace) or strace")
        tracer = syscall_count.Tracer(table.proc.pid, folder / "idle-syscalls.txt", using)
        tracer.start()  # waits a while for it: the joins' and the new game's work done meanwhile
    else:
        time.sleep(1.0)  # the joins' and the new game's work done
    cpu, wall, switches = table.cpu_seconds(), time.monotonic(), wake_ups(table.proc.pid)
    time.sleep(args.idle)
    idle = (table.cpu_seconds() - cpu) / (time.monotonic() - wall)
    woken = (wake_ups(table.proc.pid)[0] - switches[0]) / (time.monotonic() - wall)
    if tracer is not None:
        idle_calls, idle_seconds = tracer.stop(), tracer.seconds
    print(f"idle table, {args.phones} phones following: {100 * idle:.1f}% of a core "
          f"({1000 * idle:.1f} ms of CPU per second; target <= 1%), its threads woken {woken:.0f} times a second")
    _, _, _, seq = money_actions(host, phones, args.warm_up, args.phones, game, seq, mortgaged)
    if tracer is not None:
        tracer = syscall_count.Tracer(table.proc.pid, folder / "syscalls.txt", tracer.using)
        tracer.start()
    sampler = None
    if args.kernel:
        if not kernel_time.available():
            raise SystemExit("--kernel needs perf record (root, or perf_event_paranoid <= 1)")
        sampler = kernel_time.Sampler(table.proc.pid, folder)
        kernel_time.settle()
    switched = syscall_count.switches(table.proc.pid)
    ran = syscall_count.thread_times(table.proc.pid)
    if args.profile:
        os.kill(table.proc.pid, signal.SIGUSR1)
        time.sleep(0.5)
    if args.parts:
        os.kill(table.proc.pid, signal.SIGUSR1)
        wait_for(folder / "parts.json.start")
    if args.path:
        os.kill(table.proc.pid, signal.SIGUSR1)
        wait_for(folder / "path.json.start")
        host.sends.clear()  # type: ignore[attr-defined]
    asked: list[tuple[float, int]] = []
    received, cpu, wall, switches = phones.received(), table.cpu_seconds(), time.monotonic(), wake_ups(table.proc.pid)
    user, system = syscall_count.cpu_split(table.proc.pid)
    serially: list[float] = []
    if sampler is not None:
        sampler.start()
    delays, replies, sizes, seq = money_actions(host, phones, args.actions, args.phones, game, seq, mortgaged, asked,
                                                serially)
    if sampler is not None:
        sampler.stop()
    cpu, wall, received = table.cpu_seconds() - cpu, time.monotonic() - wall, phones.received() - received
    user_after, system_after = syscall_count.cpu_split(table.proc.pid)
    split = (user_after - user, system_after - system)
    switched = {thread: (voluntary - switched.get(thread, (0, 0))[0], involuntary - switched.get(thread, (0, 0))[1])
                for thread, (voluntary, involuntary) in syscall_count.switches(table.proc.pid).items()}
    ran_after = syscall_count.thread_times(table.proc.pid)
    traced = tracer.stop() if tracer is not None else {}
    woke, aside = (after - before for after, before in zip(wake_ups(table.proc.pid), switches))
    if args.profile or args.parts or args.path:
        os.kill(table.proc.pid, signal.SIGUSR2)
    n = len(delays)
    print(f"{n} money actions (mortgage / lift the mortgage, the host's, one keep-alive connection) in {wall:.1f} s")
    print(cpu_figures(cpu, n, idle, wall, here_us, split))
    note = syscall_count.split_note(*split)
    if note:
        print("  " + note)
    if tracer is not None:
        print(syscall_count.report(tracer.using, n, traced, tracer.seconds, idle_calls, idle_seconds, wall, switched))
    if args.parts:
        print(server_parts.report(wait_for(folder / "parts.json"), n, args.phones))
    if sampler is not None:
        print(kernel_time.report(sampler.output, n, kernel_time.thread_names(table.proc.pid)))
        if args.kernel_data:
            shutil.copyfile(sampler.output, args.kernel_data)
    if args.path:
        print(path_report(folder / "path.json", asked, host, phones, args.phones))
    print(f"the server's threads woken {woke / n:.1f} times per action (the request's, the OLED's, the streams'), "
          f"put aside by the scheduler while they could run {aside / n:.1f} times")
    print(syscall_count.by_thread(ran, ran_after, n, server_parts.outer(folder / "parts.json") if args.parts else None))
    print(f"all {args.phones} phones updated: p50 {1000 * percentile(delays, 0.5):.1f} ms, "
          f"p99 {1000 * percentile(delays, 0.99):.1f} ms (target p50 <= {TARGETS['p50']:g} ms, "
          f"p99 <= {TARGETS['p99']:g} ms); each phone when its bytes were read, every ready phone read before "
          f"any is parsed, as eight phones each read their own")
    print(f"  the same as the bench's one thread gets to each phone, parsing the others before it (the figure "
          f"before): p50 {1000 * percentile(serially, 0.5):.1f} ms, p99 {1000 * percentile(serially, 0.99):.1f} ms")
    print(f"bytes per phone per action: {received / args.phones / n:.0f} (target <= {TARGETS['bytes']})")
    print(f"the host's reply: p50 {1000 * percentile(replies, 0.5):.1f} ms, "
          f"{sum(sizes) / n:.0f} bytes of JSON per action")
    print(f"the peer, as issue 43 measured it: {PEER}")
    if args.pace:
        seq = paced(table, args, host, phones, game, seq, mortgaged, idle, here_us, folder)
    if args.show:
        print(f"the last event the first phone received ({len(followers[0].last_event) + 2} bytes before chunk "
              f"framing and gzip):\n{followers[0].last_event}")
    for follower in followers:
        headers = {"Cookie": follower.cookie}
        status, state, _ = table.request("GET", "/api/state", source=follower.source, headers=headers)
        if status != 200 or state != follower.state:
            print(f"MISMATCH: the phone at {follower.source} holds a state unlike GET /api/state's")
            break
    else:
        print(f"each phone's state at the end equals GET /api/state's ({args.phones} phones)")
    phones.close()
    if args.profile:
        stats = wait_for(folder / "profile.pstat")
        write_profile(args.profile, stats, n)
        shutil.copyfile(stats, args.profile.with_suffix(".pstat"))
        print(f"profile: {args.profile} (and the raw stats, for pstats: {args.profile.with_suffix('.pstat')})")
    per = 1000 * cpu / n
    return RunFigures(per, per * REFERENCE_STEP_US / here_us, 1000 * percentile(delays, 0.5),
                      1000 * percentile(delays, 0.99), os.getloadavg()[0])


if __name__ == "__main__":
    main()
