"""The buzzer: each cue's tune on a piezo through gpiozero's TonalBuzzer on MockFactory PWM pins, the cues of a game,
mute and quiet hours (from the config and the host menu)."""

from __future__ import annotations

from datetime import datetime, time
from pathlib import Path
import pytest
from gpiozero import TonalBuzzer
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from companion.config import ConfigError, parse_config, parse_quiet_hours
from companion.drivers.clock import SimClock
from companion.drivers.faults import Kept
from companion.drivers.tunes import PiezoTunes, SpeakerTunes, tune_pcm
from companion.face.cues import CueFeed, Cues
from companion.face.sounds import TUNES, Buzzer, Hush
from companion.journal import Journal
from companion.table import Table

from .test_table import start, table

BUZZER = 14


class Piezo:
    """A piezo on a mock PWM pin; what it sounds is read at each note's sleep: (Hz, duty) or None when silent."""

    def __init__(self) -> None:
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.heard: list[tuple[float, float] | None] = []
        self.tunes = PiezoTunes(BUZZER, pin_factory=self.factory, sleep=self._sleep)
        self.pin = self.factory.pin(BUZZER)

    def _sleep(self, seconds: float) -> None:
        self.heard.append((round(self.pin.frequency, 1), self.pin.state) if self.pin.state else None)


def hz(note: str) -> float:
    return round(Tone(note).frequency, 1)


def test_a_cues_tune_is_played_note_by_note_then_the_piezo_is_silent() -> None:
    piezo = Piezo()
    piezo.tunes.play(TUNES["your-turn"])
    assert piezo.heard == [(hz("E6"), 0.5), (hz("A6"), 0.5)]
    assert piezo.pin.state == 0
    piezo.heard.clear()
    piezo.tunes.play(TUNES["doubles"])
    assert piezo.heard == [(hz("C7"), 0.5), None, (hz("C7"), 0.5)]


def test_every_tune_is_within_the_piezos_range() -> None:
    piezo = Piezo()
    for name, notes in TUNES.items():
        piezo.heard.clear()
        piezo.tunes.play(notes)
        assert [h[0] if h else None for h in piezo.heard] == [hz(n) if n else None for n, _ in notes], name


def test_each_tune_sounds_as_tonalbuzzers_play_and_stop_sound_it() -> None:
    """The kept tunes (each note's frequency worked out once, a note after a note only its frequency changed) against
    gpiozero's own TonalBuzzer.play(note) / stop() for each note on a second mock pin: the same frequency, duty and
    time at every note, the same changes of the pin's state, and silence after."""
    for name, notes in TUNES.items():
        piezo = Piezo()
        heard: list[tuple[float | None, float, float]] = []
        piezo.tunes.sleep = lambda s: heard.append((piezo.pin.frequency, piezo.pin.state, s))
        piezo.tunes.play(notes)
        piezo.tunes.play(notes)  # a tune worked out once sounds the same the second time

        factory = MockFactory(pin_class=MockPWMPin)
        buzzer = TonalBuzzer(BUZZER, mid_tone=Tone("A5"), octaves=2, pin_factory=factory)
        pin = factory.pin(BUZZER)
        expected: list[tuple[float | None, float, float]] = []
        for _ in range(2):
            for note, seconds in notes:
                buzzer.stop() if note is None else buzzer.play(note)
                expected.append((pin.frequency, pin.state, seconds))
            buzzer.stop()
        assert heard == expected, name
        assert [s.state for s in piezo.pin.states] == [s.state for s in pin.states], name
        assert piezo.pin.frequency is None and piezo.pin.state == 0


def test_a_note_out_of_the_piezos_range_is_refused_and_leaves_it_silent() -> None:
    piezo = Piezo()
    with pytest.raises(ValueError):
        piezo.tunes.play((("C6", 0.05), ("C8", 0.05)))
    assert piezo.heard == [] and piezo.pin.state == 0


def game_buzzer(tmp_path: Path, hush: Hush) -> tuple[Table, Buzzer, Piezo, Journal]:
    piezo = Piezo()
    journal = Journal(tmp_path / "games.sqlite3")
    t = Table(journal)
    # No thread of its own: each input's cues are played as soon as they are queued, so a loaded machine cannot
    # leave two waiting and drop the older (which made a test fail once); the dropping has a test of its own.
    buzzer = Buzzer(Kept("Buzzer", lambda: piezo.tunes, clock=SimClock(), notify=print), hush, start=False)
    feed = CueFeed()
    feed.add(buzzer.on_cues)
    feed.add(lambda cues, seats: buzzer.play_waiting())
    t.subscribe(feed)
    return t, buzzer, piezo, journal


def test_a_game_sounds_its_cues(tmp_path: Path) -> None:
    t, buzzer, piezo, journal = game_buzzer(tmp_path, Hush())
    t.new_game({"ruleset": "classic", "players": ["Ann", "Bob", "Cy"], "seed": 1, "start": {
        "players": {"Ann": {"space": "go"}, "Bob": {"space": "go"}, "Cy": {"space": "go"}},
        "spaces": {"oriental-avenue": {"owner": "Cy"}}, "turn": "Ann"}})
    t.submit({"roll": [3, 3]}, source="test")  # doubles (and Oriental Avenue's rent to Cy: the doubles are heard)
    t.submit({"roll": [1, 2]}, source="test")  # Ann again: Connecticut Avenue, to buy
    t.submit({"answer": "no"}, source="test")  # an auction
    for name in ("Ann", "Bob"):
        t.submit({"act": {"player": name, "do": "pass"}}, source="test")
    t.submit({"act": {"player": "Cy", "do": "bid", "amount": 10}}, source="test")
    buzzer.close()
    journal.close()
    assert buzzer.played == ["doubles", "auction", "money-out", "your-turn"]  # Cy pays for it; Bob's turn
    assert len(piezo.heard) >= 4


