"""The OpenAPI file is valid, names every route of the app, and the app's answers match it."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import pytest
import yaml
from flask import Flask
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse
from openapi_spec_validator import validate

from companion.table import Table

from .conftest import CODE, as_host, join, post, send


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return yaml.safe_load(resources.files("companion.web").joinpath("openapi.yaml").read_text())


@pytest.fixture(scope="module")
def openapi(spec: dict[str, Any]) -> OpenAPI:
    return OpenAPI.from_dict(spec)


def test_the_file_is_valid_openapi(spec: dict[str, Any]) -> None:
    validate(spec)


def test_every_route_is_described_and_nothing_else(app: Flask, spec: dict[str, Any]) -> None:
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routes.add((re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower()))
    described = {(path, method) for path, item in spec["paths"].items() for method in item}
    assert routes == described


def check(openapi: OpenAPI, response: Any) -> Any:
    """Validate one answer of the test client against the file (status, content type, body schema)."""
    request = response.request
    openapi.validate_response(
        MockRequest("http://localhost", request.method.lower(), request.path, args=request.args),
        MockResponse(response.data, status_code=response.status_code, content_type=response.mimetype),
    )
    return response


def test_answers_match_the_file(app: Flask, table: Table, openapi: OpenAPI) -> None:
    anyone, ann, bob, host = app.test_client(), app.test_client(), app.test_client(), app.test_client()
    for path in ("/api/state", "/api/board", "/api/history", "/api/session", "/api/openapi.yaml"):
        check(openapi, anyone.get(path))
    check(openapi, anyone.get("/api/board?ruleset=nope"))
    check(openapi, post(anyone, "/api/join", {"code": "nope", "player": "Ann"}))
    check(openapi, post(anyone, "/api/join", {"code": CODE}))
    check(openapi, post(anyone, "/api/join", {"code": CODE, "player": "Zed"}))
    check(openapi, post(ann, "/api/join", {"code": CODE, "player": "Ann"}))
    join(bob, "Bob")
    check(openapi, send(anyone, {"roll": [1, 2]}))
    check(openapi, send(bob, {"roll": [1, 2]}))
    check(openapi, send(ann, {"roll": [9, 2]}))
    check(openapi, send(ann, {"roll": [1, 2]}, seq=7))
    check(openapi, send(ann, {"roll": [1, 2]}))
    check(openapi, send(ann, {"answer": "no"}))
    check(openapi, send(bob, {"act": {"player": "Bob", "do": "bid", "amount": 10}}))
    for path in ("/api/money", "/api/history", "/api/acts?player=Ann"):
        check(openapi, anyone.get(path))
    check(openapi, post(ann, "/api/roll", {"seq": table.state["seq"]}))
    check(openapi, post(ann, "/api/look", {"code": "x"}))
    check(openapi, post(bob, "/api/leave"))
    check(openapi, anyone.get("/api/host/games"))
    check(openapi, post(host, "/api/host/login", {"pin": "0"}))
    as_host(host)
    for path in ("/api/host/rulesets", "/api/host/games", "/api/host/export", "/api/host/join", "/api/host/qr.svg"):
        check(openapi, host.get(path))
    check(openapi, post(host, "/api/host/undo", {"seq": table.state["seq"]}))
    check(openapi, post(host, "/api/host/undo", {"seq": 0}))
    check(openapi, post(host, "/api/host/free-seat", {"player": "Ann"}))
    check(openapi, post(host, "/api/host/join-code"))
    check(openapi, post(host, "/api/host/remove-player", {"player": "Cy", "seq": table.state["seq"]}))
    check(openapi, post(host, "/api/host/rename-player", {"player": "Ann", "to": "Anna"}))
    check(openapi, post(host, "/api/host/new-game", {"setup": {"ruleset": "classic", "players": ["A", "B"]}}))
    check(openapi, post(host, "/api/host/new-game", {"setup": {"ruleset": "nope", "players": ["A", "B"]}}))
    check(openapi, post(host, "/api/host/resume", {"game": 1}))
    check(openapi, post(host, "/api/host/resume", {"game": 99}))
    check(openapi, post(host, "/api/host/import", {"text": "{}"}))
    text = host.get("/api/host/export").get_data(as_text=True)
    check(openapi, post(host, "/api/host/import", {"text": text}))
    check(openapi, post(host, "/api/host/logout"))


def test_every_post_answers_an_oversized_body_as_the_file_says(app: Flask, spec: dict[str, Any],
                                                               openapi: OpenAPI) -> None:
    """Bodies are bounded before anything reads them: every POST can answer 413, and its description says so."""
    host = as_host(app.test_client())
    posts = [path for path, item in spec["paths"].items() if "post" in item]
    for path in posts:
        response = host.post(path, data=b'{"x": "' + b"y" * 300_000 + b'"}', content_type="application/json")
        assert response.status_code == 413, path
        check(openapi, response)


def test_an_input_the_journal_cannot_record_is_answered_as_the_file_says(app: Flask, table: Table,
                                                                        openapi: OpenAPI) -> None:
    """A full disk: 503, nothing applied."""
    ann = join(app.test_client(), "Ann")
    db = table.journal._db  # type: ignore[attr-defined]  # the journal's connection: capped as a full disk is
    db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
    seq = table.state["seq"]
    for size in (2000, 200, 20, 1):  # fill the last pages with refused inputs, to the brim
        while (response := send(ann, {"answer": "x" * size}, seq=seq)).status_code == 422:
            pass
    assert response.status_code == 503
    check(openapi, response)
    assert check(openapi, send(ann, {"roll": [1, 2]}, seq=seq)).status_code == 503
    assert table.state["seq"] == seq
