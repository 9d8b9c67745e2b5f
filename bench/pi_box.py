"""The table and its phone page in a Raspberry Pi Zero 2 W's budget, on this machine; prints figures, asserts nothing.

`companion run` (mock pins, no OLED, software dice, the phone page on loopback: tests/web/running.py) runs in a box:
a cgroup whose memory is limited to ``--memory`` MiB (256: what the Pi's 512 MB leave the table beside the OS) and
whose CPU time is limited to one core divided by the Pi's factor (1 ms in every factor ms: a short period, so that
the slowing is even rather than in bursts). cgroup v2 (``memory.max``, ``cpu.max``) where the machine has its controllers, else cgroup
v1 (``memory.limit_in_bytes``, ``cpu.cfs_quota_us``: the same kernel mechanisms); without either, the figures are of
an unboxed table and say so.

The CPU factor: this machine's CPU time for the reference loop (CPU time, not wall time: on this shared machine the
wall time of a loop is several times its CPU time) (the n-body program of the benchmarks game, pure Python,
the loop the published figure used) against the Pi Zero 2 W's, derived from published figures:

* Python n-body, 5,000,000 steps, on a Raspberry Pi 4 (Cortex-A72, 1.5 GHz, performance governor): 158.26 s
  (https://chaitanyamehta.github.io/projects/performance-analysis-of-programming-languages);
* the Pi 4 against the Zero 2 W's core (the Pi 3B+'s Cortex-A53, at 1.0 GHz instead of 1.4): sysbench cpu, one
  thread, 1477.83 events/s on the Pi 4 and 687.45 on the Pi 3B+
  (https://leoncode.co.uk/articles/raspberry-pi-benchmarks), so 1477.83 / (687.45 x 1.0 / 1.4) = 3.01;
* hence the Zero 2 W: 158.26 / 5,000,000 x 3.01 = 95.3 us per n-body step.

The published run's Python is not named (2020, Raspbian Buster: its python3 is 3.7); a Pi running the table runs
Raspberry Pi OS Bookworm's 3.11, which is faster at this loop. Measured on this machine (n-body, CPU time, best of
three of 100,000 steps, 2026-11-28): 3.7.16 4.16-4.18 us a step, 3.8.18 4.46, 3.11.7 2.84-2.89, so 3.11 is 1.46
times faster than 3.7 here, and the Zero 2 W with 3.11 takes 95.3 / 1.46 = 65.3 us a step (``--from-python 3.8``
takes 1.56 instead; ``--factor`` gives one outright). sysbench's own loop cannot be used for this machine: it is
64-bit divisions, which this x86 machine does more slowly than the Pi (387 events/s here, loaded, against the
Zero 2 W's ~490), while Python runs many times faster here.

The table runs with its ``.pyc`` files, as a Pi's install has them (the package is compiled first, and
``PYTHONDONTWRITEBYTECODE`` taken from the table's environment).

Load, as phones use the table: 8 phones (one device each) follow the game as the page does (it asks for the state
once, then applies what its websocket or stream sends: ``--transport``), and the host submits inputs (a bot's
choice, on the state its own replies bring it) over its websocket (or POSTs them), each once every phone has the
one before and 0.2 s after (people do not play 100 inputs a second). ``--poll S``: a second profile, labelled so, in
which each phone also asks ``/api/state`` every S seconds (as the box did before; no page does). Printed beside the
latencies: the table's own CPU, idle (the phones following, nothing played) and per input, as a share of the box's
core. Then the worst attacks of tests/web/test_hostile.py on the boxed table (its peak memory after them), and the
table bench (button edge -> frame) in the same box, its slowest frames each told with what the process did between
the edge and the frame (its CPU, the box's throttle, the collector: bench/frame_watch.py). ``--startups N``: only the
start-up, N times in the box and N unboxed in turn, each with the CPU the table took to its page's address;
``--frames N``: only the table bench, N times in the box.

``--transport``: the phones follow and the host acts over the page's websocket (``socket``, the default, as the page
now does: bench/socket_clients.py), or follow ``/api/stream`` and POST (``stream``, the page's fallback and the
profile before issue 43's socket).

    .venv/bin/python bench/pi_box.py [--inputs 60] [--memory 256] [--factor F] [--poll S] [--presses 100]
        [--transport socket|stream]
    .venv/bin/python bench/pi_box.py --startups 3
    .venv/bin/python bench/pi_box.py --frames 3

Run as root (cgroups). The machine is shared: its load makes the box slower still, never faster.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from companion.engine import find_ruleset  # noqa: E402
from companion.sim.registry import strategy_for  # noqa: E402
from tests.web.running import RunningTable  # noqa: E402
from tests.web.sse import patched  # noqa: E402

if TYPE_CHECKING:  # bench/phones_bench.py imports this module's reference loop: its classes are imported when run
    from phones_bench import Phones

PI4_NBODY_SECONDS, PI4_NBODY_STEPS = 158.26, 5_000_000
PI4_SYSBENCH, PI3BPLUS_SYSBENCH, PI3BPLUS_GHZ, ZERO2_GHZ = 1477.83, 687.45, 1.4, 1.0
ZERO2_STEP_PY37 = PI4_NBODY_SECONDS / PI4_NBODY_STEPS * PI4_SYSBENCH / (PI3BPLUS_SYSBENCH * ZERO2_GHZ / PI3BPLUS_GHZ)
#: How much faster Python 3.11 runs the n-body loop than the published run's Python (measured here, see above).
SPEEDUP_TO_311 = {"3.7": 1.46, "3.8": 1.56}
QUOTA_US = 1000  # the CPU limit's quota in each period (cgroup v1's least), the period being the factor's multiple:
#                 short, so that the slowing is even rather than in bursts
PHONES = 8
WITHIN = 60.0


# ---------------------------------------------------------------------- the reference loop
def nbody_seconds(steps: int, clock: Callable[[], float] = time.process_time) -> float:
    """The benchmarks game's n-body in pure Python: seconds for ``steps`` steps (the fastest of three runs), of CPU
    time by default: what the core does, whatever the machine's load (its wall time grows with the load)."""
    pi, days = 3.14159265358979323, 365.24
    solar = 4 * pi * pi
    bodies = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], solar),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * days, 7.69901118419740425e-03 * days, -6.90460016972063023e-05 * days],
         9.54791938424326609e-04 * solar),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * days, 4.99852801234917238e-03 * days, 2.30417297573763929e-05 * days],
         2.85885980666130812e-04 * solar),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * days, 2.37847173959480950e-03 * days, -2.96589568540237556e-05 * days],
         4.36624404335156298e-05 * solar),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * days, 1.62824170038242295e-03 * days, -9.51592254519715870e-05 * days],
         5.15138902046611451e-05 * solar),
    ]
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]
    best = float("inf")
    for _ in range(3):
        start = clock()
        dt = 0.01
        for _ in range(steps):
            for ([x1, y1, z1], v1, m1), ([x2, y2, z2], v2, m2) in pairs:
                dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
                mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
                b1m, b2m = m1 * mag, m2 * mag
                v1[0] -= dx * b2m
                v1[1] -= dy * b2m
                v1[2] -= dz * b2m
                v2[0] += dx * b1m
                v2[1] += dy * b1m
                v2[2] += dz * b1m
            for (r, [vx, vy, vz], _m) in bodies:
                r[0] += dt * vx
                r[1] += dt * vy
                r[2] += dt * vz
        best = min(best, clock() - start)
    return best


