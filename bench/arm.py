"""The figures of ``firmware/check-arm.sh``: the same four natively and in an emulated ARM root, then their ratio.

    python3 bench/arm.py table --unit /etc/systemd/system/companion.service --config CHECK.toml
    python3 bench/arm.py table --unit firmware/companion.service --config CHECK.toml --here
    python3 bench/arm.py engine --seconds 10
    python3 bench/arm.py compare --native A.json B.json --emulated C.json D.json --label "arm64 under qemu-user"

``table`` starts the table as the systemd unit's ``ExecStart`` does (the unit's user, groups, working
directory and environment; ``--config`` in place of the unit's), waits for the phone page to answer on
loopback, checks it, stops the table with SIGTERM as systemd does and prints the start-up time as JSON
(and what happened, for people, on stderr);
``--here`` runs it as the current user in a folder of its own, with the ``companion`` beside this
Python (where the unit's user and folders do not exist: natively). ``engine`` prints classic bot games
per second, ``apply`` p50 and journal append p50 (bench/run.py's measures) on the engine this Python
imports, with the bots this Python imports (both in the JSON); the check asks for the pure ones
(``COMPANION_ENGINE=pure``), as the Pi runs them. ``compare``
prints both sides' figures (each side's JSON files merged) side by side. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import (  # noqa: E402 - bench/run.py puts the project's sources first on sys.path
    BOTS_BUILD, BUILD, apply_times, journal_times, machine, percentile, play_rate, recorded_games)
from companion.config import TableConfig  # noqa: E402

STARTUP_LIMIT = 600.0  # seconds for the table to answer (a loaded machine emulating ARM is slow)
SETTLE = 3.0  # seconds the table must go on running after its page answered


@dataclass
class Launch:
    """How systemd would start the table: the command, as whom, where and with what environment."""

    argv: list[str]
    cwd: str
    env: dict[str, str]
    user: str | None = None
    group: str | None = None
    groups: list[str] = field(default_factory=list)
    #: AmbientCapabilities (``CAP_NET_BIND_SERVICE``: port 80), granted with setpriv as systemd grants them.
    capabilities: list[str] = field(default_factory=list)

    def command(self) -> list[str]:
        """The argv to start: with capabilities, setpriv takes the user, groups and capabilities, as systemd does
        (then it is run as root); else the process is started as the user directly."""
        if not self.capabilities or self.user is None:
            return self.argv
        caps = ",".join("+" + cap.lower().removeprefix("cap_") for cap in self.capabilities)
        return ["setpriv", f"--reuid={self.user}", f"--regid={self.group or self.user}",
                f"--groups={','.join(self.groups)}" if self.groups else "--clear-groups",
                f"--inh-caps={caps}", f"--ambient-caps={caps}", "--", *self.argv]


def unit_launch(unit: str, config: str, here: bool) -> Launch:
    """The ``[Service]`` of ``unit`` as a :class:`Launch`, its ``--config`` replaced by ``config``."""
    keys: dict[str, list[str]] = {}
    section = ""
    for line in Path(unit).read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            keys.setdefault(key, []).append(value)
    argv = shlex.split(keys["ExecStart"][0])
    argv[argv.index("--config") + 1] = config
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}
    for assignment in keys.get("Environment", []):
        for pair in shlex.split(assignment):
            name, value = pair.split("=", 1)
            env[name] = value
    if here:
        folder = tempfile.mkdtemp(prefix="companion-arm-")
        env.update({name: folder for name, value in env.items() if value == keys["WorkingDirectory"][0]})
        argv[0] = str(Path(sys.executable).with_name(Path(argv[0]).name))
        return Launch(argv, folder, env)
    home = pwd.getpwnam(keys["User"][0]).pw_dir
    env.update(HOME=home, USER=keys["User"][0], LOGNAME=keys["User"][0])
    return Launch(argv, keys["WorkingDirectory"][0], env, keys["User"][0], keys["Group"][0],
                  " ".join(keys.get("SupplementaryGroups", [])).split(),
                  " ".join(keys.get("AmbientCapabilities", [])).split())


def answer(url: str) -> tuple[int, str] | None:
    """The status and body of GET ``url``; None while nothing listens."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


