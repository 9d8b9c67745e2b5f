"""The page's static files (its script modules and its style sheet), served under a versioned path kept for good.

The page names them under ``/static/<version>/``, where the version is a hash of every file in ``static/``: a phone
keeps them a year without asking again (``immutable``), and an update of any file changes the path of all of them,
so a page never runs a mix of old and new modules (they import each other by relative paths, which stay in the
page's version). A path of another version is not found: only a page served before an update names one, and
reloading it names the new one (it cannot run half old, half new). The files are read when the app is made (a file
changed on disk is served from the next start, as the version says) and each is gzip'd once, at the first phone
that asks for gzip, when that makes it smaller. ``/static/<name>`` serves the current file too,
checked again each time (``no-cache``, with its hash as ETag), for a link to a file itself.

The answers carry only what a script or a style sheet needs: no content security policy, frame or referrer
policy (see ``app._register_headers``), no Last-Modified, Expires, Accept-Ranges or Content-Disposition: a few
hundred bytes fewer on each of the ~20 answers of a phone's first load (docs/web.md, "The page").
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import NotFound

FOREVER = "public, max-age=31536000, immutable"  # a year: the longest a cache is asked to keep anything
EVERY_TIME = "no-cache"  # kept, but asked again each time (answered 304 while the same)
LEVEL = 9  # once per file and start: the smallest gzip gives
#: The types of the page's files (a module script must be served as JavaScript), said here: ``mimetypes`` reads the
#: system's tables at its first guess (~4 ms of the table's start here: issue 43); it still names any other file.
TYPES = {".js": "text/javascript", ".css": "text/css"}


@dataclass
class Asset:
    """One static file: its bytes, its type, its hash, and its gzip'd bytes once asked for (None: not smaller)."""

    data: bytes
    mimetype: str
    digest: str
    packed: bytes | None = None
    tried: bool = False

    def gzipped(self) -> bytes | None:
        if not self.tried:  # two threads may both compress it the first time: the same bytes
            packed = gzip.compress(self.data, LEVEL, mtime=0)
            self.packed = packed if len(packed) < len(self.data) else None
            self.tried = True
        return self.packed


class Assets:
    """Every file of ``folder``, read once; :attr:`version` names them all."""

    def __init__(self, folder: Path) -> None:
        self.files: dict[str, Asset] = {}
        whole = hashlib.sha256()
        for path in sorted(p for p in folder.iterdir() if p.is_file()):
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            # (text: its charset, UTF-8, said by the Response)
            mimetype = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            self.files[path.name] = Asset(data, mimetype, digest)
            whole.update(f"{path.name}\0{digest}\0".encode())
        self.version = whole.hexdigest()[:12]

    def answer(self, filename: str, version: str | None = None) -> Response:
        """The file ``filename`` of ``version`` (None: the current one, checked each time)."""
        asset = self.files.get(filename)
        if asset is None or version not in (None, self.version):
            raise NotFound()
        packed = asset.gzipped() if "gzip" in request.accept_encodings else None
        response = Response(packed or asset.data, mimetype=asset.mimetype)
        response.vary.add("Accept-Encoding")
        if packed:
            response.headers["Content-Encoding"] = "gzip"
        if version is not None:
            response.headers["Cache-Control"] = FOREVER
            return response
        response.headers["Cache-Control"] = EVERY_TIME
        response.set_etag(asset.digest[:16] + ("-gz" if packed else ""))  # each representation its own
        response.make_conditional(request)  # 304 while the phone holds this one
        return response


def serve_assets(app: Flask, folder: Path) -> Assets:
    """Serve ``folder`` at ``/static/<version>/<name>`` (and ``/static/<name>``) as the endpoint ``static``, which
    ``url_for("static", filename=...)`` names with the current version."""
    assets = Assets(folder)
    app.add_url_rule("/static/<version>/<filename>", endpoint="static", view_func=assets.answer)
    app.add_url_rule("/static/<filename>", endpoint="static", view_func=assets.answer)

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static":
            values.setdefault("version", assets.version)

    return assets
