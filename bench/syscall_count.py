"""The server's system calls and its user / system CPU over the bench's actions (``bench/phones_bench.py
--syscalls``; the user / system split is printed on every run).

:func:`cpu_split` reads the process's user and system CPU (``/proc/PID/stat``'s ``utime`` and ``stime``, every
thread, the ended ones included). The kernel samples which of the two a tick lands in (250 a second here) and
scales both to the precise total, so the split of ~0.3 s of CPU is good to a few percent, the total better.

:class:`Tracer` counts the server's system calls by thread and kind over a window: ``perf trace -s -p PID``
(tracepoints, no stop of the traced thread; it needs root or ``perf_event_paranoid`` <= 1), else ``strace -f -c -p
PID`` (ptrace: every call stops the thread, so the run slows several times; totals only, not per thread). Both make
the server slower while they count: the counts are what matter, not the bench's times in that run. The threads
are told apart by name: :data:`SITECUSTOMIZE` (loaded into ``companion run`` for this run only, as ``--parts``'s
hook is; the product never imports it) gives each OS thread its Python thread's name (``/proc/self/task/TID/comm``,
15 characters), so a cheroot worker shows as ``cp-12``, the buzzer as ``buzzer``.

:func:`report` prints calls per action by kind (sends, receives, waits, locks, the journal's disk, the wake-ups),
EAGAIN's share, and per thread; the trace's start-up adds a little idle time to the window, whose calls (at the
idle rate, traced too) are taken away.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

#: ``companion run``'s sitecustomize for a ``--syscalls`` run: every thread's OS name is its Python name.
SITECUSTOMIZE = '''
import os
if os.environ.get("COMPANION_SYSCALLS"):
    import re, threading
    def _name(python_name):
        cheroot = re.match(r"CP Server Thread-(\\d+)", python_name)
        if cheroot:
            return "cp-" + cheroot.group(1)
        target = re.match(r"Thread-\\d+ \\((.+)\\)", python_name)
        return (target.group(1) if target else python_name)[:15]
    def _set(name):
        try:
            with open(f"/proc/self/task/{threading.get_native_id()}/comm", "w") as comm:
                comm.write(_name(name))
        except OSError:
            pass
    _inner = threading.Thread._bootstrap_inner
    def _bootstrap_inner(self):
        _set(self.name)
        _inner(self)
    threading.Thread._bootstrap_inner = _bootstrap_inner
    _set("main")
'''

#: The kinds the report groups the calls into (a call in none is "other").
KINDS: list[tuple[str, tuple[str, ...]]] = [
    ("sends (the phones' frames, the replies)", ("sendto", "sendmsg", "write", "writev", "send")),
    ("receives", ("recvfrom", "recvmsg", "read", "readv", "recv")),
    ("waits on sockets and pipes (select, poll, epoll)", ("select", "pselect6", "poll", "ppoll", "epoll_wait",
                                                          "epoll_pwait", "epoll_pwait2", "epoll_ctl")),
    ("futex (the GIL's hand-offs, locks, conditions, events)", ("futex",)),
    ("the journal's disk (fdatasync, fsync, pwrite, pread, lseek, fcntl locks)",
     ("fdatasync", "fsync", "pwrite64", "pread64", "lseek", "fcntl")),
    ("files opened, stat'd, closed (statvfs: the disk check)", ("openat", "close", "newfstatat", "fstat", "statfs",
                                                                 "fstatfs", "access", "unlink")),
    ("memory (mmap, munmap, brk, madvise)", ("mmap", "munmap", "brk", "madvise", "mprotect", "mremap")),
    ("clocks and sleeps (clock_gettime is the vDSO's: not a call)", ("clock_gettime", "clock_nanosleep",
                                                                     "nanosleep", "gettimeofday")),
]


SHOWN_THREADS = 6  # the busiest threads shown one by one


def cpu_split(pid: int) -> tuple[float, float]:
    """The process's user and system CPU so far, seconds (every thread, ``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def tick_hz() -> int | None:
    """The kernel's ticks a second (``CONFIG_HZ``, from ``/proc/config.gz``), at which it samples user or system time
    when it accounts by ticks (``CONFIG_TICK_CPU_ACCOUNTING``); None where it cannot be read or the kernel accounts
    exactly."""
    import gzip

    try:
        config = gzip.decompress(Path("/proc/config.gz").read_bytes()).decode(errors="replace")
    except OSError:
        return None
    if "CONFIG_TICK_CPU_ACCOUNTING=y" not in config:
        return None
    found = re.search(r"^CONFIG_HZ=(\d+)$", config, re.MULTILINE)
    return int(found.group(1)) if found else None


