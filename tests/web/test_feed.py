"""The feed's frames: each view of an input built and serialised once, whatever the number of phones showing it."""

from __future__ import annotations

import json
from typing import Any

from companion.engine import public_state
from companion.table import Table
from companion.web.feed import Feed, Frame, Viewer

ANN, BOB, HOST = Viewer(False, "Ann"), Viewer(False, "Bob"), Viewer(True, None)


class Builder:
    """A view builder that counts its calls."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer, self.calls = viewer, 0

    def __call__(self, state: Any) -> Any:
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
    first = classic.view(ANN, lambda s: {k: v for k, v in s.items() if k != "seed"})
    assert classic.view(BOB, lambda s: {k: v for k, v in s.items() if k != "seed"}) is first
    feed.close()


def test_the_frame_of_an_update_is_the_one_the_streams_were_woken_with(table: Table) -> None:
    feed = Feed(table)
    update = table.submit({"roll": [1, 2]}, source="buttons")
    assert feed.frame_of(update) is feed.latest()
    assert update.before is not None and update.before["seq"] == 0
    feed.close()
    gone = table.submit({"answer": "no"}, source="buttons")  # after close: not heard, a frame of its own
    assert feed.frame_of(gone).state is gone.state and feed.frame_of(gone).event_id.endswith(":2")

