"""The feed's frames: each view of an input built and serialised once, whatever the number of phones showing it."""

from __future__ import annotations

import json
from typing import Any

from companion.engine import public_state
from companion.table import Table
from companion.web.feed import RECENT_FRAMES, Feed, Frame, Viewer

from .sse import patched

ANN, BOB, HOST = Viewer(False, "Ann"), Viewer(False, "Bob"), Viewer(True, None)


class Builder:
    """A view builder that counts its calls."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer, self.calls = viewer, 0

    def __call__(self, state: Any, events: Any = ()) -> Any:
        self.calls += 1
        return public_state(state, hide_secrets=not self.viewer.host, viewer=self.viewer.player)


def test_every_stream_of_a_viewer_shares_one_view_and_its_json(table: Table) -> None:
    feed = Feed(table)
    table.submit({"roll": [1, 2]}, source="buttons")
    frame = feed.latest()
    assert frame is not None and frame.state is table.state and frame.event_id == f"{table.game.id}:1"
    build = Builder(ANN)
    views = [frame.view(ANN, build) for _ in range(8)]  # eight phones of Ann's
    assert build.calls == 1 and all(v is views[0] for v in views)
    assert views[0].text() is views[0].text()  # serialised once
    assert json.loads(views[0].text()) == public_state(table.state)
    feed.close()


def test_viewers_who_see_the_same_share_it_and_the_others_get_their_own(journal: Any) -> None:
    table = Table(journal)
    table.new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
                    "deal": {"Ann": ["travel-forward-2"], "Bob": ["travel-back-1"]}})
    feed = Feed(table)
    frame = feed.latest()
    assert frame is not None
    ann, bob, host = (frame.view(v, Builder(v)) for v in (ANN, BOB, HOST))
    assert ann is not bob and ann is not host  # each sees their own travel card face up, the host all
    assert [p["cards"] for p in ann.value["players"]] == [["travel-forward-2"], ["travel-hidden"]]
    classic = Frame(1, table.state | {"ruleset": "classic"})  # no face-down cards: one view for all
    first = classic.view(ANN, lambda s, events: {k: v for k, v in s.items() if k != "seed"})
    assert classic.view(BOB, lambda s, events: {k: v for k, v in s.items() if k != "seed"}) is first
    feed.close()


def test_the_frame_of_an_update_is_the_one_the_streams_were_woken_with(table: Table) -> None:
    feed = Feed(table)
    update = table.submit({"roll": [1, 2]}, source="buttons")
    assert feed.frame_of(update) is feed.latest()
    assert update.before is not None and update.before["seq"] == 0
    feed.close()
    gone = table.submit({"answer": "no"}, source="buttons")  # after close: not heard, a frame of its own
    assert feed.frame_of(gone).state is gone.state and feed.frame_of(gone).event_id.endswith(":2")


def test_an_update_s_frames_found_at_once_are_those_looked_up_one_by_one(table: Table) -> None:
    """The reply's one look (``frames_of``) at the newest two frames; an input published in between looked up as
    before."""
    feed = Feed(table)
    first = table.submit({"roll": [1, 2]}, source="buttons")
    frame, before = feed.frames_of(first)
    assert (frame, before) == (feed.frame_of(first), feed.frame_before(feed.frame_of(first)))
    assert frame is feed.latest() and before is not None and before.state is first.before
    second = table.submit({"answer": "no"}, source="buttons")  # came between the first and its reply
    frame, before = feed.frames_of(first)
    assert frame is feed.frame_of(first) and before is feed.frame_before(frame) and frame is not feed.latest()
    assert feed.frames_of(second) == (feed.latest(), frame)
    feed.close()



def events(text: str) -> list[tuple[str, str, Any]]:
    """The server-sent events of ``text``: (id, kind, data)."""
    found = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(":", 1) for line in block.split("\n"))
        found.append((fields["id"], fields["event"], json.loads(fields["data"])))
    return found


def test_a_phone_behind_is_sent_what_changed_input_by_input_until_it_is_too_far_behind(table: Table) -> None:
    feed = Feed(table)
    build = Builder(ANN)
    held = feed.latest()
    assert held is not None
    held_state = held.view(ANN, build).value
    lines = [{"roll": [1, 2]}, {"answer": "no"}]
    for line in lines:
        table.submit(line, source="buttons")
    sent = events(feed.catch_up(held, feed.latest(), ANN, build))  # type: ignore[arg-type]
    assert [kind for _, kind, _ in sent] == ["delta", "delta"]
    assert [event_id for event_id, _, _ in sent] == [f"{table.game.id}:1", f"{table.game.id}:2"]
    for _, _, ops in sent:
        held_state = patched(held_state, ops)
    assert held_state == public_state(table.state)
    behind = feed.latest()
    for n in range(RECENT_FRAMES):  # the state it holds is no longer kept (declined, undone, declined...)
        table.submit({"undo": 1} if n % 2 == 0 else {"answer": "no"}, source="host")
    (_, kind, data), = events(feed.catch_up(behind, feed.latest(), ANN, build))  # type: ignore[arg-type]
    assert kind == "state" and data == public_state(table.state)
    feed.close()


def test_a_new_game_is_sent_whole(table: Table) -> None:
    feed = Feed(table)
    held = feed.latest()
    table.new_game({"ruleset": "classic", "players": ["Dee", "Eve"], "seed": 2})
    (event_id, kind, data), = events(feed.catch_up(held, feed.latest(), ANN, Builder(ANN)))  # type: ignore[arg-type]
    assert kind == "state" and data == public_state(table.state) and event_id == f"{table.game.id}:0"
    feed.close()
