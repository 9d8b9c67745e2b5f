"""The panel's pace: a burst of phones' inputs drawn once per frame time, its newest state; a single input at once.

A real SSD1306 on I2C at 400 kHz takes ~25 ms to take a whole frame (:func:`companion.drivers.display.frame_time`);
frames drawn faster are work nobody sees. A station given the panel's frame time (as ``companion run`` is) draws a
change from elsewhere at once when the panel has taken the last frame, else holds it until it has (the loop wakes
then: :meth:`Station.idle_for`), and the newest state is what is drawn. Mock pins, luma's dummy device, simulated
time; the station stepped as its loop steps it (:meth:`Station.step` at each wake, then asleep for ``idle_for``).
"""

from __future__ import annotations

from pathlib import Path

from PIL import ImageChops

from companion.drivers.display import frame_time
from companion.face.controller import TableController

from .test_table import LOOK, Rig, table

FRAME = frame_time()  # 400 kHz, 128x64: ~25 ms
DEEDS = ("mediterranean-avenue", "baltic-avenue", "oriental-avenue", "vermont-avenue")


def owning() -> dict[str, object]:
    """Classic, Ann and Bob owning two deeds each (none mortgaged), Ann to roll: the phones' money actions."""
    return {"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 11, "start": {
        "players": {"Ann": {"space": "go"}, "Bob": {"space": "go"}},
        "spaces": {deed: {"owner": "Ann" if i < 2 else "Bob", "houses": 0, "hotel": False, "mortgaged": False}
                   for i, deed in enumerate(DEEDS)},
        "turn": "Ann"}}


def phone(t: Rig, i: int) -> None:
    """A phone's money action (mortgage or lift the mortgage of one deed, in turn), then the loop's step: the table's
    listener wakes the loop at every accepted input."""
    deed = DEEDS[i % len(DEEDS)]
    mortgaged = t.station.table.state["spaces"][deed]["mortgaged"]  # type: ignore[index]
    owner = "Ann" if DEEDS.index(deed) < 2 else "Bob"
    t.station.table.submit({"act": {"player": owner, "do": "unmortgage" if mortgaged else "mortgage", "space": deed}},
                           source="phone:test")
    t.station.step(t.clock())


def shows_now(t: Rig) -> bool:
    """The panel (luma's dummy device) shows the screen the controller builds from scratch for the newest state."""
    controller = t.station.controller
    fresh = TableController.screen(controller)
    device = t.station.display.device
    return controller.shown == fresh and \
        ImageChops.difference(device.image.convert("1"), controller.painter.paint(fresh)).getbbox() is None


def quiet(t: Rig, seconds: float) -> None:
    """The loop asleep as :meth:`Station.run` sleeps (``idle_for`` at a time), stepping at each wake."""
    end = t.clock() + seconds
    while t.clock() < end:
        t.clock.advance(max(1e-4, min(t.station.idle_for(t.clock()), end - t.clock())))
        t.station.step(t.clock())


def test_a_single_input_after_a_quiet_moment_is_drawn_at_once(tmp_path: Path) -> None:
    with table(tmp_path, owning(), dice="software", frame_time=FRAME) as t:
        quiet(t, 1.0)
        sent = t.station.display.frames_sent
        phone(t, 0)  # no time passes: drawn at the step the input woke
        assert t.station.display.frames_sent == sent + 1
        assert "mortgage" in " ".join(r.text for r in t.station.controller.shown.rows).lower()  # type: ignore[union-attr]
        assert shows_now(t)
        assert t.station.controller.frame_due() is None


def test_a_burst_is_drawn_once_per_frame_time_and_ends_on_its_newest_state(tmp_path: Path) -> None:
    with table(tmp_path, owning(), dice="software", frame_time=FRAME) as t:
        t.station.reader = None  # polled every 10 ms: `companion run` on mock pins has none, and its loop sleeps longer
        quiet(t, 1.0)
        sent = t.station.display.frames_sent
        burst = 40  # one every 2 ms: 80 ms of inputs, as the phones' bench sends them
        for i in range(burst):
            phone(t, i)
            due = t.station.controller.frame_due()
            if due is not None:  # held: the loop wakes when the panel is free, not later
                assert t.clock() < due <= t.clock() + FRAME
                assert t.station.idle_for(t.clock()) <= due - t.clock()
            t.clock.advance(0.002)
            t.station.step(t.clock())
        drawn = t.station.display.frames_sent - sent
        assert 2 <= drawn <= 1 + round(burst * 0.002 / FRAME) + 1  # the first at once, then one per frame time
        quiet(t, FRAME + 0.01)  # the burst over: the held change drawn when the panel is free
        assert t.station.controller.frame_due() is None
        assert shows_now(t)  # nothing stale on the panel: the newest state, as built from scratch
        assert t.station.display.frames_sent - sent <= drawn + 1


def test_a_press_is_drawn_at_once_even_while_a_phones_change_is_held(tmp_path: Path) -> None:
    """The buttons' frames never wait: the press's cue and its result are drawn at the press (the button → frame
    latency is as before), and the held change from the phone comes with them."""
    with table(tmp_path, owning(), dice="software", frame_time=FRAME) as t:
        t.play(LOOK)
        phone(t, 0)
        phone(t, 1)  # held: the panel is still taking the first one's frame
        assert t.station.controller.frame_due() is not None
        t.play(LOOK, "ROLL")  # the press guard: a press within 0.6 s of a phone's change is refused
        assert t.station.table.state["seq"] == 3  # type: ignore[index]
        controller = t.station.controller
        assert controller.latencies and controller.latencies[-1] == 0.0  # the press's cue at its edge
        assert controller.result_latencies[-1] == 0.0  # and the roll's result with it
        assert shows_now(t)


def test_without_a_frame_time_every_state_is_drawn(tmp_path: Path) -> None:
    """The demo's recorder and the tests (``frame_time`` 0, mock_station's default): a frame for every input."""
    with table(tmp_path, owning(), dice="software") as t:
        quiet(t, 1.0)
        sent = t.station.display.frames_sent
        for i in range(10):
            phone(t, i)
            assert shows_now(t)
        assert t.station.display.frames_sent == sent + 10


def test_the_frame_time_comes_from_the_bus_speed(tmp_path: Path) -> None:
    from companion.drivers.pins import load_pins
    from companion.startup.parts import oled_frame_time

    assert 0.020 < frame_time(400_000) < 0.030  # ~25 ms at the Pi's fast mode
    assert frame_time(100_000) == 4 * frame_time(400_000)
    assert oled_frame_time(load_pins()) == frame_time(400_000)  # hardware/pins.toml's bus_hz
    pins = tmp_path / "pins.toml"
    text = (Path(__file__).resolve().parents[2] / "hardware" / "pins.toml").read_text()
    pins.write_text(text.replace("bus_hz = 400000", "bus_hz = 1000000"))
    assert oled_frame_time(load_pins(pins)) == frame_time(1_000_000)
