"""The phone page: a Flask app over the table, and the WSGI server that serves it.

Wiring (``companion demo`` / ``companion run`` do this)::

    from companion.web import Access, create_app, serve

    access = Access.generate()                  # host PIN and join code, shown on the OLED
    app = create_app(table, access=access, phone_dice="software")
    serve(app, host="0.0.0.0", port=8080)       # blocks; cheroot, threads for >= 16 live streams

``create_app(table, *, access=None, phone_dice="none", secret_key=None, table_code=None, config=None) -> Flask``
    ``table``: the :class:`companion.table.Table` (the one writer). ``access``: host PIN, join code and
    which phone holds which player (:class:`Access`; generated if None — read it back as
    ``app.extensions["companion"].access``). ``phone_dice``: may a phone send the dice: ``"none"`` (they come
    from the buttons or the roller), ``"manual"`` (players type the dice they threw), ``"software"`` (the
    Pi rolls from the OS's entropy when the phone presses Roll). ``secret_key``: signs the session
    cookies (random per process if None: phones join again after a restart). ``table_code``: if set,
    even looking needs it. ``config``: more Flask config keys.

``make_server(app, host="127.0.0.1", port=8080) -> WebServer``
    A server not yet started: ``.start()`` serves in a background thread, ``.stop()``, ``.port``
    (the real one when ``port=0``), ``.url``. ``serve(app, host, port)`` is ``make_server`` then block.

The join URL for the OLED's QR code is ``access.join_url(base_url)``; the digits are ``access.join_code``
and the PIN ``access.host_pin``.
"""

from __future__ import annotations

from .access import Access
from .app import create_app
from .server import WebServer, make_server, serve

__all__ = ["Access", "WebServer", "create_app", "make_server", "serve"]
