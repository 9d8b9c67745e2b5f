"""The captive portal as ``companion run`` builds it: the real cheroot server on loopback, a fake nmcli on PATH.

Every operating system's connectivity check, under its own (foreign) name, gets a redirect to the page under the
Pi's own address on its Wi-Fi, and nothing else: no cookie, no state, no page. The page's port still refuses
foreign names (the DNS-rebinding guard)."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.network.dnsmasq import drop_in
from companion.network.nmcli import HOTSPOT_ADDRESS, HOTSPOT_PREFIX, hotspot_profile
from companion.web.captive import PROBES

from .fakes import install

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # seconds at most for the table to start on a loaded machine (never a measure of speed)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ask(port: int, method: str, host: str, path: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, headers={"Host": host})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


@pytest.fixture
def running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, int, Path]]:
    nm = install(tmp_path / "nm", monkeypatch)
    web, captive = free_port(), free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'display = "none"\ndice = "software"\npin_factory = "mock"\nweb_host = "127.0.0.1"\n'
                      f'web_port = {web}\ncaptive_port = {captive}\nnetwork = "hotspot"\nwifi_country = "GB"\n'
                      f'journal = "{tmp_path / "games.sqlite3"}"\n', encoding="utf-8")
    with Journal(tmp_path / "games.sqlite3") as journal:  # the host's game (a fresh journal starts none)
        journal.new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 1})
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--config", str(config)], cwd=ROOT,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("companion: resumed game 1")
        deadline = time.monotonic() + WAIT
        while not hotspot_up(captive):  # the page is on the hotspot's address once it is up
            assert time.monotonic() < deadline and proc.poll() is None, "the hotspot did not open"
            time.sleep(0.05)
        assert nm.read()["active"] == ["companion-hotspot"]
        yield web, captive, tmp_path
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, err


def hotspot_up(captive: int) -> bool:
    try:
        location = ask(captive, "GET", "captive.apple.com", "/hotspot-detect.html").getheader("Location") or ""
    except OSError:  # not listening yet
        return False
    return location.startswith(f"http://{HOTSPOT_ADDRESS}:")


def journal_rows(folder: Path) -> int:
    import sqlite3

    with sqlite3.connect(folder / "games.sqlite3") as db:
        return sum(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                   for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))


def test_every_probe_under_its_foreign_name_gets_only_the_redirect(running: tuple[int, int, Path]) -> None:
    web, captive, folder = running
    page = f"http://{HOTSPOT_ADDRESS}:{web}/"
    before = journal_rows(folder)
    kept = sorted(p.name for p in folder.iterdir())
    for host, path in PROBES:
        for method in ("GET", "HEAD", "POST"):
            response = ask(captive, method, host, path)
            assert (response.status, response.getheader("Location")) == (302, page), (method, host, path)
            assert response.getheader("Set-Cookie") is None
            assert response.getheader("Cache-Control") == "no-store"
    # Any other name and path too (a browser typing any address on the table's Wi-Fi): the same redirect.
    for host, path in (("evil.example", "/api/state"), ("evil.example", "/api/host/join"), ("10.42.0.1", "/"),
                       ("example.com", "/../../etc/passwd")):
        response = ask(captive, "GET", host, path)
        assert (response.status, response.getheader("Location"), response.getheader("Set-Cookie")) == (302, page, None)
    assert journal_rows(folder) == before and sorted(p.name for p in folder.iterdir()) == kept  # no state
    # The page itself still answers only to its own names: the DNS-rebinding guard stays.
    for host, path in PROBES:
        response = ask(web, "GET", host, path)
        assert response.status == 400 and response.getheader("Set-Cookie") is None
    assert ask(web, "GET", f"127.0.0.1:{web}", "/api/state").status == 200


def test_the_dnsmasq_drop_in_names_the_address_the_hotspot_is_given() -> None:
    assert drop_in() == ("# companion (firmware/install.sh): on the table's own Wi-Fi every name is the Pi, so that "
                         "phones'\n# connectivity checks reach it and the table's page opens by itself "
                         "(companion/web/captive.py).\naddress=/#/10.42.0.1\n")
    profile = hotspot_profile("wlan0", "n", "p" * 8, 6)
    assert profile[profile.index("ipv4.addresses") + 1] == f"{HOTSPOT_ADDRESS}/{HOTSPOT_PREFIX}"
    printed = subprocess.run([sys.executable, "-m", "companion.network.dnsmasq"], capture_output=True, text=True,
                             check=True, cwd=ROOT).stdout
    assert printed == drop_in()  # what firmware/install.sh writes


def test_idle_and_half_sent_requests_from_one_device_do_not_stall_the_portal(running: tuple[int, int, Path]) -> None:
    """4 idle connections from one device held the portal's 4 threads (a per-device cap of 8): another phone's
    connectivity check waited. (Here rather than in tests/web/test_hostile.py: the portal needs the hotspot's fakes.)"""
    _, captive, _ = running
    held = []
    try:
        for n in range(12):  # idle, and a head sent a line short of its end
            sock = socket.create_connection(("127.0.0.1", captive), timeout=10, source_address=("127.0.0.2", 0))
            if n % 2:
                sock.sendall(b"GET /generate_204 HTTP/1.1\r\nHost: connectivitycheck.gstatic.com\r\n")
            held.append(sock)
        time.sleep(1)
        for _ in range(5):  # within a phone's patience each (a connection's time-out of 3 s: nothing timed)
            connection = http.client.HTTPConnection("127.0.0.1", captive, timeout=3, source_address=("127.0.0.3", 0))
            connection.request("GET", "/generate_204", headers={"Host": "connectivitycheck.gstatic.com"})
            assert connection.getresponse().status == 302
            connection.close()
    finally:
        for sock in held:
            sock.close()
