"""Benchmark of the phone page's server, on loopback only; prints figures, asserts nothing.

* ``/api/state`` latency with 16 clients asking at once (keep-alive connections);
* live-update delay with 12 open streams: from a phone's ``POST /api/input`` to each stream's event;
* the server process's memory (RSS) idle, with the streams open, and after the load.

The server runs in a child process (as on the Pi: one process, its threads), so the clients'
threads do not share its interpreter. Usage::

    .venv/bin/python bench/web_bench.py [--server cheroot|waitress] [--requests 200] [--updates 50]

Every loop is bounded in count, and the whole run in time (``--deadline`` seconds).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.sse import EventStream  # noqa: E402

PIN, CODE = "111111", "222222"


# ---------------------------------------------------------------------- the server (child process)
def serve(kind: str, folder: str) -> None:
    """Run the app over a fresh journal on a free loopback port; print the port; serve until stdin closes."""
    from companion.journal import Journal
    from companion.table import Table
    from companion.web import Access, create_app, make_server

    journal = Journal(Path(folder) / "bench.sqlite3")
    table = Table(journal)
    table.new_game({"ruleset": "classic", "players": ["Ann", "Bob", "Cy", "Dee"], "seed": 1})
    app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
    # A stream whose phone went away holds its server thread (and its slot: 32 at most) until the next write
    # finds the socket closed; a 1 s keep-alive frees them before the 32 streams of the memory figure.
    app.extensions["companion"].stream_keepalive = 1.0
    if kind == "cheroot":
        server = make_server(app, "127.0.0.1", 0).start()
        port = server.port
    else:
        import waitress

        wsgi = waitress.create_server(app, host="127.0.0.1", port=0, threads=48)
        port = wsgi.effective_port  # type: ignore[union-attr]
        threading.Thread(target=wsgi.run, daemon=True).start()
    print(port, flush=True)
    sys.stdin.read()  # the parent closes stdin to stop us


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


# ---------------------------------------------------------------------- clients
def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    q = statistics.quantiles(ms, n=100, method="inclusive")  # within the samples, however few
    return f"p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms (n={len(ms)})"


def state_latency(port: int, clients: int, requests: int, deadline: float) -> tuple[list[float], float]:
    def one_client(_: int) -> list[float]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        times = []
        for _ in range(requests):
            if time.monotonic() > deadline:
                break
            start = time.perf_counter()
            conn.request("GET", "/api/state")
            body = conn.getresponse().read()
            times.append(time.perf_counter() - start)
            assert body.startswith(b"{")
        conn.close()
        return times

    began = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        samples = [t for chunk in pool.map(one_client, range(clients)) for t in chunk]
    return samples, len(samples) / (time.perf_counter() - began)


class Host:
    """A host session over plain http.client (cookie and CSRF token kept by hand)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""
        self.csrf = self.get("/api/session")["csrf"]
        self.post("/api/host/login", {"pin": PIN})
        self.csrf = self.get("/api/session")["csrf"]

    def _send(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Cookie": self.cookie, "Content-Type": "application/json", "X-CSRFToken": getattr(self, "csrf", "")}
        self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return json.loads(data) if data else None

    def get(self, path: str) -> Any:
        return self._send("GET", path)

    def post(self, path: str, body: Any) -> Any:
        return self._send("POST", path, body)


def next_line(state: dict[str, Any]) -> dict[str, Any]:
    """An input that keeps a game going: roll 1+2 / 2+2..., decline to buy, pass in auctions."""
    prompt = state["prompt"]
    if prompt["kind"] == "roll":
        return {"roll": [1, 2]}
    if prompt["kind"] == "auction":
        return {"act": {"player": prompt["waiting"][0], "do": "pass"}}
    if prompt["options"]:
        return {"answer": "no" if "no" in prompt["options"] else prompt["options"][0]}
    return {"undo": 1}


def update_delay(port: int, streams: int, updates: int, deadline: float) -> list[float]:
    host = Host(port)
    opened = [EventStream("127.0.0.1", port) for _ in range(streams)]
    for s in opened:
        s.next_state()
    delays: list[float] = []
    state = host.get("/api/state")
    for _ in range(updates):
        if time.monotonic() > deadline:
            break
        line = next_line(state)
        arrived: list[float] = []
        lock = threading.Lock()

        def wait(stream: EventStream) -> None:
            stream.next_state()
            with lock:
                arrived.append(time.perf_counter())

        threads = [threading.Thread(target=wait, args=(s,)) for s in opened]
        for t in threads:
            t.start()
        sent = time.perf_counter()
        result = host.post("/api/input", {"input": line, "seq": state["seq"]})
        for t in threads:
            t.join(timeout=10)
        state = result["state"] if result and "state" in result else host.get("/api/state")
        delays.extend(a - sent for a in arrived)
    for s in opened:
        s.close()
    return delays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=["cheroot", "waitress"], default="cheroot")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=200, help="per client")
    parser.add_argument("--streams", type=int, default=12)
    parser.add_argument("--updates", type=int, default=50)
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds for the whole run")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.server, args.serve)
        return 0
    deadline = time.monotonic() + args.deadline
    with tempfile.TemporaryDirectory() as folder:
        child = subprocess.Popen([sys.executable, __file__, "--server", args.server, "--serve", folder],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            port = int(child.stdout.readline())  # type: ignore[union-attr]
            print(f"server: {args.server}, pid {child.pid}, port {port} (loopback)")
            print(f"memory idle: {rss_kib(child.pid) / 1024:.1f} MiB")
            samples, rate = state_latency(port, args.clients, args.requests, deadline)
            print(f"/api/state with {args.clients} concurrent clients: {percentiles(samples)}; {rate:.0f} requests/s")
            print(f"memory after the load: {rss_kib(child.pid) / 1024:.1f} MiB")
            delays = update_delay(port, args.streams, args.updates, deadline)
            print(f"live-update delay, {args.streams} open streams (POST /api/input -> each stream's event): "
                  f"{percentiles(delays)}")
            print(f"memory with {args.streams} streams used: {rss_kib(child.pid) / 1024:.1f} MiB")
            time.sleep(2.5)  # the update streams' slots come free at their next keep-alive
            many = [EventStream("127.0.0.1", port) for _ in range(32)]
            for s in many:
                s.next_state()
            print(f"memory with 32 streams open: {rss_kib(child.pid) / 1024:.1f} MiB")
            for s in many:
                s.close()
        finally:
            child.stdin.close()  # type: ignore[union-attr]
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
