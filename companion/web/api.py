"""The JSON API every phone uses: state, live stream, session, join, input."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from importlib import resources
from json.encoder import encode_basestring_ascii
from typing import Any, TypeVar

from flask import Blueprint, Response, jsonify, request, session

from companion.engine import Event, State, find_ruleset, public_state
from companion.bids import BID_STEPS
from companion.engine.rules.classic import ClassicRules
from companion.table import StaleInput, Table, Update
from companion.words import LANGUAGES, N_, Words
from companion.words.engine_messages import say_prompt

from .access import Access, AccessDenied, Permission
from .acting import check_own_roll, software_roll
from .context import WebContext, context
from .csrf import generate_csrf
from .board import layout, links
from .deeds import deeds
from .errors import BadRequest, Conflict, NotFound, TooMany
from .feed import RETRY, Feed, Frame, Slot, Viewer, compact
from .phone_words import KEY as PHONE_LANGUAGE
from .phone_words import phone_language, phone_words, refusal_said
from .guard import (NotAllowed, current_player, field, host_rights, is_host, json_body, renewed_session, requires,
                    seated_player, session_id)
from .just_now import just_now
from .fanout import Tail, chunk
from .server import CLIENT_GONE, PATIENCE, STREAM_SOCKET
from .packed_stream import Packed
from .story_words import StoryWords

api = Blueprint("api", __name__, url_prefix="/api")
F = TypeVar("F", bound=Callable[..., Any])
GONE_CHECK = 1.0  # seconds between a waiting stream's looks at whether its phone is still there
STREAM_PATIENCE = 30.0  # seconds a stream's write may take no step forward (two keep-alives) before it ends


def limit(rate: str, *, refusals_only: bool = False) -> Callable[[F], F]:
    """Declare a rate limit on a route (PIN and join attempts), per phone address; the app applies it.

    ``refusals_only``: only refused requests (422) count, and only refusals are held back: a phone sending input
    after input the engine refuses would fill the disk (refusals are journaled too), while an input the engine
    takes now (tried on the pure engine first) and the host are never limited."""

    def mark(view: F) -> F:
        view.rate_limit = rate  # type: ignore[attr-defined]
        view.rate_refusals_only = refusals_only  # type: ignore[attr-defined]
        return view

    return mark


#: Accepted inputs from one phone (its session, and its device): a player taps one a second at most (the page holds
#: its money controls 700 ms after each reply), while one phone offering and withdrawing a trade made 15,730 in 30 s,
#: each moving ``seq`` under the other phones' feet (their inputs refused as stale).
ACCEPTED_INPUTS = "8 per 5 seconds;60 per minute"


def accepted_limit(rate: str) -> Callable[[F], F]:
    """Declare a limit on the inputs of a route the table took (answered 200), per phone and per device; the host
    is never limited, and the table's own buttons do not come through the page."""

    def mark(view: F) -> F:
        view.rate_accepted = rate  # type: ignore[attr-defined]
        return view

    return mark


def running_state(seq: int | None = None, game: int | None = None, *, table: Table | None = None,
                  words: Callable[[], Words] = phone_words) -> dict[str, Any]:
    """The current state (of ``table``: the app's by default); :class:`StaleInput` if the phone acted on an older one
    than ``seq`` (of game ``game``), said in ``words()`` (the phone's)."""
    table = table or context().table
    state = table.state
    if state is None:
        raise Conflict(N_("no game is running: the host starts one"))
    if game is not None and table.game is not None and game != table.game.id:
        raise StaleInput(words().t("another game has started (game {n}, not {asked})", n=table.game.id, asked=game))
    if seq is not None and seq != state["seq"]:
        raise StaleInput(words().t("someone else acted first (the game is at input {n}, not {asked})",
                                   n=state["seq"], asked=seq))
    return state


# ---------------------------------------------------------------------- looking
@api.get("/state")
@requires(Permission.LOOK)
def get_state() -> Any:
    """The state object of DESIGN.md; other players' face-down cards hidden (the host sees all)."""
    state = running_state()
    return jsonify(as_seen_here(state, last_events(state)))


def last_events(state: State) -> list[Event]:
    """The events of the input that led to ``state`` (the table's current one), kept by the stored game."""
    game = context().table.game
    return list(game.events) if game is not None and game.state is state else []


