"""What the buttons browse at a prompt and the input each choice sends (pure, no hardware)."""

from __future__ import annotations

import pytest

from companion.engine import IllegalInput, apply, find_ruleset, new_game
from companion.face import choices as choices_module
from companion.face.choices import ButtonChoice, first_choice, prompt_choices, space_labels
from companion.face.screens import Labels
from companion.sim import GameSpec, play_game

LABELS = Labels({s.id: s.name for s in find_ruleset("classic").board.spaces})


def classic(*lines: dict, **players: dict) -> dict:
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3,
             "start": {"players": {"Ann": {"space": "go"}, **players}, "turn": "Ann"}}
    state, _ = new_game(setup)
    for line in lines:
        state, _ = apply(state, line)
    return state


def test_income_tax_is_browsed_as_amounts() -> None:
    """Each pays: each asks for a second YES."""
    assert prompt_choices(classic({"roll": [1, 3]}), LABELS) == [
        ButtonChoice("Pay $200", {"answer": "flat"}, "Pay $200? YES again"),
        ButtonChoice("Pay 10% of worth", {"answer": "percent"}, "Pay 10% of worth? YES again")]


def test_a_yes_no_question_has_nothing_to_browse() -> None:
    assert prompt_choices(classic({"roll": [1, 2]}), LABELS) == []  # buy Baltic Avenue: YES or NO


def test_in_jail_the_fine_and_a_kept_card_come_before_the_roll() -> None:
    state = classic(Ann={"space": "jail", "in_jail": True, "cards": ["chance-get-out-of-jail-free"]})
    roll, fine, card = prompt_choices(state, LABELS)
    assert roll == ButtonChoice("Roll the dice", None, roll=True)  # where the cursor starts: a press only rolls
    assert fine == ButtonChoice("Pay $50 fine", {"act": {"player": "Ann", "do": "pay-fine"}},
                                "Pay $50 fine? YES again")
    assert card.line == {"act": {"player": "Ann", "do": "use-card", "card": "chance-get-out-of-jail-free"}}
    assert card.label.startswith("Play ") and card.confirm == f"{card.label}? YES again"


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924", "chambers"])
def test_the_buttons_can_always_answer_a_prompt_they_browse(ruleset: str) -> None:
    """At every prompt of a bot game with options to browse, the engine takes at least one of them (a choice may
    be refused with its reason, such as a lot the player cannot pay for); only leaving the game (bankrupt, out, the
    poorhouse) asks twice."""
    lines: list[dict] = []
    play_game(GameSpec(ruleset, 3, seed=4), 0, lines)
    state, _ = new_game(lines[0]["setup"])
    labels = Labels({s.id: s.name for s in find_ruleset(ruleset).board.spaces})
    browsed = 0
    for line in lines[1:]:
        answers = [c for c in prompt_choices(state, labels) if c.line is not None and "answer" in c.line]
        if answers:
            taken = 0
            for choice in answers:
                try:
                    apply(state, choice.line)
                    taken += 1
                except IllegalInput as refusal:
                    assert str(refusal)  # a reason the OLED can show
                if choice.line["answer"] in ("bankrupt", "out", "poorhouse"):
                    assert choice.confirm is not None
            assert taken, f"no browsed answer accepted at {state['prompt']}"
            browsed += 1
        state, _ = apply(state, line)
    assert browsed > 0


def test_chambers_star_is_a_card_or_the_steps() -> None:
    state, _ = new_game({"ruleset": "chambers", "players": ["Ann", "Bob"], "seed": 1})
    state, _ = apply(state, {"roll": [6]})
    labels = Labels({s.id: s.name for s in find_ruleset("chambers").board.spaces})
    assert prompt_choices(state, labels) == [  # a card drawn cannot be undone: YES again
        ButtonChoice("Draw a card", {"answer": "draw"}, "Draw a card? YES again"),
        ButtonChoice("Move 6", {"answer": "move"})]


def test_only_cards_the_engine_takes_now_are_offered_before_a_roll() -> None:
    """A jail card outside jail, a triple play or a tax refund card are never offered (they used to be, and
    YES said "not played that way"); a travel card before a throw is."""
    cards = ["chance-get-out-of-jail-free"]
    assert prompt_choices(classic(Ann={"space": "go", "cards": cards}), LABELS) == []
    addon, _ = new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3, "start": {"players": {
        "Ann": {"cards": ["triple-play-112", "chance-tax-refund-100", "chest-half-triple-play", "travel-back-1"]}, "Bob": {"cards": []}}}})
    offered = [c.line["act"]["card"] for c in prompt_choices(addon, LABELS) if not c.roll]
    assert offered == ["travel-back-1"]


