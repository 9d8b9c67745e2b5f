"""The OLED's key screens compared pixel for pixel with reference PNGs, drawn on luma's dummy device.

The references are in tests/face/reference/. After a deliberate change of a layout, look at
the new pictures and rewrite them with ``COMPANION_UPDATE_REFERENCE=1 pytest tests/face``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.engine import apply, find_ruleset, new_game, public_state
from companion.face import screens
from companion.face.choices import prompt_choices
from companion.face.draw import Painter, latin1
from companion.face.join import qr_matrix
from companion.face.screens import Choice, Labels

REFERENCE = Path(__file__).parent / "reference"
LABELS = Labels({s.id: s.name for s in find_ruleset("classic").board.spaces})


def game(*lines: dict, **start: dict) -> tuple[dict, list[dict]]:
    state, events = whole_game(*lines, **start)
    return public_state(state), events


def whole_game(*lines: dict, **start: dict) -> tuple[dict, list[dict]]:
    """The engine's whole state (the buttons' choices are tried on it) and the last input's events."""
    setup = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 3,
             "start": {"players": {"Ann": {"space": "go"}, **start}, "turn": "Ann"}}
    state, events = new_game(setup)
    for line in lines:
        state, events = apply(state, line)
    return state, events


def key_screens() -> dict[str, screens.Screen]:
    roll, _ = game()
    buy, buy_events = game({"roll": [1, 2]})
    tax, tax_events = game({"roll": [1, 3]})
    bids = ({"roll": [1, 2]}, {"answer": "no"}, {"act": {"player": "Bob", "do": "bid", "amount": 45}})
    auction, auction_events = game(*bids)
    jail, _ = game(Ann={"space": "jail", "in_jail": True, "cards": ["chance-get-out-of-jail-free"]})
    over, over_events = game({"roll": [1, 2]}, {"act": {"player": "Bob", "do": "bankrupt"}})
    return {
        "roll": screens.game_screen(roll, [], LABELS, dice_source="roller"),
        "buy": screens.game_screen(buy, buy_events, LABELS),
        "income-tax-options": screens.game_screen(tax, tax_events, LABELS, choice=Choice(
            ("Pay $200", "Pay 10% of worth"), 1)),
        "auction": screens.game_screen(auction, auction_events, LABELS, choice=Choice(
            tuple(c.label for c in prompt_choices(whole_game(*bids)[0], LABELS)), 0)),
        "jail": screens.game_screen(jail, [], LABELS, choice=Choice(
            (screens.ROLL_LABEL, "Pay $50 fine", "Play Get out of jail free"))),  # the roll first: a press only rolls
        "confirm-card": screens.game_screen(jail, [], LABELS, choice=Choice(
            (screens.ROLL_LABEL, "Pay $50 fine", "Play Get out of jail free"), 2, "Play Get out of jail free? YES again")),
        "help": screens.help_screen(),
        "roller-fault": screens.game_screen(roll, [], LABELS, notice="Roller: die A read 7, not a face: roll again",
                                            dice_source="roller"),
        "dice-entry": screens.dice_entry_screen("Ann", [3, 5], 1),
        "host-menu": screens.menu_screen("HOST MENU", ["Undo last input", "New game", "Join codes", "Players",
                                                       "Dice: roller", "Shut down", "Back"], 1),
        "new-game-options": screens.menu_screen("NEW GAME: OPTIONS", [
            "Start the game", "transition: even step", "double trouble: table", "backwards: reverse",
            "pool: all", "one card each: off", "travel with dice: off", "bridge moves: off", "More on your phone"], 1),
        "join": screens.join_screen(qr_matrix("http://192.168.1.20:8080/join#code=482913"),
                                    "http://192.168.1.20:8080", "482913"),  # never the PIN: everyone reads it
        "host-pin": screens.host_pin_screen(qr_matrix("http://192.168.1.20:8080/join#code=482913"),
                                            "http://192.168.1.20:8080", "1234"),
        "join-player": screens.player_join_screen(
            qr_matrix("http://192.168.1.20:8080/join#code=093114&player=Ann"), "Ann", "093114", 1, 2),
        "players": screens.players_screen(buy, LABELS),
        "game-over": screens.game_screen(over, over_events, LABELS),
        "deeds": screens.deeds_screen("Ann", 450, ["Put a house on Baltic Avenue (1 now)"],
                                      "Build on Mediterranean Avenue: pay $50", 0, 3),
    }


