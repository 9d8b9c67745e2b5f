"""The state view's ``just_now``: the last input's story as the page's "Just now" panel draws it (issue 38)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from companion.engine import Event, State, apply, find_ruleset, new_game
from companion.journal import Journal
from companion.sim.game import GameSpec, play_game
from companion.table import Table
from companion.web import Access, create_app
from companion.web.just_now import NEWS_KINDS, just_now

from .conftest import CODE, PIN, as_host, post
from .sse import patched

CLASSIC = {"ruleset": "classic", "players": ["Ann", "Bob", "Cleo"], "seed": 5}


def played(setup: dict[str, Any], *lines: dict[str, Any]) -> tuple[State, list[Event]]:
    state, events = new_game(setup)
    for line in lines:
        state, events = apply(state, line)
    return state, events


def told(setup: dict[str, Any], *lines: dict[str, Any], viewer: str | None = None) -> list[dict[str, Any]]:
    state, events = played(setup, *lines)
    story = just_now(state, events, hide_secrets=True, viewer=viewer)
    assert story["seq"] == state["seq"]
    return story["lines"]


def test_a_roll_is_its_dice_with_their_total_and_the_move_to_the_printed_name() -> None:
    lines = told(CLASSIC, {"roll": [1, 2]}, {"answer": "yes"}, {"roll": [6, 4]})
    assert lines[0] == {"kind": "dice", "player": "Bob", "dice": [6, 4], "total": 10, "text": "Bob rolls 6 and 4"}
    assert lines[1]["kind"] == "move" and lines[1]["player"] == "Bob"
    assert lines[1]["to"] == "Jail, just visiting"  # not "on Jail": the other side of the jail
    assert lines[1]["text"] == "Move Bob's token 10 spaces forward to Jail"  # the engine's own sentence kept


def test_going_to_jail_is_told_as_in_jail() -> None:
    start = {"players": {"Ann": {"space": "ventnor-avenue"}}}
    lines = told({**CLASSIC, "start": start}, {"roll": [1, 2]})  # to Go To Jail
    assert [line["to"] for line in lines if line["kind"] == "move"][-1] == "Jail: in jail"


def test_a_card_is_its_deck_and_text_and_a_payment_says_who_whom_how_much_and_what_for() -> None:
    lines = told(CLASSIC, {"roll": [1, 2]}, {"answer": "yes"}, {"roll": [6, 4]}, {"roll": [3, 4]})
    card = next(line for line in lines if line["kind"] == "card")
    assert (card["deck"], card["card"], card["player"]) == ("Chance", "Pay poor tax of $15.", "Cleo")
    pay = next(line for line in lines if line["kind"] == "pay")
    assert (pay["from"], pay["to"], pay["amount"], pay["for"]) == ("Cleo", "the bank", 15, "for the card")


def test_rent_and_a_deed_handed_over() -> None:
    lines = told(CLASSIC, {"roll": [1, 2]}, {"answer": "yes"})
    assert [line["kind"] for line in lines] == ["pay", "hand"]
    assert lines[1]["text"] == "Give Ann the deed of Baltic Avenue"
    lines = told(CLASSIC, {"roll": [1, 2]}, {"answer": "yes"}, {"roll": [1, 2]})  # Bob lands on Ann's Baltic Avenue
    rent = next(line for line in lines if line["kind"] == "pay")
    assert (rent["from"], rent["to"], rent["amount"], rent["for"]) == ("Bob", "Ann", 4, "rent for Baltic Avenue")


def test_the_elevator_is_told_with_both_ends_and_their_boards() -> None:
    setup = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
             "start": {"players": {"Ann": {"space": "virginia-avenue"}}}}
    move = next(line for line in told(setup, {"roll": [4, 2]}) if line["kind"] == "move")
    assert move["to"] == "Tax Refund (inner board)"
    assert move["by"] == "elevator"
    assert move["via"] == [["Pennsylvania Railroad (outer board)", "West Elevator (inner board)"]]


def test_a_face_down_card_of_another_player_is_told_by_its_deck_alone() -> None:
    setup = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3, "stack": {"travel": ["travel-forward-1"]},
             "deal": {"Ann": ["travel-elevator"], "Bob": []},
             "start": {"players": {"Ann": {"space": "virginia-avenue"}}}}
    travel = {"act": {"player": "Ann", "do": "travel", "cards": ["travel-elevator"]}}  # to an elevator: a travel card
    lines = told(setup, travel, viewer="Bob")
    card = next(line for line in lines if line["kind"] == "card")
    assert card["deck"] == "Travel" and "card" not in card and "name" not in card


def test_every_event_of_bot_games_of_every_ruleset_becomes_a_line() -> None:
    """Nothing the engine tells is lost or unreadable: each event is one line with its sentence."""
    for ruleset in ("classic", "addon", "magie-1904", "magie-1924", "chambers"):
        inputs: list[dict[str, Any]] = []
        play_game(GameSpec(ruleset, 3, seed=7, turn_cap=80), 0, inputs)
        state, _ = new_game(inputs[0]["setup"])
        for line in inputs[1:]:
            state, events = apply(state, line)  # the table's path: every event has its sentence
            lines = just_now(state, events, hide_secrets=True, viewer=None)["lines"]
            said = [e for e in events if e.get("text")]
            assert [line["text"] for line in lines if line["kind"] != "news"] == \
                [str(e["text"]) for e in said if e["kind"] not in NEWS_KINDS]  # in the engine's order
            assert sorted(line["text"] for line in lines) == sorted(str(e["text"]) for e in said)
            for line, event in zip(lines, said):
                if line["text"] != event["text"]:
                    continue  # a trade's answer went first
                if line["kind"] == "dice":
                    assert line["total"] == sum(line["dice"]) and all(1 <= d <= 6 for d in line["dice"])
                if line["kind"] == "move":  # the printed name, not the id
                    assert line["to"].startswith(find_ruleset(ruleset).board.by_id[event["to"]].name)


# ---------------------------------------------------------------------- through the API


def client(table: Table) -> FlaskClient:
    app = create_app(table, access=Access(host_pin=PIN, join_code=CODE), phone_dice="software")
    return app.test_client()


def test_the_state_the_stream_and_an_inputs_reply_carry_it_and_a_restart_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Journal(path) as journal:
        table = Table(journal)
        table.new_game(CLASSIC)
        web = as_host(client(table))
        before = web.get("/api/state").get_json()
        reply = post(web, "/api/input", {"input": {"roll": [1, 2]}, "seq": 0}).get_json()
        carried = patched(before, reply["ops"])["just_now"]  # the reply: what changed from the state acted on
        assert [line["kind"] for line in carried["lines"]] == ["dice", "move"]
        seen = web.get("/api/state").get_json()["just_now"]
        assert seen == carried
        assert seen["lines"][1]["to"] == "Baltic Avenue"
    with Journal(path) as journal:  # the Pi restarted: the stored game keeps the last input's events
        table = Table(journal, journal.latest_game())
        assert client(table).get("/api/state").get_json()["just_now"] == seen


def test_a_trades_answer_heads_the_hand_overs_it_brings() -> None:
    setup = {**CLASSIC, "players": ["Ann", "Bob"], "start": {"spaces": {"baltic-avenue": {"owner": "Ann"}}}}
    offer = {"act": {"player": "Ann", "do": "trade", "with": "Bob",
                     "give": {"cash": 0, "spaces": ["baltic-avenue"], "cards": []},
                     "get": {"cash": 100, "spaces": [], "cards": []}}}
    lines = told(setup, offer, {"act": {"player": "Bob", "do": "accept"}})
    assert [(line["kind"], line["text"]) for line in lines] == [
        ("news", "Bob accepts: trade done"), ("hand", "Ann gives Bob the deed of Baltic Avenue"),
        ("pay", "Bob pays Ann $100 in the trade")]


def test_cards_given_in_a_trade_are_handed_over_too() -> None:
    """Only deeds and cash showed as a trade's hand-overs: a card changed hands unsaid (issue 38)."""
    setup = {**CLASSIC, "players": ["Ann", "Bob"],
             "start": {"players": {"Bob": {"cards": ["chance-get-out-of-jail-free"]}},
                       "spaces": {"baltic-avenue": {"owner": "Ann"}}}}
    offer = {"act": {"player": "Ann", "do": "trade", "with": "Bob",
                     "give": {"cash": 0, "spaces": ["baltic-avenue"], "cards": []},
                     "get": {"cash": 0, "spaces": [], "cards": ["chance-get-out-of-jail-free"]}}}
    lines = told(setup, offer, {"act": {"player": "Bob", "do": "accept"}})
    assert [(line["kind"], line["text"]) for line in lines] == [
        ("news", "Bob accepts: trade done"), ("hand", "Ann gives Bob the deed of Baltic Avenue"),
        ("hand", "Bob gives Ann the Get out of jail free card")]
