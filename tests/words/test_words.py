"""companion.words: money with the board's currency where each locale puts it, numbers, lists, the board's own names,
engine messages filled in, and each phone's language from its Accept-Language."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine.messages import English
from companion.engine.core import names_of
from companion.engine.rules import load_ruleset
from companion.words import LANGUAGES, Words, negotiate, parse_accept_language

NBSP = "\u00a0"
CLASSIC = Path(__file__).parents[2] / "companion" / "boards" / "classic.toml"


@pytest.mark.parametrize("amount", [0, 1, 28, 1500, 20580, -40])
def test_english_money_is_the_engines(amount: int) -> None:
    assert Words.for_language("en").money(amount) == English().money(amount)  # the engine's English ($1500)


@pytest.mark.parametrize("items", [[], ["Ann"], ["Ann", "Bob"], ["Ann", "Bob", "Cy"]])
def test_english_lists_are_the_engines(items: list[str]) -> None:
    assert Words.for_language("en").names_list(items) == names_of(items)


@pytest.mark.parametrize(("language", "currency", "said"), [
    ("de", "€", f"1.500{NBSP}€"), ("fr", "€", f"1\u202f500{NBSP}€"), ("es", "€", f"1.500{NBSP}€"),
    ("de", "$", f"1.500{NBSP}$"), ("en", "£", "£1500"), ("en", "M", "M1500"), ("es", "M", f"1.500{NBSP}M"),
])
def test_money_puts_the_boards_currency_where_the_locale_does(language: str, currency: str, said: str) -> None:
    board = load_ruleset("classic").board
    board = type(board)(**{**board.__dict__, "currency": currency})
    assert Words.for_language(language, board).money(1500) == said


def test_numbers_and_lists_per_language() -> None:
    said = {lang: (Words.for_language(lang).number(12345), Words.for_language(lang).names_list(["A", "B", "C"]))
            for lang in LANGUAGES}
    assert said == {"en": ("12345", "A, B and C"), "de": ("12.345", "A, B und C"),
                    "fr": ("12\u202f345", "A, B et C"), "es": ("12.345", "A, B y C")}


def test_a_message_is_filled_by_its_placeholders_names() -> None:
    board = load_ruleset("classic").board
    msg = "{player} pays {payee} {amount} rent for {space}"
    args = {"player": "Ann", "payee": "Bob", "amount": 28, "space": "boardwalk"}
    assert Words.for_language("en", board).message(msg, args) == "Ann pays Bob $28 rent for Boardwalk"
    listed = Words.for_language("de", board).message("{spaces}", {"spaces": ["boardwalk", "park-place"]})
    assert listed == "Boardwalk und Park Place"


def test_the_boards_own_names_in_a_language(tmp_path: Path) -> None:
    board = load_ruleset("classic").board
    data = {**board.data, "names": {"de": {"spaces": {"boardwalk": "Schlossallee"}, "decks": {"chance": "Ereignis"}}}}
    german = Words.for_language("de", type(board)(**{**board.__dict__, "data": data}))
    assert (german.space("boardwalk"), german.space("park-place"), german.deck("chance")) == \
        ("Schlossallee", "Park Place", "Ereignis")


@pytest.mark.parametrize(("header", "language"), [
    ("de-AT,de;q=0.9,en;q=0.8", "de"), ("fr-CA", "fr"), ("es-MX;q=0.5, fr;q=0.7", "fr"), ("pt-BR", "en"),
    ("", "en"), (None, "en"), ("*", "en"), ("en-GB,en;q=0.9", "en"), ("de;q=0, es", "es"),
])
def test_a_phones_language_from_its_accept_language(header: str | None, language: str) -> None:
    assert negotiate(header) == language


def test_accept_language_order_by_quality() -> None:
    assert parse_accept_language("en;q=0.1, de , fr;q=0.5, x;q=bad") == ["de", "fr", "en"]


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'pt'"):
        Words.for_language("pt")


def check_board(tmp_path: Path, extra: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    text = CLASSIC.read_text()
    path = tmp_path / "edition.toml"
    path.write_text(text + extra, encoding="utf-8")
    status = main(["check-board", "classic", str(path)], out=io.StringIO())
    return status, capsys.readouterr().err


def test_check_board_takes_names_per_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    extra = '\n[names.de.spaces]\nboardwalk = "Schlossallee"\n[names.fr.decks]\nchance = "Chance"\n'
    assert check_board(tmp_path, extra, capsys) == (0, "")


@pytest.mark.parametrize(("extra", "error"), [
    ('\n[names.pt.spaces]\nboardwalk = "x"\n', "names.pt: not a language of the table"),
    ('\n[names.de.space]\nboardwalk = "x"\n', "names.de.space: unknown kind of name (did you mean `spaces`?)"),
    ('\n[names.de.spaces]\nbordwalk = "x"\n', "names.de.spaces.bordwalk: the board has no such id (did you mean "
                                                "`boardwalk`?)"),
    ('\n[names.de.cards]\nchance-1 = ""\n', "names.de.cards.chance-1: "),
])
def test_check_board_refuses_a_wrong_names_table(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str,
                                                 error: str) -> None:
    status, err = check_board(tmp_path, extra, capsys)
    assert status != 0 and error in err, err


@pytest.mark.parametrize("currency", ['""', '"dollars"', '"1$"', "5"])
def test_a_currency_is_a_printed_symbol(tmp_path: Path, capsys: pytest.CaptureFixture[str], currency: str) -> None:
    text = CLASSIC.read_text().replace('currency = "$"', f"currency = {currency}", 1)
    path = tmp_path / "edition.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["check-board", "classic", str(path)], out=io.StringIO()) != 0
    assert "game.currency: expected the symbol printed on the notes" in capsys.readouterr().err


def test_a_boards_currency_is_read() -> None:
    assert load_ruleset("classic").board.currency == "$"


def test_replay_tells_the_story_in_a_language(capsys: pytest.CaptureFixture[str]) -> None:
    game = Path(__file__).parents[2] / "companion" / "examples" / "classic-short.jsonl"
    english, german = io.StringIO(), io.StringIO()
    assert main(["replay", str(game)], out=english) == 0
    assert main(["replay", "--language", "de", str(game)], out=german) == 0
    told, erzaehlt = english.getvalue().splitlines(), german.getvalue().splitlines()
    assert len(told) == len(erzaehlt) and told != erzaehlt
    assert any("würfelt" in line for line in erzaehlt), erzaehlt[:5]
