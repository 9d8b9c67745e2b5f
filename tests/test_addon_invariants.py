"""Hypothesis invariants of the ``addon`` ruleset over random legal and illegal input sequences.

The oracle here is RULES.md §2, not the engine: the space ids come from RULES.md's two tables, the transition pairs
from its geometry (an elevator pairs with the outer railroad on the side it faces; a quarter turn clockwise moves
each side to the next: left → top → right → bottom; the bridge is one more pair). For every input:

* a rejected input changes nothing, and an accepted one never changes the state it was applied to;
* money is conserved: players + tax pool + the bank's balance sum to zero (the bank paid the start money);
* every token stands on a real space of one of the two boards, a jailed token on jail;
* every board change in a ``move`` event is between spaces paired at that moment (rotation and bridge included),
  and a throw or a travel move ends where RULES.md's transition rule says, with the same switches (the paired
  space never counted as a step);
* no salary is paid after a backwards move, a subway ride, an airplane flight or a jump to jail;
* every card is in exactly one deck or hand; travel cards played go to the bottom of the travel deck;
* the bank's 49 houses and 19 hotels are all accounted for.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import apply, find_ruleset

from .applying import apply_unchanged, check_offer_can_be_accepted

RULES = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
SIDES = ("left", "top", "right", "bottom")
ELEVATOR_SIDE = {"west-elevator": "left", "east-elevator": "right"}
RAILROAD_ON = {"left": "pennsylvania-railroad", "top": "b-and-o-railroad", "right": "short-line",
               "bottom": "reading-railroad"}
CARD_COUNTS = {"chance": 24, "chest": 24, "travel": 24, "triple-play": 50}
HOUSES, HOTELS = 49, 19


def _rules_ids() -> tuple[list[str], list[str]]:
    """The outer and inner space ids, in board order, from RULES.md's tables (falls back to the board file)."""
    if RULES.exists():
        text = RULES.read_text()
        classic = text[text.index("## 1. `classic`"):text.index("## 2. `addon`")]
        addon = text[text.index("## 2. `addon`"):text.index("## 3.")]
        outer = re.findall(r"^\| \d+ \| ([a-z0-9-]+) \|", classic, re.M)
        inner = re.findall(r"^\| \d+ \| ([a-z0-9-]+) \[\d+\] \|", addon, re.M)
    else:  # a fresh clone without ../shared: the bundled board, checked against the counts RULES.md gives
        board = find_ruleset("addon").board
        outer, inner = list(board.tracks["main"]), list(board.tracks["inner"])
    assert len(outer) == 40 and len(inner) == 24
    return outer, inner


OUTER, INNER = _rules_ids()
ALL_SPACES = frozenset(OUTER + INNER)
BRIDGE_OUTER = [s for s in OUTER if s not in RAILROAD_ON.values()]
BRIDGE_INNER = [s for s in INNER if s not in ELEVATOR_SIDE]
BOARD = find_ruleset("addon").board
TRAVEL = sorted(c for c, card in BOARD.cards.items() if card.deck == "travel")
TRIPLE = sorted(c for c, card in BOARD.cards.items() if card.deck == "triple-play")
STREET_GROUPS = {g: m for g, m in BOARD.groups.items() if all(BOARD.by_id[s].kind == "street" for s in m)}
KEPT_EXTRAS = ["chance-tax-refund-100", "chest-half-triple-play", "chance-get-out-of-jail-free"]
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def pairs(rotation: int, bridge: list[str] | None) -> set[frozenset[str]]:
    """The transition pairs RULES.md §2 gives for a rotation (quarter turns) and a bridge."""
    found = {frozenset((e, RAILROAD_ON[SIDES[(SIDES.index(side) + rotation) % 4]])) for e, side in ELEVATOR_SIDE.items()}
    if bridge:
        found.add(frozenset(bridge))
    return found