def test_each_cue_names_what_happened_most_telling_first(tmp_path: Path) -> None:
    t, buzzer, _, journal = game_buzzer(tmp_path, Hush())
    t.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "start": {
        "players": {"Ann": {"space": "short-line"}, "Bob": {"space": "kentucky-avenue"}}, "turn": "Ann"}})
    t.submit({"roll": [2, 1]}, source="test")  # Ann: Luxury Tax ($75), then Bob's turn
    t.submit({"roll": [5, 4]}, source="test")  # Bob: Go to Jail; Ann's turn
    buzzer.close()
    journal.close()
    assert buzzer.played == ["money-out", "your-turn", "jail", "your-turn"]


def test_muted_or_in_quiet_hours_nothing_is_played(tmp_path: Path) -> None:
    hush = Hush(muted=True)
    t, buzzer, _, journal = game_buzzer(tmp_path, hush)
    t.new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
    t.submit({"roll": [3, 3]}, source="test")
    hush.muted = False
    hush.quiet_hours, hush.now = parse_quiet_hours("22:00-08:00"), lambda: datetime(2026, 1, 1, 23, 30)
    t.submit({"answer": "no"}, source="test")
    hush.now = lambda: datetime(2026, 1, 1, 8, 0)  # quiet hours are over
    t.submit({"act": {"player": "Bob", "do": "bid", "amount": 10}}, source="test")
    t.submit({"act": {"player": "Ann", "do": "pass"}}, source="test")
    buzzer.close()
    journal.close()
    assert buzzer.played == ["money-out"]  # Bob pays the bank $10 for it: the only input heard


def test_quiet_hours_in_the_config() -> None:
    assert parse_config({"quiet_hours": "22:00-08:00"}).quiet_hours == "22:00-08:00"
    assert parse_quiet_hours("22:00-08:00") == (time(22), time(8))
    assert Hush(quiet_hours=(time(22), time(8)), now=lambda: datetime(2026, 1, 1, 7, 59)).silent()
    assert not Hush(quiet_hours=(time(22), time(8)), now=lambda: datetime(2026, 1, 1, 12)).silent()
    assert Hush(quiet_hours=(time(13), time(15)), now=lambda: datetime(2026, 1, 1, 14)).silent()
    with pytest.raises(ConfigError, match="quiet_hours"):
        parse_config({"quiet_hours": "after dinner"})
    with pytest.raises(ConfigError, match="sound must be true or false"):
        parse_config({"sound": "loud"})


def test_the_host_menu_mutes_and_unmutes_the_sound(tmp_path: Path) -> None:
    hush = Hush()
    with table(tmp_path, start(), hush=hush, open_tunes=lambda: SpeakerTunes(lambda pcm, rate: None)) as t:
        t.play("HOLD MENU 2")
        for _ in range(10):
            if ">Sound: on" in t.text():
                break
            t.play("NEXT")
        t.play("YES")
        assert hush.muted and ">Sound: off" in t.text()
        t.play("YES")
        assert not hush.muted and ">Sound: on" in t.text()
        hush.quiet_hours, hush.now = parse_quiet_hours("22:00-08:00"), lambda: datetime(2026, 1, 1, 23, 30)
        t.play("NO", "HOLD MENU 2")
        for _ in range(10):
            if ">Sound: on, quiet now" in t.text():
                break
            t.play("NEXT")
        assert ">Sound: on, quiet now" in t.text()  # the host sees why nothing is heard


def test_off_the_pi_a_tune_is_pcm_for_the_speaker() -> None:
    pcm = tune_pcm(TUNES["your-turn"], 22050)
    assert len(pcm) == 2 * (int(0.07 * 22050) + int(0.12 * 22050))
    assert max(abs(int.from_bytes(pcm[i:i + 2], "little", signed=True)) for i in range(0, len(pcm), 2)) == 6000


def test_without_a_buzzer_or_a_voice_the_host_menu_has_no_sound_item(tmp_path: Path) -> None:
    with table(tmp_path, start(), hush=Hush()) as t:
        t.play("HOLD MENU 2")
        shown = set()
        for _ in range(12):
            shown.add(t.text())
            t.play("NEXT")
        assert not any("Sound:" in text for text in shown)


def test_a_burst_of_cues_keeps_the_two_newest_waiting() -> None:
    """A cue that comes while two are still waiting replaces the older: a burst is not replayed a second later."""
    piezo = Piezo()
    buzzer = Buzzer(Kept("Buzzer", lambda: piezo.tunes, clock=SimClock(), notify=print), Hush(), start=False)
    for sound in ("doubles", "money-in", "jail", "auction"):
        buzzer.on_cues(Cues(sounds=(sound,)), [])
    buzzer.play_waiting()
    assert buzzer.played == ["jail", "auction"]
