"""The OLED drivers that send only changed pages, and the display wrapper's fault recovery.

Bytes are counted on luma's real ``i2c`` interface over a recording bus; what the panel would
show is rebuilt from those bytes by a model of the controller's memory (tests/drivers/panel.py).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw

from companion.drivers.clock import SimClock
from companion.drivers.display import Display, PagedSH1106, PagedSSD1306, changed_spans, page_bytes, pages_bytes
from companion.drivers.pins import load_pins
from companion.drivers.virtual import VirtualI2CBus, virtual_smbus
from companion.startup.parts import oled_opener

from .panel import SH1106Ram, SSD1306Ram

FULL_FRAME = 1024


def noisy(seed: int, dots: int = 300) -> Image.Image:
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    rng = random.Random(seed)
    for _ in range(dots):
        draw.point((rng.randrange(128), rng.randrange(64)), fill=1)
    return image


def expected_pages(image: Image.Image) -> bytes:
    return b"".join(page_bytes(image, p) for p in range(8))


def test_page_bytes_match_luma_full_frame() -> None:
    """Our page encoding is the one luma's own ssd1306 driver sends for the whole frame."""
    bus = VirtualI2CBus()
    device = ssd1306(i2c(bus=bus))
    image = noisy(1)
    bus.reset()
    device.display(image)
    assert bus.data() == expected_pages(image)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 2000), st.sampled_from([(128, 64), (128, 32), (132, 64)]))
def test_every_page_at_once_is_each_page_alone(seed: int, dots: int, size: tuple[int, int]) -> None:
    """The drivers turn the whole frame once (:func:`pages_bytes`): the same bytes as each page cut and turned alone."""
    image = Image.new("1", size)
    rng = random.Random(seed)
    for _ in range(dots):
        image.putpixel((rng.randrange(size[0]), rng.randrange(size[1])), 1)
    assert pages_bytes(image) == [page_bytes(image, p) for p in range(size[1] // 8)]


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=128, max_size=128), st.lists(st.tuples(st.integers(0, 127), st.integers(0, 255)),
                                                      max_size=30), st.integers(1, 20))
def test_the_changed_spans_cover_every_changed_column_and_merge_only_near_ones(
        old: bytes, changes: list[tuple[int, int]], gap: int) -> None:
    """Each span starts and ends on a changed column, every changed column is in one, and two spans are more than
    ``gap`` equal columns apart (closer ones are one window)."""
    new = bytearray(old)
    for column, value in changes:
        new[column] = value
    spans = changed_spans(old, bytes(new), gap)
    changed = [i for i in range(128) if old[i] != new[i]]
    assert [i for i in changed if not any(first <= i <= last for first, last in spans)] == []
    assert all(old[first] != new[first] and old[last] != new[last] for first, last in spans)
    assert all(b[0] - a[1] > gap for a, b in zip(spans, spans[1:]))
    assert changed_spans(None, bytes(new)) == [(0, 127)]


@pytest.mark.parametrize("driver, ram", [(PagedSSD1306, SSD1306Ram), (PagedSH1106, SH1106Ram)])
def test_partial_updates_leave_the_panel_showing_each_frame(driver: type, ram: type) -> None:
    bus = VirtualI2CBus()
    device = driver(i2c(bus=bus))
    panel = ram()
    panel.feed(bus)
    for seed in range(6):
        image = noisy(seed, dots=seed * 40)
        device.display(image)
        panel.feed(bus)
        assert panel.pages() == expected_pages(image)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63), st.booleans()), max_size=40), st.integers(0, 50))
def test_any_change_reaches_the_panel(changes: list[tuple[int, int, bool]], seed: int) -> None:
    bus = VirtualI2CBus()
    device = PagedSSD1306(i2c(bus=bus))
    panel = SSD1306Ram()
    image = noisy(seed)
    device.display(image)
    panel.feed(bus)
    for x, y, on in changes:
        image.putpixel((x, y), int(on))
    device.display(image)
    panel.feed(bus)
    assert panel.pages() == expected_pages(image)