@pytest.mark.parametrize("name", sorted(key_screens()))
def test_key_screen_matches_reference(name: str) -> None:
    device = dummy(width=128, height=64, mode="1")
    device.display(Painter().paint(key_screens()[name]))
    image = device.image
    path = REFERENCE / f"{name}.png"
    if os.environ.get("COMPANION_UPDATE_REFERENCE"):
        image.save(path)
    assert path.exists(), f"no reference picture {path.name}: make it with COMPANION_UPDATE_REFERENCE=1"
    reference = Image.open(path).convert("1")
    difference = ImageChops.difference(image.convert("L"), reference.convert("L")).getbbox()
    assert difference is None, f"{name} differs from {path.name} in the box {difference}"


def test_the_frames_bytes_handed_to_the_display_are_the_images() -> None:
    """The painter hands the display a frame's bytes with its image (the display compares them with the last frame's
    and keeps them): they are the image's own, for every key screen, drawn from kept rows or whole."""
    painter, whole = Painter(), set()
    for name, screen in sorted(key_screens().items()):
        for _ in range(2):  # its rows drawn, then kept
            image, data = painter.frame(screen)
            assert data is None or data == image.tobytes(), name
            if data is None:
                whole.add(name)
    assert whole == {name for name, screen in key_screens().items() if screen.qr}  # a QR code is drawn whole


def test_join_qr_code_is_drawn_with_two_pixel_modules() -> None:
    matrix = qr_matrix("http://192.168.1.20:8080/join#code=482913")
    image = Painter().paint(screens.join_screen(matrix, "http://192.168.1.20:8080", "482913"))
    n = len(matrix)
    top = (64 - (n + 2) * 2) // 2
    for r in (0, n // 2, n - 1):  # sample rows: every module is a 2x2 block, dark where the matrix says
        for c in range(n):
            x, y = (c + 1) * 2, top + (r + 1) * 2
            assert bool(image.getpixel((x, y))) == (matrix[r][c] == "0")  # lit: a light module


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120),
       st.integers(5, 25))
def test_wrap_keeps_every_word_within_the_width(text: str, cols: int) -> None:
    rows = screens.wrap(text, cols)
    assert all(len(r) <= cols for r in rows)
    assert "".join("".join(rows).split()) == "".join(text.split())


def test_long_texts_scroll_in_pages() -> None:
    state, events = game({"roll": [1, 2]})
    long = [{"kind": "say", "text": f"line number {i} of a long story"} for i in range(12)]
    pages = {screens.game_screen(state, long, LABELS, scroll=k).rows for k in range(8)}
    assert len(pages) > 2
    assert screens.game_screen(state, long, LABELS).scrolls
    assert not screens.game_screen(state, events[:1], LABELS).scrolls


@given(st.integers(1, 60), st.integers(2, 6))
def test_pages_of_a_long_text_show_every_row_and_never_only_repeat(rows: int, size: int) -> None:
    lines = [f"row {i}" for i in range(rows)]
    starts = screens.page_starts(rows, size)
    pages = [screens.window(lines, size, k)[0] for k in range(len(starts))]
    assert {r for page in pages for r in page if r} == set(lines)  # every row is shown
    for before, after in zip(pages, pages[1:]):
        assert before[-1] == after[0]  # one row of overlap, to keep the thread
        assert any(r and r not in before for r in after)  # and something new on every page


def test_text_outside_latin1_is_drawable() -> None:
    assert latin1("Łódź 6★ — ok") == "Lódz 6* - ok"  # ó is Latin-1 already
    Painter().paint(screens.message_screen("Zoë & Łukasz", "Ελλάδα 🎲"))


@given(st.text(alphabet=st.characters(codec="latin-1", exclude_categories=("Cc",)), min_size=1, max_size=80),
       st.integers(0, 3), st.booleans())
