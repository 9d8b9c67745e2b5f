"""The host's API: log in with the PIN, start, resume, import and export games, undo, players."""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, session

from companion.engine import IllegalInput, find_ruleset, ruleset_ids
from companion.engine.core import MAX_AMOUNT, Ruleset
from companion.gamefile import GameFileError
from companion.network.wifi import WifiCredentials, qr_payload
from companion.words import N_

from .access import AccessDenied, Permission
from .api import accepted, as_seen_here, last_events, limit, running_state
from .context import MAX_BODY, MAX_NEW_GAME_BODY, body_limit, context
from .csrf import generate_csrf
from .errors import BadRequest, Conflict, NotFound
from .guard import field, json_body, renewed_session, requires
from .phone_words import phone_language, refusal_said
from .renaming import rename_in_game_file

host = Blueprint("host", __name__, url_prefix="/api/host")


@host.post("/login")
@limit("5 per minute")
@requires(Permission.OPEN)
def post_login() -> Any:
    """Become the host with the PIN shown on the table's screen."""
    body = json_body()
    if not context().access.try_pin(field(body, "pin", str).strip(), request.remote_addr):
        raise AccessDenied(N_("wrong PIN"))
    renewed_session(lambda old, new: context().access.renew(old, new, host=True))
    session["host"] = True
    session["looker"] = True
    return jsonify({"host": True, "csrf": generate_csrf()})


@host.post("/logout")
@limit("10 per minute")
@requires(Permission.OPEN)
def post_logout() -> Any:
    renewed_session(lambda old, new: context().access.renew(old, new, host=False))
    session.pop("host", None)
    return jsonify({"host": False})


@host.get("/rulesets")
@requires(Permission.HOST)
def get_rulesets() -> Any:
    """Every ruleset with its options and their defaults, its player counts and host actions."""
    found = []
    for rid in ruleset_ids():
        ruleset = find_ruleset(rid)
        board = ruleset.board
        found.append({"id": rid, "name": board.name, "players": [board.min_players, board.max_players],
                      "options": dict(board.options), "fields": option_fields(ruleset),
                      "presets": [{"id": p.id, "text": p.text, "options": dict(p.options)} for p in ruleset.presets],
                      "kept_cards": [card.id for card in board.cards.values() if card.kept],
                      "host_verbs": ruleset.host_verbs()})
    return jsonify(found)


