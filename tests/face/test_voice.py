"""The voice: sentences from the engine's events (names, never ids; amounts in words), espeak-ng writing each as a WAV
file, and the speaker's queue, which never holds the table up and drops what a new question made stale."""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
import time
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.drivers.audio import AudioOut
from companion.drivers.clock import SimClock
from companion.drivers.faults import Kept
from companion.drivers.speech import EspeakVoice, Mouth, VoiceUnavailable
from companion.engine import apply, find_ruleset
from companion.face.cues import CueFeed, Cues, cues_of, number_words, sentences
from companion.face.voice import Speaker
from companion.journal import Journal
from companion.table import Table
from companion.words import Words

NBSP, NNBSP = "\u00a0", "\u202f"
GAMES = Path(__file__).resolve().parents[1] / "gamefiles"

BOARDWALK = {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1, "start": {
    "players": {"Ann": {"cash": 1500, "space": "go"}, "Bob": {"cash": 1800, "space": "short-line"}},
    "spaces": {"boardwalk": {"owner": "Ann", "hotel": True}, "park-place": {"owner": "Ann"}}, "turn": "Bob"}}


def espeak() -> EspeakVoice:
    if shutil.which("espeak-ng") is None:
        if os.environ.get("CI"):
            pytest.fail("espeak-ng is missing in CI (.ci/run installs it)")
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    return EspeakVoice()


def boardwalk_sentences() -> list[str]:
    state, _ = apply(None, {"setup": BOARDWALK})
    after, events = apply(state, {"roll": [3, 1]})
    return sentences(state, after, events)


def test_a_landing_on_a_hotel_is_said_with_names_and_amounts_in_words() -> None:
    assert boardwalk_sentences() == ["Bob lands on Boardwalk.", "Ann's, with a hotel: Bob pays two thousand dollars.",
                                     "Bob, you are two hundred short: sell, mortgage or trade."]


def test_amounts_are_said_in_words() -> None:
    assert [number_words(n) for n in (0, 15, 40, 75, 100, 1450, 2000, 20580)] == [
        "zero", "fifteen", "forty", "seventy-five", "one hundred", "one thousand four hundred fifty", "two thousand",
        "twenty thousand five hundred eighty"]


def game_sentences() -> Iterator[tuple[str, str]]:
    """Every sentence said in the game files of every ruleset, with the file's ruleset."""
    for file in sorted(GAMES.glob("*/*.jsonl")):
        if file.name.startswith("bad-"):
            continue
        lines = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
        try:
            state, _ = apply(None, lines[0])
        except ValueError:
            continue  # a set-up the file's own test expects to be refused
        for line in lines[1:]:
            try:
                after, events = apply(state, line)
            except ValueError:
                break
            for sentence in sentences(state, after, events):
                yield state["ruleset"], sentence
            state = after


def test_no_sentence_of_any_game_names_an_id_or_a_dollar_sign() -> None:
    said = list(game_sentences())
    assert len(said) > 500 and {r for r, _ in said} == {"classic", "addon", "magie-1904", "magie-1924", "chambers"}
    for ruleset, sentence in said:
        ids = set(find_ruleset(ruleset).board.by_id) | set(find_ruleset(ruleset).board.cards)
        words = set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", sentence))
        assert not words & ids, f"{ruleset}: {sentence!r} says an id"
        assert "$" not in sentence, sentence


def test_espeak_ng_writes_each_sentence_as_a_wav_at_22050_hz(tmp_path: Path) -> None:
    voice = espeak()
    for i, sentence in enumerate(boardwalk_sentences()):
        path = tmp_path / f"line-{i}.wav"
        voice.to_wav(sentence, path)
        with wave.open(str(path)) as wav:
            assert wav.getframerate() == voice.rate == 22050
            assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
            assert wav.getnframes() > 22050 * 0.5  # more than half a second of speech
        streamed = b"".join(voice.stream(sentence))
        assert abs(len(streamed) - 2 * wav.getnframes()) < 4096  # the same speech, streamed


def french_sentences() -> list[str]:
    state, _ = apply(None, {"setup": BOARDWALK})
    after, events = apply(state, {"roll": [3, 1]})
    return sentences(state, after, events, Words.for_language("fr", find_ruleset("classic").board))