def split_note(user: float, system: float) -> str | None:
    """How far the user/system split of ``user`` + ``system`` seconds can be trusted: the kernel samples, at each of
    its ticks, whether the running thread is in user or system mode, so over n ticks the system share has a binomial
    error of sqrt(p(1-p)/n). None where the kernel does not account by ticks (or says not)."""
    from kernel_time import FREQUENCY  # --kernel's samples a second

    hz = tick_hz()
    ticks = (user + system) * hz if hz else 0.0
    if not hz or not ticks:
        return None
    share = system / (user + system)
    error = 100 * (share * (1 - share) / ticks) ** 0.5
    return (f"the user/system split is the kernel's tick sampling ({ticks:.0f} ticks at {hz} Hz over the actions): "
            f"the system share to ±{error:.0f} points, ±{100 * error / max(100 * share, 1e-9):.0f} % of the system "
            f"figure (one standard deviation; --kernel samples it {FREQUENCY // hz} times as finely)")


def switches(pid: int) -> dict[str, tuple[int, int]]:
    """Each thread's voluntary and involuntary context switches so far (``/proc/PID/task/*/status``), by its name and
    id as :class:`Tracer`'s counts name it: a voluntary one is a thread that slept (a wait, a lock, the GIL, the disk)
    and was woken; an involuntary one, a thread the scheduler put aside while it could run."""
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            fields = dict(line.split(":", 1) for line in (task / "status").read_text().splitlines() if ":" in line)
        except OSError:
            continue  # a thread that ended meanwhile
        counts[f"{name} ({task.name})"] = (int(fields["voluntary_ctxt_switches"]),
                                           int(fields["nonvoluntary_ctxt_switches"]))
    return counts


def thread_times(pid: int) -> dict[str, tuple[int, int, int, int, int]]:
    """Each thread's CPU and sleeps so far, by its name and id as :func:`switches` names it: its time on a CPU in ns
    (``/proc/PID/task/TID/schedstat``'s first field: exact), its user and system clock ticks (``stat``: the
    kernel's sampled split of that time), and its voluntary and involuntary context switches."""
    times = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            ran = int((task / "schedstat").read_text().split()[0])
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            status = dict(line.split(":", 1) for line in (task / "status").read_text().splitlines() if ":" in line)
        except OSError:
            continue  # a thread that ended meanwhile
        times[f"{name} ({task.name})"] = (ran, int(fields[11]), int(fields[12]), int(status["voluntary_ctxt_switches"]),
                                          int(status["nonvoluntary_ctxt_switches"]))
    return times