def as_seen_here(state: State, events: Iterable[Event]) -> State:
    """The state as this phone may see it: other players' face-down cards hidden (the host sees all)."""
    return as_seen_by(state, context().access, session, events)


def as_seen_by(state: State, access: Access, kept: Mapping[str, Any], events: Iterable[Event]) -> State:
    """The state as the session ``kept`` (a live stream's) may see it now: its rights are the table's of this
    moment (leaving host mode, or the seat freed by the host, hides the cards from then on)."""
    return seen_as(state, events, viewer_of(access, state, kept), context().feed.story)


#: The one viewer of each language in a game without face-down cards (made once: a phone's is one of these).
PUBLIC_VIEWERS = {language: Viewer(False, None, language) for language in LANGUAGES}


def viewer_of(access: Access, state: State, kept: Mapping[str, Any]) -> Viewer:
    """Whom the session ``kept`` is now, as far as what it may see goes: in a game without face-down cards (its
    ruleset has no secret deck) every phone and the host of one language see the same (one view built and serialised
    for all of them, not one per seat)."""
    language = kept.get(PHONE_LANGUAGE)
    language = language if isinstance(language, str) and language in LANGUAGES else "en"
    if not find_ruleset(state["ruleset"]).secret_decks:
        return PUBLIC_VIEWERS[language]  # not made anew: the fan-out asks for every phone at every input
    return Viewer(host_rights(access, kept), seated_player(access, state, kept), language)


def seen_as(state: State, events: Iterable[Event], viewer: Viewer, story: StoryWords | None = None) -> State:
    """The state as ``viewer`` may see it: other players' face-down cards hidden (the host sees all).

    The one place where the page's view of a state is made (``/api/state``, the live stream, an input's reply):
    DESIGN.md's state, and ``just_now``, the story of the input that led to it (``events``) for the page's panel
    at the top. What a phone is shown depends on the state, its events and the viewer alone: the live streams share
    one view (and its JSON) among all the phones of one viewer, and the same for every viewer when the views are
    equal (:mod:`.feed`). A phone reading another language than English has ``said``: the prompt's question and the
    story (``said.log``, the log's lines by their events: ``story``) in it; the state's own are as they are."""
    hide = not viewer.host
    view = public_state(state, hide_secrets=hide, viewer=viewer.player)
    words = Words.for_language(viewer.language, find_ruleset(state["ruleset"]).board) \
        if viewer.language != "en" else None
    view["just_now"] = just_now(state, events, hide_secrets=hide, viewer=viewer.player, words=words)
    if words is not None:  # the question and the story in the phone's language; the state as it is
        told: dict[str, Any] = {}
        if view.get("prompt"):
            told["prompt"] = say_prompt(words, view["prompt"])
        if story is not None and view.get("log"):
            told["log"] = story.lines(view["log"], words, state["ruleset"])
        if told:
            view["said"] = told
    return view


@api.get("/history")
@requires(Permission.LOOK)
def get_history() -> Any:
    """Each player's cash after every input since the game was opened on this Pi."""
    return jsonify(context().feed.history())


@api.get("/money")
@requires(Permission.LOOK)
def get_money() -> Any:
    """The money story since the game was opened here: payments newest first (who paid whom, how much, what for),
    rent paid and received by each player, the spaces where tokens stopped most."""
    state = running_state()
    return jsonify(context().feed.ledger.story([p["name"] for p in state["players"]]))


@api.get("/acts")
@requires(Permission.LOOK)
def get_acts() -> Any:
    """The voluntary acts on deeds (build, mortgage, borrow...) the engine takes now from ``?player=`` (this phone's
    player by default): the page offers these, not a button per verb that the engine would refuse; and the acts it
    refuses, with the engine's reason, so that the page can say why a whole group offers no Build."""
    state = running_state()
    name = request.args.get("player") or current_player()
    if not name:
        raise BadRequest(N_("name a player (?player=NAME): this phone has not joined"))
    if name not in {p["name"] for p in state["players"]}:
        raise NotFound(N_("there is no player called {value}"), value=repr(name))
    ruleset = find_ruleset(state["ruleset"])
    legal, refused = ruleset.judged_acts(state, name)
    language = phone_language()  # each refusal's reason in this phone's language
    return jsonify({"seq": state["seq"], "player": name, "acts": [act for act, _ in legal],
                    "cash": [cash_change(events, name) for _, events in legal],
                    "raised": [cash_change(events, name, received_only=True) for _, events in legal],
                    "refused": [{"act": act, "why": refusal_said(why, language, ruleset.board)}
                                for act, why in refused]})


