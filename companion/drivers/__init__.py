"""The table's parts: one driver a part, each with its fake or virtual twin beside it.

``pins`` (the pin map), ``clock`` (real and simulated time), ``buttons`` (debounce, hold, stuck), ``roller`` (the
strobe protocol), ``display`` (luma devices that send only what changed; fault recovery), ``lights`` (the seat
lights' strip or LEDs), ``tunes`` (the piezo, or tunes on a speaker), ``audio`` (PCM to the system's player),
``speech`` (text to speech), ``pn532`` and ``nfc`` (the card reader), ``faults`` (a part the game never waits for);
``virtual`` and ``virtual_nfc`` (mock buttons, roller, I2C bus and PN532 for the demo and tests), ``script`` (button
scripts played on them).

What the parts show and when is :mod:`companion.face`'s: nothing here imports it.
"""