class _Keep(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the redirect itself is the answer wanted


def captive_answer(url: str) -> tuple[int, str] | None:
    """The status and ``Location`` of GET ``url``, its redirect not followed; None while nothing listens."""
    try:
        with urllib.request.build_opener(_Keep).open(url, timeout=30) as response:
            return response.status, response.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def state_answered(state: tuple[int, str] | None) -> bool:
    """GET /api/state gave the game's state."""
    return state is not None and state[0] == 200 and "players" in json.loads(state[1] or "{}")


def waits_for_host(state: tuple[int, str] | None) -> bool:
    """GET /api/state said no game runs yet: a fresh journal's table waits for the host's set-up (409)."""
    return state is not None and state[0] == 409 and "no game is running" in state[1]


def table(unit: str, config: str, here: bool) -> dict[str, Any]:
    """Start the table as the unit does, time it until the phone page answers, check the page, stop the table."""
    launch = unit_launch(unit, config, here)
    settings = tomllib.loads(Path(config).read_text())
    port = settings.get("web_port", TableConfig.web_port)  # the table judges the rest
    base = f"http://127.0.0.1:{port}"
    # Port 80 (the captive portal) opens at the start unless the network is "home": wanted where the unit's
    # capability is granted (as its user; not --here).
    captive = settings.get("captive_port", TableConfig.captive_port)
    want_captive = bool(launch.capabilities and launch.user and captive
                        and settings.get("network", TableConfig.network) != "home")
    log = tempfile.TemporaryFile()
    started = time.perf_counter()
    direct = launch.command() == launch.argv
    process = subprocess.Popen(launch.command(), cwd=launch.cwd, env=launch.env,
                               user=launch.user if direct else None, group=launch.group if direct else None,
                               extra_groups=(launch.groups or None) if direct else None,
                               stdout=log, stderr=subprocess.STDOUT)
    result: dict[str, Any] = {"command": shlex.join(launch.argv), "user": launch.user or pwd.getpwuid(os.getuid())[0],
                              "capabilities": launch.capabilities}
    problems: list[str] = []
    try:
        page = None
        while page is None and process.poll() is None and time.perf_counter() - started < STARTUP_LIMIT:
            page = answer(base + "/")
            if page is None:
                time.sleep(0.05)
        result["startup_s"] = time.perf_counter() - started
        state = answer(base + "/api/state")
        if page is None:
            problems.append("the phone page never answered" if process.poll() is None
                            else f"the table ended ({process.returncode}) before its page answered")
        elif page[0] != 200 or "<html" not in page[1].lower():
            problems.append(f"GET / answered {page[0]}, not the page")
        if page is not None and not (state_answered(state) or waits_for_host(state)):
            problems.append(f"GET /api/state answered {state and state[0]}, not the table's state")
        if page is not None and want_captive:
            redirect = captive_answer(f"http://127.0.0.1:{captive}/generate_204")
            result["captive"] = redirect
            if redirect is None or redirect[0] != 302:
                problems.append(f"port {captive} (the captive portal) answered {redirect}, not a redirect")
        if page is not None:
            try:  # a table that ends by itself just after its page answered (its first ticks, its threads)
                process.wait(SETTLE)
            except subprocess.TimeoutExpired:
                pass
        if page is not None and process.poll() is not None:
            problems.append(f"the table ended ({process.returncode}) by itself after its page answered")
    finally:
        stopped = process.poll() is None
        if stopped:
            process.send_signal(signal.SIGTERM)  # as `systemctl stop` does
        try:
            code = process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait()
    if stopped and code != 0:
        problems.append(f"the table ended with {code} on SIGTERM, not 0")
    log.seek(0)
    result.update(problems=problems, exit=code, output=log.read().decode("utf-8", "replace"))
    return result


def engine(seconds: float) -> dict[str, Any]:
    """Classic bot games per second, ``apply`` p50 (µs) and journal append-and-sync p50 (ms) on this core."""
    rate = play_rate("classic", seconds, 3)
    applies = apply_times(recorded_games("classic", 3))
    appends = journal_times(100)
    if isinstance(appends, str):
        raise SystemExit(appends)
    return {"games_per_s": rate.games_per_second, "games": rate.games, "apply_p50_us": percentile(applies, 0.5) * 1e6,
            "journal_p50_ms": percentile(appends, 0.5) * 1e3, "engine": BUILD.describe(), "bots": BOTS_BUILD.describe(),
            "machine": machine()}


#: What ``compare`` prints: key, label, unit, format, True where more is better.
FIGURES = (("startup_s", "start-up to the phone page answering", "s", "{:.1f}", False),
           ("games_per_s", "classic, 4 bots: complete games/s (pure engine and bots)", "/s", "{:.1f}", True),
           ("apply_p50_us", "classic: apply per input p50", "µs", "{:.0f}", False),
           ("journal_p50_ms", "journal append-and-sync p50", "ms", "{:.2f}", False))


def compare(native: dict[str, Any], emulated: dict[str, Any], label: str) -> list[str]:
    """The figures side by side, each with how many times slower the emulated root was."""
    rows = [f"{'figure':<48} {'native':>12} {label:>24} {'slower by':>9}"]
    for key, what, unit, form, more_is_better in FIGURES:
        if key not in native or key not in emulated:
            rows.append(f"{what:<48} {'-':>12} {'-':>24}")
            continue
        a, b = native[key], emulated[key]
        ratio = a / b if more_is_better else b / a
        rows.append(f"{what:<48} {form.format(a) + ' ' + unit:>12} {form.format(b) + ' ' + unit:>24} {ratio:>8.1f}×")
    return rows + ["", f"native:   {native.get('machine', '?')}", f"emulated: {emulated.get('machine', '?')}"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("table", help="start the table as the unit does; time and check its phone page")
    p.add_argument("--unit", required=True, help="the systemd unit (firmware/companion.service as installed)")
    p.add_argument("--config", required=True, help="the config to give in place of the unit's")
    p.add_argument("--here", action="store_true", help="as this user, in a folder of its own (natively)")
    p = sub.add_parser("engine", help="games/s, apply p50, journal append p50")
    p.add_argument("--seconds", type=float, default=10.0, help="how long the bots play")
    p = sub.add_parser("compare", help="print two runs' figures side by side")
    p.add_argument("--native", nargs="+", required=True, help="the JSON files of table and engine, natively")
    p.add_argument("--emulated", nargs="+", required=True, help="the same, emulated")
    p.add_argument("--label", default="emulated")
    args = parser.parse_args(argv)
    if args.command == "compare":
        native, emulated = ({k: v for f in files for k, v in json.loads(Path(f).read_text()).items()}
                            for files in (args.native, args.emulated))
        print("\n".join(compare(native, emulated, args.label)))
        return 0
    if args.command == "engine":
        print(json.dumps(engine(args.seconds)))
        return 0
    result = table(args.unit, args.config, args.here)
    print(json.dumps(result))
    print(f"{result['command']}, as {result['user']}, said:\n{result['output'].rstrip()}", file=sys.stderr)
    for problem in result["problems"] or [f"its phone page answered {result['startup_s']:.1f} s after the start; "
                                          f"stopped by SIGTERM: exit {result['exit']}"]:
        print(problem, file=sys.stderr)
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