# ---------------------------------------------------------------------- the box
class Box:
    """A cgroup holding the table: memory and CPU limited (v2 where it has the controllers, else v1)."""

    def __init__(self, memory_mib: int, cpu_share: float) -> None:
        self.kind = "none"
        self.paths: list[Path] = []
        name = f"companion-pi-box-{os.getpid()}"
        v2 = Path("/sys/fs/cgroup")
        controllers = (v2 / "cgroup.controllers").read_text().split() if (v2 / "cgroup.controllers").exists() else []
        quota, period = QUOTA_US, round(QUOTA_US / cpu_share)
        try:
            if {"memory", "cpu"} <= set(controllers):
                box = v2 / name
                box.mkdir()
                self.paths = [box]
                (box / "memory.max").write_text(str(memory_mib << 20))
                (box / "memory.swap.max").write_text("0")
                (box / "cpu.max").write_text(f"{quota} {period}")
                self.kind = "cgroup v2 (memory.max, cpu.max)"
            elif (v2 / "memory").is_dir() and (v2 / "cpu").is_dir():
                memory, cpu = v2 / "memory" / name, v2 / "cpu" / name
                memory.mkdir()
                self.paths.append(memory)
                cpu.mkdir()
                self.paths.append(cpu)
                (memory / "memory.limit_in_bytes").write_text(str(memory_mib << 20))
                if (memory / "memory.memsw.limit_in_bytes").exists():
                    (memory / "memory.memsw.limit_in_bytes").write_text(str(memory_mib << 20))
                (cpu / "cpu.cfs_period_us").write_text(str(period))
                (cpu / "cpu.cfs_quota_us").write_text(str(quota))
                self.kind = ("cgroup v1 (memory.limit_in_bytes, cpu.cfs_quota_us; this machine's cgroup v2 has no "
                             "memory or cpu controller)")
        except OSError as error:
            self.close()
            self.kind = f"none ({error}: the figures are of an unboxed table)"
        self.quota, self.period = quota, period

    def join(self) -> None:
        """Put the calling process in the box (a child's ``preexec_fn``)."""
        for path in self.paths:
            (path / "cgroup.procs").write_text(str(os.getpid()))

    def oom_kills(self) -> str:
        for path in self.paths:
            for name in ("memory.events", "memory.oom_control"):
                if (path / name).exists():
                    found = re.search(r"oom_kill (\d+)", (path / name).read_text())
                    if found:
                        return found.group(1)
        return "?"

    def close(self) -> None:
        for path in reversed(self.paths):
            try:
                path.rmdir()
            except OSError:
                pass
        self.paths = []


