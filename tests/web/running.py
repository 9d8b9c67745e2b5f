"""`companion run` in a child process, as systemd starts it on the Pi (mock pins, no OLED, software dice, the phone
page on a loopback port), for the attack suite and the Pi-sized bench: its address, PIN and join code, its requests,
and its memory read from ``/proc``."""

from __future__ import annotations

import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
START_WITHIN = 120.0  # seconds for `companion run` to say where its page is (a loaded two-core machine)
PHONE = "127.0.0.200"  # the address of the phone that must still be answered during an attack


def free_port(host: str = "127.0.0.1") -> int:
    """A port free now on ``host`` (if another takes it first, `companion run` serves on a free one, and says so)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class RunningTable:
    """``companion run --config`` over a journal in ``folder`` holding a new two-player addon game (a fresh journal
    would open the set-up and start none); :meth:`stop` ends it with SIGTERM."""

    def __init__(self, folder: Path, *, host: str = "127.0.0.1", web_names: Sequence[str] = (),
                 command: Sequence[str] = (), preexec: Callable[[], None] | None = None) -> None:
        self.folder = folder
        with Journal(folder / "games.sqlite3") as journal:  # the host's game (a fresh journal starts none)
            journal.new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 1})
        config = folder / "config.toml"
        names = ", ".join(json.dumps(n) for n in web_names)
        config.write_text(f'display = "none"\ndice = "software"\nphone_dice = "software"\npin_factory = "mock"\n'
                          f'web_host = "{host}"\nweb_port = {free_port(host)}\nweb_names = [{names}]\n'
                          f'journal = "{folder / "games.sqlite3"}"\n', encoding="utf-8")
        self.started = time.monotonic()
        self.proc = subprocess.Popen([*command, sys.executable, "-m", "companion.cli", "run", "--config", str(config)],
                                     cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     preexec_fn=preexec)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read_out, daemon=True).start()
        url = self._wait_for("companion: phone page on ")
        self.startup = time.monotonic() - self.started
        self.host, _, port = url.removeprefix("http://").rpartition(":")
        self.host = self.host.strip("[]")
        self.port = int(port)
        kept = json.loads((folder / "games.phones.json").read_text(encoding="utf-8"))
        self.pin, self.join_code = str(kept["host_pin"]), str(kept["join_code"])

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def _wait_for(self, prefix: str) -> str:
        deadline = time.monotonic() + START_WITHIN
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=min(left, 1.0))
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            if line.startswith(prefix):
                return line.removeprefix(prefix).strip()
        self.stop()
        raise AssertionError(f"`companion run` did not say {prefix!r}: {self.proc.stderr.read()[-2000:]}")  # type: ignore[union-attr]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)

    # ------------------------------------------------------------------ memory, from /proc
    def memory(self, key: str = "VmRSS") -> int:
        """A figure of the child's ``/proc/PID/status`` in bytes (``VmRSS`` now, ``VmHWM`` its peak)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
        raise KeyError(key)

    def cpu_seconds(self) -> float:
        """The child's CPU time so far, every thread's (the ended ones' too): exact, from its process CPU clock
        (Linux's clock id for a process, as ``clock_getcpuclockid`` makes it: the scheduler's nanoseconds), where it
        can be read; else ``/proc/PID/stat``'s user and system, in 10 ms clock ticks (over a bench's 300 actions, a
        step of 33 µs an action)."""
        try:
            return time.clock_gettime(((~self.proc.pid) << 3) | 2)  # CPUCLOCK_SCHED of the whole process
        except OSError:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def reset_peak(self) -> None:
        """Start the peak (``VmHWM``) again from the memory in use now (Linux's ``clear_refs``)."""
        Path(f"/proc/{self.proc.pid}/clear_refs").write_text("5")

    # ------------------------------------------------------------------ requests
    def connect(self, source: str = PHONE, timeout: float = 30.0) -> http.client.HTTPConnection:
        """A connection from ``source`` (a loopback address standing for one device)."""
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout, source_address=(source, 0))

    def request(self, method: str, path: str, body: Any = None, *, source: str = PHONE,
                headers: dict[str, str] | None = None, timeout: float = 30.0) -> tuple[int, Any, dict[str, str]]:
        """One request on a fresh connection: the status, the JSON answer (or the text) and the headers."""
        conn = self.connect(source, timeout)
        try:
            data = json.dumps(body) if body is not None else None
            sent = {"Content-Type": "application/json", **(headers or {})} if data is not None else headers or {}
            conn.request(method, path, body=data, headers=sent)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            try:
                answer: Any = json.loads(text)
            except ValueError:
                answer = text
            return response.status, answer, dict(response.getheaders())
        finally:
            conn.close()

    def state(self) -> Any:
        status, state, _ = self.request("GET", "/api/state")
        assert status == 200, state
        return state

    def session(self, source: str = PHONE) -> dict[str, str]:
        """A fresh session's headers: its cookie and CSRF token."""
        status, answer, headers = self.request("GET", "/api/session", source=source)
        assert status == 200, answer
        return {"Cookie": headers.get("Set-Cookie", "").split(";")[0], "X-CSRFToken": answer["csrf"]}

    def signed_in(self, path: str, body: dict[str, Any], source: str = PHONE) -> dict[str, str]:
        """A session that joined (``/api/join``) or logged in (``/api/host/login``): its cookie and token."""
        headers = self.session(source)
        status, answer, got = self.request("POST", path, body, source=source, headers=headers)
        assert status == 200, answer
        return {"Cookie": got.get("Set-Cookie", "").split(";")[0] or headers["Cookie"], "X-CSRFToken": answer["csrf"]}
