"""Travel cards are dealt face down: a phone sees its own, the others only as ``travel-hidden``; the host sees all."""

from __future__ import annotations

from companion.engine import find_ruleset, new_game, public_state

from .sse import patched

SETUP = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
         "deal": {"Ann": ["travel-forward-2", "triple-play-136"], "Bob": ["travel-back-1", "triple-play-445"]}}


def test_a_phone_sees_its_own_travel_cards_and_only_the_count_of_the_others() -> None:
    state, _ = new_game(SETUP)
    seen = public_state(state, hide_secrets=True, viewer="Ann")
    assert seen["players"][0]["cards"] == ["travel-forward-2", "triple-play-136"]
    assert seen["players"][1]["cards"] == ["travel-hidden", "triple-play-445"]
    anonymous = public_state(state, hide_secrets=True)
    assert [p["cards"][0] for p in anonymous["players"]] == ["travel-hidden", "travel-hidden"]
    assert public_state(state)["players"][1]["cards"][0] == "travel-back-1"  # host, replay --json
    assert state["players"][1]["cards"][0] == "travel-back-1"  # the state itself is untouched


def test_rulesets_without_face_down_cards_show_everything() -> None:
    state, _ = new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "deal": {"Bob": ["chance-get-out-of-jail-free"]}})
    assert public_state(state, hide_secrets=True, viewer="Ann") == public_state(state)
    assert find_ruleset("classic").secret_decks == frozenset()


def test_the_api_hides_other_players_travel_cards_but_not_from_the_host(table, app) -> None:
    from .conftest import as_host, join

    table.new_game(SETUP, source="host")
    ann = join(app.test_client(), "Ann")
    assert [p["cards"][0] for p in ann.get("/api/state").get_json()["players"]] == ["travel-forward-2", "travel-hidden"]
    anyone = app.test_client().get("/api/state").get_json()
    assert [p["cards"][0] for p in anyone["players"]] == ["travel-hidden", "travel-hidden"]
    host = as_host(app.test_client())
    assert [p["cards"][0] for p in host.get("/api/state").get_json()["players"]] == ["travel-forward-2", "travel-back-1"]


def test_the_reply_to_a_phones_input_hides_the_other_players_travel_cards(table, app) -> None:
    """What a phone gets back after acting is the state as that phone may see it, like /api/state."""
    from .conftest import join, send

    table.new_game({**SETUP, "start": {"turn": "Ann"}}, source="host")
    ann = join(app.test_client(), "Ann")
    before = ann.get("/api/state").get_json()
    reply = send(ann, {"roll": [1, 2]}, seq=0)
    assert reply.status_code == 200, reply.get_json()
    assert "travel-back-1" not in reply.get_data(as_text=True)
    after = patched(before, reply.get_json()["ops"])  # what changed for Ann, from the state she acted on
    assert after == ann.get("/api/state").get_json()
    assert [p["cards"][0] for p in after["players"]] == ["travel-forward-2", "travel-hidden"]



def test_a_trade_cannot_ask_for_face_down_cards_whatever_the_other_holds(table, app) -> None:
    """Asking for each travel card in turn would tell which one Ann holds (the engine refuses the others by name):
    every such ask gets the same answer, and Ann can still offer hers."""
    from .conftest import join, send

    table.new_game({**SETUP, "start": {"turn": "Bob"}}, source="host")
    bob = join(app.test_client(), "Bob")
    travel = [c for c in bob.get("/api/board").get_json()["cards"] if c.startswith("travel-")] + ["travel-hidden"]
    assert "travel-forward-2" in travel
    replies = set()
    for card in travel:
        asked = send(bob, {"act": {"player": "Bob", "do": "trade", "with": "Ann",
                                   "give": {"cash": 10}, "get": {"cash": 0, "spaces": [], "cards": [card]}}})
        replies.add((asked.status_code, asked.get_json().get("message"), asked.headers.get("X-RateLimit-Remaining")))
    assert len(replies) == 1 and next(iter(replies))[0] == 403, replies
    assert table.state["trade"] is None
    public = send(bob, {"act": {"player": "Bob", "do": "trade", "with": "Ann", "get": {"cards": ["triple-play-136"]}}})
    assert public.status_code == 200, public.get_json()  # a face-up card may be asked for
    send(bob, {"act": {"player": "Bob", "do": "reject"}})
    ann = join(app.test_client(), "Ann")
    offered = send(ann, {"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cards": ["travel-forward-2"]}}})
    assert offered.status_code == 200, offered.get_json()