def by_thread(before: dict[str, tuple[int, int, int, int, int]], after: dict[str, tuple[int, int, int, int, int]],
              actions: int, parts: dict[str, float] | None = None, shown: int = SHOWN_THREADS) -> str:
    """Per action, each busy thread's CPU (its user and system parts: the ticks' split of the exact time), how often
    it was woken and put aside between ``before`` and ``after`` (:func:`thread_times`); with ``parts`` (the thread id
    -> seconds inside ``--parts``' timed functions), what of its CPU no part holds."""
    rows = []
    for thread, (ran, user, system, voluntary, involuntary) in after.items():
        was = before.get(thread, (0, 0, 0, 0, 0))
        ran, user, system = ran - was[0], user - was[1], system - was[2]
        voluntary, involuntary = voluntary - was[3], involuntary - was[4]
        if ran / actions < 1000 and voluntary / actions < 0.05:
            continue  # under a µs an action and hardly woken: an idle phone's thread
        kernel = ran * system / (user + system) if user + system else 0.0
        line = (f"    {thread}: {ran / 1000 / actions:.0f} µs (user {(ran - kernel) / 1000 / actions:.0f}, system "
                f"{kernel / 1000 / actions:.0f}); woken {voluntary / actions:.2f}, put aside {involuntary / actions:.2f}")
        if parts is not None:
            inside = 1e6 * parts.get(thread.rsplit("(", 1)[1].rstrip(")"), 0.0) / actions
            line += f"; in the parts {inside:.0f} µs, the rest {ran / 1000 / actions - inside:.0f} µs"
        rows.append((ran, line))
    rows.sort(key=lambda row: -row[0])
    lines = ["  by thread (µs of CPU per action, its user and system split; woken: slept and was woken; put aside: "
             "preempted while it could run):"] + [line for _, line in rows[:shown]]
    if len(rows) > shown:
        lines.append(f"    {len(rows) - shown} other threads: {sum(r for r, _ in rows[shown:]) / 1000 / actions:.0f} µs")
    return "\n".join(lines)


#: A thread's counts: its name (and id) -> syscall -> (calls, errors).
Counts = dict[str, dict[str, tuple[int, int]]]


def tool() -> str | None:
    """``perf`` if it can trace another process here, else ``strace``, else None."""
    if shutil.which("perf"):
        try:
            probe = subprocess.run(["perf", "trace", "-s", "--", "true"], capture_output=True, timeout=20)
            if probe.returncode == 0 and b"Summary of events" in probe.stdout + probe.stderr:
                return "perf"
        except (OSError, subprocess.TimeoutExpired):
            pass
    return "strace" if shutil.which("strace") else None


