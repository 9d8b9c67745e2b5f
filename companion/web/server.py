"""The production WSGI server: cheroot, in-process, one thread per connection from a fixed pool.

cheroot writes every chunk a response yields straight to the socket (its writer flushes on
each write), so server-sent events leave at once; a live stream holds one pool thread, so the
pool is sized for the phones of a full table plus the requests between them. See docs/web.md
for the comparison with waitress and gunicorn.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from cheroot import wsgi
from flask import Flask

log = logging.getLogger(__name__)

THREADS = 48  # 16+ live streams (a phone may hold two while it reconnects) and the requests beside them


class WebServer:
    """A cheroot server for the app; :meth:`start` serves in a background thread."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 8080, *, threads: int = THREADS) -> None:
        self.app = app
        self._server = wsgi.Server((host, port), app, numthreads=threads, max=threads,
                                   server_name="companion", request_queue_size=32, shutdown_timeout=2)
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return str(self._server.bind_addr[0])

    @property
    def port(self) -> int:
        """The port served (the one the system chose when created with ``port=0``, once started)."""
        return int(self._server.bind_addr[1])

    @property
    def url(self) -> str:
        host = self.host if self.host not in ("0.0.0.0", "::") else "127.0.0.1"
        return f"http://{host}:{self.port}"

    def start(self) -> WebServer:
        """Bind and serve in a daemon thread; returns self."""
        self._server.prepare()
        self._thread = threading.Thread(target=self._server.serve, name="web", daemon=True)
        self._thread.start()
        log.info("serving the phone page on %s", self.url)
        return self

    def serve_forever(self) -> None:
        """Bind and serve in this thread until interrupted."""
        try:
            self._server.safe_start()
        finally:
            self._close_streams()

    def stop(self) -> None:
        """Release the live streams, stop accepting and wait for the pool."""
        self._close_streams()
        self._server.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _close_streams(self) -> None:
        context: Any = self.app.extensions.get("companion")
        if context is not None:
            context.feed.close()

    def __enter__(self) -> WebServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8080, *, threads: int = THREADS) -> WebServer:
    """A server for ``app``, not started yet."""
    return WebServer(app, host, port, threads=threads)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, *, threads: int = THREADS) -> None:
    """Serve ``app`` until interrupted (Ctrl-C)."""
    WebServer(app, host, port, threads=threads).serve_forever()
