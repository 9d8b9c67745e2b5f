"""A phone's first visit to the page, measured on the wire: every answer's bytes as the server sends them.

A fresh phone (no cookie, nothing cached) asks for the page, then what the page names (its style sheet, its scripts
and the modules it preloads, and every module those import), then what the page's script asks for at start
(``stream.js``'s ``refresh``, the same before the script became modules: the session, the state, the board of the
state's ruleset, the history). Each answer is counted as it comes off the socket: its status line and headers, and
its body as sent (gzip'd when the server gzips it: the phone asks for gzip as every browser does; chunk framing
included). The live stream the page opens last is not part of the load (the same request before and after).

One keep-alive HTTP/1.1 connection, so the figures do not depend on timing: a browser spreads the same requests over
up to six connections, which changes no answer's bytes. Only the standard library, and nothing of ``companion``:
the bench measures another checkout's server with it (``bench/first_load.py --tree``).
"""

from __future__ import annotations

import gzip
import json
import re
import socket
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

# What an iPhone's Safari sends over plain HTTP (no Referer: the page's policy is no-referrer).
PHONE_HEADERS = {
    "Accept-Encoding": "gzip, deflate",
    "Accept-Language": "en-GB,en;q=0.9",
    "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                  "Version/17.5 Mobile/15E148 Safari/604.1",
}
ACCEPT = {"page": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "style": "text/css,*/*;q=0.1",
          "script": "*/*", "api": "*/*"}
# The page's own requests at start, in order (stream.js: loadSession, then the state, its ruleset's board, the
# history); {ruleset} is the state's.
START = ("/api/session", "/api/state", "/api/board?ruleset={ruleset}", "/api/history")
ASSETS = re.compile(r'<(?:link|script)\b[^>]*?\b(?:href|src)="([^"]+)"[^>]*>')
IMPORTS = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"', re.M)
CSS_URLS = re.compile(r'url\(\s*["\']?(?!data:)([^"\')]+)')


@dataclass(frozen=True)
class Answer:
    """One request and its answer as counted on the wire."""

    path: str
    kind: str  # page, style, script, api
    status: int
    head: int  # bytes of the status line and headers, with the blank line
    body: int  # bytes of the body as sent (compressed, chunked: as it came)
    sent: int  # bytes of the request
    headers: dict[str, str]
    content: bytes  # the body as the page reads it (gunzipped, unchunked)

    @property
    def total(self) -> int:
        return self.head + self.body


@dataclass
class Load:
    """A first load: every answer in the order asked."""

    answers: list[Answer] = field(default_factory=list)

    def of(self, kind: str | None = None) -> list[Answer]:
        return [a for a in self.answers if kind is None or a.kind == kind]

    def bytes(self, kind: str | None = None) -> int:
        """What the phone downloads: heads and bodies as sent."""
        return sum(a.total for a in self.of(kind))

    def heads(self, kind: str | None = None) -> int:
        return sum(a.head for a in self.of(kind))

    def bodies(self, kind: str | None = None) -> int:
        return sum(a.body for a in self.of(kind))

    def requests(self, kind: str | None = None) -> int:
        return len(self.of(kind))

    def sent(self) -> int:
        """What the phone uploads: its requests."""
        return sum(a.sent for a in self.answers)


class Phone:
    """A fresh phone on one keep-alive connection, keeping the cookies it is given."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.sock = socket.create_connection((host, port), timeout=30)
        self.buffer = b""
        self.cookies: dict[str, str] = {}

    def close(self) -> None:
        self.sock.close()

    def get(self, path: str, kind: str) -> Answer:
        lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Accept: {ACCEPT[kind]}",
                 *(f"{k}: {v}" for k, v in PHONE_HEADERS.items()), "Connection: keep-alive"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        self.sock.sendall(request)
        head = self._read_until(b"\r\n\r\n")
        status_line, *header_lines = head[:-4].decode("latin-1").split("\r\n")
        headers: dict[str, str] = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            if name.lower() == "set-cookie":
                cookie = value.strip().split(";", 1)[0]
                self.cookies[cookie.partition("=")[0]] = cookie.partition("=")[2]
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            raw, data = self._read_chunked()
        else:
            raw = data = self._read_exactly(int(headers.get("content-length", "0")))
        if headers.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        return Answer(path, kind, int(status_line.split()[1]), len(head), len(raw), len(request), headers, data)

    def _fill(self) -> None:
        more = self.sock.recv(65536)
        if not more:
            raise ConnectionError("the server closed the connection")
        self.buffer += more

    def _read_until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            self._fill()
        found, self.buffer = self.buffer.split(end, 1)
        return found + end

    def _read_exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._fill()
        found, self.buffer = self.buffer[:size], self.buffer[size:]
        return found

    def _read_chunked(self) -> tuple[bytes, bytes]:
        raw, data = b"", b""
        while True:
            size_line = self._read_until(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            chunk = self._read_exactly(size + 2)
            raw += size_line + chunk
            data += chunk[:-2]
            if size == 0:
                return raw, data


def first_load(host: str, port: int, path: str = "/") -> Load:
    """A fresh phone's first visit to ``path`` on the page's server at ``host:port``."""
    phone = Phone(host, port)
    load = Load()
    try:
        page = phone.get(path, "page")
        load.answers.append(page)
        asked = {path}
        queue = []
        for url in ASSETS.findall(page.content.decode("utf-8")):
            if url.startswith("data:"):
                continue
            queue.append((urljoin(path, url), "style" if url.endswith(".css") else "script"))
        while queue:
            url, kind = queue.pop(0)
            if url in asked:
                continue
            asked.add(url)
            answer = phone.get(url, kind)
            load.answers.append(answer)
            text = answer.content.decode("utf-8", "replace")
            if kind == "script":
                queue += [(urljoin(url, a or b), "script") for a, b in IMPORTS.findall(text)]
            else:
                queue += [(urljoin(url, u.strip()), "style") for u in CSS_URLS.findall(text)]
        ruleset = ""
        for api in START:
            answer = phone.get(api.format(ruleset=ruleset), "api")
            load.answers.append(answer)
            if urlsplit(answer.path).path == "/api/state" and answer.status == 200:
                ruleset = json.loads(answer.content)["ruleset"]
    finally:
        phone.close()
    return load