# ---------------------------------------------------------------------- the load
def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Poller:
    """One phone asking ``/api/state`` every ``every`` s on a keep-alive connection (the polling profile): each
    answer's latency."""

    def __init__(self, table: RunningTable, source: str, stop: threading.Event, every: float) -> None:
        self.table, self.source, self.stop, self.every = table, source, stop, every
        self.looks: list[float] = []
        self.thread = threading.Thread(target=self._look, daemon=True)
        self.thread.start()

    def _look(self) -> None:
        conn = self.table.connect(self.source, WITHIN)
        while not self.stop.wait(self.every):
            start = time.monotonic()
            conn.request("GET", "/api/state")
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                self.looks.append(time.monotonic() - start)
        conn.close()


def submit_inputs(table: RunningTable, phones: Phones, count: int, transport: str) -> tuple[list[float], int, float]:
    """The host's inputs (over its websocket, or POSTed over one keep-alive connection: ``transport``), one at a
    time, each after every phone had the one before: input -> all phones (s), the inputs the engine refused, the
    table's CPU seconds over them."""
    from phones_bench import clients

    host = clients(transport)[1](table)
    state = host.get("/api/state")
    game = int(host.get("/api/session")["game_id"])
    bot = strategy_for(state["ruleset"])(find_ruleset(state["ruleset"]), random.Random(1))
    host.open()  # the page opens its websocket when it loads, not at its first tap: not the first input's cost
    time.sleep(1.0)  # its handshake and catch-up done (a person reads the screen before the first tap)
    delays: list[float] = []
    refused, cpu = 0, 0.0
    for _ in range(count):
        if state.get("winner") is not None or state.get("prompt") is None:
            break
        for line in [bot.next_input(state), *bot.fallback(state)]:
            before = table.cpu_seconds()
            sent = time.perf_counter()
            status, reply, _ = host.post("/api/input", {"input": line, "seq": state["seq"], "game": game})
            if status == 200:
                break
            refused += 1
        else:
            break
        state = patched(state, reply["ops"])  # what the reply says changed: the state the host's page holds
        last = phones.all_have(int(reply["seq"]), WITHIN)
        cpu += table.cpu_seconds() - before
        if last is None:
            print(f"  an input (seq {reply['seq']}) did not reach every phone within {WITHIN:g} s")
            continue
        delays.append(last - sent)
        time.sleep(0.2)
    return delays, refused, cpu


