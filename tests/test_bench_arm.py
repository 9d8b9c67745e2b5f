"""bench/arm.py, the figures and the table check of firmware/check-arm.sh, run natively (``--here``).

The check itself (an emulated ARM root) takes many minutes and root; these run its parts on this machine: the
table started as firmware/companion.service says, its page checked on loopback, a table that cannot start
reported, the engine figures and their comparison. Nothing is timed: only that each figure is there.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "firmware" / "companion.service"


def bench_arm(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "bench/arm.py", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def check_config(tmp_path: Path, **changes: str) -> Path:
    """firmware/config.toml as the check changes it (mock pins, no display), on a free port of loopback only."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    values = {"display": '"none"', "pin_factory": '"mock"', "web_port": str(port), "web_host": '"127.0.0.1"',
              "journal": json.dumps(str(tmp_path / "games.sqlite3")), **changes}
    lines = [line for line in (ROOT / "firmware" / "config.toml").read_text().splitlines()
             if line.split(" = ")[0] not in {*values, "pins"}]  # pins: the source tree's
    config = tmp_path / "check.toml"
    config.write_text("\n".join([*lines, *(f"{key} = {value}" for key, value in values.items())]) + "\n")
    return config


def test_the_table_starts_as_its_unit_says_and_its_page_answers(tmp_path: Path) -> None:
    result = bench_arm("table", "--unit", str(UNIT), "--config", str(check_config(tmp_path)), "--here")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["problems"] == [] and report["exit"] == 0
    assert report["startup_s"] > 0
    assert report["command"].endswith(f"companion run --config {tmp_path / 'check.toml'}")
    assert "phone page answered" in result.stderr


def test_a_table_that_cannot_start_is_reported(tmp_path: Path) -> None:
    result = bench_arm("table", "--unit", str(UNIT), "--config", str(check_config(tmp_path, pins='"/nowhere/pins.toml"')),
                       "--here")
    assert result.returncode == 1
    problems = json.loads(result.stdout)["problems"]
    assert len(problems) == 1 and re.fullmatch(r"the table ended \([1-9]\d*\) before its page answered", problems[0])
    assert "/nowhere/pins.toml" in result.stderr  # what the table said is shown


FLEETING = """# A table that answers its page and state once, then ends by itself (status 3).
import http.server, sys, tomllib
port = tomllib.load(open(sys.argv[sys.argv.index("--config") + 1], "rb"))["web_port"]
class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        status, body = (200, b"<html>the page</html>") if self.path == "/" else (409, b'{"error": "no game is running"}')
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", port), Page)
server.handle_request()
server.handle_request()
sys.exit(3)
"""


def test_a_table_that_ends_by_itself_after_its_page_answered_is_reported(tmp_path: Path) -> None:
    """The check's table passed when it died just after its page answered (issue 42)."""
    script = tmp_path / "fleeting.py"
    script.write_text(FLEETING)
    unit = tmp_path / "fleeting.service"
    unit.write_text(f"[Service]\nExecStart=/usr/bin/python3 {script} --config X\nWorkingDirectory=/var/lib/companion\n")
    result = bench_arm("table", "--unit", str(unit), "--config", str(check_config(tmp_path)), "--here")
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["problems"] == ["the table ended (3) by itself after its page answered"] and report["exit"] == 3


def test_engine_figures_and_their_comparison(tmp_path: Path) -> None:
    engine = bench_arm("engine", "--seconds", "0.2")
    assert engine.returncode == 0, engine.stderr
    figures = json.loads(engine.stdout)
    for key in ("games_per_s", "apply_p50_us", "journal_p50_ms"):
        assert figures[key] > 0
    (tmp_path / "engine.json").write_text(engine.stdout)
    (tmp_path / "table.json").write_text(json.dumps({"startup_s": 2.0}))
    slower = {**figures, "games_per_s": figures["games_per_s"] / 8, "apply_p50_us": figures["apply_p50_us"] * 8,
              "journal_p50_ms": figures["journal_p50_ms"] * 8, "startup_s": 16.0}
    (tmp_path / "slower.json").write_text(json.dumps(slower))
    compared = bench_arm("compare", "--native", str(tmp_path / "table.json"), str(tmp_path / "engine.json"),
                         "--emulated", str(tmp_path / "slower.json"), "--label", "arm64 (EMULATED)")
    assert compared.returncode == 0, compared.stderr
    assert "arm64 (EMULATED)" in compared.stdout
    assert len(re.findall(r" 8\.0×$", compared.stdout, re.MULTILINE)) == 4, compared.stdout


def test_the_units_capability_is_granted_as_systemd_grants_it(tmp_path: Path) -> None:
    """As the unit's user, AmbientCapabilities go through setpriv (the table then may bind port 80)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from arm import Launch
    finally:
        sys.path.remove(str(ROOT / "bench"))
    launch = Launch(["/opt/companion/.venv/bin/companion", "run"], "/var/lib/companion", {}, "companion", "companion",
                    ["gpio", "i2c", "spi", "audio"], ["CAP_NET_BIND_SERVICE"])
    assert launch.command() == ["setpriv", "--reuid=companion", "--regid=companion", "--groups=gpio,i2c,spi,audio",
                                "--inh-caps=+net_bind_service", "--ambient-caps=+net_bind_service", "--",
                                "/opt/companion/.venv/bin/companion", "run"]
    assert Launch(["companion"], str(tmp_path), {}).command() == ["companion"]  # --here: as this user, no setpriv
