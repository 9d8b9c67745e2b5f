"""The cards' list: registering, a lost card, a tag of another set, kept across restarts."""

from __future__ import annotations

import json

import pytest

from companion.face.cards import Card, CardBook, CardRefused

ANN, BOB = Card("classic", "players", "Ann"), Card("classic", "players", "Bob")
BOARDWALK = Card("classic", "deeds", "boardwalk")


def test_registered_cards_are_found_again_after_a_restart(tmp_path):
    path = tmp_path / "journal.cards.json"
    book = CardBook(path)
    assert book.register(ANN, "04aa") == "Ann registered"
    assert book.register(BOARDWALK, "04bb") == "Boardwalk registered"
    again = CardBook(path)
    assert again.find("04aa") == ANN and again.find("04bb") == BOARDWALK and again.find("04cc") is None
    assert again.registered("classic", "deeds") == {"boardwalk": "04bb"}
    assert json.loads(path.read_text())["editions"]["classic"]["players"] == {"Ann": "04aa"}


def test_a_lost_card_is_registered_again_and_the_old_tag_no_longer_counts(tmp_path):
    book = CardBook(tmp_path / "c.json")
    book.register(ANN, "04aa")
    assert book.register(ANN, "04ab") == "Ann: new tag; the old one is void"
    assert book.find("04aa") is None and book.find("04ab") == ANN
    assert book.register(ANN, "04ab") == "Ann: already this tag"


def test_a_tag_of_another_set_is_refused_and_nothing_changes(tmp_path):
    book = CardBook(tmp_path / "c.json")
    book.register(Card("magie-1904", "deeds", "lonely-lane"), "04ee")
    before = (tmp_path / "c.json").read_text()
    with pytest.raises(CardRefused, match=r"another set \(Landlord's game, 1904\)"):
        book.register(BOARDWALK, "04ee")
    assert book.find("04ee") == Card("magie-1904", "deeds", "lonely-lane")
    assert (tmp_path / "c.json").read_text() == before


def test_a_tag_of_this_set_is_not_taken_for_something_else(tmp_path):
    book = CardBook(tmp_path / "c.json")
    book.register(BOARDWALK, "04bb")
    book.register(ANN, "04aa")
    with pytest.raises(CardRefused, match="already Boardwalk's"):
        book.register(BOB, "04bb")
    with pytest.raises(CardRefused, match="already Ann's"):
        book.register(Card("classic", "deeds", "park-place"), "04aa")
    with pytest.raises(CardRefused, match="already Ann's"):
        book.register(BOB, "04aa", seated=("Ann", "Bob"))  # Ann plays: her card stays hers


def test_a_card_of_someone_not_playing_is_passed_on(tmp_path):
    book = CardBook(tmp_path / "c.json")
    book.register(ANN, "04aa")
    assert book.register(Card("classic", "players", "Carl"), "04aa", seated=("Bob", "Carl")) == "Ann's card is now Carl's"
    assert book.find("04aa") == Card("classic", "players", "Carl") and book.uid("classic", "players", "Ann") is None


def test_an_unreadable_list_is_said(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("{not json")
    with pytest.raises(CardRefused, match="cannot be read"):
        CardBook(path)


def test_an_unreadable_list_is_set_aside_and_said_in_the_tables_language(tmp_path):
    from companion.face.cards import open_card_book
    from companion.words import Words

    path = tmp_path / "c.json"
    path.write_text("{not json")
    book, trouble = open_card_book(path)
    assert trouble is not None and (tmp_path / "c.damaged").exists() and book.find("04aa") is None
    assert str(trouble).startswith(f"{path}: the cards' list cannot be read (")
    assert str(trouble).endswith(": set aside as c.damaged; register the cards again")
    german = Words.for_language("de").told(trouble)
    assert "die Kartenliste ist unlesbar" in german and german.endswith("beiseitegelegt als c.damaged; die Karten neu anmelden")
