"""Hypothesis: whatever a phone sends to ``/api/input``, the answer is JSON with a known status, and a refusal
changes nothing."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from hypothesis import event, given, settings
from hypothesis import strategies as st

from companion.engine import public_state
from companion.journal import Journal
from companion.table import Table
from companion.web import Access, create_app

from .conftest import CODE, PIN, SETUP, as_host, design_part, join, post
from .sse import patched

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**7) | st.text(max_size=12)
    | st.sampled_from(["Ann", "Bob", "yes", "no", "bid", "pass", "build", "trade", "baltic-avenue", "host"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["roll", "answer", "act", "undo", "player", "do", "amount", "space", "with", "give", "get",
                         "cash", "spaces", "cards", "x"]), inner, max_size=4),
    max_leaves=12,
)
LINES = st.one_of(
    JSON,
    st.fixed_dictionaries({"act": st.fixed_dictionaries({"player": st.sampled_from(["Ann", "Bob", "host", "Zed"]),
                                                         "do": st.sampled_from(["bid", "pass", "build", "mortgage",
                                                                                "trade", "accept", "bankrupt"])},
                                                        optional={"amount": JSON, "space": JSON, "with": JSON})}),
    st.fixed_dictionaries({"roll": st.lists(st.integers(0, 7), max_size=3)}),
    st.fixed_dictionaries({"answer": JSON}),
    st.fixed_dictionaries({"roll": st.lists(st.integers(1, 6), min_size=2, max_size=2)}),  # mostly legal: the
    st.sampled_from([{"answer": "yes"}, {"answer": "no"}, {"act": {"player": "Ann", "do": "pass"}}]),  # game moves
    st.builds(lambda n: {"act": {"player": "Ann", "do": "bid", "amount": n}}, st.integers(1, 400)),
)


@pytest.fixture(scope="module")
def phones(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, FlaskClient], Table]]:
    """One app for all the examples (a journal on disk per example would be slow): Ann's phone and the host's."""
    with Journal(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3") as journal:
        table = Table(journal)
        table.new_game({**SETUP, "players": ["Ann", "Bob"]})
        app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="manual")
        yield {"Ann": join(app.test_client(), "Ann"), "host": as_host(app.test_client())}, table


ADDRESSES = (f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}" for n in itertools.count(1))


@settings(max_examples=300, deadline=None)
@given(line=LINES, seq_delta=st.sampled_from([0, 0, 0, 0, -1, 1]), raw=st.booleans(),
       who=st.sampled_from(["Ann", "host"]))
def test_any_input_is_answered_and_a_refusal_changes_nothing(phones: tuple[dict[str, FlaskClient], Table], line: Any,
                                                             seq_delta: int, raw: bool, who: str) -> None:
    clients, table = phones
    client = clients[who]
    before = public_state(table.state)
    seen = client.get("/api/state").get_json()  # the view this phone holds: DESIGN.md's state and just_now
    body = {"input": line, "seq": before["seq"] + seq_delta}
    address = {"environ_base": {"REMOTE_ADDR": next(ADDRESSES)}}  # each example its own address, and a fresh limit
    client.application.extensions["companion"].limiter.reset()  # of refusals (per address and per phone)
    if raw:
        response = post(client, "/api/input", data=json.dumps(body), content_type="application/json", **address)
    else:
        response = post(client, "/api/input", body, **address)
    assert response.status_code in (200, 400, 403, 409, 422), response.get_data(as_text=True)
    answer = response.get_json()
    event(f"status {response.status_code}")
    if response.status_code == 200:
        # what changed, from the view of the state acted on
        assert design_part(patched(seen, answer["ops"])) == public_state(table.state)
        assert answer["seq"] == before["seq"] + 1 and answer["base"] == before["seq"]
    else:
        assert set(answer) == {"error", "message"} and answer["message"]
        assert public_state(table.state) == before