# ============================================================================ games
@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    players = NAMES[:draw(st.integers(2, 4))]
    options: dict[str, Any] = {
        "transition": draw(st.sampled_from(["even_total", "even_step"])),
        "backwards": draw(st.sampled_from(["reverse", "rotate"])),
        "pool": draw(st.sampled_from(["all", "taxes"])),
        "double_trouble": draw(st.sampled_from(["table", "doubles"])),
        "one_card_each": draw(st.booleans()),
        "travel_with_dice": draw(st.booleans()),
        "refund_percent": draw(st.sampled_from([50, 30, 100])),
        "subway_fare": draw(st.sampled_from([0, 25])),
        "start_cash": draw(st.sampled_from([1500, 300])),  # little cash: debts and bankruptcies too
    }
    if draw(st.booleans()):
        options["bridge"] = [draw(st.sampled_from(BRIDGE_OUTER)), draw(st.sampled_from(BRIDGE_INNER))]
        options["bridge_moves"] = draw(st.booleans())
    if draw(st.booleans()):
        options["airplane"] = draw(st.sampled_from(sorted(ALL_SPACES)))
        options["airplane_fare"] = draw(st.sampled_from([0, 40]))
    setup: dict[str, Any] = {"ruleset": "addon", "players": players, "seed": draw(st.integers(0, 2**32)),
                             "options": options}
    if draw(st.booleans()):  # richer hands than the set-up deal: several travel cards, kept cards
        cards = draw(st.permutations(TRAVEL))[:3 * len(players)]
        triples = draw(st.permutations(TRIPLE))[:2 * len(players)]
        extras = list(KEPT_EXTRAS)
        setup["deal"] = {n: cards[3 * i:3 * i + 3] + triples[2 * i:2 * i + 2] + extras[i:i + 1]
                         for i, n in enumerate(players)}
    spaces = st.sampled_from(sorted(ALL_SPACES - {"jail", "go-to-jail"}))
    setup["start"] = {"players": {n: {"space": draw(spaces)} for n in players},
                      "pools": {"tax-pool": draw(st.sampled_from([0, 7, 301]))}}
    deeds: dict[str, Any] = {}
    for group in draw(st.lists(st.sampled_from(sorted(STREET_GROUPS)), max_size=5, unique=True)):
        owner, houses = draw(st.sampled_from(players)), draw(st.integers(0, 3))
        deeds.update({street: {"owner": owner, "houses": houses} for street in STREET_GROUPS[group]})
    if deeds:  # whole groups in play: building, selling and the short stock of houses
        setup["start"]["spaces"] = deeds
    return setup


def holder_of(state: dict[str, Any], card: str) -> str | None:
    return next((p["name"] for p in state["players"] if card in p["cards"]), None)


def travel_cards(player: dict[str, Any]) -> list[str]:
    return [c for c in player["cards"] if c.startswith("travel-")]


