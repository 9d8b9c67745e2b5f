"""The page's form controls measured on both engines: the same size, colours, borders and drawing (the style
sheet's, not the engine's). WebKit drew the travel card's checkbox at the text fields' width, its selects grey and
its number fields with spin buttons, where Chromium drew them otherwise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import CODE
from .engines import ENGINES, QUIET_SELENIUM, Role, engine_named, wait_live, wait_visible
from .test_scenarios import join, served

# Each control: what it is drawn with, and its box (CSS pixels).
MEASURE = """
const props = ["appearance", "background-color", "border-top-color", "border-top-width", "border-top-left-radius",
               "color", "font-size", "padding-left"];
const seen = { page: document.documentElement.clientWidth };
for (const [name, selector] of Object.entries(CONTROLS)) {
  const element = document.querySelector(selector);
  const style = getComputedStyle(element), box = element.getBoundingClientRect();
  seen[name] = { ...Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)])),
                 width: Math.round(box.width), height: Math.round(box.height) };
}
return seen;
"""
pytestmark = QUIET_SELENIUM
CONTROLS = {"select": '[aria-label="die 1"]', "number": "#give-cash", "bid": "#bid-amount",
            "checkbox": "#travel input[type=checkbox]", "checked": "#travel input[type=checkbox]:checked"}


def test_form_controls_are_drawn_alike_on_both_engines(tmp_path: Path) -> None:
    setup = {"ruleset": "addon", "players": ["Ann", "Bob"], "seed": 3,
             "deal": {"Ann": ["travel-forward-2", "travel-back-1"], "Bob": ["travel-forward-1", "triple-play-445"]}}
    seen: dict[str, Any] = {}
    with served(setup, tmp_path) as (_, server):
        for name in ENGINES:
            with engine_named(name, tmp_path / name) as engine:
                page = engine.open()
                try:
                    page.goto(server.url + f"/join#code={CODE}")
                    wait_live(page)
                    join(page, "Ann")
                    page.check(Role("checkbox", "Travel back 1 space"))
                    page.click("#trade-new summary")
                    wait_visible(page, "#give-cash")
                    page.run("document.getElementById('auction-panel').hidden = false")  # its bid field, measured
                    seen[name] = page.run(f"const CONTROLS = {json.dumps(CONTROLS)};" + MEASURE)
                finally:
                    page.close()
                    server.app.extensions["companion"].access.free_seat("Ann")  # for the other engine's phone
    chromium, webkit = (seen[name] for name in ENGINES)
    assert chromium["page"] == webkit["page"] == 390  # no scroll bar takes a phone's width on either
    for control in CONTROLS:
        both = f"{control}: Chromium {chromium[control]}, WebKit {webkit[control]}"
        drawn = [{key: value for key, value in seen[name][control].items() if key != "width"} for name in ENGINES]
        assert drawn[0] == drawn[1], both
        # A field beside words ("Bid $") takes what the words leave: text widths differ by a pixel or two.
        assert abs(chromium[control]["width"] - webkit[control]["width"]) <= 3, both
    assert webkit["checkbox"]["width"] == webkit["checkbox"]["height"] <= 32
    assert webkit["select"]["appearance"] == webkit["number"]["appearance"] == "none"
