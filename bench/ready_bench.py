"""Ready within a minute: from a fresh directory, README's first command to the demo's first OLED frame.

    python3 bench/ready_bench.py [--runs 2] [--keep]

The project's files as git tracks them (the working tree's contents) are copied into a new temporary directory;
README's first command runs there as printed (`python3 -m venv .venv && .venv/bin/pip install ... && .venv/bin/
companion demo`), with the demo pointed at a button script and a frames folder (`--headless --input ... --frames
...`, since a benchmark has no terminal), and the time to the first frame file is printed. Then the same line again
in the same directory (a second run must not compile again), and the figures of the machine it ran on (cores, load).
Figures are printed, never asserted; the pip index is whatever pip is configured with (a mirror, or PyPI).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = "WAIT 500\nROLL\nDICE 1 2\nWAIT 500\n"


def first_command() -> str:
    """README's first command: the line that sets up and starts the simulated table."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for line in readme.splitlines():
        if line.startswith("python3 -m venv .venv") and "companion demo" in line:
            return line.strip()
    raise SystemExit("README has no first command (python3 -m venv .venv ... companion demo)")


def copy_project(target: Path) -> None:
    """The files git tracks, as they are in the working tree (what a fresh clone of this commit would hold)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, (f.decode() for f in files)):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def timed_run(command: str, where: Path, frames: Path) -> tuple[float | None, float, str]:
    """Seconds to the first frame (None: none came), seconds to the end, the output's last line."""
    if frames.exists():
        shutil.rmtree(frames)
    script = where / "ready.buttons"
    script.write_text(SCRIPT)
    line = command + f" --headless --input {script} --frames {frames}"
    line = line.replace(" && ", " && echo @@step $(date +%s.%N) && ")  # when each step of the line ended
    env = {k: v for k, v in os.environ.items() if k not in ("COMPANION_COMPILE", "COMPANION_PURE", "CI",
                                                            "VIRTUAL_ENV")}
    start, started = time.monotonic(), time.time()
    proc = subprocess.Popen(["bash", "-c", line], cwd=where, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    first = None
    while proc.poll() is None:
        if first is None and (frames / "frame-0001.png").exists():
            first = time.monotonic() - start
        time.sleep(0.05)
    end = time.monotonic() - start
    if first is None and (frames / "frame-0001.png").exists():
        first = end
    output = (proc.stdout.read() if proc.stdout else "").strip().splitlines()
    compiled = any(re.search(r"cython|building '", o, re.I) for o in output)
    tail = output[-1] if output else ""
    marks = [float(o.split()[1]) for o in output if o.startswith("@@step ")]
    steps = [b - a for a, b in zip([started, *marks], marks, strict=False)]
    named = ", ".join(f"{name} {s:.1f} s" for name, s in zip(("venv", "pip install"), steps, strict=False))
    return first, end, ("compiled the engine; " if compiled else "") + f"{named}; exit {proc.returncode}: {tail[:50]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="runs of the same line in the same directory")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    command = first_command()
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; "
          f"python {sys.version.split()[0]}")
    print(f"README's first command: {command}")
    where = Path(tempfile.mkdtemp(prefix="companion-ready-"))
    try:
        copy_project(where)
        for run in range(1, args.runs + 1):
            first, end, note = timed_run(command, where, where / "frames")
            shown = f"{first:.1f} s" if first is not None else "no frame"
            print(f"run {run} ({'fresh directory' if run == 1 else 'same directory again'}): first frame after "
                  f"{shown}, done after {end:.1f} s (target: first frame within 60 s) [{note}]")
    finally:
        if args.keep:
            print(f"kept: {where}")
        else:
            shutil.rmtree(where, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
