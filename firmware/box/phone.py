"""The people around the booted box of ``firmware/check-box.sh``: the host at the table and the phones.

Run inside the virtual machine by ``firmware/box/agent.sh``, with the Python of a venv of the check's own (Pillow
and zxing-cpp: the camera), never the table's. Only the table's HTTP API is used, as the page's script uses it::

    phone.py wait URL [--limit S]                     the page and the state answer (prints the seconds waited)
    phone.py host URL --phones FILE [--setup JSON] --out FILE
        the host, at the table: logs in with the PIN the OLED shows (read from the kept file, as a person reads
        the screen), starts a game if asked, reads the join code and scans the Wi-Fi's QR code off the host page
        (the hotspot is up)
    phone.py redirect URL                             the captive portal answers URL with a redirect
    phone.py captive NAME --out FILE                  a phone's connectivity check on a fresh network
    phone.py join URL --jar FILE --code CODE --player NAME
    phone.py play URL --jar FILE --player NAME        one roll from that phone; the state must show it
    phone.py stream URL --jar NAME=FILE... --acked FILE [--inputs N]
        phones play the game; every input the table acknowledged is appended to FILE (synced) before the next
    phone.py verify URL --phones FILE --acked FILE    every acknowledged input is in the table's game
    phone.py loudness WAV                             the recording's RMS level (prints it)

Exit status 0: what was asked happened; else one line saying what did not.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import math
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.request
import wave
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

TIMEOUT = 30.0


class Failed(Exception):
    """What the check wanted and did not see: one line."""


class Phone:
    """A browser's view of the table: its cookies (kept in ``jar``, so a phone outlives a reboot) and CSRF token."""

    def __init__(self, base: str, jar: Path | None = None) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.LWPCookieJar(str(jar)) if jar else http.cookiejar.LWPCookieJar()
        if jar and jar.exists():
            self.jar.load(ignore_discard=True)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf: str | None = None  # the session's token, asked for once

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        headers = {"Accept": "application/json"}
        data = None
        if method != "GET":
            if self.csrf is None:
                self.csrf = str(self.json("GET", "/api/session")["csrf"])
            headers["X-CSRFToken"] = self.csrf
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(req, timeout=TIMEOUT) as response:
                status, content = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, content = error.code, error.read()
        if self.jar.filename:
            keep(self.jar)
        return status, content

    def json(self, method: str, path: str, body: Any = None, *, ok: tuple[int, ...] = (200,)) -> Any:
        status, content = self.request(method, path, body)
        if status not in ok:
            raise Failed(f"{method} {path} answered {status}: {content[:300].decode('utf-8', 'replace')}")
        return json.loads(content) if content else None


def keep(jar: http.cookiejar.LWPCookieJar) -> None:
    """Save the cookies whole or not at all, as a phone's browser does: the power may go at any moment."""
    path = str(jar.filename)
    jar.save(path + ".new", ignore_discard=True)
    with open(path + ".new", "rb") as saved:
        os.fsync(saved.fileno())
    os.replace(path + ".new", path)


def answer(url: str) -> tuple[int, str] | None:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except (urllib.error.URLError, OSError):
        return None