def cash_change(events: list[Event], name: str, *, received_only: bool = False) -> int:
    """What the events (an act tried on the engine) do to ``name``'s cash: + received, − paid; the page prices
    each button with it ("Mortgage +$50"), whatever the ruleset's prices and interest.

    ``received_only``: what the act brings in, before what goes out with it: a mortgage raising $100 toward a debt
    of $75 changes the cash by $25 (the debt is paid by itself) but brings $100 toward it."""
    change = 0
    for event in events:
        if event.get("kind") == "pay":
            amount = int(event.get("amount", 0))
            paid = 0 if received_only else (amount if event.get("payer") == name else 0)
            change += (amount if event.get("payee") == name else 0) - paid
    return change


@api.get("/board")
@requires(Permission.LOOK)
def get_board() -> Any:
    """Where each space sits, for drawing (``?ruleset=`` for another ruleset's board)."""
    ruleset_id = request.args.get("ruleset") or running_state()["ruleset"]
    try:
        ruleset = find_ruleset(ruleset_id)
    except KeyError:
        raise NotFound(N_("unknown ruleset {name}"), name=repr(ruleset_id)) from None
    state = context().table.state
    options = state["options"] if state is not None and state["ruleset"] == ruleset.id else ruleset.board.options
    return jsonify({**layout(ruleset.board), "links": links(ruleset, state),
                    "dynamic_links": hasattr(ruleset, "pairs"), "verbs": ruleset.verbs(),
                    "host_verbs": ruleset.host_verbs(), "currency": ruleset.board.currency,
                    "cards": {card: ruleset.card_name(card) for card in ruleset.board.cards},
                    "bid_steps": list(BID_STEPS),  # the quick bids: the same steps as the OLED's buttons
                    "deeds": deeds(ruleset.board, options, dice_utilities=isinstance(ruleset, ClassicRules),
                                   words=Words.for_language(phone_language(), ruleset.board))})


@api.get("/session")
@requires(Permission.OPEN)
def get_session() -> Any:
    """Who this phone is, and the CSRF token to send with every change (header ``X-CSRFToken``)."""
    ctx = context()
    state = ctx.table.state
    return jsonify({
        "player": current_player(),
        "host": is_host(),
        "csrf": generate_csrf(),
        "seats": ctx.access.seats(),
        "phone_dice": ctx.phone_dice,
        "table_code": ctx.access.table_code is not None and not session.get("looker") and not is_host(),
        "game": state is not None,
        "game_id": ctx.table.game.id if ctx.table.game is not None else None,
    })


@api.get("/openapi.yaml")
@requires(Permission.OPEN)
def get_openapi() -> Any:
    text = resources.files("companion.web").joinpath("openapi.yaml").read_text(encoding="utf-8")
    return Response(text, mimetype="application/yaml")


