"""The table's face: what players touch and see at the table, and what it decides to show and say.

``controller`` (buttons, dice and cards in → table inputs; state → OLED), one module per mode (``modes``: the
shared ones; ``game_mode``, ``host_menu``, ``setup_mode`` with ``setup``, ``deeds_mode``, ``taps``), ``choices``
(what PREV/NEXT browse at a prompt), ``press_guard`` (a press meant for the screen before is refused), ``dice``
(roller, software and manual dice), ``screens`` (pure layouts) with ``story_pages`` (whole instructions a page),
``draw`` (pixels, with ``fonts/``), ``terminal`` (the OLED drawn in a terminal), ``notices``, ``cues`` (what the
lights, the buzzer and the voice should show and say) and their listeners ``seat_lights``, ``sounds``, ``voice``.

The parts themselves are :mod:`companion.drivers`'; the face uses them through their interfaces and never talks to
a bus or a pin.
"""