def wait(base: str, limit: float) -> float:
    """Seconds until ``GET /`` gives the page and ``GET /api/state`` answers (200, or 409 before a game)."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        page = answer(base + "/")
        if page is not None and page[0] == 200 and "<html" in page[1].lower():
            state = answer(base + "/api/state")
            if state is not None and state[0] in (200, 409):
                return time.monotonic() - started
        time.sleep(0.2)
    raise Failed(f"{base} did not answer with the page within {limit:.0f} s")


# ---------------------------------------------------------------------- the camera
def svg_modules(svg: str) -> list[list[bool]]:
    """The dark modules of a QR code drawn by segno as SVG (one path of horizontal strokes), row by row."""
    size = int(float(re.search(r'viewBox="0 0 ([\d.]+)', svg).group(1)))  # type: ignore[union-attr]
    scale = float(re.search(r"scale\(([\d.]+)\)", svg).group(1))  # type: ignore[union-attr]
    path = re.search(r'<path[^>]*stroke="[^"]*"[^>]*d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    count = round(size / scale)
    rows = [[False] * count for _ in range(count)]
    x = y = 0.0
    for command, a, b in re.findall(r"([MmHh])\s*(-?[\d.]+)(?:[ ,](-?[\d.]+))?", path):
        if command in "Mm":
            x, y = (float(a), float(b)) if command == "M" else (x + float(a), y + float(b))
        else:
            end = float(a) if command == "H" else x + float(a)
            for column in range(int(x), int(end)):
                rows[int(y)][column] = True
            x = end
    return rows


def camera(svg: str) -> str:
    """What a phone's camera reads from the QR code on the host's screen: the SVG drawn, then zxing-cpp."""
    from PIL import Image
    import zxingcpp

    rows = svg_modules(svg)
    image = Image.new("L", (len(rows), len(rows)), 255)
    image.putdata([0 if dark else 255 for row in rows for dark in row])
    found = zxingcpp.read_barcodes(image.resize((len(rows) * 8, len(rows) * 8), Image.Resampling.NEAREST))
    if len(found) != 1:
        raise Failed(f"the camera read {len(found)} QR codes on the host's screen, not one")
    return str(found[0].text)


def read_wifi_qr(text: str) -> dict[str, str]:
    r"""The fields of a ``WIFI:`` code as a phone reads them: ``K:value;`` pairs, ``\x`` standing for ``x``."""
    if not (text.startswith("WIFI:") and text.endswith(";;")):
        raise Failed(f"not a Wi-Fi QR code: {text[:40]!r}")
    fields, key, value, escaped, in_value = {}, "", "", False, False
    for ch in text[5:-1]:
        if escaped:
            value, escaped = value + ch, False
        elif ch == "\\":
            escaped = True
        elif not in_value and ch == ":":
            in_value = True
        elif not in_value:
            key += ch
        elif ch == ";":
            fields[key], key, value, in_value = value, "", "", False
        else:
            value += ch
    return fields


# ---------------------------------------------------------------------- the host
def host_login(base: str, phones: Path) -> Phone:
    host = Phone(base)
    pin = json.loads(phones.read_text())["host_pin"]  # what the OLED shows the person at the table
    host.json("POST", "/api/host/login", {"pin": pin})
    return host


def host(base: str, phones: Path, setup: dict[str, Any] | None, limit: float = 60.0) -> dict[str, Any]:
    """Log in, start a game if asked, and read the join code and the Wi-Fi's QR code off the host page (which
    shows it once the table has seen its hotspot open: ``limit`` seconds at most)."""
    you = host_login(base, phones)
    if setup is not None:
        you.json("POST", "/api/host/new-game", {"setup": setup})
    started = time.monotonic()
    join = you.json("GET", "/api/host/join")
    while not join.get("wifi") and time.monotonic() - started < limit:
        time.sleep(1)
        join = you.json("GET", "/api/host/join")
    if not join.get("wifi"):
        raise Failed(f"the host page showed no Wi-Fi QR code within {limit:.0f} s of the hotspot opening")
    wifi = read_wifi_qr(camera(join["wifi"]["svg"]))
    if wifi.get("T") != "WPA":
        raise Failed(f"the Wi-Fi QR code says security {wifi.get('T')!r}, not WPA")
    return {"code": join["code"], "url": join["url"], "ssid": wifi["S"], "password": wifi["P"]}


# ---------------------------------------------------------------------- a phone on a new network
def redirect(address: str, port: int, path: str, name: str) -> str:
    """Where ``GET http://name/path``, sent to ``address``, is redirected (Failed if it is not)."""
    connection = http.client.HTTPConnection(address, port, timeout=TIMEOUT)
    connection.request("GET", path, headers={"Host": name})
    response = connection.getresponse()
    response.read()
    location = response.getheader("Location") or ""
    if response.status != 302 or not location:
        raise Failed(f"http://{name}{path} answered {response.status} {location}, not a redirect")
    return location


def captive(name: str) -> dict[str, Any]:
    """As a phone does on joining: resolve the check's name, GET it on port 80, follow the redirect to the page."""
    address = str(socket.getaddrinfo(name, 80, socket.AF_INET, socket.SOCK_STREAM)[0][4][0])
    location = redirect(address, 80, "/generate_204", name)
    page = answer(location)
    if page is None or page[0] != 200 or "<html" not in page[1].lower():
        raise Failed(f"the redirect to {location} did not lead to the page ({page and page[0]})")
    return {"name": name, "address": address, "location": location}