# ---------------------------------------------------------------------- live stream
@api.get("/stream")
@requires(Permission.LOOK)
def get_stream() -> Any:
    """Server-sent events: the ``state`` first, then after every input a ``delta`` (what changed since the state
    before, :mod:`.delta`), or the whole ``state`` again when the phone is too far behind; resumes with
    ``Last-Event-ID``.

    Each state is shown as this phone may see it when it is sent (:func:`as_seen_by`), not when the stream opened;
    when only that changes (the host freed this phone's seat), the whole state is sent again as it may see it now.
    While the phone is up to date this thread sleeps and the feed's fan-out writes to it (:mod:`.fanout`).
    """
    ctx = context()
    last = request.headers.get("Last-Event-ID") or request.args.get("last_event_id") or ""
    client_gone: Callable[[], bool] = request.environ.get(CLIENT_GONE, lambda: False)
    packed = "gzip" in request.accept_encodings  # every browser: a sixth of the bytes (packed_stream.py)
    slot, tail = following(ctx.packer.start if packed else None)

    def gone() -> bool:
        """The phone has gone, or this anonymous view yielded its slot to a player's phone."""
        return slot.ended.is_set() or client_gone()

    stream_socket: Callable[[], tuple[socket.socket, bool]] | None = request.environ.get(STREAM_SOCKET)

    def events() -> Iterator[bytes]:
        yield ctx.packer.head if packed else RETRY.encode()
        try:
            while not ctx.feed.closed and not slot.ended.is_set():  # ended: nothing more under a replaced session id
                version = ctx.feed.version
                if tail.pending and not (stream_socket is not None and tail.write_pending(stream_socket()[0])):
                    return
                frame = ctx.feed.latest()
                text = behind(ctx.feed, tail, frame, last)
                if text is not None:
                    yield tail.pack(text)
                    tail.sent_at = time.monotonic()
                    continue
                if stream_socket is not None and frame is not None:  # up to date: the fan-out writes what comes
                    sock, chunked = stream_socket()
                    tail.attach(sock, chunk if chunked else bytes)
                    woken = ctx.feed.fanout.sleep(tail, ctx.stream_keepalive, gone, GONE_CHECK)
                else:  # another server than ours (the tests' client): this thread waits for every change
                    new = next_version(ctx.feed, version, ctx.stream_keepalive, gone)
                    woken = None if new is None else new != version
                if woken is None:
                    return
                if not woken:
                    yield tail.pack(": keep-alive\n\n")
                    tail.sent_at = time.monotonic()
        finally:
            tail.close()

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if packed:
        headers["Content-Encoding"] = "gzip"
    response = Response(events(), mimetype="text/event-stream", headers=headers)
    response.call_on_close(lambda: ctx.streams.give_back(slot))
    return response


def following(packer: Packed | None) -> tuple[Slot, Tail]:
    """A live stream's slot (429 if this phone's address or the table holds too many) and its end of the fan-out, for
    the phone of this request (its session kept: the stream runs outside the request); ``packer``: its gzip."""
    ctx = context()
    kept = dict(session)
    slot = ctx.streams.take(request.remote_addr, member=is_host() or current_player() is not None,
                            session=session.get("sid"))
    if slot is None:
        raise TooMany(N_("too many live views open from this address: close a tab and reload"))
    request.environ.get(PATIENCE, lambda seconds: None)(STREAM_PATIENCE)  # not an ordinary answer's few seconds
    tail = Tail(lambda state: viewer_of(ctx.access, state, kept),
                lambda viewer: partial(seen_as, viewer=viewer, story=ctx.feed.story), packer, slot.ended.is_set)
    slot.on_end = tail.wake  # a stream that must yield its slot wakes at once, not at its next look
    return slot, tail


def behind(feed: Feed, tail: Tail, frame: Frame | None, last: str = "") -> str | None:
    """The events that bring ``tail``'s phone to ``frame`` (the feed's newest) as it may see it now, noted as sent;
    None if it has it. ``last``: the event id it resumed from (``Last-Event-ID``), before anything was sent."""
    if frame is None:
        return None
    viewer = tail.viewer_of(frame.state)
    if tail.held is None and last == frame.event_id:
        tail.held = (frame, viewer)  # resumed with Last-Event-ID at this state: the phone has it
    if tail.held == (frame, viewer):
        return None
    # a new state, or this phone's view of it changed
    since = tail.held[0] if tail.held is not None and tail.held[1] == viewer else None
    text = feed.catch_up(since, frame, viewer, tail.build(viewer))
    tail.held = (frame, viewer)
    return text


def next_version(feed: Feed, version: int, keepalive: float, gone: Callable[[], bool]) -> int | None:
    """Wait up to ``keepalive`` for the feed to move on from ``version``; the version then, or None as soon as the
    phone has gone (the server's thread and the stream's slot are free at once, for a phone reloading the page)."""
    deadline = time.monotonic() + keepalive
    new = version
    while new == version and not feed.closed and (left := deadline - time.monotonic()) > 0:
        new = feed.wait(version, min(left, GONE_CHECK))
        if new == version and gone():
            return None
    return new


# ---------------------------------------------------------------------- joining
@api.post("/join")
@limit("10 per minute")
@requires(Permission.OPEN)
def post_join() -> Any:
    """Join as a player with the table's join code (any seat) or the player's own code (that seat)."""
    ctx = context()
    body = json_body()
    code = field(body, "code", str).strip()
    player = field(body, "player", str)
    if not ctx.access.check_join_code(code) and not ctx.access.check_player_code(code, player):
        raise AccessDenied(N_("that is neither the table's join code nor {player}'s"), player=player)
    state = running_state()
    if all(p["name"] != player for p in state["players"]):
        raise NotFound(N_("there is no player called {name} in this game"), name=repr(player))
    renewed_session(lambda old, new: ctx.access.renew(old, new, seat=player))
    session["looker"] = True
    return jsonify({"player": player, "csrf": generate_csrf()})