class Tracer:
    """The system calls of process ``pid`` from :meth:`start` to :meth:`stop` (see the module's text)."""

    def __init__(self, pid: int, output: Path, using: str) -> None:
        self.pid, self.output, self.using = pid, output, using
        self.proc: subprocess.Popen[bytes] | None = None
        self.began = 0.0
        self.seconds = 0.0

    def start(self, settle: float = 1.5) -> None:
        """Start tracing, then wait ``settle`` seconds for the tracer to attach to every thread."""
        command = (["perf", "trace", "-s", "-p", str(self.pid), "-o", str(self.output)] if self.using == "perf"
                   else ["strace", "-f", "-c", "-p", str(self.pid), "-o", str(self.output)])
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.began = time.monotonic()
        time.sleep(settle)

    def stop(self) -> Counts:
        """Stop tracing; the counts by thread (one "all threads" entry with strace)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)
        self.seconds = time.monotonic() - self.began
        text = self.output.read_text(encoding="utf-8", errors="replace")
        return parse_perf(text) if self.using == "perf" else parse_strace(text)


_PERF_THREAD = re.compile(r"^\s*(\S.*?) \((\d+)\), \d+ events")
_PERF_ROW = re.compile(r"^\s+([a-z_0-9]+)\s+(\d+)\s+(\d+)\s+[\d.]+")
_STRACE_ROW = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(\d*)\s*([a-z_0-9]+)\s*$")


def parse_perf(text: str) -> Counts:
    counts: Counts = {}
    thread: dict[str, tuple[int, int]] | None = None
    for line in text.splitlines():
        if match := _PERF_THREAD.match(line):
            thread = counts.setdefault(f"{match.group(1)} ({match.group(2)})", {})
        elif thread is not None and (match := _PERF_ROW.match(line)):
            thread[match.group(1)] = (int(match.group(2)), int(match.group(3)))
    return counts


def parse_strace(text: str) -> Counts:
    every: dict[str, tuple[int, int]] = {}
    for line in text.splitlines():
        if (match := _STRACE_ROW.match(line)) and match.group(3) != "total":
            every[match.group(3)] = (int(match.group(1)), int(match.group(2) or 0))
    return {"all threads": every}


def totals(counts: Counts, column: int = 0) -> Counter[str]:
    """Calls by syscall, every thread (``column`` 1: the calls that failed)."""
    total: Counter[str] = Counter()
    for calls in counts.values():
        for name, figures in calls.items():
            total[name] += figures[column]
    return total


def kind_of(name: str) -> str:
    return next((kind for kind, names in KINDS if name in names), "other")


def report(using: str, actions: int, traced: Counts, traced_seconds: float, idle: Counts, idle_seconds: float,
           actions_seconds: float, woken: dict[str, tuple[int, int]]) -> str:
    """Calls per action by kind and by syscall, less the idle table's calls over the trace's extra time; and per
    thread, with its context switches over the actions (``woken``: :func:`switches`' differences)."""
    extra = max(0.0, traced_seconds - actions_seconds)  # the tracer's start and stop around the actions: idle time
    rate = {name: n / idle_seconds for name, n in totals(idle).items()} if idle_seconds else {}
    calls = totals(traced)
    failed = totals(traced, 1)
    per = {name: max(0.0, (n - rate.get(name, 0.0) * extra) / actions) for name, n in calls.items()}
    lines = [f"system calls per action ({using}, every thread of the server, {actions} actions; the idle table's "
             f"calls over the trace's {extra:.1f} s outside the actions taken away at its rate; "
             f"load average {os.getloadavg()[0]:.1f}):"]
    by_kind: dict[str, list[str]] = {}
    for name in sorted(per, key=lambda n: -per[n]):
        if per[name] >= 0.005:
            by_kind.setdefault(kind_of(name), []).append(name)
    for kind in [k for k, _ in KINDS] + ["other"]:
        names = by_kind.get(kind)
        if not names:
            continue
        said = ", ".join(f"{name} {per[name]:.2f}" + (f" ({failed[name] / calls[name]:.0%} failed)"
                                                      if failed[name] else "") for name in names)
        lines.append(f"  {kind}: {sum(per[n] for n in names):.2f} ({said})")
    lines.append(f"  together: {sum(per.values()):.2f} calls per action")
    if idle_seconds:
        idle_calls = totals(idle)
        lines.append(f"  the idle table: {sum(idle_calls.values()) / idle_seconds:.0f} calls a second ("
                     + ", ".join(f"{name} {n / idle_seconds:.1f}" for name, n in idle_calls.most_common(6)) + ")")
    if len(traced) > 1:
        lines.append("  by thread (calls per action over the window, the busiest first; its context switches over the "
                     "actions, voluntary: woken after a sleep, and involuntary):")
        busy = sorted(traced.items(), key=lambda item: -sum(n for n, _ in item[1].values()))
        for rank, (thread, syscalls) in enumerate(busy):
            total = sum(n for n, _ in syscalls.values()) / actions
            if total < 0.05:
                continue
            if rank == SHOWN_THREADS:  # the stream's POSTs: each request on the next thread of cheroot's pool
                rest = sum(n for _, calls in busy[rank:] for n, _ in calls.values()) / actions
                lines.append(f"    {len(busy) - rank} other threads: {rest:.2f} together")
                break
            top = sorted(syscalls.items(), key=lambda item: -item[1][0])[:7]
            voluntary, involuntary = woken.get(thread, (0, 0))
            lines.append(f"    {thread}: {total:.2f} (" + ", ".join(
                f"{name} {n / actions:.2f}" + (f" [{e / actions:.2f} failed]" if e else "") for name, (n, e) in top)
                + f"); woken {voluntary / actions:.2f}, put aside {involuntary / actions:.2f}")
    return "\n".join(lines)