def test_leaving_a_landlords_game_asks_twice_and_says_so() -> None:
    """magie-1924's "out" took one YES and read "Out"."""
    state, _ = new_game({"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9, "start": {"players": {
        "Ann": {"cash": 10, "cards": ["wayback"]}, "Bob": {"cards": ["rubeville"]}},
        "spaces": {"rubeville": {"improvement": True}}}})
    state, _ = apply(state, {"roll": [2, 4]})
    (out,) = prompt_choices(state, LABELS)
    assert out == ButtonChoice("Leave the game", {"answer": "out"}, "Leave the game? YES again")


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924", "chambers"])
def test_every_space_has_a_label_of_its_own(ruleset: str) -> None:
    """A list of destinations read "Community Chest" four times and "Chance" four times."""
    labels = space_labels(find_ruleset(ruleset)).spaces
    assert len(set(labels.values())) == len(labels)


def test_the_cursor_starts_on_staying_put_or_just_ahead_of_the_token() -> None:
    addon = find_ruleset("addon")
    plane, _ = new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3, "options": {"airplane": "free-parking"},
                         "start": {"players": {"Ann": {"space": "st-james-place", "cards": []}, "Bob": {"cards": []}}}})
    plane, _ = apply(plane, {"roll": [3, 1]})
    assert plane["prompt"]["kind"] == "airplane"
    assert plane["prompt"]["options"][first_choice(plane, addon)] == "free-parking"  # stay: no press at all
    subway, _ = new_game({"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
                          "start": {"players": {"Ann": {"space": "inner-community-chest", "cards": []}, "Bob": {"cards": []}}}})
    subway, events = apply(subway, {"roll": [1, 1]})
    assert subway["prompt"]["kind"] == "subway"
    options = subway["prompt"]["options"]
    order = [s.id for s in addon.board.spaces]
    assert order.index(options[first_choice(subway, addon)]) == order.index("subway") + 1
    after, events = apply(subway, {"answer": "chance"})
    assert any(e["text"].endswith("to Chance on the outer board") for e in events)  # the names repeat


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924"])
def test_the_deeds_offered_are_every_candidate_act_the_engine_takes_with_its_price(ruleset: str) -> None:
    """Through a bot game: at each prompt of a player, the deeds list holds exactly the ruleset's candidate acts
    that the engine takes, and each label's amount is what the act changes in the player's cash (outside a debt,
    which an act may settle at once)."""
    from companion.face.choices import deed_choices

    lines: list[dict] = []
    play_game(GameSpec(ruleset, 3, seed=2), 0, lines)
    state, _ = new_game(lines[0]["setup"])
    engine = find_ruleset(ruleset)
    labels = Labels({s.id: s.name for s in engine.board.spaces})
    checked: dict[str, int] = {}
    for index, line in enumerate(lines[1:]):
        prompt = state["prompt"] or {}
        if prompt.get("kind") != "auction" and prompt.get("player") and (index % 3 == 0 or prompt["kind"] != "roll"):
            name = prompt["player"]
            offered = {repr(c.line): c.label for c in deed_choices(state, name, labels)}
            for act in engine.candidate_acts(state, name):
                line_tried = {"act": act}
                try:
                    after, _ = apply(state, line_tried)
                except IllegalInput:
                    assert repr(line_tried) not in offered
                    continue
                label = offered[repr(line_tried)]
                change = next(p["cash"] for p in after["players"] if p["name"] == name) - \
                    next(p["cash"] for p in state["players"] if p["name"] == name)
                if prompt["kind"] != "debt":
                    shown = f": get ${change}" if change > 0 else f": pay ${-change}" if change < 0 else ""
                    assert label.endswith(shown) and (change != 0 or "$" not in label), (label, change)
                checked[act["do"]] = checked.get(act["do"], 0) + 1
        state, _ = apply(state, line)
    assert checked, "no act was ever offered"