def option_fields(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Each option as a form field: its type and default from the board file's ``[options]``, its one-line text
    (and whether it names spaces) from ``[option_text]``, its choices and range from the ruleset's checks."""
    texts = ruleset.board.data.get("option_text", {})
    fields = []
    for name, default in ruleset.board.options.items():
        text = texts.get(name, "")
        given = text if isinstance(text, dict) else {"text": text}
        field_: dict[str, Any] = {"name": name, "default": default, "description": given.get("text", "")}
        if "input" in given:
            field_["type"] = given["input"]  # "space" (one, or none) or "bridge" (one of each board, or none)
        elif name in ruleset.option_choices:
            field_.update(type="choice", choices=list(ruleset.option_choices[name]))
        elif isinstance(default, bool):
            field_["type"] = "boolean"
        elif isinstance(default, int):
            low, high = ruleset.option_bounds.get(name, (0, MAX_AMOUNT))
            field_.update(type="number", min=low, max=high)
        else:
            field_["type"] = "text"
        fields.append(field_)
    return fields


@host.get("/games")
@requires(Permission.HOST)
def get_games() -> Any:
    """The games in the journal, the most recently played first."""
    ctx = context()
    current = ctx.table.game.id if ctx.table.game else None
    games = [
        {"id": g.id, "ruleset": g.ruleset, "players": list(g.players), "created": g.created.isoformat(),
         "updated": g.updated.isoformat(), "inputs": g.inputs, "winner": g.winner, "problem": g.problem,
         "current": g.id == current}
        for g in ctx.table.journal.games()  # type: ignore[attr-defined]
    ]
    return jsonify(games)


@host.post("/new-game")
@body_limit(MAX_NEW_GAME_BODY)
@requires(Permission.HOST)
def post_new_game() -> Any:
    """Start a game: ``{"setup": {...}}`` as the first line of a game file (a game in progress via ``start``)."""
    setup = field(json_body(), "setup", dict)
    state = context().table.new_game(setup, source="host")
    return jsonify(as_seen_here(state, last_events(state)))


@host.post("/resume")
@requires(Permission.HOST)
def post_resume() -> Any:
    """Go on with a stored game: ``{"game": id}``."""
    game_id = field(json_body(), "game", int)
    ctx = context()
    if all(g.id != game_id for g in ctx.table.journal.games()):  # type: ignore[attr-defined]
        raise NotFound(N_("there is no game {n}"), n=game_id)
    state = ctx.table.resume(game_id, source="host")
    return jsonify(as_seen_here(state, last_events(state)))  # type: ignore[arg-type]


@host.post("/import")
@body_limit(MAX_BODY)
@requires(Permission.HOST)
def post_import() -> Any:
    """Store a game file (``{"text": "...jsonl..."}``) as a new game and play it on."""
    text = field(json_body(), "text", str)
    ctx = context()
    try:
        game = ctx.table.journal.import_game(text)  # type: ignore[attr-defined]
    except GameFileError as error:
        raise BadRequest(N_("the game file cannot be used: {error}"), error=error) from None
    state = ctx.table.resume(game.id, source="host")
    return jsonify(as_seen_here(state, last_events(state)))  # type: ignore[arg-type]


@host.get("/export")
@requires(Permission.HOST)
def get_export() -> Any:
    """The current game as a game file (JSON Lines), to download."""
    game = context().table.game
    if game is None:
        raise Conflict(N_("no game is running"))
    text = game.export()  # type: ignore[attr-defined]
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="game-{game.id}.jsonl"'})


@host.post("/undo")
@requires(Permission.HOST)
def post_undo() -> Any:
    """Take back the last input: ``{"seq": n}``."""
    body = json_body()
    seq, game = field(body, "seq", int), field(body, "game", int, required=False)
    return accepted(context().table.submit({"undo": 1}, source="host", expect_seq=seq, expect_game=game))


@host.post("/remove-player")
@requires(Permission.HOST)
def post_remove_player() -> Any:
    """A player leaves the table: they resign (everything returns to the bank) and their seat is freed."""
    body = json_body()
    player, seq = field(body, "player", str), field(body, "seq", int)
    game = field(body, "game", int, required=False)
    ctx = context()
    state = running_state(seq, game)
    if all(p["name"] != player for p in state["players"]):
        raise NotFound(N_("there is no player called {value}"), value=repr(player))
    if "bankrupt" not in find_ruleset(state["ruleset"]).verbs():
        raise Conflict(N_("{ruleset} has no way to leave a game in progress"), ruleset=state["ruleset"])
    update = ctx.table.submit({"act": {"player": player, "do": "bankrupt"}}, source="host", expect_seq=seq,
                              expect_game=game)
    ctx.access.free_seat(player)
    return accepted(update)


@host.post("/rename-player")
@requires(Permission.HOST)
def post_rename_player() -> Any:
    """Rename a player: the game is copied under the new name (the old one stays in the journal)."""
    body = json_body()
    old, new = field(body, "player", str), field(body, "to", str)
    ctx = context()
    game = ctx.table.game
    running_state()
    try:
        text = rename_in_game_file(game.export(), old, new)  # type: ignore[union-attr]
        copy = ctx.table.journal.import_game(text)  # type: ignore[attr-defined]
    except GameFileError as error:
        raise BadRequest(N_("cannot rename {old} to {new}: {error}"), old=repr(old), new=repr(new), error=error) from None
    except IllegalInput as error:  # the names: said in the phone's language
        raise BadRequest(N_("cannot rename {old} to {new}: {error}"), old=repr(old), new=repr(new),
                         error=refusal_said(error, phone_language(), None)) from None
    state = ctx.table.resume(copy.id, source="host")
    ctx.access.rename_seat(old, new)
    return jsonify(as_seen_here(state, last_events(state)))  # type: ignore[arg-type]


@host.post("/free-seat")
@requires(Permission.HOST)
def post_free_seat() -> Any:
    """Let another phone join as this player (a lost or swapped phone)."""
    player = field(json_body(), "player", str)
    return jsonify({"freed": context().access.free_seat(player)})


@host.post("/join-code")
@requires(Permission.HOST)
def post_join_code() -> Any:
    """A new join code (the old one stops working; joined phones keep their seats)."""
    return jsonify({"code": context().access.new_join_code()})


@host.get("/join")
@requires(Permission.HOST)
def get_join() -> Any:
    """The join code and its QR code (SVG), for the host to show on their phone; while the table's own Wi-Fi is up,
    its name, password and QR code too; and the host PIN, which the page keeps off that screen."""
    access = context().access
    url = access.join_url(request.host_url)
    wifi = current_app.config.get("COMPANION_WIFI", lambda: None)()
    if wifi is not None:  # the table's own Wi-Fi: scanned first, then the page's code (or typed: the password)
        ssid, password = wifi
        wifi = {"ssid": ssid, "password": password,
                "svg": qr_svg(qr_payload(WifiCredentials(ssid, password)), "Join the table's Wi-Fi")}
    return jsonify({"code": access.join_code, "url": url, "svg": qr_svg(url, "Join code"), "wifi": wifi,
                    "pin": access.host_pin})  # the host's own phone: shown apart from the join screen


def qr_svg(text: str, title: str) -> str:
    """A QR code holding ``text``, as an inline SVG element for the host's page."""
    import segno  # only when a QR code is asked for: it and its SVG writer's imports are ~8 ms of the table's start

    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                     xmldecl=False, svgns=True, omitsize=True, title=title)
    return buffer.getvalue().decode()


@host.get("/qr.svg")
@requires(Permission.HOST)
def get_qr() -> Any:
    """The join QR code alone, as an SVG image."""
    import segno

    access = context().access
    buffer = io.BytesIO()
    segno.make(access.join_url(request.host_url), error="m").save(buffer, kind="svg", scale=6, border=2)
    return Response(buffer.getvalue(), mimetype="image/svg+xml")

