"""The phone page's PIN login paused after too many wrong PINs from anywhere: the OLED says so, and the host
allows it again from the host menu (mock pins, the real server's access, simulated time)."""

from __future__ import annotations

from pathlib import Path

from companion.face.controller import PIN_PAUSED
from companion.web.access import PIN_FAILURES

from .test_table import start, table


def test_the_oled_says_pin_login_is_paused_and_the_host_menu_allows_it_again(tmp_path: Path) -> None:
    with table(tmp_path, start(), web=("127.0.0.1", 0)) as t:
        access = t.station.web.app.extensions["companion"].access
        for _ in range(PIN_FAILURES):
            assert not access.try_pin("000000" if access.host_pin != "000000" else "111111")
        assert access.pin_paused
        t.play("WAIT 100")
        assert t.station.controller.notices.warnings.get("pin") == PIN_PAUSED
        t.play("HOLD MENU 2")
        assert t.station.controller.items[0].label == "Allow PIN login"
        t.play("YES")
        assert not access.pin_paused and access.try_pin(access.host_pin)
        assert "pin" not in t.station.controller.notices.warnings and "PIN login allowed again" in t.text()
        t.play("WAIT 100", "HOLD MENU 2")
        assert all(item.label != "Allow PIN login" for item in t.station.controller.items)  # only while paused