def test_the_voice_in_french_is_written_to_a_file_in_espeak_ngs_french_voice(tmp_path: Path) -> None:
    """The table's language French: the same landing said in French (amounts as French writes them, which
    espeak-ng's French voice reads), written by espeak-ng's fr-fr voice (test-artifacts/voice/fr-*.wav kept)."""
    said = french_sentences()
    assert said[0] == "Bob tombe sur Boardwalk."
    assert said[1] == f"Chez Ann, avec un hôtel : Bob paie 2{NNBSP}000{NBSP}$."
    assert all("lands on" not in s and "pays" not in s for s in said)
    voice = espeak()
    keep = Path(__file__).resolve().parents[2] / "test-artifacts" / "voice"
    keep.mkdir(parents=True, exist_ok=True)
    for i, sentence in enumerate(said):
        path = keep / f"fr-{i}.wav"
        voice.to_wav(sentence, path, "fr")
        english = tmp_path / f"en-{i}.wav"
        voice.to_wav(sentence, english)
        with wave.open(str(path)) as wav:
            assert wav.getframerate() == 22050 and wav.getnframes() > 22050 * 0.5
            french_frames = wav.getnframes()
        with wave.open(str(english)) as wav:
            assert wav.getnframes() != french_frames  # another voice read it (en-us spells French otherwise)
    assert voice._args("fr")[:3] == ["espeak-ng", "-v", "fr-fr"]


def test_a_missing_engine_is_said(tmp_path: Path) -> None:
    with pytest.raises(VoiceUnavailable, match="not installed"):
        EspeakVoice(command="espeak-ng-nowhere")


class Sink:
    """Stands for the audio player (an OS program): ``cat`` into /dev/null."""

    @staticmethod
    def out() -> AudioOut:
        return AudioOut(command=("cat",))


def speaker(mouth: Kept[Mouth], start: bool = True) -> Speaker:
    return Speaker(mouth, lambda: False, SimClock(), start=start)


def test_a_new_question_drops_the_sentences_still_waiting() -> None:
    notices: list[str] = []
    s = speaker(Kept("Voice", lambda: Mouth(espeak(), Sink.out()), clock=SimClock(), notify=notices.append),
                start=False)
    s.on_cues(Cues(speech=("Bob lands on Boardwalk.", "Bob, buy Boardwalk?"), prompt="1:buy:Bob"), [])
    s.on_cues(Cues(speech=("Auction of Boardwalk: no bid yet.",), prompt="2:auction:"), [])
    assert s.waiting() == ["Auction of Boardwalk: no bid yet."]
    assert s.dropped == ["Bob lands on Boardwalk.", "Bob, buy Boardwalk?"]
    s.on_cues(Cues(speech=("Ann bids ten dollars.",), prompt="2:auction:"), [])  # the same question: queued behind
    assert s.waiting() == ["Auction of Boardwalk: no bid yet.", "Ann bids ten dollars."]


def test_the_table_never_waits_for_the_voice(tmp_path: Path) -> None:
    release = threading.Event()

    class SlowVoice(EspeakVoice):
        def stream(self, text: str, language: str | None = None) -> Iterator[bytes]:
            release.wait(10)  # a voice slow to start (a cold Pi)
            yield from super().stream(text, language)

    espeak()
    s = speaker(Kept("Voice", lambda: Mouth(SlowVoice(), Sink.out()), clock=SimClock(), notify=print))
    feed = CueFeed()
    feed.add(s.on_cues)
    with Journal(tmp_path / "games.sqlite3") as journal:
        t = Table(journal)
        t.subscribe(feed)
        t.new_game(BOARDWALK)
        for _ in range(1000):  # the voice takes "Bob, roll the dice." and is held there
            if not s.waiting():
                break
            time.sleep(0.01)
        for line in ({"roll": [3, 1]}, {"answer": "bankrupt"}):
            t.submit(line, source="test")  # returns while the voice is still held
        assert t.state["winner"] == "Ann" and s.said == []  # type: ignore[index]
        release.set()
        s.close()
    assert s.said == ["Bob, roll the dice."]  # the sentence under way when the voice was held
    assert s.dropped == boardwalk_sentences()  # stale: Bob's debt was over before they could be said
    assert len(s.first_audio) == 1


def test_a_voice_that_fails_is_a_notice_and_the_speaker_goes_on() -> None:
    notices: list[str] = []

    def no_device() -> Mouth:
        raise VoiceUnavailable("espeak-ng is not installed (apt-get install espeak-ng)")

    s = speaker(Kept("Voice", no_device, clock=SimClock(), notify=notices.append), start=False)
    s.on_cues(Cues(speech=("Bob lands on Boardwalk.",), prompt="1"), [])
    s.speak(s._waiting.popleft())
    assert notices == ["Voice: espeak-ng is not installed (apt-get install espeak-ng)"]
    assert s.said == []


def test_each_input_gives_its_cues_once(tmp_path: Path) -> None:
    state, _ = apply(None, {"setup": BOARDWALK})
    after, events = apply(state, {"roll": [3, 1]})
    cues = cues_of(state, after, events)
    assert cues.lit == {1: "blink"} and cues.sounds == ("money-out",) and cues.chase is None
    assert cues.as_json()["speech"][0] == "Bob lands on Boardwalk."
