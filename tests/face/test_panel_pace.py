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


def on_the_loop(t: Rig, inputs_at: list[float], until: float, *, noted: bool = True) -> tuple[int, list[float]]:
    """:meth:`Station.run` on simulated time: asleep as it sleeps (:meth:`Station.asleep`) until its deadline or its
    ``wake``, then a step; a phone's money action at each of ``inputs_at`` (seconds from now), its listener's wake as
    the table calls it. ``noted=False``: the loop as it was, its sleep not noted, so every input wakes it. Returns how
    many inputs woke it and the clock time of each frame the panel was handed."""
    station, clock = t.station, t.clock
    frames: list[float] = []
    station.display.on_frame = lambda image: frames.append(clock())
    start, woken = clock(), 0

    def look() -> float:  # a wake: a step, then asleep again
        station.awake()
        station.wake.clear()
        station.step(clock())
        return clock() + (station.asleep(clock()) if noted else max(0.0, station.idle_for(clock())))

    looks_by = look()
    for i, at in enumerate([*inputs_at, until]):
        while looks_by <= start + at:
            clock.now = max(clock.now, looks_by)
            looks_by = look()
        clock.now = start + at
        if i == len(inputs_at):
            return woken, frames
        deed = DEEDS[i % len(DEEDS)]
        mortgaged = station.table.state["spaces"][deed]["mortgaged"]  # type: ignore[index]
        owner = "Ann" if DEEDS.index(deed) < 2 else "Bob"
        station.table.submit({"act": {"player": owner, "do": "unmortgage" if mortgaged else "mortgage",
                                      "space": deed}}, source="phone:test")
        if station.wake.is_set():
            woken += 1
            looks_by = look()
    return woken, frames


def test_a_burst_wakes_the_loop_about_twice_a_frame_and_draws_the_same_frames_at_the_same_times(
        tmp_path: Path) -> None:
    """Issue 43: while the loop sleeps until the panel has taken its frame, a phone's input does not wake it (woken, it
    would only hold the change until then): 40 inputs 2 ms apart wake it a few times, not 40, and the panel is handed
    the same frames at the same times as by the loop that every input woke; a single input after a quiet moment still
    wakes it and is drawn at once."""
    inputs = [0.5 + 0.002 * i for i in range(40)]
    runs = {}
    for noted in (False, True):
        folder = tmp_path / ("noted" if noted else "woken")
        folder.mkdir()
        with table(folder, owning(), dice="software", frame_time=FRAME) as t:
            t.station.reader = None  # polled every 10 ms: `companion run` on mock pins has none
            woken, frames = on_the_loop(t, [*inputs, 2.0], 3.0, noted=noted)
            assert shows_now(t)
            runs[noted] = (woken, frames, t.station.display.device.image.tobytes())
    (every, frames_before, shown_before), (woken, frames, shown) = runs[False], runs[True]
    assert every == len(inputs) + 1  # the loop as it was: woken by every input
    assert frames == frames_before and shown == shown_before  # the same frames, at the same times
    burst = inputs[-1] - inputs[0]
    assert 2 <= woken <= 2 * (burst / FRAME + 1) + 1 < len(inputs) / 3  # about twice a frame time, and the last input
    assert frames[-1] == frames_before[-1] == 1000.0 + 2.0  # the single input after the burst: at once
