"""An undo tells the table what to put back by hand: tokens, buildings, deeds, the airplane, the bridge."""

from __future__ import annotations

from pathlib import Path

from companion.gamefile import game_file_lines, replay

GAMEFILES = Path(__file__).parent / "gamefiles"


def said_by_the_undo(path: Path) -> list[str]:
    """The texts of the events of the file's last line (an undo)."""
    lines = game_file_lines(path.read_text())
    played = replay(lines)
    last = max(number for number, _ in played.events)
    return [event["text"] for number, event in played.events if number == last]


def test_undoing_a_flight_moves_the_token_and_the_airplane_back() -> None:
    assert said_by_the_undo(GAMEFILES / "addon" / "undo-airplane-flight.jsonl") == [
        "Undone: answer Boardwalk", "Move Ann's token back to Free Parking", "Put the airplane back on Free Parking"]


def test_undoing_a_building_says_how_the_street_stands_again() -> None:
    assert said_by_the_undo(GAMEFILES / "classic" / "undo-build.jsonl") == [
        "Undone: Ann build Oriental Avenue", "Put Oriental Avenue back to no houses"]


def test_undoing_a_mortgage_turns_the_deed_back(tmp_path: Path) -> None:
    game = tmp_path / "undo-mortgage.jsonl"
    game.write_text(
        '{"setup": {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, '
        '"start": {"spaces": {"baltic-avenue": {"owner": "Ann"}}}}}\n'
        '{"act": {"player": "Ann", "do": "mortgage", "space": "baltic-avenue"}}\n'
        '{"undo": 1}\n')
    assert said_by_the_undo(game) == ["Undone: Ann mortgage Baltic Avenue", "Turn Baltic Avenue's deed face up again"]


def test_undoing_a_purchase_puts_the_deed_back_in_the_bank() -> None:
    assert said_by_the_undo(GAMEFILES / "classic" / "undo-answer.jsonl") == [
        "Undone: answer yes", "Put Baltic Avenue's deed back in the bank"]


def test_an_undo_that_changes_nothing_on_the_board_says_only_what_it_undid(tmp_path: Path) -> None:
    lines = (GAMEFILES / "classic" / "undo-trade-offer.jsonl").read_text().splitlines()[:3]  # an offer, undone
    game = tmp_path / "undo-offer.jsonl"
    game.write_text("\n".join(lines) + "\n")
    assert said_by_the_undo(game) == ["Undone: Ann trade Bob"]


def test_undoing_an_exchange_gives_the_safe_cards_back_by_hand() -> None:
    """chambers: the exchange returned both players' safe cards to the decks; the undo only moved the tokens back
    while the state gave the cards back to the hands."""
    assert said_by_the_undo(GAMEFILES / "chambers" / "undo-exchange-gives-the-safe-cards-back.jsonl") == [
        "Undone: answer Bob", "Move Ann's token back to Flying keys 2", "Move Bob's token back to Chess 4",
        "Give Bob back Upright white chess piece from the chess deck",
        "Give Ann back Non-broken broom from the keys deck"]


def test_undoing_a_trade_of_cards_hands_them_back(tmp_path: Path) -> None:
    game = tmp_path / "undo-card-trade.jsonl"
    game.write_text(
        '{"setup": {"ruleset": "magie-1924", "players": ["Ann", "Bob"], "seed": 9, '
        '"deal": {"Ann": ["wayback", "rubeville"], "Bob": ["boomtown"]}}}\n'
        '{"act": {"player": "Ann", "do": "trade", "with": "Bob", "give": {"cards": ["wayback"]}, "get": {"cash": 10}}}\n'
        '{"act": {"player": "Bob", "do": "accept"}}\n'
        '{"undo": 1}\n')
    assert "Take Wayback from Bob and give it back to Ann" in said_by_the_undo(game)


def test_a_trade_tells_each_card_it_hands_over() -> None:
    """Cards given in a trade made no event (only deeds and cash were told as its hand-overs, issue 38): every game
    file's accepted trade now tells each card, giver to taker, with the card's id for the phones."""
    from companion.engine import CompanionError, apply, new_game
    from companion.gamefile import parse_lines
    told = 0
    for path in sorted(GAMEFILES.glob("*/*.jsonl")):
        try:
            lines = [line for _, line in parse_lines(game_file_lines(path.read_text(encoding="utf-8")))]
            state, _ = new_game(lines[0]["setup"])
        except (CompanionError, KeyError):  # a file that tests a bad line or set-up
            continue
        for line in lines[1:]:
            offer = state.get("trade")
            try:
                state, events = apply(state, line)
            except CompanionError:
                break
            act = line.get("act") or {}
            if not (offer and act.get("do") == "accept" and state.get("trade") is None) or "loan" in offer:
                continue
            given = [(offer["from"], offer["with"], c) for c in offer["give"]["cards"]] + \
                [(offer["with"], offer["from"], c) for c in offer["get"]["cards"]]
            handed = [(e["player"], e["to"], *e["cards"]) for e in events if e["kind"] == "hand-over"]
            assert handed == given, path.name
            assert all(f"{by} gives {to} the " in e["text"] for (by, to, _), e in
                       zip(given, [e for e in events if e["kind"] == "hand-over"]))
            told += len(given)
    assert told >= 5  # classic's Get out of jail free, addon's travel and tax refund cards, 1924's land cards
