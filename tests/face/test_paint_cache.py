"""The OLED's frames from kept rows (issue 43): every frame painted from the painter's cache of rows (each distinct
row drawn once, its bytes and its controller pages kept, a bounded LRU) is the frame drawn afresh, pixel for pixel and
page for page, over bot games of all five rulesets; the cache stays bounded; and a paged driver given a frame's pages
writes to the bus what it writes given the frame's image.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from companion.drivers.display import Display, PagedSH1106, PagedSSD1306, pages_bytes
from companion.drivers.frame import Frame
from companion.drivers.virtual import VirtualI2CBus
from companion.engine import apply, find_ruleset, new_game
from companion.face import screens
from companion.face.choices import browsed_choices, space_labels
from companion.face.draw import ROWS_KEPT, Painter
from companion.face.screens import CELL, HEIGHT, WIDTH, Choice, Screen
from companion.sim import GameSpec, play_game

from ..drivers.panel import SH1106Ram, SSD1306Ram
from ..drivers.test_display import expected_pages

RULESETS = ("classic", "addon", "magie-1904", "magie-1924", "chambers")


@cache
def bot_screens(ruleset: str, seed: int) -> tuple[Screen, ...]:
    """The game screens of a bot game's first 80 states, the cursor on each choice in turn and the story's pages
    turning (what a table shows while phones play: its header, story, question and hint rows)."""
    lines: list[dict] = []
    play_game(GameSpec(ruleset, 3, seed=seed), 0, lines)
    labels = space_labels(find_ruleset(ruleset))
    state, events = new_game(lines[0]["setup"])
    shown: list[Screen] = []
    for step, line in enumerate(lines[1:80]):
        found = [c.label for c in browsed_choices(state, labels)]
        for cursor in range(max(1, len(found))):
            choice = Choice(found, cursor) if found else None
            shown.append(screens.game_screen(state, events, labels, choice=choice, scroll=step + cursor))
        state, events = apply(state, line)
    return tuple(shown)


@cache
def fonts() -> Painter:
    return Painter()


def afresh(screen: Screen) -> Image.Image:
    """The screen drawn whole into one image, row under row, as the painter drew every frame before it kept rows."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw, y = ImageDraw.Draw(image), 0
    for row in screen.rows:
        height = CELL[row.font][1]
        if y + height > HEIGHT:
            break
        fonts()._row(draw, row, y)
        y += height
    return image


@settings(max_examples=25, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), seed=st.sampled_from((4, 6)), kept=st.integers(1, 40),
       order=st.randoms(use_true_random=False), shorter=st.integers(0, 8))
def test_a_frame_from_kept_rows_is_the_frame_drawn_afresh(ruleset: str, seed: int, kept: int, order: object,
                                                         shorter: int) -> None:
    """Over bot games of every ruleset, in any order, with a cache small enough to forget rows, and every other screen
    ``shorter`` rows short (dark pages below its last row, as a message's screen has): the same bytes, image and
    controller pages as the screen drawn whole."""
    shown = list(bot_screens(ruleset, seed))
    order.shuffle(shown)  # type: ignore[attr-defined]
    shown = [Screen(s.rows[:len(s.rows) - shorter]) if i % 2 else s for i, s in enumerate(shown)]
    painter = Painter(rows_kept=kept)
    for screen in shown[:150]:
        frame = painter.painted(screen)
        fresh = afresh(screen)
        assert frame.data == fresh.tobytes()
        assert frame.image.tobytes() == fresh.tobytes()
        assert list(frame.pages or ()) == pages_bytes(fresh)
        assert painter.band.cache_info().currsize <= kept


def test_the_kept_rows_stay_bounded() -> None:
    """More distinct rows than the painter keeps: it keeps :data:`ROWS_KEPT`, the latest."""
    painter = Painter()
    for n in range(ROWS_KEPT + 100):
        painter.painted(Screen((screens.Row(f"row {n}"), screens.Row(f"{n} more", "large", invert=True))))
    assert painter.band.cache_info().currsize == ROWS_KEPT
    assert painter.band.cache_info().maxsize == ROWS_KEPT


@pytest.mark.parametrize("driver, ram", [(PagedSSD1306, SSD1306Ram), (PagedSH1106, SH1106Ram)])
def test_a_paged_driver_writes_a_frames_pages_as_it_writes_its_image(driver: type, ram: type) -> None:
    """The paged drivers given each frame of a bot game by its pages (the painter's) and by its image alone (turned
    by the driver): the same transfers on the bus, frame after frame, and the panel shows each frame."""
    painter = Painter()
    transfers, panel = [], ram()
    for by_pages in (True, False):
        bus, sent = VirtualI2CBus(), []
        display = Display(lambda: driver(i2c(bus=bus)))
        sent += bus.transfers
        panel.feed(bus)
        for screen in bot_screens("classic", 4)[:150]:
            frame = painter.painted(screen)
            display.show(frame if by_pages else Frame.of(frame.image.copy()))
            sent += bus.transfers
            panel.feed(bus)
            assert panel.pages() == expected_pages(frame.image)
        transfers.append(sent)
    assert len(transfers[0]) > 150
    assert transfers[0] == transfers[1]


def test_a_turned_panel_is_sent_the_turned_image_not_the_painters_pages() -> None:
    """luma's ``rotate=2`` (the panel mounted upside down): the pages the painter kept are the frame's as drawn, so the
    driver turns the image as luma does, and the panel shows the frame upside down."""
    painter, bus, panel = Painter(), VirtualI2CBus(), SSD1306Ram()
    device = PagedSSD1306(i2c(bus=bus), rotate=2)
    panel.feed(bus)
    for screen in bot_screens("classic", 6)[:20]:
        frame = painter.painted(screen)
        device.display_frame(frame)
        panel.feed(bus)
        assert panel.pages() == expected_pages(frame.image.rotate(180))
