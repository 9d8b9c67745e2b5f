"""Runs at power-up on the Pico: the dice roller (see roller.py). Copy both files with
`mpremote cp roller.py main.py :` (or Thonny)."""

import os
import time

import machine
import neopixel

from roller import PIXELS, Roller

pixels = neopixel.NeoPixel(machine.Pin(PIXELS), 21)
Roller(machine, time.sleep_ms, time.sleep_us, time.ticks_ms, time.ticks_diff, os.urandom, pixels).run()