def compile_package() -> None:
    """The ``.pyc`` files a Pi's install has: the package compiled, and the table free to write what is missing."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "companion")], check=True)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def boxed_reference(preexec: Callable[[], None] | None, steps: int) -> float:
    """The reference loop run in the box: wall seconds per step (to check the box slows it by the factor)."""
    code = (f"import sys, time; sys.path.insert(0, {str(ROOT / 'bench')!r}); from pi_box import nbody_seconds; "
            f"print(nbody_seconds({steps}, time.perf_counter))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800,
                         preexec_fn=preexec)
    return float(run.stdout.strip()) / steps


def under_attack(table: RunningTable) -> str:
    """The attacks of tests/web/test_hostile.py that once took memory or threads, on the boxed table: its peak RSS
    after them, and whether it still answered."""
    from tests.web.test_hostile import Attack, chunked_head, send_chunked, send_slowly

    attack = Attack(table)
    attack.run(send_chunked, "127.0.6.1", "/api/join", b"10000000\r\n", b"a", 32 << 20)
    attack.run(send_chunked, "127.0.6.2", "/api/input", b"1;ext=", b"a", 32 << 20)
    attack.run(send_slowly, "127.0.6.3", chunked_head("/api/join"), b"1\r\n \r\n", times=60)
    time.sleep(2)
    status, _, _ = table.request("GET", "/api/state", timeout=WITHIN)
    attack.end()
    return f"{table.memory('VmHWM') / 2**20:.1f} MiB, another phone answered {status} during them"


def table_bench(preexec: Callable[[], None] | None, presses: int) -> tuple[str, list[str]]:
    """The table bench (button edge -> frame) in the box: its line of figures, and its slowest frames told in detail
    (what the process did between the edge and the frame: its CPU, the box's throttle, the collector)."""
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "table_bench.py"), "--presses", str(presses),
                          "--mixes", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=1800, preexec_fn=preexec)
    found = re.search(r"^button edge -> frame handed to the display: (.*)$", run.stdout, re.MULTILINE)
    detail = re.findall(r"^(slowest first frames: .*|  \d.* ms \(.*|  every press: .*)$", run.stdout, re.MULTILINE)
    return (found.group(1).replace(" (target p99 <= 5 ms)", "") if found else f"no figure ({run.stderr[-300:]})",
            detail)


def frames(preexec: Callable[[], None] | None, presses: int, times: int) -> None:
    """The button's frame alone (``--frames``): the table bench in the box ``times`` times, each with its slowest
    frames told in detail and the load."""
    for turn in range(times):
        load = os.getloadavg()[0]
        figure, detail = table_bench(preexec, presses)
        print(f"button edge -> frame {turn + 1} (load {load:.1f}): {figure}")
        for line in detail:
            print(f"  {line.strip()}")


