"""The 100 Hz tick when nothing happens: no screen built, the disk looked at every few seconds, the same frames.

On a Pi Zero 2 W's single core the tick built the whole OLED screen and asked for the free disk space 100 times a
second, about half the core with nobody at the table (bench/pi_box.py). The screen is now built when something it
shows changed; these tests count the builds and the disk looks, and check that after every tick the OLED shows what
the controller would build from scratch (mock pins, luma's dummy device, simulated time).
"""

from __future__ import annotations

from pathlib import Path

from companion.face.controller import DISK_EVERY, DISK_MARGIN, TableController
from companion.face.screens import Screen

from .test_table import Rig, start, table

TICK = 0.01  # seconds between two ticks, as `companion run` ticks


def count_builds(controller: TableController) -> list[int]:
    """Count the controller's screen builds from now on (the one counter, in a list)."""
    built = [0]
    build = controller.screen

    def counted() -> Screen:
        built[0] += 1
        return build()

    controller.screen = counted  # type: ignore[method-assign]
    return built


def idle(t: Rig, seconds: float, check: bool = False) -> None:
    """Tick the station as `companion run` does for ``seconds`` of simulated time; ``check``: after each tick, what
    the OLED shows is what the controller builds now."""
    controller = t.station.controller
    for _ in range(round(seconds / TICK)):
        t.clock.advance(TICK)
        t.station.tick()
        if check:
            assert controller.shown == TableController.screen(controller)


def shown_text(controller: TableController) -> str:
    """The rows on the OLED now, as one line."""
    return " ".join(row.text for row in controller.shown.rows)  # type: ignore[union-attr]


def test_an_idle_tick_builds_no_screen_and_looks_at_the_disk_every_few_seconds(tmp_path: Path) -> None:
    with table(tmp_path, start()) as t:
        looks = [0]

        def disk_free() -> int:
            looks[0] += 1
            return 10**9

        t.station.controller.disk_free = disk_free
        idle(t, 1.0)  # the start's own notices fade
        built = count_builds(t.station.controller)
        looks[0] = 0
        idle(t, 10.0)  # 1,000 ticks
        assert built[0] <= 10  # the story's pages turn every 1.5 s; the rest is one screen, built once
        assert looks[0] <= 10.0 / DISK_EVERY + 1


def test_what_time_and_others_change_is_drawn_at_the_next_tick(tmp_path: Path) -> None:
    """Notices fade, the story's pages turn, a phone plays, a device and the game's clock speak, the disk fills and
    is freed: after every tick the OLED shows what a screen built from scratch shows."""
    with table(tmp_path, start()) as t:
        controller = t.station.controller
        idle(t, 3.0, check=True)
        controller.say("A notice long enough to need more than one page of the two rows it is shown in, so that "
                       "its pages turn while it is in view, then it fades")
        idle(t, 12.0, check=True)
        t.station.table.submit({"roll": [1, 2]}, source="phone")
        idle(t, 0.5, check=True)
        assert "Buy Baltic Avenue" in shown_text(controller)
        controller.device_notice("Seat lights do not answer")
        controller.announce("10 minutes left")
        idle(t, 6.0, check=True)
        controller.disk_free = lambda: 5_000_000
        idle(t, DISK_EVERY + 0.5, check=True)
        assert "Disk almost full" in shown_text(controller)
        controller.disk_free = lambda: 10**9
        idle(t, DISK_EVERY + 0.5, check=True)
        assert "Disk almost full" not in shown_text(controller)


def test_an_input_looks_at_the_disk_at_once_only_near_the_low_mark(tmp_path: Path) -> None:
    """A journaled input takes a few KB: with the disk far from its low mark the tick looks every DISK_EVERY as when
    idle; near it, at the tick after every input (a warning before the inputs fail)."""
    owned = {"mediterranean-avenue": {"owner": "Ann", "houses": 0, "hotel": False, "mortgaged": False}}
    with table(tmp_path, {**start(), "start": {**start()["start"], "spaces": owned}}, dice="software") as t:
        controller = t.station.controller
        looks = [0]
        free = [10**9]

        def disk_free() -> int:
            looks[0] += 1
            return free[0]

        controller.disk_free = disk_free
        idle(t, DISK_EVERY + 0.1)  # looked at once: far from the mark
        for near, most in ((False, 1), (True, 4)):
            free[0] = controller.disk_low + (DISK_MARGIN // 2 if near else 10 * DISK_MARGIN)
            idle(t, DISK_EVERY + 0.1)  # looked at with the new figure
            looks[0] = 0
            for i in range(4):  # four phones' inputs, a tick after each, within DISK_EVERY
                t.station.table.submit({"act": {"player": "Ann", "do": "unmortgage" if i % 2 else "mortgage",
                                                "space": "mediterranean-avenue"}}, source="phone")
                t.clock.advance(TICK)
                t.station.tick()
            idle(t, 2 * TICK)  # the tick that drew the last input looks at the next
            assert looks[0] <= most
            assert looks[0] == most or not near
