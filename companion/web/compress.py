"""gzip for the page's first load, when the browser asks (``Accept-Encoding: gzip``).

The script, the style sheet, the board and the state are text that shrinks four to six times: a phone's first
load goes from about 100 KB to about 40 KB on the table's Wi-Fi. The static files are compressed once per
version (their ETag) and kept; the board, the history and the other answers each time (a few KB, well under a
millisecond). The state and the live stream are sent as they are (see :data:`AS_IS`). A client that does not ask (the
benchmark, curl, scripts) gets the bytes as before.
"""

from __future__ import annotations

import gzip
from typing import Any

from flask import Flask, request

TYPES = frozenset({"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                   "application/yaml", "image/svg+xml"})
# The state is the most asked-for answer (every phone's load and reconnection, 16 phones at once in the benchmark)
# and the stream sends it as is anyway: its few KB go uncompressed, so serving it costs the Pi no more than before.
AS_IS = frozenset({"api.get_state"})
SMALLEST = 1024  # bytes: below this, gzip's header and the work are not worth it
LEVEL = 6


class StaticCache:
    """Compressed static files by path and ETag (a new version of a file replaces the old one's entry)."""

    def __init__(self) -> None:
        self._found: dict[str, tuple[str, bytes]] = {}

    def get(self, path: str, etag: str, data: bytes) -> bytes:
        kept = self._found.get(path)
        if kept is not None and kept[0] == etag:
            return kept[1]
        packed = gzip.compress(data, LEVEL, mtime=0)
        self._found[path] = (etag, packed)
        return packed


def compress_when_asked(app: Flask) -> None:
    """Register the after-request hook that gzips text answers for browsers that accept it."""
    cache = StaticCache()

    @app.after_request
    def compress(response: Any) -> Any:
        response.vary.add("Accept-Encoding")
        if (response.status_code != 200 or response.mimetype not in TYPES  # never the stream (text/event-stream)
                or request.endpoint in AS_IS or "Content-Encoding" in response.headers
                or "gzip" not in request.accept_encodings):
            return response
        response.direct_passthrough = False  # a static file: read it whole
        data = response.get_data()
        if len(data) < SMALLEST:
            return response
        etag, weak = response.get_etag()
        packed = cache.get(request.path, etag, data) if request.endpoint == "static" and etag else \
            gzip.compress(data, LEVEL, mtime=0)
        response.set_data(packed)
        response.headers["Content-Encoding"] = "gzip"
        if etag:  # the compressed bytes are another representation: not the same strong validator
            response.set_etag(etag + "-gz", weak=weak)
        return response