def test_a_notice_replaces_rows_and_moves_nothing(notice: str, story_lines: int, with_choice: bool) -> None:
    state, _ = game()
    events = [{"kind": "say", "text": f"story line {i}"} for i in range(story_lines)]
    choice = Choice(("Pay $200", "Pay 10% of worth")) if with_choice else None
    plain = screens.game_screen(state, events, LABELS, choice=choice).rows
    noticed = screens.game_screen(state, events, LABELS, choice=choice, notice=notice).rows
    assert len(plain) == len(noticed) == 8  # one small row per controller page
    changed = [i for i, (a, b) in enumerate(zip(plain, noticed)) if a != b]
    assert 1 <= len(changed) <= 2 and all(noticed[i].invert for i in changed)
    assert "Ann, roll the dice" in [r.text for r in noticed]  # the question stays in view


@given(st.text(alphabet=st.characters(codec="latin-1", exclude_categories=("Cc", "Zs", "Zl", "Zp")), min_size=1,
               max_size=12).map(lambda w: w.strip()).filter(bool).flatmap(
                   lambda w: st.lists(st.just(w) | st.sampled_from(["roll", "Lot", "$160:"]), min_size=1, max_size=30)))
def test_a_long_notice_turns_its_pages_in_its_rows_and_every_word_is_shown(words: list[str]) -> None:
    state, _ = game()
    notice = " ".join(words)
    pages = screens.notice_pages(notice)
    frames = [screens.game_screen(state, [], LABELS, notice=notice, notice_scroll=k) for k in range(pages)]
    shown = " ".join(r.text for f in frames for r in f.rows if r.invert and r is not f.rows[0])
    assert all(w[:screens.COLS["small"]] in shown for w in words)  # a word longer than a row is cut, as a story's
    assert len({f.rows[:4] + f.rows[6:] for f in frames}) == 1  # the rest of the screen does not move
    assert all(f.scrolls == (pages > 1) for f in frames)


def test_a_long_story_scrolls_under_a_question_that_holds_still() -> None:
    state, _ = game({"roll": [1, 2]})
    long = [{"kind": "say", "text": f"line number {i} of a long story"} for i in range(12)]
    frames = [screens.game_screen(state, long, LABELS, choice=Choice(("Yes", "No")), scroll=k).rows
              for k in range(6)]
    assert len({f[1:4] for f in frames}) > 2  # the story turns its pages
    assert len({f[4:] for f in frames}) == 1  # the question, the option and the hint do not move
    assert frames[0][4].text.startswith("Buy Baltic Avenue")


def test_every_row_of_every_key_screen_sits_on_whole_controller_pages() -> None:
    assert all(height % screens.PAGE == 0 for _, height in screens.CELL.values())
    for name, screen in key_screens().items():
        if screen.qr is None:
            assert sum(screens.CELL[r.font][1] for r in screen.rows) == screens.HEIGHT, name  # fills the panel


@given(st.text(st.characters(min_codepoint=65, max_codepoint=122), min_size=1, max_size=24),
       st.integers(0, 99_999), st.sampled_from([s.id for s in find_ruleset("magie-1924").board.spaces]))
def test_the_header_never_cuts_the_cash(name: str, cash: int, space: str) -> None:
    """A long name or place is shortened; the money never is ("Player 1 $1~ Oriental Ave" read as $1)."""
    labels = Labels({s.id: s.name for s in find_ruleset("magie-1924").board.spaces})
    state = {"turn": {"player": name}, "players": [{"name": name, "cash": cash, "space": space}]}
    row = screens.header(state, labels)
    assert f" ${cash}" in row.text and len(row.text) <= screens.COLS["small"]


def test_game_over_says_why_and_the_last_instructions_page_by_page() -> None:
    """The winner alone above everyone's cash hid why ("Total worth: ...") and the last things to do."""
    state, events = game({"act": {"player": "host", "do": "end-game"}}, Bob={"cash": 200},
                         Ann={"space": "go", "cash": 1000})
    pages = [" ".join(r.text for r in screens.game_screen(state, events, LABELS, scroll=k, notice="Shutting down").rows)
             for k in range(6)]
    text = " ".join(pages)
    assert "Total worth: Ann $1000, Bob $200" in " ".join(text.split())
    assert "wins: the highest total worth" in text and "Cash in hand:" in text and "! Shutting down" in text


