"""A phone's first visit to the page, measured on the wire: every answer's bytes as the server sends them.

A phone with nothing cached asks for the page, then what the page names (its style sheet, its scripts and the
modules it preloads, and every module those import), the modules its view imports when it first shows (the host's
tools: ``import()``), then what the page's script asks for at start (``stream.js``'s ``refresh``, the same before
the script became modules: the session, the state, the board of the state's ruleset, the history; then what its
view asks for: a seated player's legal acts, the host's join code, cards, rulesets and stored games). Whose phone it
is, is a :class:`Profile`: a phone not joined yet, a seated player's, the host's (its cookie taken first, by a
request not counted: the phone joined or logged in on an earlier visit). Each answer is counted as it comes off the
socket: its status line and headers, and its body as sent (gzip'd when the server gzips it: the phone asks for gzip
as every browser does; chunk framing included). The live stream the page opens last is not part of the load (the
same request before and after).

Beside it, the like-for-like figure: what the same page would download with its scripts as one file (:meth:`Load.one_file`,
every module the page can import, those its views import later too, concatenated in a bundler's order and gzip'd as the
server gzips a static file, with one static answer's head). Those later modules are fetched after the load, on the same
connection, and not counted in it (:attr:`Load.later`).

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
LATER = re.compile(r'\bimport\(\s*"([^"]+)"\s*\)')  # a view's module, imported when it first shows
LEVEL = 9  # companion/web/assets.py's LEVEL: how the server gzips a static file (tests/web/test_first_load.py checks)
IMPORTS = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|^\s*import\s*"([^"]+)"', re.M)
CSS_URLS = re.compile(r'url\(\s*["\']?(?!data:)([^"\')]+)')


@dataclass(frozen=True)
class Profile:
    """Whose phone loads the page: how it came by its cookie (a request not counted, its body's values named from
    ``codes``), the path it loads, the modules its view imports when it first shows, the page's requests at start."""

    name: str
    path: str = "/"
    login: tuple[str, dict[str, str]] | None = field(default=None, compare=False)  # (hashable without it)
    later: tuple[str, ...] = ()
    start: tuple[str, ...] = START


#: A phone that has not joined yet (the figure measured before the modules: the same requests then).
VIEWER = Profile("a phone not joined yet")
#: Ann's phone, joined with the table's join code: the deeds panel asks which acts the engine takes now.
PLAYER = Profile("a seated player's phone", login=("/api/join", {"code": "{join_code}", "player": "Ann"}),
                 start=(*START, "/api/acts?player=Ann"))
#: The host's phone at /host, logged in with the PIN: the host's tools (host.js, setup.js) come with ``import()``,
#: it acts for the first player, and its tools ask for the join code, the cards, the rulesets and the stored games
#: (the set-up's options are of the first ruleset, classic, whose board the page has already).
HOST = Profile("the host's phone", path="/host", login=("/api/host/login", {"pin": "{host_pin}"}), later=("host.js",),
               start=(*START, "/api/acts?player=Ann", "/api/host/join", "/api/host/cards", "/api/host/rulesets",
                      "/api/host/games"))
PROFILES = (VIEWER, PLAYER, HOST)


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
    later: list[Answer] = field(default_factory=list)  # the modules imported later, fetched after: not counted

    def one_file(self) -> tuple[int, int]:
        """(head, body): the answer of every script of the page (counted and later) as one file, gzip'd at the
        server's level, its head the first script's with its Content-Length's digits of the one file."""
        scripts = {a.path: a for a in self.of("script") + self.later}
        order = [self.of("script")[0].path]  # the entry module; then a bundler's order, the same for every profile:
        for dynamic in (False, True):  # what it imports, breadth first, then what its views import later
            for path in order:  # (grows as it goes)
                text = scripts[path].content.decode("utf-8", "replace")
                urls = [a or b for a, b in IMPORTS.findall(text)] + (LATER.findall(text) if dynamic else [])
                order += [u for u in dict.fromkeys(urljoin(path, u) for u in urls) if u in scripts and u not in order]
        body = len(gzip.compress(b"\n".join(scripts[path].content for path in order), LEVEL, mtime=0))
        first = scripts[order[0]]
        return first.head - len(first.headers["content-length"]) + len(str(body)), body

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
        return self._ask("GET", path, kind)

    def post(self, path: str, body: dict[str, str], csrf: str) -> Answer:
        """A JSON request as the page sends it (its CSRF token from /api/session)."""
        return self._ask("POST", path, "api", json.dumps(body).encode(),
                         {"Content-Type": "application/json", "X-CSRFToken": csrf})

    def _ask(self, method: str, path: str, kind: str, data: bytes = b"", more: dict[str, str] | None = None) -> Answer:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Accept: {ACCEPT[kind]}",
                 *(f"{k}: {v}" for k, v in {**PHONE_HEADERS, **(more or {})}.items()), "Connection: keep-alive"]
        if data:
            lines.append(f"Content-Length: {len(data)}")
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data
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


def first_load(host: str, port: int, profile: Profile = VIEWER, codes: dict[str, str] | None = None) -> Load:
    """The first visit of ``profile``'s phone (nothing cached) to the page's server at ``host:port``; ``codes``: the
    join code and host PIN its login names (``join_code``, ``host_pin``)."""
    phone = Phone(host, port)
    load = Load()
    path = profile.path
    try:
        if profile.login:  # on an earlier visit: not counted
            csrf = json.loads(phone.get("/api/session", "api").content)["csrf"]
            url, body = profile.login
            answer = phone.post(url, {k: v.format(**(codes or {})) for k, v in body.items()}, csrf)
            if answer.status != 200:
                raise ValueError(f"{profile.name}: {url} answered {answer.status} {answer.content!r}")
        page = phone.get(path, "page")
        load.answers.append(page)
        asked = {path}
        queue = []
        for url in ASSETS.findall(page.content.decode("utf-8")):
            if url.startswith("data:"):
                continue
            queue.append((urljoin(path, url), "style" if url.endswith(".css") else "script"))
        entry = next(url for url, kind in queue if kind == "script")
        queue += [(urljoin(entry, name), "script") for name in profile.later]  # after the page's own
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
        for api in profile.start:
            answer = phone.get(api.format(ruleset=ruleset), "api")
            load.answers.append(answer)
            if urlsplit(answer.path).path == "/api/state" and answer.status == 200:
                ruleset = json.loads(answer.content)["ruleset"]
        found = load.of("script")
        while found:  # the modules the page imports when a view first shows, and theirs: for the one-file figure
            script = found.pop(0)
            text = script.content.decode("utf-8", "replace")
            for url in [urljoin(script.path, u) for u in LATER.findall(text)] + \
                       [urljoin(script.path, a or b) for a, b in IMPORTS.findall(text)]:
                if url not in asked:
                    asked.add(url)
                    answer = phone.get(url, "script")
                    load.later.append(answer)
                    found.append(answer)
    finally:
        phone.close()
    return load