def test_bytes_per_frame_only_changed_columns() -> None:
    bus = VirtualI2CBus()
    device = PagedSSD1306(i2c(bus=bus))
    base = noisy(3)
    bus.reset()
    device.display(base)
    first = bus.wire_bytes()
    assert first > FULL_FRAME  # the blank frame of the initialisation is replaced everywhere
    changed = base.copy()
    ImageDraw.Draw(changed).rectangle((10, 16, 29, 23), fill=1)  # page 2 (rows 16-23), 20 columns
    bus.reset()
    device.display(changed)
    assert bus.data() == page_bytes(changed, 2)[10:30]
    assert bus.wire_bytes() <= 20 + 2 + 6 + 2  # data + address/control, one 6-byte window command
    bus.reset()
    device.display(changed)
    assert bus.wire_bytes() == 0  # an equal frame sends nothing at all


@pytest.mark.parametrize("driver, ram", [("ssd1306", SSD1306Ram), ("sh1106", SH1106Ram)])
def test_the_opener_of_companion_run_sends_each_run_as_one_message(driver: str, ram: type) -> None:
    """As on the Pi, luma opens the bus itself (``i2c(port=...)``) and sends data with ``i2c_rdwr``:
    one message per run of columns, whatever its length, and the panel shows every frame."""
    pins = load_pins()
    with virtual_smbus(VirtualI2CBus()) as bus:
        device = oled_opener(driver, pins)()  # luma clears the panel: every page sent whole
        assert [len(p) for _, control, p in bus.transfers if control == 0x40] == [128] * 8  # no 32-byte blocks
        panel = ram()
        panel.feed(bus)
        for seed in range(4):
            image = noisy(seed, dots=60 + seed * 40)
            device.display(image)
            assert all(address == pins.i2c_address for address, _, _ in bus.transfers)
            panel.feed(bus)
            assert panel.pages() == expected_pages(image)


def test_stock_driver_sends_the_whole_frame_every_time() -> None:
    """The reason for the subclass: luma's ssd1306 sends 1 KB even for an equal frame."""
    bus = VirtualI2CBus()
    device = ssd1306(i2c(bus=bus))
    image = noisy(4)
    device.display(image)
    bus.reset()
    device.display(image)
    assert len(bus.data()) == FULL_FRAME


class Pluggable:
    """Opens a PagedSSD1306 on a bus that can be unplugged, as ``companion run`` opens the real one."""

    def __init__(self) -> None:
        self.bus = VirtualI2CBus()
        self.opened = 0

    def __call__(self) -> PagedSSD1306:
        self.opened += 1
        return PagedSSD1306(i2c(bus=self.bus))


def test_display_unplugged_and_back() -> None:
    clock = SimClock()
    opener = Pluggable()
    frames: list[Image.Image] = []
    display = Display(opener, clock=clock, on_frame=frames.append, first_retry=0.5, max_retry=4.0)
    panel = SSD1306Ram()
    assert display.show(noisy(1))
    opener.bus.plugged = False
    assert not display.show(noisy(2))  # the bus fails: the frame waits, nothing raises
    assert not display.available and display.faults == 1
    display.show(noisy(3))  # newer frames replace the waiting one
    for _ in range(4):  # retries back off: 0.5, 1, 2, 4 s
        clock.advance(5)
        display.poll()
    assert display.faults >= 4 and opener.opened >= 4
    opener.bus.plugged = True
    opener.bus.reset()
    clock.advance(5)
    display.poll()
    assert display.available
    panel.feed(opener.bus)
    assert panel.pages() == expected_pages(noisy(3))  # re-initialised, and the whole newest frame sent
    assert frames[-1].tobytes() == noisy(3).tobytes()


def test_backoff_doubles_up_to_the_limit() -> None:
    clock = SimClock()
    opener = Pluggable()
    opener.bus.plugged = False
    display = Display(opener, clock=clock, first_retry=0.5, max_retry=4.0)  # missing at start
    display.show(noisy(1))
    waits = []
    for _ in range(6):
        opened = opener.opened
        start = clock()
        while opener.opened == opened:
            clock.advance(0.25)
            display.poll()
        waits.append(round(clock() - start, 2))
    assert waits == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]


def test_equal_frames_are_skipped() -> None:
    display = Display(Pluggable(), clock=SimClock())
    assert display.show(noisy(5))
    assert not display.show(noisy(5))
    assert display.frames_sent == 1 and display.frames_skipped == 1
