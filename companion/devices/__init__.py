"""The table's hardware: buttons and the dice roller (gpiozero), the OLED (luma.oled), and the
pure screen layouts between the game state and the pixels.

Modules: ``pins`` (the pin map), ``buttons`` (debounce, hold, stuck), ``roller`` (the strobe
protocol), ``dice`` (roller, software and manual dice), ``screens`` (layouts), ``draw``
(pixels), ``display`` (luma devices that send only what changed; fault recovery),
``controller`` (buttons and dice → table inputs, state → OLED), ``virtual`` (mock hardware
for the demo and tests), ``script`` (button scripts), ``terminal`` (the OLED in a terminal).
"""