def startups(preexec: Callable[[], None] | None, factor: float, times: int) -> None:
    """The start-up alone (``--startups``), boxed and unboxed in turn: the time to the page's address and the CPU the
    table took by then (read just after the line, from ``/proc``: 10 ms ticks). Boxed, the wall time is its CPU there
    times the factor when the box gave it its whole share; its CPU there against its CPU unboxed is what the box's
    1 ms slices cost a start (each begins after ~20 ms of others on the core)."""
    for turn in range(times):
        for boxed in (True, False) if preexec is not None else (False,):
            load = os.getloadavg()[0]
            with tempfile.TemporaryDirectory() as folder:
                table = RunningTable(Path(folder), preexec=preexec if boxed else None)
                cpu = table.cpu_seconds()
                table.stop()
            print(f"start-up {turn + 1} {'in the box' if boxed else 'unboxed'}: {table.startup:.2f} s, its CPU "
                  f"{cpu:.2f} s" + (f" (x {factor:.1f} = {cpu * factor:.1f} s)" if boxed else "")
                  + f"; load {load:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=60, help="inputs the host submits")
    parser.add_argument("--memory", type=int, default=256, help="the box's memory, MiB")
    parser.add_argument("--factor", type=float, default=None, help="the CPU factor (default: derived, see above)")
    parser.add_argument("--steps", type=int, default=100_000, help="n-body steps of the reference loop")
    parser.add_argument("--poll", type=float, default=0.0,
                        help="also the polling profile: each phone asks /api/state every this many seconds")
    parser.add_argument("--presses", type=int, default=100, help="button presses of the table bench")
    parser.add_argument("--from-python", choices=sorted(SPEEDUP_TO_311), default="3.7",
                        help="the Python of the published Pi 4 figure (default 3.7, Raspbian Buster's)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle table measured")
    parser.add_argument("--startups", type=int, default=0,
                        help="only the start-up, this many times in the box and as many unboxed (its CPU each time)")
    parser.add_argument("--frames", type=int, default=0,
                        help="only the button's frame: the table bench in the box this many times, slow frames told")
    parser.add_argument("--transport", choices=("socket", "stream"), default="socket",
                        help="the page's websocket (inputs and events), or the live stream and POSTs before it")
    args = parser.parse_args()
    from phones_bench import TRANSPORTS, Phones, clients

    here = nbody_seconds(args.steps) / args.steps
    zero2 = ZERO2_STEP_PY37 / SPEEDUP_TO_311[args.from_python]
    factor = args.factor if args.factor is not None else zero2 / here
    print(f"reference loop (n-body, pure Python {sys.version.split()[0]}): {here * 1e6:.1f} us of CPU per step here, "
          f"{zero2 * 1e6:.1f} us on a Pi Zero 2 W with Python 3.11 (derived from published figures of Python "
          f"{args.from_python}): CPU factor {factor:.1f}" + (" (given)" if args.factor is not None else "")
          + f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    compile_package()
    box = Box(args.memory, 1 / factor)
    print(f"box: {box.kind}; memory {args.memory} MiB, CPU {box.quota} us per {box.period} us "
          f"({100 * box.quota / box.period:.1f}% of one core)")
    preexec = box.join if box.paths else None
    if args.startups or args.frames:
        try:
            startups(preexec, factor, args.startups)
            frames(preexec, args.presses, args.frames)
        finally:
            box.close()
        return
    if preexec is not None:
        boxed = boxed_reference(preexec, args.steps // 4)
        print(f"the reference loop in the box: {boxed * 1e6:.1f} us per step (wall), {boxed / here:.1f} times this "
              "machine's CPU time (the machine's load may slow it further)")
    stop = threading.Event()
    try:
        with tempfile.TemporaryDirectory() as folder:
            table = RunningTable(Path(folder), preexec=preexec)
            try:
                started = table.cpu_seconds()  # a little after the line (this thread reads it then)
                print(f"start-up to the phone page's address (the first OLED frame is drawn before it): "
                      f"{table.startup:.1f} s (target <= 10 s); its CPU {started:.2f} s here, x {factor:.1f} = "
                      f"{started * factor:.1f} s of the box's core")
                follower = clients(args.transport)[0]
                phones = Phones([follower(table, f"127.0.5.{n + 1}", "") for n in range(PHONES)])
                if phones.all_have(int(table.state()["seq"]), WITHIN) is None:
                    raise SystemExit(f"the phones' streams did not start: {[f.broken for f in phones.followers]}")
                pollers = [Poller(table, f"127.0.5.{n + 1}", stop, args.poll) for n in range(PHONES)] \
                    if args.poll > 0 else []
                how = "the stream" if args.transport == "stream" else "the page's websocket"
                print(f"polling profile: the phones follow {how} and each asks /api/state every {args.poll:g} s"
                      if pollers else f"the page's profile: the phones follow {how}")
                print(f"transport: {TRANSPORTS[args.transport]}")
                share = box.quota / box.period  # of one core here: the box's core
                time.sleep(2.0)  # the streams' and the host's start done
                cpu, wall = table.cpu_seconds(), time.monotonic()
                time.sleep(args.idle)
                idle = (table.cpu_seconds() - cpu) / (time.monotonic() - wall)
                print(f"the box's own CPU, idle ({PHONES} phones following): {100 * idle / share:.1f}% of the box's "
                      f"core ({1000 * idle:.2f} ms of CPU per second here) (target <= 10%)")
                wall = time.monotonic()
                delays, refused, cpu = submit_inputs(table, phones, args.inputs, args.transport)
                wall = time.monotonic() - wall
                stop.set()
                looks = [t for poller in pollers for t in poller.looks]
                if looks:
                    print(f"/api/state, {PHONES} phones every {args.poll:g} s each: p50 "
                          f"{1000 * percentile(looks, 0.5):.0f} ms, p99 {1000 * percentile(looks, 0.99):.0f} ms over "
                          f"{len(looks)} requests")
                if delays:
                    print(f"input -> all {PHONES} phones' streams: p50 {1000 * percentile(delays, 0.5):.0f} ms, "
                          f"p99 {1000 * percentile(delays, 0.99):.0f} ms over {len(delays)} inputs "
                          f"({refused} refused by the engine and retried) (target p99 <= 250 ms)")
                    print(f"the first input after the start -> all {PHONES} phones: {1000 * delays[0]:.0f} ms (beside the "
                          "p50 above: what a first tap pays for what the start left to later)")
                    print(f"the box's own CPU per input: {1000 * cpu / len(delays):.1f} ms of CPU here, "
                          f"{factor * cpu / len(delays):.2f} s of the box's core (the input, its reply, {PHONES} "
                          f"phones' events, the OLED's frame)")
                phones.close()
                print(f"peak RSS of companion run: {table.memory('VmHWM') / 2**20:.1f} MiB (target <= 80 MB); "
                      f"OOM kills in the box: {box.oom_kills()}")
                print(f"peak RSS after a 256 MiB chunk, an endless chunk extension and 60 slow bodies: "
                      f"{under_attack(table)} (target <= 80 MB)")
            finally:
                stop.set()
                table.stop()
        figure, detail = table_bench(preexec, args.presses)
        print(f"button edge -> frame (bench/table_bench.py in the box): {figure} (target p99 <= 50 ms)")
        for line in detail:
            print(f"  {line.strip()}")
    finally:
        box.close()


if __name__ == "__main__":
    main()