def test_a_lot_ticket_is_passed_not_auctioned() -> None:
    """magie-1904's lot tickets go back when not bought: the hint said "NO: auction"."""
    state, events = new_game({"ruleset": "magie-1904", "players": ["Ann", "Bob"], "seed": 4})
    assert state["prompt"]["kind"] == "buy" and state["prompt"]["ticket"]
    labels = Labels({s.id: s.name for s in find_ruleset("magie-1904").board.spaces})
    assert screens.game_screen(public_state(state), events, labels).rows[-1].text == "YES: buy $80  NO: pass"
    buy, buy_events = game({"roll": [1, 2]})
    assert screens.game_screen(buy, buy_events, LABELS).rows[-1].text == "YES: buy $60  NO: auction"


@given(st.tuples(*[st.integers(0, 255)] * 4), st.integers(1, 65535))
def test_the_address_is_never_broken_inside_a_number(ip: tuple[int, ...], port: int) -> None:
    """ "127.0.0.1:46 / 217" on two rows read as port 46."""
    address = ".".join(map(str, ip)) + f":{port}"
    rows = screens.address_rows(address, 12)
    assert "".join(rows) == address and all(len(r) <= 12 for r in rows)
    assert not any(a[-1].isdigit() and b[0].isdigit() for a, b in zip(rows, rows[1:]))


def test_long_choices_that_differ_only_at_the_end_stay_apart() -> None:
    """magie-1924's railroad move listed "Tax on Personal Property 1/2/3": all three read "< Tax on Personal
    Proper~": a wrong pick moved the token to the wrong space. Now a long label takes two rows, whole."""
    state, _ = game()
    labels = ("Tax on Personal Property 1", "Tax on Personal Property 2", "Tax on Personal Property 3")
    rows = set()
    for cursor in range(3):
        screen = screens.game_screen(state, [], LABELS, choice=Choice(labels, cursor))
        shown = [r.text for r in screen.rows[1:-1] if r.invert]  # the option's rows (the header is row 0)
        row = " ".join(shown)
        assert all(len(r) <= screens.COLS["small"] for r in shown) and len(shown) == 2
        assert row == f"< {labels[cursor]} >"  # whole, between the arrows: there are more
        rows.add(row)
    assert len(rows) == 3
    assert screens.fit_label("Go to Boardwalk", 25) == "Go to Boardwalk"
    assert screens.fit_label("Pennsylvania Railroad Avenue", 12) == "Penn. RR Ave"  # word by word first
    assert screens.fit_label("Mother Earth Farmhouse", 12) == "Mother Eart~"  # no abbreviation, no short last word


def test_extras_are_one_next_away_and_the_question_keeps_yes_and_no() -> None:
    state, events = game({"roll": [1, 2]})
    screen = screens.game_screen(state, events, LABELS, choice=Choice(("Mortgage",), 0, selected=False))
    texts = [r.text for r in screen.rows]
    assert "NEXT: Mortgage" in texts and texts[-1] == "YES: buy $60  NO: auction"
    screen = screens.game_screen(state, events, LABELS, choice=Choice(("Mortgage",), 0))
    assert [r.text for r in screen.rows][-2:] == ["Mortgage", "YES: pick  NO: back"]


def test_the_deeds_header_cuts_the_name_never_the_money() -> None:
    """"Player 2 $300 owes $~": the debt was cut (an audit at the buttons' own default names)."""
    screen = screens.deeds_screen("Christopher Wellington", 1440, [], "Mortgage Reading Railroad: get $100", 9, 12,
                                  owes=1700)
    header = screen.rows[0].text
    assert header.startswith("$1440 owes $1700") and header.endswith("10/12") and len(header) <= screens.COLS["small"]
    header = screens.deeds_screen("Christopher", 300, [], "x", 0, 2, owes=600).rows[0].text
    assert header.startswith("Chris~ $300 owes $600") and header.endswith("1/2")
    assert screens.fit_label("Christopher Wellington: accept offer", 25).endswith(": accept offer")


def test_a_loan_offer_reads_its_terms_on_the_oled() -> None:
    """The borrower may have no phone: the terms agreed (RULES.md: recorded by both) are read before YES."""
    offer = {"from": "Bob", "with": "Ann", "loan": {"amount": 100, "interest": 7, "spaces": ["lot-19"],
                                                    "terms": "back in two laps"}}
    assert "(terms: back in two laps)" in screens.offer_text(offer, screens.Labels())
    assert "terms" not in screens.offer_text({**offer, "loan": {**offer["loan"], "terms": ""}}, screens.Labels())