def join(base: str, jar: Path, code: str, player: str) -> dict[str, Any]:
    phone = Phone(base, jar)
    joined = phone.json("POST", "/api/join", {"code": code, "player": player})
    if joined.get("player") != player or phone.json("GET", "/api/session")["player"] != player:
        raise Failed(f"the phone did not hold {player}'s seat after joining")
    return {"player": player}


def play(base: str, jar: Path, player: str) -> dict[str, Any]:
    """One roll from ``player``'s phone; the table's state must show it afterwards."""
    phone = Phone(base, jar)
    before = phone.json("GET", "/api/state")
    prompt = before.get("prompt") or {}
    if prompt.get("kind") != "roll" or prompt.get("player") != player:
        raise Failed(f"the game waits for {prompt}, not for {player}'s roll")
    done = phone.json("POST", "/api/roll", {"seq": before["seq"]})  # what changed, the new seq, the events
    after = phone.json("GET", "/api/state")
    if after["seq"] != before["seq"] + 1 or after["seq"] != done["seq"]:
        raise Failed(f"the state's seq went {before['seq']} -> {after['seq']} after the roll")
    return {"seq": after["seq"], "events": done["events"], "log": after.get("log", [])[-3:]}


# ---------------------------------------------------------------------- a stream of inputs, and power cuts
def choices(prompt: dict[str, Any], players: list[str]) -> list[tuple[str, str, dict[str, Any] | None]]:
    """What the phones may send now, in order of preference: (player, path, input line or None for a roll)."""
    who = prompt.get("player")
    if prompt.get("kind") == "roll":
        return [(who, "/api/roll", None)] if who in players else []
    if prompt.get("kind") == "auction":  # no one's prompt: every phone leaves the auction
        return [(name, "/api/input", {"act": {"player": name, "do": "pass"}}) for name in players]
    options = list(prompt.get("options") or [])
    options.sort(key=lambda option: option != "no")  # buy nothing: the game stays a long walk round the board
    return [(who, "/api/input", {"answer": option}) for option in options if who in players]


def stream(base: str, jars: dict[str, Path], acked: Path, inputs: int) -> int:
    """Phones play (rolls and answers) until ``inputs`` were acknowledged (0: until the power goes); each
    acknowledged input is on disk before the next one is sent."""
    phones = {name: Phone(base, jar) for name, jar in jars.items()}
    any_phone = next(iter(phones.values()))
    done = 0
    if acked.exists():  # a line the last power cut tore: dropped, as verify drops it
        whole = acked.read_bytes()
        acked.write_bytes(whole[:whole.rfind(b"\n") + 1])
    with acked.open("a", encoding="utf-8") as out:
        while inputs == 0 or done < inputs:
            game = any_phone.json("GET", "/api/session")["game_id"]
            state = any_phone.json("GET", "/api/state")
            if state.get("winner"):
                raise Failed(f"the game was won by {state['winner']} during the stream")
            for player, path, line in choices(state.get("prompt") or {}, list(phones)):
                status, content = phones[player].request("POST", path, {"input": line, "seq": state["seq"]}
                                                         if line is not None else {"seq": state["seq"]})
                if status == 200:
                    seq = json.loads(content)["seq"]  # the reply: what changed and the new seq
                    out.write(json.dumps({"game": game, "seq": seq, "player": player,
                                          "input": line if line is not None else "roll"}) + "\n")
                    out.flush()
                    os.fsync(out.fileno())
                    done += 1
                    break
                elif status not in (409, 422, 403):  # stale, refused: the next choice, or the next state
                    raise Failed(f"POST {path} answered {status}: {content[:200].decode('utf-8', 'replace')}")
            else:
                time.sleep(0.2)
    return done