def test_after_an_act_the_cursor_goes_on_with_it_and_never_onto_its_reverse() -> None:
    """After a mortgage the cursor used to land on "Lift the mortgage" of the same deed: a second YES undid the
    first and cost 10% (6,500 times in an audit's button games)."""
    from companion.face.choices import next_deed

    def deed(verb: str, space: str) -> ButtonChoice:
        return ButtonChoice(f"{verb} {space}", {"act": {"player": "Ann", "do": verb, "space": space}})

    after_mortgage = [deed("unmortgage", "reading-railroad"), deed("mortgage", "short-line"), deed("sell", "x")]
    assert next_deed(after_mortgage, {"do": "mortgage", "space": "reading-railroad"}, 0) == 1  # the next mortgage
    only_lifts_and_sales = [deed("unmortgage", "reading-railroad"), deed("sell", "baltic-avenue")]
    assert next_deed(only_lifts_and_sales, {"do": "mortgage", "space": "reading-railroad"}, 0) == 1
    after_borrow = [deed("repay", "1"), deed("borrow", "lot-3")]
    assert next_deed(after_borrow, {"do": "borrow"}, 0) == 1
    assert next_deed([deed("repay", "1")], {"do": "borrow"}, 0) is None  # only its reverse is left: the list closes


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924", "chambers"])
def test_one_press_never_spends_plays_or_does_what_cannot_be_undone(ruleset: str) -> None:
    """At every prompt of bot games (with the deeds of its player), the row the cursor starts on is the roll or
    harmless, and every choice that would spend its player's money, play a card or not be undoable asks for a
    second YES. (A new two-player addon game used to start on "Play Advance to GO": one YES played it.)"""
    engine = find_ruleset(ruleset)
    labels = choices_module.space_labels(engine)
    checked = 0
    for seed in (4, 5):
        lines: list[dict] = []
        play_game(GameSpec(ruleset, 3, seed=seed), 0, lines)
        state, _ = new_game(lines[0]["setup"])
        for line in lines[1:80]:
            prompt = state.get("prompt") or {}
            player = prompt.get("player")
            browsed = prompt_choices(state, labels)
            if player:
                browsed += choices_module.deed_choices(state, player, labels)
            for choice in browsed:
                if choice.line is None:
                    continue
                acting = choice.line.get("act", {}).get("player", player)
                after, events = choices_module.tried_whole(engine, state, choice.line)
                if events is None:
                    continue
                pays = choices_module.own_payment(events, acting) < 0  # its own payment (not a debt let through)
                final = not after["undo"]["inputs"]
                plays = choice.line.get("act", {}).get("do") == "use-card"
                if pays or final or plays:
                    assert choice.confirm, f"one YES does {choice.label!r} at {prompt}"
                checked += 1
            own = [c for c in prompt_choices(state, labels) if not c.extra]
            if own and prompt.get("kind") == "roll":
                assert own[first_choice(state, engine)].roll
            state, _ = apply(state, line)
    assert checked > 0


@pytest.mark.parametrize("ruleset", ["classic", "addon", "magie-1904", "magie-1924"])
def test_the_deeds_entry_says_what_the_whole_list_of_deed_acts_would(ruleset: str) -> None:
    """The entry ("Build, mortgage") is worked out by trying each kind of act only until one is taken (issue 43):
    at every state of a bot game, for every player, it is what the whole list (:func:`deed_choices`) makes of it;
    and so is the buttons' own entry, found by first trying the act the state before's was found by, its words
    worked out when read."""
    lines: list[dict] = []
    play_game(GameSpec(ruleset, 3, seed=6), 0, lines)
    labels = space_labels(find_ruleset(ruleset))
    state, _ = new_game(lines[0]["setup"])
    before: dict[str, choices_module.DeedsEntry | None] = {}
    for line in lines[1:160]:
        for player in state["players"]:
            deeds = choices_module.deed_choices(state, player["name"], labels)
            words = list(dict.fromkeys(choices_module.DEED_WORDS.get(c.line["act"]["do"], ("",))[0]
                                       for c in deeds if c.line))
            label = ", ".join(words[:2]).capitalize()
            whole = [ButtonChoice(label if len(label) <= choices_module.ENTRY_COLS else words[0].capitalize(), None)] \
                if deeds else []
            assert choices_module.deeds_entry(state, player["name"], labels) == whole, (state["seq"], player["name"])
            entry = choices_module.DeedsEntry.found(state, player["name"], labels, before.get(player["name"]))
            assert ([entry.choice()] if entry is not None else []) == whole, (state["seq"], player["name"])
            before[player["name"]] = entry or before.get(player["name"])
        state, _ = apply(state, line)


def test_the_auction_offers_the_phones_quick_bids() -> None:
    """The OLED's bid steps were +$10 and +$50 while the phones' were +$10, +$50 and +$100 (issue 38: "the same
    steps as the OLED"): both take companion.bids' list, each step over the highest bid."""
    from companion.bids import BID_STEPS, quick_bids
    state = classic({"roll": [1, 2]}, {"answer": "no"}, {"act": {"player": "Ann", "do": "bid", "amount": 30}})
    bids = [c.line["act"]["amount"] for c in prompt_choices(state, LABELS)
            if c.line is not None and c.line["act"]["do"] == "bid"]
    assert bids == quick_bids(30) == [30 + step for step in BID_STEPS] == [40, 80, 130]
