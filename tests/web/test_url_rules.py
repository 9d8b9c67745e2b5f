"""The app's URL rules build their URLs as werkzeug's own do, though they write their builders only when first asked
(issue 43: the table's start)."""

from __future__ import annotations

from flask import Flask, url_for
from werkzeug.routing import Rule

from companion.web.url_rules import LazyRule


def app_with(rule_class: type) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.url_rule_class = rule_class
    app.add_url_rule("/static/<version>/<filename>", endpoint="static", view_func=lambda **_: "file")
    app.add_url_rule("/api/games/<int:game>/export", endpoint="export", view_func=lambda game: str(game))
    return app


def test_urls_built_and_matched_as_werkzeug_builds_and_matches_them() -> None:
    built = {}
    for rule_class in (LazyRule, Rule):
        app = app_with(rule_class)
        with app.test_request_context():
            built[rule_class] = (url_for("static", version="abc", filename="app.js"),
                                 url_for("export", game=7), url_for("export", game=7, lines="all"),
                                 url_for("export", game=8, _external=True))
        client = app.test_client()
        assert client.get("/api/games/7/export").text == "7" and client.get("/static/v/x.js").text == "file"
        assert client.get("/api/games/x/export").status_code == 404
    assert built[LazyRule] == ("/static/abc/app.js", "/api/games/7/export", "/api/games/7/export?lines=all",
                               "http://localhost/api/games/8/export")
    assert len(set(built.values())) == 1
