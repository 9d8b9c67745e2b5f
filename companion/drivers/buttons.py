"""The six buttons: gpiozero ``Button``s, debounced again in software, with hold and stuck detection.

Each button is active low with the Pi's internal pull-up. The pin driver filters glitches
(``bounce_time``; on the Pi, lgpio's debounce), but MockFactory ignores that setting and real
contacts still chatter, so every edge also goes through a :class:`Debouncer`:

* leading-edge debounce: the first edge after a quiet ``debounce`` period counts at once (no
  added latency); edges within ``debounce`` of it are chatter, and the level is read again when
  the period is over, so a press shorter than the period is still released;
* ``hold``: a press that lasts ``hold`` seconds reports a hold once (MENU held opens the host menu);
* ``stuck``: a button down for ``stuck`` seconds, or already down at start, is ignored with a
  warning until it is released.

Time comes from an injected clock, so all of this is tested on simulated time.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from gpiozero import DigitalInputDevice

from .clock import Clock, monotonic

log = logging.getLogger(__name__)

EventKind = Literal["press", "hold", "release", "stuck", "unstuck"]


@dataclass(frozen=True)
class ButtonEvent:
    """What a button did: ``press``, ``hold`` (once per press), ``release``, ``stuck``, ``unstuck``."""

    button: str
    kind: EventKind
    at: float  # clock time of the edge (press, release) or of the detection (hold, stuck)
    held: float = 0.0  # release: how long the button was down


_CLOCK_NOISE = 1e-6  # seconds: sums of clock steps are not exact ("held 1.5 s" can read 1.4999999)


class Debouncer:
    """One button's debounced state, fed with raw levels (True: pressed) and the time."""

    def __init__(self, name: str, *, debounce: float = 0.02, hold: float = 1.5, stuck: float = 20.0,
                 pressed: bool = False, now: float = 0.0) -> None:
        if not 0 <= debounce < hold < stuck:
            raise ValueError("expected 0 <= debounce < hold < stuck")
        self.name = name
        self.debounce, self.hold, self.stuck_after = debounce, hold, stuck
        self.pressed = pressed  # the debounced level
        self.raw = pressed
        self.changed_at = now if pressed else float("-inf")  # released: the first edge counts at once
        self.stuck = False
        self._held = False
        self._ignored = pressed  # down at start: ignored until released
        self._down_at_start = pressed  # reported as stuck at the first poll

    def edge(self, pressed: bool, now: float) -> list[ButtonEvent]:
        """A raw edge from the pin."""
        self.raw = pressed
        if pressed == self.pressed or now - self.changed_at < self.debounce:
            return []  # no change, or chatter: poll() looks again once the period is over
        return self._accept(pressed, now)

    def poll(self, pressed: bool, now: float) -> list[ButtonEvent]:
        """The pin's level read now; call it often (every 10 ms or so)."""
        self.raw = pressed
        events: list[ButtonEvent] = []
        if self._down_at_start:
            self._down_at_start = False
            if self.pressed:
                self.stuck = True
                events.append(ButtonEvent(self.name, "stuck", now, 0.0))
        if pressed != self.pressed and now - self.changed_at >= self.debounce:
            events += self._accept(pressed, now)
        if self.pressed and not self.stuck:
            down = now - self.changed_at + _CLOCK_NOISE
            if down >= self.stuck_after:
                self.stuck = True
                log.warning("button %s has been down for %.0f s: ignored until released", self.name, down)
                events.append(ButtonEvent(self.name, "stuck", now, down))
            elif down >= self.hold and not self._held and not self._ignored:
                self._held = True
                events.append(ButtonEvent(self.name, "hold", now, down))
        return events

    def _accept(self, pressed: bool, now: float) -> list[ButtonEvent]:
        down = now - self.changed_at
        self.pressed, self.changed_at = pressed, now
        if pressed:
            self._held = False
            return [ButtonEvent(self.name, "press", now)]
        if self.stuck or self._ignored:
            was_stuck = self.stuck
            self.stuck = self._ignored = False
            if was_stuck:
                log.warning("button %s released: it works again", self.name)
                return [ButtonEvent(self.name, "unstuck", now, down)]
            return []
        return [ButtonEvent(self.name, "release", now, down)]


class Button(DigitalInputDevice):
    """gpiozero's ``Button`` without its hold thread: each ``Button`` starts one that wakes every 0.1 s for
    ``when_held``, which the panel does not use (it times holds itself): six buttons were 60 wake-ups a second of an
    idle table. The same pin, pull-up and bounce time, and ``Button``'s names for them."""

    is_pressed = DigitalInputDevice.is_active
    when_pressed = DigitalInputDevice.when_activated
    when_released = DigitalInputDevice.when_deactivated


class ButtonPanel:
    """The table's buttons on gpiozero; debounced events go to ``on_event``.

    ``pins`` maps button names to BCM numbers (``hardware/pins.toml``). Edges come from gpiozero's callbacks (then
    ``on_edge`` is told); call :meth:`poll` every 10 ms or so while a button is down or chatter is left to settle
    (not :meth:`settled`): it settles chatter and detects holds and stuck buttons; once in a while otherwise, to read
    the levels again.
    """

    def __init__(self, pins: Mapping[str, int], on_event: Callable[[ButtonEvent], None], *,
                 pin_factory: Any = None, clock: Clock = monotonic, debounce: float = 0.02,
                 hold: float = 1.5, stuck: float = 20.0, bounce_time: float | None = 0.005,
                 on_edge: Callable[[], None] | None = None) -> None:
        self.on_event = on_event
        self.on_edge = on_edge  # told after each edge from the pins (gpiozero's thread): the table's loop wakes
        self.clock = clock
        self._lock = threading.Lock()
        self.buttons: dict[str, Button] = {}
        self.debouncers: dict[str, Debouncer] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
                self.buttons[name] = button
                self.debouncers[name] = Debouncer(name, debounce=debounce, hold=hold, stuck=stuck,
                                                  pressed=button.is_pressed, now=clock())
                if button.is_pressed:
                    log.warning("button %s is down at start: ignored until released", name)
                button.when_pressed = self._callback(name, True)
                button.when_released = self._callback(name, False)
        except BaseException:
            self.close()
            raise

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            with self._lock:
                events = self.debouncers[name].edge(pressed, self.clock())
            self._dispatch(events)
            if self.on_edge is not None:
                self.on_edge()
        return on_edge

    def poll(self) -> None:
        """Read every button's level: settle chatter, report holds and stuck buttons."""
        now = self.clock()
        with self._lock:
            events = [e for name, button in self.buttons.items()
                      for e in self.debouncers[name].poll(button.is_pressed, now)]
        self._dispatch(events)

    def settled(self) -> bool:
        """Nothing for :meth:`poll` to do soon: every button up (or stuck down, ignored until an edge releases it)
        and no chatter left to settle. Then the edges alone (gpiozero's callbacks) tell what happens next."""
        with self._lock:
            return all(d.raw == d.pressed and (not d.pressed or d.stuck) and not d._down_at_start
                       for d in self.debouncers.values())

    def stuck(self) -> list[str]:
        """The buttons being ignored because they are stuck down."""
        return [name for name, d in self.debouncers.items() if d.stuck]

    def _dispatch(self, events: list[ButtonEvent]) -> None:
        for event in events:
            self.on_event(event)

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
