"""Phones following bot games through what changed (the live stream's deltas, the reply to an input) hold the state
``GET /api/state`` shows them, after every input, in every ruleset: a JS-free client of the page's delta format
(tests/web/sse.py), and the page itself in Chromium."""

from __future__ import annotations

import json
import random
from functools import partial
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.engine import find_ruleset, ruleset_ids
from companion.journal import Journal
from companion.sim.registry import strategy_for
from companion.table import Table
from companion.web import Access, WebServer, create_app, make_server

from .conftest import CODE, PIN
from .sse import Client, EventStream, patched
from .ws import SocketPhone
from .test_browser import browser  # noqa: F401  (the fixture: Chromium, or skipped)

INPUTS = 120  # of each ruleset's bot game (fewer if it ends before)


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[tuple[Table, WebServer]]:
    with Journal(tmp_path / "games.sqlite3") as journal:
        table = Table(journal)
        table.new_game({"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 1})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        app.extensions["companion"].stream_keepalive = 0.5
        with make_server(app, "127.0.0.1", 0) as server:
            yield table, server


class Bots:
    """A ruleset's bots choosing each input from the table's whole state; the host sends it through the API
    (``POST /api/input``, or ``over`` its websocket)."""

    def __init__(self, table: Table, host: Client, ruleset: str, seed: int, over: SocketPhone | None = None) -> None:
        self.table, self.host, self.over = table, host, over
        self.bot = strategy_for(ruleset)(find_ruleset(ruleset), random.Random(seed))

    def send(self, body: dict[str, Any]) -> tuple[int, Any]:
        if self.over is None:
            return self.host.request("POST", "/api/input", body)
        reply = self.over.act(body)
        return reply["status"], reply["body"]

    def play(self) -> dict[str, Any] | None:
        """Send the next input the engine takes (the bot's choice, else its fallbacks); its reply, or None when the
        game is over."""
        state = self.table.state
        assert state is not None
        if state.get("winner") is not None or state.get("prompt") is None:
            return None
        game = self.table.game.id  # type: ignore[union-attr]
        for line in [self.bot.next_input(state), *self.bot.fallback(state)]:
            status, answer = self.send({"input": line, "seq": state["seq"], "game": game})
            if status == 200:
                return answer  # type: ignore[no-any-return]
            assert status == 422, answer
        raise AssertionError(f"no input taken at {state['prompt']}")


def new_game(host: Client, ruleset: str) -> None:
    host.post("/api/host/new-game", {"setup": {"ruleset": ruleset, "players": ["Ann", "Bob", "Cy"], "seed": 11}})


@pytest.mark.parametrize("transport", ["socket", "stream"])
@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_phones_following_the_deltas_hold_the_state_after_every_input(serving: tuple[Table, WebServer],
                                                                       ruleset: str, transport: str) -> None:
    """Over the websocket (the events, and the host's inputs and their replies) as over the live stream and POSTs."""
    table, server = serving
    host = Client(server.host, server.port)
    host.post("/api/host/login", {"pin": PIN})
    new_game(host, ruleset)
    ann = Client(server.host, server.port)
    ann.post("/api/join", {"code": CODE, "player": "Ann"})
    anyone = Client(server.host, server.port)
    follow = EventStream if transport == "stream" else partial(SocketPhone, deflate=True)  # as browsers offer it
    phones: list[tuple[Client, Any]] = [
        (host, follow(server.host, server.port, cookie=host.cookie)),  # sees every card
        (ann, follow(server.host, server.port, cookie=ann.cookie)),  # her own cards face up
        (anyone, EventStream(server.host, server.port) if transport == "stream"  # no card face up
         else SocketPhone(server.host, server.port))]  # (its frames not compressed)
    for _, stream in phones:
        stream.next_state()
    held = host.get("/api/state")  # the host's page, applying the replies to its own inputs
    bots = Bots(table, host, ruleset, seed=5, over=phones[0][1] if transport == "socket" else None)
    inputs = 0
    while inputs < INPUTS and (reply := bots.play()) is not None:
        inputs += 1
        assert reply["base"] == held["seq"] and reply["seq"] == held["seq"] + 1 and reply["game"] == table.game.id
        held = patched(held, reply["ops"])
        assert held == host.get("/api/state"), f"{ruleset}, input {inputs}: the reply's delta"
        for client, stream in phones:
            _, state = stream.next_state()
            assert state == client.get("/api/state"), f"{ruleset}, input {inputs}: a stream's delta"
    assert inputs >= 30, f"{ruleset}: the bots' game ended after {inputs} inputs"
    for _, stream in phones:
        assert stream.kinds[0] == "state" and stream.kinds[1:] == ["delta"] * inputs  # only what changed
        stream.close()
    host.close()
    ann.close()
    anyone.close()


@pytest.mark.parametrize("transport", ["socket", "stream"])
def test_the_page_holds_the_state_after_every_input_of_a_bot_game(serving: tuple[Table, WebServer],
                                                                 browser: Any, transport: str) -> None:
    """Chromium following an addon bot game as Ann (her travel cards face up, the others' hidden): after every
    input the page's state is the one ``GET /api/state`` gives it, and it came as deltas: over its websocket, and
    over the live stream where it has none (the page's fallback)."""
    table, server = serving
    host = Client(server.host, server.port)
    host.post("/api/host/login", {"pin": PIN})
    new_game(host, "addon")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    if transport == "stream":
        context.add_init_script("delete window.WebSocket")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    packed: list[str | None] = []  # the stream's Content-Encoding as Chromium received it
    page.on("response", lambda answer: packed.append(answer.headers.get("content-encoding"))
            if answer.url.endswith("/api/stream") else None)
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.goto(server.url + f"/join#code={CODE}&player=Ann")
    page.wait_for_selector("#live.on")
    page.wait_for_function("() => window.app.session && window.app.session.player === 'Ann'")
    if transport == "stream":
        assert packed and set(packed) == {"gzip"} and not sockets  # Chromium asks for gzip: the deltas came through it
    else:
        assert sockets and all(url.endswith("/api/socket") for url in sockets) and not packed
    page.evaluate("() => { window.deltas = 0; window.app.stream.addEventListener('delta', () => window.deltas++); }")
    bots = Bots(table, host, "addon", seed=9)
    inputs = 0
    while inputs < 60 and (reply := bots.play()) is not None:
        inputs += 1
        page.wait_for_function(f"() => Number(document.body.dataset.seq) === {reply['seq']}")
        shown, served = page.evaluate("async () => [JSON.stringify(window.app.state), "
                                      "JSON.stringify(await (await fetch('/api/state')).json())]")
        assert json.loads(shown) == json.loads(served), f"input {inputs}"
    assert inputs == 60 and page.evaluate("() => window.deltas") == inputs and not errors
    context.close()
    host.close()