def next_input(data: st.DataObject, state: dict[str, Any]) -> dict[str, Any]:
    """A plausible input for the state: mostly what the prompt asks, sometimes a voluntary act or a wrong input."""
    prompt = state["prompt"] or {}
    kind = prompt.get("kind")
    names = [p["name"] for p in state["players"]]
    solvent = [p for p in state["players"] if not p["bankrupt"]]
    choice = data.draw(st.sampled_from(["prompt"] * 6 + ["travel", "act", "trade", "trade", "undo", "wrong"]))
    if state.get("trade") and data.draw(st.booleans()):
        choice = "trade"  # the table answers an offer soon
    if choice == "travel" and solvent:
        player = data.draw(st.sampled_from(solvent))
        held = travel_cards(player)
        cards = data.draw(st.lists(st.sampled_from(held or TRAVEL), min_size=1, max_size=3, unique=True))
        return {"act": {"player": player["name"], "do": "travel", "cards": cards}}
    if choice == "act":
        who = data.draw(st.sampled_from(names + ["host"]))
        verb = data.draw(st.sampled_from(["move-bridge"] * 3 + ["use-card"] * 3 + ["pay-fine"] * 2 + ["bankrupt"]
                                         + ["build"] * 4 + ["sell", "mortgage", "unmortgage"]))
        if verb in ("build", "sell", "mortgage", "unmortgage"):
            owned = sorted(sid for sid, rec in state["spaces"].items() if rec["owner"] == who)
            return {"act": {"player": who, "do": verb, "space": data.draw(st.sampled_from(owned or ["boardwalk"]))}}
        if verb == "move-bridge":
            return {"act": {"player": who, "do": verb, "outer": data.draw(st.sampled_from(OUTER)),
                            "inner": data.draw(st.sampled_from(INNER))}}
        if verb == "use-card":
            mine = next((p["cards"] for p in state["players"] if p["name"] == who), [])
            return {"act": {"player": who, "do": verb, "card": data.draw(st.sampled_from(mine or TRAVEL))}}
        return {"act": {"player": who, "do": verb}}
    if choice == "trade":
        if state.get("trade"):
            t = state["trade"]
            return {"act": {"player": t["with"], "do": data.draw(st.sampled_from(["accept", "accept", "reject"]))}}
        holders = [p for p in solvent if p["cards"]]
        if holders and len(solvent) > 1:
            giver = data.draw(st.sampled_from(holders))
            card = data.draw(st.sampled_from(giver["cards"]))
            if kind == "use-card" and holder_of(state, prompt["card"]) == prompt["player"]:
                giver = next(p for p in solvent if p["name"] == prompt["player"])  # the card asked about
                card = prompt["card"]
            taker = data.draw(st.sampled_from([p["name"] for p in solvent if p["name"] != giver["name"]]))
            return {"act": {"player": giver["name"], "do": "trade", "with": taker,
                            "give": {"cards": [card]}, "get": {"cash": data.draw(st.sampled_from([0, 10]))}}}
    if choice == "undo":
        return {"undo": 1}
    if choice == "wrong":
        return data.draw(st.sampled_from([
            {"roll": [7, 1]}, {"roll": [1]}, {"roll": [2, 2, 2, 2]}, {"answer": "narnia"}, {"answer": 3},
            {"act": {"player": "Zed", "do": "travel", "cards": ["travel-go"]}},
            {"act": {"player": names[0], "do": "travel", "cards": "travel-go"}},
            {"act": {"player": "host", "do": "move-bridge", "outer": "go", "inner": "west-elevator"}},
            {"act": {"player": "host", "do": "move-bridge", "outer": ["go"], "inner": {"id": "pass"}}},
            {"act": {"player": names[-1], "do": "use-card", "card": ["travel-go"]}},
        ]))
    if kind == "roll":
        count = prompt.get("dice", 2)
        return {"roll": data.draw(st.lists(st.integers(1, 6), min_size=count, max_size=count))}
    if kind == "auction":
        bidder = data.draw(st.sampled_from(prompt["waiting"]))
        cash = next(p["cash"] for p in state["players"] if p["name"] == bidder)
        if bidder != prompt["bidder"] and cash > prompt["bid"] and not data.draw(st.integers(0, 2)):
            return {"act": {"player": bidder, "do": "bid", "amount": prompt["bid"] + 1}}
        return {"act": {"player": bidder, "do": "pass"}}
    if kind == "buy" and data.draw(st.integers(0, 3)):
        return {"answer": "yes"}
    if prompt.get("options"):
        return {"answer": data.draw(st.sampled_from(prompt["options"]))}
    return {"roll": [3, 4]}


# ============================================================================ invariants
def check_state(state: dict[str, Any]) -> None:
    cash = sum(p["cash"] for p in state["players"])
    assert cash + sum(state["pools"].values()) + state["bank_balance"] == 0, "money created or lost"
    assert set(state["pools"]) == {"tax-pool"} and state["pools"]["tax-pool"] >= 0
    for p in state["players"]:
        assert p["space"] in ALL_SPACES, f"{p['name']} stands on {p['space']!r}"
        if p["in_jail"]:
            assert p["space"] == "jail"
        if not p["bankrupt"]:
            assert p["cash"] >= 0
    houses = sum(rec.get("houses", 0) for rec in state["spaces"].values())
    hotels = sum(1 for rec in state["spaces"].values() if rec.get("hotel"))
    assert houses + state["bank"]["houses"] == HOUSES and hotels + state["bank"]["hotels"] == HOTELS
    held = [c for p in state["players"] for c in p["cards"]]
    for deck, count in CARD_COUNTS.items():
        in_deck = state["decks"][deck]
        in_hand = [c for c in held if BOARD.cards[c].deck == deck]
        assert sorted(in_deck + in_hand) == sorted(c for c, card in BOARD.cards.items() if card.deck == deck)
        assert len(in_deck) + len(in_hand) == count


def check_events(before: dict[str, Any], line: dict[str, Any], events: list[dict[str, Any]]) -> None:
    rotation, bridge = before["rotation"], before["bridge"]
    prompt = before["prompt"] or {}
    salary_forbidden = False
    for i, event in enumerate(events):
        if event["kind"] == "rotate":
            rotation = event["rotation"]
        elif event["kind"] == "bridge":
            bridge = event["bridge"]
        elif event["kind"] == "move":
            allowed = pairs(rotation, bridge)
            for a, b in event.get("switches", []):
                assert frozenset((a, b)) in allowed, f"switch {a} -> {b} is not a pair (rotation {rotation})"
            steps = event.get("steps")
            salary_forbidden = bool(event.get("jail")) or steps is None or steps <= 0
        elif event["kind"] == "pay" and "salary" in event["text"]:
            assert not salary_forbidden, f"salary after a backwards move, ride, flight or jail: {events[:i + 1]}"
    throw = expected_throw(before, line)
    first = next((e for e in events if e["kind"] == "move"), None)
    if throw is not None and first is not None and "jail" not in first:
        name, start, steps = throw
        to, switches = route(start, steps, before["options"]["transition"],
                             pairs(before["rotation"], before["bridge"]))
        assert (first["player"], first["to"], first["switches"]) == (name, to, switches), (
            f"{name} from {start}, {steps} steps ({before['options']['transition']}, rotation {before['rotation']}, "
            f"bridge {before['bridge']}): RULES.md gives {to} by {switches}, the engine {first['to']} by "
            f"{first['switches']}")


