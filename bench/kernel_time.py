"""The server's kernel time over the bench's actions, by system call and by thread, from perf's samples
(``bench/phones_bench.py --kernel``).

The user/system split every run prints (:func:`syscall_count.cpu_split`) is the kernel's tick accounting: at each of
its 250 ticks a second the running thread's tick goes to user or system, and both are scaled to the exact total. Over
a run's ~0.2 s of CPU that is ~45 ticks, so the system share it gives is good to about ±7 points (one standard
deviation of a binomial of 45 draws at ~25 %): most of the 0.07-0.27 ms the system figure swings between runs of the
same code is that count's noise, not the kernel's work. :class:`Sampler` samples the server's threads ``perf record
-e cpu-clock -F 4000 -g`` over exactly the actions (started disabled, enabled and disabled through perf's control
fifo), ~16 times as many samples, each with its kernel stack: the share to ±2 points, and where the kernel's time
went, by call and by what inside it (:data:`INSIDE`). Sampling costs the server a little (an interrupt each 250 µs of
its CPU): read the shares and the calls' sizes, not the run's total.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

FREQUENCY = 4000  # samples a second of a thread's CPU
KERNEL = 0xFFFF_8000_0000_0000  # an address at or above this is the kernel's (x86-64's upper half)
#: What a kernel sample's stack shows it was doing, the first found (from the leaf up) naming it.
INSIDE: list[tuple[str, tuple[str, ...]]] = [
    ("the virtual disk's notify (a VM exit)", ("iowrite16", "vp_notify", "vm_notify")),
    ("the receiving end's TCP (loopback runs it in the sender's call)", ("net_rx_action", "__netif_receive_skb")),
    ("waking a thread", ("try_to_wake_up", "wake_up_q", "__wake_up_common")),
    ("switching threads (a sleep, a preemption)", ("__schedule", "finish_task_switch")),
]
_SYSCALL = re.compile(r"__x64_sys_(\w+)")


class Sampler:
    """``perf record`` on process ``pid``, counting only between :meth:`start` and :meth:`stop`."""

    def __init__(self, pid: int, folder: Path) -> None:
        self.output = folder / "kernel.data"
        self.control, self.ack = folder / "perf.ctl", folder / "perf.ack"
        for fifo in (self.control, self.ack):
            os.mkfifo(fifo)
        self.proc = subprocess.Popen(
            ["perf", "record", "-e", "cpu-clock", "-F", str(FREQUENCY), "-g", "-D", "-1", "-p", str(pid), "-o",
             str(self.output), "--control", f"fifo:{self.control},{self.ack}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._ctl = os.open(self.control, os.O_WRONLY)  # opens once perf has opened its end
        self._ack = os.open(self.ack, os.O_RDONLY)

    def _say(self, command: bytes) -> None:
        os.write(self._ctl, command + b"\n")
        os.read(self._ack, 16)  # "ack"

    def start(self) -> None:
        self._say(b"enable")

    def stop(self) -> Path:
        """Stop counting and end perf; its data file."""
        self._say(b"disable")
        self.proc.send_signal(2)
        self.proc.wait(timeout=60)
        os.close(self._ctl)
        os.close(self._ack)
        return self.output


def available() -> bool:
    """Whether ``perf record`` can sample another process here (root, or ``perf_event_paranoid`` <= 1)."""
    try:
        with tempfile.TemporaryDirectory() as folder:
            done = subprocess.run(["perf", "record", "-e", "cpu-clock", "-o", f"{folder}/probe.data", "--", "true"],
                                  capture_output=True, timeout=20)
        return done.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def samples(data: Path) -> list[tuple[str, list[tuple[int, str]]]]:
    """Each sample's thread id and stack (address and symbol, the leaf first), from ``perf script``."""
    text = subprocess.run(["perf", "script", "-i", str(data), "-F", "tid,ip,sym"], capture_output=True, text=True,
                          timeout=300).stdout
    found = []
    for block in text.split("\n\n"):
        lines = block.strip().splitlines()
        if not lines:
            continue
        stack = []
        for line in lines[1:]:
            address, _, symbol = line.strip().partition(" ")
            try:
                stack.append((int(address, 16), symbol))
            except ValueError:
                continue
        found.append((lines[0].strip(), stack))
    return found


def what(stack: list[tuple[int, str]]) -> tuple[str, str] | None:
    """A kernel sample's system call (or "outside any call": an interrupt, a switch on the way back to Python) and
    what inside it (:data:`INSIDE`, else "the call's own"); None for a sample in user space."""
    if not stack or stack[0][0] < KERNEL:
        return None
    call = next((m.group(1) for _, symbol in stack if (m := _SYSCALL.match(symbol))), "outside any call")
    inside = next((name for name, marks in INSIDE if any(s.startswith(marks) for _, s in stack)), "the call's own")
    return call, inside


def report(data: Path, actions: int, names: dict[str, str]) -> str:
    """Per action: the sampled user and system time, the system time by call (and inside each), and by thread
    (``names``: a thread id -> its name)."""
    taken = samples(data)
    each = 1e6 / FREQUENCY / actions  # µs per action a sample stands for
    calls: Counter[str] = Counter()
    inside: dict[str, Counter[str]] = {}
    threads: Counter[str] = Counter()
    kernel_threads: Counter[str] = Counter()
    for thread, stack in taken:
        threads[thread] += 1
        found = what(stack)
        if found is None:
            continue
        kernel_threads[thread] += 1
        calls[found[0]] += 1
        inside.setdefault(found[0], Counter())[found[1]] += 1
    kernel, total = sum(calls.values()), max(1, len(taken))
    share = kernel / total
    error = 100 * (share * (1 - share) / total) ** 0.5
    lines = [f"the kernel's time by sampling (perf record, cpu-clock at {FREQUENCY} Hz over the actions, {len(taken)} "
             f"samples: the share to ±{error:.1f} points; load average {os.getloadavg()[0]:.1f}): user "
             f"{(total - kernel) * each:.0f} µs, system {kernel * each:.0f} µs per action ({100 * share:.0f} %)"]
    for call, n in calls.most_common():
        if n * each < 0.5:
            break
        parts = ", ".join(f"{name} {m * each:.0f}" for name, m in inside[call].most_common() if m * each >= 0.5)
        lines.append(f"  {call}: {n * each:.0f} µs ({parts})")
    lines.append("  by thread (µs per action, of which the kernel's):")
    for thread, n in threads.most_common(4):
        lines.append(f"    {names.get(thread, '?')} ({thread}): {n * each:.0f} ({kernel_threads[thread] * each:.0f})")
    return "\n".join(lines)


def thread_names(pid: int) -> dict[str, str]:
    """The server's threads' names by id (``/proc/PID/task/*/comm``)."""
    names = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            names[task.name] = (task / "comm").read_text().strip()
        except OSError:
            continue
    return names


def settle(seconds: float = 1.0) -> None:
    """Let perf attach to every thread before the window opens."""
    time.sleep(seconds)