@api.post("/leave")
@limit("10 per minute")
@requires(Permission.OPEN)
def post_leave() -> Any:
    """Give up this phone's seat; only a phone holding one (nothing else writes the kept file or wakes a stream)."""
    sid = str(session.get("sid", ""))
    if context().access.seat_of(sid) is None:
        raise NotAllowed("not-joined", N_("this phone holds no seat"))
    access = context().access
    access.leave(sid)
    renewed_session(access.renew)  # host rights, if any, go on under the fresh id
    return jsonify({"player": None})


@api.post("/look")
@limit("10 per minute")
@requires(Permission.OPEN)
def post_look() -> Any:
    """Enter the table code (only when the table was started with one)."""
    body = json_body()
    if not context().access.check_table_code(field(body, "code", str)):
        raise AccessDenied(N_("that is not the table code"))
    session["looker"] = True
    session_id()
    return jsonify({"looker": True})


# ---------------------------------------------------------------------- acting
@api.post("/roll")
@accepted_limit(ACCEPTED_INPUTS)
@requires(Permission.PLAY)
def post_roll() -> Any:
    """The Pi rolls the dice for this phone's roll (only with ``phone_dice = software``)."""
    ctx = context()
    body = json_body()
    seq, game = field(body, "seq", int), field(body, "game", int, required=False)
    if ctx.phone_dice != "software":
        raise AccessDenied(N_("the dice come from the table, not from a phone"))
    state = running_state(seq, game)
    prompt = state.get("prompt") or {}
    host, player = is_host(), current_player()
    if not host:
        check_own_roll(prompt, player or "")
    elif prompt.get("kind") != "roll":
        raise AccessDenied(N_("nobody is rolling now"))
    ruleset = find_ruleset(state["ruleset"])
    line = software_roll(prompt, ruleset)
    return submitted(line, seq, game, source(host, player))


def source(host: bool, player: str | None) -> str:
    """Who sent an input from a phone, as the journal keeps it."""
    return "host" if host else f"phone:{player}"


def submitted(line: dict[str, Any], seq: int, game: int | None, who: str) -> Any:
    """Send the line to the table as ``who`` (:func:`source`); the game and seq it was made on are checked again
    under the table's lock, so the permission checked on that state holds for the state it is applied to."""
    return accepted(context().table.submit(line, source=who, expect_seq=seq, expect_game=game))


def accepted(update: Update) -> Response:
    """The answer to an accepted input (:func:`reply_body`) for this request's phone."""
    return Response(reply_body(context(), update, session), mimetype="application/json")


def texts_json(texts: list[Any]) -> str:
    """``compact(texts)``: the list as JSON, its strings written by the encoder's own function for a string (an
    encoder's run for a list of two or three sentences costs twice the text; issue 43)."""
    try:
        return "[" + ",".join(map(encode_basestring_ascii, texts)) + "]"
    except TypeError:  # not all strings (a saved game's odd event): the encoder's answer
        return compact(texts)


def reply_body(ctx: WebContext, update: Update, kept: Mapping[str, Any]) -> str:
    """What an accepted input is answered with, for the phone of session ``kept``: what changed for it from the state
    it acted on (the ``delta`` its stream sends as well: worked out once for both), the game and the new seq, and
    what happened in words."""
    viewer = viewer_of(ctx.access, update.state, kept)
    build = partial(seen_as, viewer=viewer, story=ctx.feed.story)
    frame, before = ctx.feed.frames_of(update)
    assert before is not None, "an input's update names the state it followed"
    events = texts_json([e["text"] for e in update.events])
    ops = frame.changes(before.view(viewer, build), frame.view(viewer, build))
    game = "null" if frame.game is None else int(frame.game)  # json.dumps's text of a game's id, without its encoder
    return (f'{{"game":{game},"seq":{update.state["seq"]},"base":{before.state["seq"]},'
            f'"ops":{ops},"events":{events}}}')