def expected_throw(before: dict[str, Any], line: dict[str, Any]) -> tuple[str, str, int] | None:
    """Who moves, from where and how many steps (negative: back) for a throw or a travel move; None otherwise."""
    prompt = before["prompt"] or {}
    if "roll" in line and prompt.get("purpose") in ("turn", "jail"):
        p = next(p for p in before["players"] if p["name"] == prompt["player"])
        steps = sum(line["roll"]) + p["travel_bonus"]
        return p["name"], p["space"], -steps if p["backwards"] else steps
    act = line.get("act") or {}
    cards = act.get("cards") if act.get("do") == "travel" else None
    if cards and not before["options"]["travel_with_dice"]:
        match = [re.fullmatch(r"travel-(forward|back)-(\d)(-\d)?", str(c)) for c in cards]
        if all(match):
            p = next(p for p in before["players"] if p["name"] == act["player"])
            return p["name"], p["space"], sum(int(m[2]) * (1 if m[1] == "forward" else -1) for m in match if m)
    return None


def route(start: str, steps: int, rule: str, paired: set[frozenset[str]]) -> tuple[str, list[list[str]]]:
    """RULES.md §2: step by step; leaving a transition space with steps to go (or at the start) switches boards when
    the total is even (``even_total``) or the steps taken so far are even (``even_step``)."""
    other = {a: b for pair in paired for a, b in (tuple(pair), tuple(pair)[::-1])}
    here, switches = start, []
    for taken in range(abs(steps)):
        if here in other and (abs(steps) % 2 == 0 if rule == "even_total" else taken % 2 == 0):
            switches.append([here, other[here]])
            here = other[here]
        track = OUTER if here in OUTER else INNER
        here = track[(track.index(here) + (1 if steps > 0 else -1)) % len(track)]
    return here, switches


def check_travel_to_bottom(before: dict[str, Any], line: dict[str, Any], after: dict[str, Any]) -> None:
    act = line.get("act") or {}
    cards = act.get("cards") if act.get("do") == "travel" else [act.get("card")] if act.get("do") == "use-card" else []
    cards = [c for c in cards or [] if isinstance(c, str) and c.startswith("travel-")]
    if not cards or any(holder_of(after, c) for c in cards):
        return
    drawn = len(before["decks"]["travel"]) + len(cards) - len(after["decks"]["travel"])
    assert set(cards) <= set(after["decks"]["travel"][-(len(cards) + drawn):]), "played travel cards not at the bottom"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_addon_invariants(setup: dict[str, Any], data: st.DataObject) -> None:
    state, _ = apply(None, {"setup": setup})
    check_state(state)
    for _ in range(data.draw(st.integers(10, 120), label="inputs")):
        if state["winner"] is not None:
            break
        line = next_input(data, state)
        taken = apply_unchanged(state, line)
        if taken is None:
            continue
        after, events = taken
        check_state(after)
        check_offer_can_be_accepted(after)
        if "undo" not in line:
            check_events(state, line, events)
            check_travel_to_bottom(state, line, after)
        state = after


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**64 - 1))
def test_set_up_deals_one_travel_and_one_triple_play_card(players: int, seed: int) -> None:
    """RULES §2 set-up: each player is dealt one travel card and one triple play card, all different."""
    names = [f"P{i}" for i in range(players)]
    state, _ = apply(None, {"setup": {"ruleset": "addon", "players": names, "seed": seed}})
    hands = [p["cards"] for p in state["players"]]
    for hand in hands:
        assert sorted(BOARD.cards[c].deck for c in hand) == ["travel", "triple-play"]
    dealt = [c for hand in hands for c in hand]
    assert len(set(dealt)) == len(dealt)
    assert state["bank"] == {"houses": HOUSES, "hotels": HOTELS} and state["pools"] == {"tax-pool": 0}
    check_state(state)