def verify(base: str, phones: Path, acked: Path) -> dict[str, Any]:
    """Every input a phone saw acknowledged is in the table's game, at the place its acknowledgement said."""
    you = host_login(base, phones)
    game = you.json("GET", "/api/session")["game_id"]
    status, text = you.request("GET", "/api/host/export")
    if status != 200:
        raise Failed(f"GET /api/host/export answered {status}")
    lines = [json.loads(line) for line in text.decode().splitlines() if line.strip()]
    inputs = lines[1:]  # after the setup line: input n made the state's seq n
    state = you.json("GET", "/api/state")
    text_acked = acked.read_text()
    # A line the power cut in the middle of writing (no newline yet) is no record: the phone was cut off with it.
    acks = [json.loads(line) for line in text_acked[:text_acked.rfind("\n") + 1].splitlines() if line.strip()]
    mine = [a for a in acks if a["game"] == game]
    if len(mine) != len(acks):
        raise Failed(f"{len(acks) - len(mine)} acknowledged inputs were for another game than the running {game}")
    for ack in mine:
        seq, wanted = ack["seq"], ack["input"]
        if seq > len(inputs) or seq > state["seq"]:
            raise Failed(f"input {seq} ({wanted}) was acknowledged, but the game holds {len(inputs)} inputs")
        found = inputs[seq - 1]
        if (wanted == "roll" and "roll" not in found) or (wanted != "roll" and found != wanted):
            raise Failed(f"input {seq}: the phone saw {wanted} acknowledged, the game holds {found}")
    return {"game": game, "acknowledged": len(mine), "journal_inputs": len(inputs), "seq": state["seq"]}


def loudness(path: Path) -> float:
    """The RMS level (0-1) of a 16-bit WAV recording."""
    with wave.open(str(path)) as recording:
        if recording.getsampwidth() != 2:
            raise Failed(f"{path}: not 16-bit")
        frames = recording.readframes(recording.getnframes())
    samples = memoryview(frames).cast("h")
    if not samples:
        return 0.0
    return math.sqrt(sum(s * s for s in samples) / len(samples)) / 32768


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("wait")
    p.add_argument("url")
    p.add_argument("--limit", type=float, default=300.0)
    p = sub.add_parser("host")
    p.add_argument("url")
    p.add_argument("--phones", type=Path, required=True)
    p.add_argument("--setup", type=json.loads)
    p.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("redirect")
    p.add_argument("url")
    p = sub.add_parser("captive")
    p.add_argument("name")
    p.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("join")
    p.add_argument("url")
    p.add_argument("--jar", type=Path, required=True)
    p.add_argument("--code", required=True)
    p.add_argument("--player", required=True)
    p = sub.add_parser("play")
    p.add_argument("url")
    p.add_argument("--jar", type=Path, required=True)
    p.add_argument("--player", required=True)
    p = sub.add_parser("stream")
    p.add_argument("url")
    p.add_argument("--jar", action="append", required=True, help="NAME=FILE: that player's phone")
    p.add_argument("--acked", type=Path, required=True)
    p.add_argument("--inputs", type=int, default=0)
    p = sub.add_parser("verify")
    p.add_argument("url")
    p.add_argument("--phones", type=Path, required=True)
    p.add_argument("--acked", type=Path, required=True)
    p = sub.add_parser("loudness")
    p.add_argument("wav", type=Path)
    args = parser.parse_args(argv)
    try:
        if args.command == "wait":
            print(f"{wait(args.url, args.limit):.1f}")
        elif args.command == "host":
            args.out.write_text(json.dumps(host(args.url, args.phones, args.setup)))
        elif args.command == "redirect":
            url = urlsplit(str(args.url))
            print(redirect(url.hostname or "", url.port or 80, url.path or "/", url.netloc))
        elif args.command == "captive":
            result = captive(args.name)
            args.out.write_text(json.dumps(result))
            print(json.dumps(result))
        elif args.command == "join":
            print(json.dumps(join(args.url, args.jar, args.code, args.player)))
        elif args.command == "play":
            print(json.dumps(play(args.url, args.jar, args.player)))
        elif args.command == "stream":
            jars = dict(pair.split("=", 1) for pair in args.jar)
            print(stream(args.url, {name: Path(jar) for name, jar in jars.items()}, args.acked, args.inputs))
        elif args.command == "verify":
            print(json.dumps(verify(args.url, args.phones, args.acked)))
        else:
            print(f"{loudness(args.wav):.4f}")
    except (Failed, OSError, KeyError, ValueError) as problem:
        print(f"phone.py {args.command}: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
