"""Hypothesis invariants of ``magie-1904`` and ``magie-1924`` over random legal and illegal input sequences.

The oracle is RULES.md §3-4, not the engine. For every input:

* a rejected input changes nothing, and an accepted one never changes the state it was applied to;
* money is conserved across the bank, the pools and the players (the bank's balance makes up the rest);
* 1924: the board's money and the players' cash add up to 6600 unless ``unlimited_board``; nobody's cash and
  no pool ever goes below zero;
* 1904: a lot is mortgaged exactly while a loan is secured on it, and every loan's lots are its borrower's;
  a bank loan is in notes of 100 at 5 a note; a token in jail stands on the jail, one in the poorhouse on it;
* 1924: every card is in one place (a hand or the board's pile) and a space's owner holds its card; improvement
  tags on the land and in the box add up to 40; a player has at most one sign, on their own land; a player out
  of the game holds nothing;
* the winner is right: 1904 the highest score of the count-up, 1924 the goal reached or the last one in.

At the end, replaying the accepted inputs from the set-up rebuilds the same state.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import apply, find_ruleset

from .applying import apply_unchanged, check_offer_can_be_accepted

NAMES = ["Ann", "Bob", "Cy", "Dee"]
B1904 = find_ruleset("magie-1904").board
B1924 = find_ruleset("magie-1924").board
LOTS = [s.id for s in B1904.spaces if s.kind == "lot"]
LAND = [s.id for s in B1924.spaces if s.kind == "land"]
CARDS = sorted(B1924.cards)
IDLE = [c for c in CARDS if B1924.cards[c].do == "idle"]
PRICE = {s.id: s.price for s in B1904.spaces if s.kind == "lot"}
TOTAL_1924, TAGS = 6600, 40


# ============================================================================ games
@st.composite
def setups(draw: st.DrawFn, ruleset: str) -> dict[str, Any]:
    players = NAMES[:draw(st.integers(2, 4))]
    setup: dict[str, Any] = {"ruleset": ruleset, "players": players, "seed": draw(st.integers(0, 2**32))}
    if ruleset == "magie-1904":
        setup["options"] = {"no_lot_tickets": draw(st.booleans()), "laps": draw(st.sampled_from([1, 2, 5])),
                            "start_cash": draw(st.sampled_from([500, 120]))}
        if draw(st.booleans()):  # a game in progress: lots owned, some laps done, a few loans
            owners = {lot: draw(st.sampled_from(players)) for lot in draw(st.lists(st.sampled_from(LOTS), max_size=10,
                                                                                     unique=True))}
            start: dict[str, Any] = {
                "players": {n: {"cash": draw(st.sampled_from([0, 15, 200])), "laps": draw(st.integers(0, 2)),
                                "space": draw(st.sampled_from(sorted(B1904.by_id)))} for n in players},
                "spaces": {lot: {"owner": owner} for lot, owner in owners.items()},
                "pools": {"public-treasury": draw(st.sampled_from([0, 40]))}}
            pledged = [lot for lot in owners if PRICE[lot] >= 110][:2]
            start["loans"] = [{"lender": "bank", "borrower": owners[lot], "amount": 100, "spaces": [lot]}
                              for lot in pledged]
            setup["start"] = start
    else:
        setup["options"] = {"unlimited_board": draw(st.booleans()), "goal": draw(st.sampled_from([3000, 900])),
                            "start_cash": draw(st.sampled_from([500, 60]))}
        if draw(st.booleans()):
            hands = draw(st.permutations(CARDS))
            setup["deal"] = {n: hands[5 * i:5 * i + draw(st.integers(0, 5))] for i, n in enumerate(players)}
    return setup


def player(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in state["players"] if p["name"] == name)


def next_input(data: st.DataObject, state: dict[str, Any]) -> dict[str, Any]:
    """A plausible input: mostly what the prompt asks, often a voluntary act of these games, sometimes junk."""
    draw = data.draw
    prompt = state["prompt"] or {}
    kind, who = prompt.get("kind"), prompt.get("player")
    names = [p["name"] for p in state["players"]]
    in_game = [p["name"] for p in state["players"] if not p["bankrupt"]]
    if state.get("trade") and draw(st.booleans()):
        return {"act": {"player": state["trade"]["with"], "do": draw(st.sampled_from(["accept", "accept", "reject"]))}}
    choice = draw(st.sampled_from(["prompt"] * 8 + ["act"] * 4 + ["undo", "wrong"]))
    if choice == "undo":
        return {"undo": 1}
    if choice == "wrong":
        return draw(st.sampled_from([
            {"roll": [7, 1]}, {"roll": [1, 2], "cube": 5}, {"roll": [1, 2], "cube": 7}, {"answer": "narnia"},
            {"act": {"player": "Zed", "do": "borrow", "amount": 100, "spaces": ["lot-20"]}},
            {"act": {"player": names[0], "do": "borrow", "amount": 150, "spaces": "lot-20"}},
            {"act": {"player": names[-1], "do": "loan", "to": names[-1], "amount": 10, "spaces": ["lot-1"]}},
            {"act": {"player": names[0], "do": "improve", "space": "wages"}},
            {"act": {"player": names[0], "do": "sell-idle", "cards": ["gold-mine", "gold-mine"]}},
            {"act": {"player": "host", "do": "send-to-jail", "target": "Zed"}},
        ]))
    if choice == "act" and in_game:
        return magie_act(data, state, draw(st.sampled_from(in_game)), in_game)
    if kind == "roll":
        line: dict[str, Any] = {"roll": draw(st.lists(st.integers(1, 6), min_size=2, max_size=2))}
        if prompt.get("with_cube"):
            line["cube"] = draw(st.sampled_from([5, 10, 15, 20, 25, 30]))
        return line
    if kind == "auction":
        bidder = draw(st.sampled_from(prompt["waiting"]))
        if bidder != prompt["bidder"] and player(state, bidder)["cash"] > prompt["bid"] and draw(st.booleans()):
            return {"act": {"player": bidder, "do": "bid", "amount": prompt["bid"] + draw(st.sampled_from([1, 25]))}}
        return {"act": {"player": bidder, "do": "pass"}}
    if kind == "debt" and who and draw(st.booleans()):
        return rescue(data, state, who, in_game)
    if prompt.get("options"):
        return {"answer": draw(st.sampled_from(prompt["options"]))}
    return {"roll": [3, 4]}


def magie_act(data: st.DataObject, state: dict[str, Any], name: str, in_game: list[str]) -> dict[str, Any]:
    draw = data.draw
    mine = sorted(sid for sid, rec in state["spaces"].items() if rec["owner"] == name)
    others = [n for n in in_game if n != name] or [name]
    if state["ruleset"] == "magie-1904":
        free = [sid for sid in mine if sid in PRICE and not state["spaces"][sid]["mortgaged"]]
        loans = [x["id"] for x in state["loans"] if x["borrower"] == name] or [1]
        return draw(st.sampled_from([
            {"act": {"player": name, "do": "borrow", "amount": draw(st.sampled_from([100, 200])),
                     "spaces": free or ["lot-22"]}},
            {"act": {"player": name, "do": "repay", "loan": draw(st.sampled_from(loans))}},
            {"act": {"player": name, "do": "loan", "to": draw(st.sampled_from(others)),
                     "amount": draw(st.sampled_from([20, 80])), "interest": draw(st.sampled_from([0, 3])),
                     "spaces": draw(st.sampled_from([["lot-20"], ["lot-3"], free[:1] or ["lot-1"]])),
                     "terms": "two laps"}},
            {"act": {"player": name, "do": "trade", "with": (to := draw(st.sampled_from(others))),
                     "give": {"spaces": free[:1]},  # all the partner's cash: the next payment spoils the offer
                     "get": {"cash": draw(st.sampled_from([0, 30, player(state, to)["cash"]]))}}},
            {"act": {"player": name, "do": "pay-fine"}},
            {"act": {"player": "host", "do": "send-to-jail", "target": name}},
        ]))
    cards = player(state, name)["cards"]
    idle = [c for c in cards if c in IDLE]
    return draw(st.sampled_from([
        {"act": {"player": name, "do": "improve", "space": draw(st.sampled_from(mine or LAND))}},
        {"act": {"player": name, "do": "sign", "space": draw(st.sampled_from(mine or LAND))}},
        {"act": {"player": name, "do": "sell-idle", "cards": idle[:draw(st.integers(1, 2))] or ["gold-mine"]}},
        {"act": {"player": name, "do": "buy-idle", "count": draw(st.integers(1, 2))}},
        {"act": {"player": name, "do": "trade", "with": (to := draw(st.sampled_from(others))),
                 "give": {"cards": cards[:1]},  # all the partner's cash: the next payment spoils the offer
                 "get": {"cash": draw(st.sampled_from([0, 40, 300, player(state, to)["cash"]]))}}},
        {"act": {"player": "host", "do": "send-to-jail", "target": name}},
    ]))


def rescue(data: st.DataObject, state: dict[str, Any], name: str, in_game: list[str]) -> dict[str, Any]:
    """What a debtor tries: a bank loan on every free lot (1904) or selling a card to another player (1924)."""
    others = [n for n in in_game if n != name] or [name]
    if state["ruleset"] == "magie-1904":
        free = [sid for sid, rec in state["spaces"].items()
                if rec["owner"] == name and sid in PRICE and not rec["mortgaged"]]
        return {"act": {"player": name, "do": "borrow", "amount": 100, "spaces": free or ["lot-22"]}}
    cards = player(state, name)["cards"]
    return {"act": {"player": name, "do": "trade", "with": data.draw(st.sampled_from(others)),
                    "give": {"cards": cards[:1]}, "get": {"cash": data.draw(st.sampled_from([10, 150]))}}}


# ============================================================================ invariants
def check_state(state: dict[str, Any]) -> None:
    cash = sum(p["cash"] for p in state["players"])
    assert cash + sum(state["pools"].values()) + state["bank_balance"] == 0, "money created or lost"
    assert all(amount >= 0 for amount in state["pools"].values()), state["pools"]
    for p in state["players"]:
        assert p["cash"] >= 0, f"{p['name']} has {p['cash']}"
        if p["in_jail"]:
            assert p["space"] == ("jail"), p
    if state["ruleset"] == "magie-1904":
        check_1904(state)
    else:
        check_1924(state)


def check_1904(state: dict[str, Any]) -> None:
    assert set(state["pools"]) == {"public-treasury", "railroad"}
    pledged = [sid for loan in state["loans"] for sid in loan["spaces"]]
    assert len(pledged) == len(set(pledged)), "a lot secures two loans"
    for sid, rec in state["spaces"].items():
        assert rec["mortgaged"] == (sid in pledged), f"{sid} mortgaged={rec['mortgaged']}"
    for loan in state["loans"]:
        assert loan["lender"] != loan["borrower"] and loan["amount"] > 0
        assert all(state["spaces"][sid]["owner"] == loan["borrower"] for sid in loan["spaces"])
        if loan["lender"] == "bank":
            assert loan["amount"] % 100 == 0 and loan["interest"] == 5 * loan["amount"] // 100
    for p in state["players"]:
        assert not (p["in_jail"] and p["in_poorhouse"])
        if p["in_poorhouse"]:
            assert p["space"] == "poorhouse" and 0 <= p["poorhouse_throws"] < 30
        assert min(p["laps"], p["luxuries"], p["legacies"]) >= 0
    assert sorted(state["decks"]["lot-tickets"]) == sorted(LOTS), "a lot ticket went missing"
    if state["winner"] is not None:
        scores = state["scores"]
        assert all(p["laps"] >= state["options"]["laps"] for p in state["players"])
        assert scores[state["winner"]] == max(scores.values())
        for p in state["players"]:
            lots = sum(PRICE[sid] for sid, rec in state["spaces"].items() if rec["owner"] == p["name"] and sid in PRICE)
            owed = sum(x["amount"] for x in state["loans"] if x["borrower"] == p["name"])
            lent = sum(x["amount"] for x in state["loans"] if x["lender"] == p["name"])
            assert scores[p["name"]] == lots + p["cash"] + 60 * p["luxuries"] - owed + lent


def check_1924(state: dict[str, Any]) -> None:
    options = state["options"]
    assert set(state["pools"]) == {"board"}
    if not options["unlimited_board"]:
        assert sum(p["cash"] for p in state["players"]) + state["pools"]["board"] == TOTAL_1924, "the 6600 changed"
    held = [c for p in state["players"] for c in p["cards"]]
    assert sorted(held + state["decks"]["cards"]) == CARDS, "a card is lost or in two places"
    for sid, rec in state["spaces"].items():
        holder = next((p["name"] for p in state["players"] if sid in p["cards"]), None)
        assert rec["owner"] == holder, f"{sid}: owner {rec['owner']}, card with {holder}"
    placed = sum(1 for rec in state["spaces"].values() if rec.get("improvement"))
    assert state["bank"]["improvements"] >= 0 and placed + state["bank"]["improvements"] == TAGS
    for p in state["players"]:
        signs = [sid for sid, rec in state["spaces"].items() if rec.get("sign") and rec["owner"] == p["name"]]
        assert len(signs) <= 1, f"{p['name']} has signs on {signs}"
        if p["bankrupt"]:
            assert p["cash"] == 0 and not p["cards"]
    assert not any(rec.get("sign") and rec["owner"] is None for rec in state["spaces"].values()), "a sign without owner"
    if state["winner"] is not None:
        winner = player(state, state["winner"])
        in_game = [p for p in state["players"] if not p["bankrupt"]]
        assert winner["cash"] >= options["goal"] or in_game == [winner]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), ruleset=st.sampled_from(["magie-1904", "magie-1924"]))
def test_magie_invariants(data: st.DataObject, ruleset: str) -> None:
    setup = data.draw(setups(ruleset), label="setup")
    state, _ = apply(None, {"setup": setup})
    check_state(state)
    accepted: list[dict[str, Any]] = []
    for _ in range(data.draw(st.integers(20, 160), label="inputs")):
        if state["winner"] is not None:
            break
        line = next_input(data, state)
        taken = apply_unchanged(state, line)
        if taken is None:
            continue
        after, _ = taken
        check_state(after)
        check_offer_can_be_accepted(after)
        accepted.append(line)
        state = after
    replayed, _ = apply(None, {"setup": setup})
    for line in accepted:
        replayed, _ = apply(replayed, line)
    assert replayed == state, "replaying the accepted inputs gives another state"
