"""gzip for the page's first load, when the browser asks (``Accept-Encoding: gzip``).

The page, the board and the other answers are text that shrinks four to six times; they are compressed each time
(a few KB, well under a millisecond). The script and the style sheet are gzip'd once by :mod:`.assets`, not here.
The state is sent as it is (see :data:`AS_IS`); the live stream is gzip'd as one stream by :mod:`.packed_stream`,
never here (each event must leave when written). A client that does not ask (the benchmark,
curl, scripts) gets the bytes as before.
"""

from __future__ import annotations

import gzip
from typing import Any

from flask import Flask

from .context import this_request

TYPES = frozenset({"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                   "application/yaml", "image/svg+xml"})
# The state is the most asked-for answer (every phone's load and reconnection, 16 phones at once in the benchmark)
# and the stream sends it whole on (re)connect anyway: its few KB go uncompressed, so serving it costs the Pi no more
# than before.
AS_IS = frozenset({"api.get_state"})
SMALLEST = 1024  # bytes: below this, gzip's header and the work are not worth it
LEVEL = 6


def compress_when_asked(app: Flask) -> None:
    """Register the after-request hook that gzips text answers for browsers that accept it."""

    @app.after_request
    def compress(response: Any) -> Any:
        response.vary.add("Accept-Encoding")
        length = response.content_length  # known for a body given whole (an input's reply: a few hundred bytes)
        if (response.status_code != 200 or (length is not None and length < SMALLEST)
                or response.mimetype not in TYPES):  # never the stream (text/event-stream)
            return response
        asked = this_request()
        if (asked.endpoint in AS_IS or "Content-Encoding" in response.headers or asked.endpoint == "static"
                or "gzip" not in asked.accept_encodings):
            return response
        response.direct_passthrough = False  # a file (the API's description): read it whole
        data = response.get_data()
        if len(data) < SMALLEST:
            return response
        etag, weak = response.get_etag()
        response.set_data(gzip.compress(data, LEVEL, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        if etag:  # the compressed bytes are another representation: not the same strong validator
            response.set_etag(etag + "-gz", weak=weak)
        return response