def test_a_press_cue_takes_the_row_being_answered() -> None:
    """On the host menu the cue ("Undoing...") was drawn over " Dice: roller", the highlighted item left as it was."""
    menu = screens.menu_screen("HOST MENU", ["Undo last input", "New game", "Join codes", "Dice: roller"], 0)
    assert menu.rows[screens.answered_row(menu)].text == ">Undo last input"
    lower = screens.menu_screen("HOST MENU", ["Undo last input", "New game", "Join codes", "Dice: roller"], 2)
    assert lower.rows[screens.answered_row(lower)].text == ">Join codes"
    asked = screens.confirm_screen("Go bankrupt?")
    assert screens.answered_row(asked) == len(asked.rows) - 2  # above the hint, as on the game screen


def test_the_story_turns_by_sentence_and_stands_apart_from_the_question() -> None:
    """The story was paged by rows: "Bob pays Ann $4 rent for" sat just above "Ann, roll the dice" and read as one
    sentence. Now every page begins with a sentence and holds whole sentences, and the row above the question is
    blank or a sentence's end."""
    state, _ = game()
    told = [{"kind": "say", "text": "Bob rolls 2 and 3. Move Bob's token 5 spaces forward to Reading Railroad."},
            {"kind": "pay", "text": "Bob pays Ann $25 rent for Reading Railroad"},
            {"kind": "say", "text": "Bob pays Ann $4 rent for Oriental Avenue. Take a card from the Chance deck."}]
    ends = {screens.wrap(s)[-1] for e in told for s in screens.sentences(e["text"])}
    starts = {screens.wrap(s)[0] for e in told for s in screens.sentences(e["text"])}
    seen = set()
    for scroll in range(6):
        screen = screens.game_screen(state, told, LABELS, scroll=scroll)
        texts = [r.text for r in screen.rows]
        question = texts.index("Ann, roll the dice")
        assert texts[1] in starts, texts  # a page begins with a sentence
        assert texts[question - 1] == "" or texts[question - 1] in ends, texts
        seen.add(texts[1])
    assert len(seen) > 1 and screen.scrolls  # the pages turn


def test_a_frame_of_kept_rows_is_the_frame_drawn_whole() -> None:
    """The painter keeps each row drawn in a band of its own and pastes the bands (issue 43: a frame shows the rows
    of the one before but two or three): the pixels are those of every row drawn on the whole frame, for every
    letter of both fonts, inverted or not, at each alignment, long rows cut at the edge included."""
    from PIL import Image, ImageDraw

    from companion.face.draw import Painter
    from companion.face.screens import HEIGHT, WIDTH, Row, Screen

    letters = "".join(chr(c) for c in range(32, 256) if chr(c).isprintable())
    rows = [Row(letters[i:i + n], font, invert, align)  # type: ignore[arg-type]
            for n in (3, 26, 40) for i in range(0, len(letters), n)
            for font in ("small", "large") for invert in (False, True) for align in ("left", "center", "right")]
    painter = Painter()
    for start in range(0, len(rows), 5):
        screen = Screen(tuple(rows[start:start + 5]))
        whole = Image.new("1", (WIDTH, HEIGHT), 0)
        draw, y = ImageDraw.Draw(whole), 0
        for row in screen.rows:
            height = 8 if row.font == "small" else 16
            if y + height > HEIGHT:
                break
            painter._row(draw, row, y)
            y += height
        for _ in range(2):  # drawn, then from the kept bands
            assert painter.paint(screen).tobytes() == whole.tobytes(), screen.rows


@given(st.text(alphabet="ab _-(.)éß1", max_size=30),
       st.sampled_from([long for long, _ in screens.ABBREVIATIONS[:12]] + ["ab", "a", "(b)", "b-", "ß"]),
       st.text(alphabet="xy.", max_size=4), st.data())
def test_a_whole_word_is_replaced_as_the_pattern_replaced_it(text: str, long: str, short: str,
                                                           data: st.DataObject) -> None:
    """``replace_word`` (no pattern compiled: issue 43's start) does what ``re.sub`` with ``\\w`` either side did."""
    where = data.draw(st.integers(0, len(text)))
    text = text[:where] + long + text[where:]  # the word in it at least once, at any edge
    assert screens.replace_word(text, long, short) == re.sub(rf"(?<!\w){re.escape(long)}(?!\w)", short, text)
