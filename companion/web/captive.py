"""The captive portal of the table's own Wi-Fi: phones' connectivity checks are sent to the table's page.

On the hotspot every name is the Pi (:mod:`companion.network.dnsmasq`), so the checks phones make when they join a
network reach it, on port 80:

========  ====================================================================
Android   ``http://connectivitycheck.gstatic.com/generate_204`` (204 means the internet)
Apple     ``http://captive.apple.com/hotspot-detect.html`` ("Success" means it)
Windows   ``http://www.msftconnecttest.com/connecttest.txt``, ``http://www.msftncsi.com/ncsi.txt``
Firefox   ``http://detectportal.firefox.com/canonical.html``
========  ====================================================================

Each gets a redirect to the page under the Pi's own address (``http://10.42.0.1:8080/``), which is what a
captive portal answers: the phone opens it in its sign-in window. This listener is a separate small app that
only ever redirects, whatever the name, path or method: it never serves the page under a foreign name, sets no
cookie and reads no state, so the phone page's own defence against DNS rebinding (:mod:`.hosts`) is untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from flask import Flask, Response

#: The checks named above, as (name, path): what the tests send.
PROBES = (("connectivitycheck.gstatic.com", "/generate_204"), ("captive.apple.com", "/hotspot-detect.html"),
          ("www.msftconnecttest.com", "/connecttest.txt"), ("www.msftncsi.com", "/ncsi.txt"),
          ("detectportal.firefox.com", "/canonical.html"))
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def create_captive_app(page: Callable[[], str]) -> Flask:
    """An app that answers every request with a redirect to ``page()`` (the table's page, found at each request:
    the address is the hotspot's only while it is up)."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=0)  # a body is never read: nothing here takes any

    @app.route("/", defaults={"path": ""}, methods=METHODS)
    @app.route("/<path:path>", methods=METHODS)
    def redirect(path: str) -> Response:
        target = page()
        body = (f'<!doctype html><title>The table</title><p><a href="{escape(target)}">Open the table\'s page'
                "</a></p>\n")
        response = Response(body, status=302, mimetype="text/html")
        response.headers["Location"] = target
        response.headers["Cache-Control"] = "no-store"  # a phone asks again on the next network
        return response

    return app
