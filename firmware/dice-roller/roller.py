"""The electronic dice roller: MicroPython for a Raspberry Pi Pico (RP2040).

A roll starts when the player presses the roll button (or shakes the tilt switch wired in
parallel with it), or when the Pi raises REQUEST. The roller animates its LED dice, draws each
die from the RP2040's hardware entropy (the ring oscillator, through ``os.urandom``), then
speaks the protocol of the companion's DESIGN.md:

* each die on three data lines, binary 1-6, least significant bit first;
* once the lines hold the dice, STROBE high for 20 ms (DESIGN.md: at least 5 ms; the margin is for a busy
  Pi, whose reader checks that STROBE is still high about 1 ms after its rising edge), then low;
* the data lines keep the dice until the next roll.

Everything here takes its ``machine`` module, clock and entropy as arguments, so the same
code runs on the Pico (``main.py``) and under pytest on a computer with a fake ``machine``.
"""

DIE_A = (2, 3, 4)  # GP2-GP4 -> Pi GPIO 17, 27, 22
DIE_B = (5, 6, 7)  # GP5-GP7 -> Pi GPIO 23, 24, 25
DIE_C = (8, 9, 10)  # GP8-GP10 -> Pi GPIO 12, 16, 20
STROBE = 11  # GP11 -> Pi GPIO 4
REQUEST = 12  # GP12 <- Pi GPIO 18
BUTTON = 13  # GP13: roll button and tilt switch to GND (internal pull-up)
PIXELS = 15  # GP15: WS2812 LED strip, 7 pips per die
STROBE_MS = 20
SETTLE_US = 200  # data lines stable before STROBE rises
ANIMATION_MS = 600
DEBOUNCE_MS = 30

# Which of a die's 7 LEDs light for each face (0 top-left, 1 mid-left, 2 bottom-left, 3 centre,
# 4 top-right, 5 mid-right, 6 bottom-right).
PIPS = {1: (3,), 2: (0, 6), 3: (0, 3, 6), 4: (0, 2, 4, 6), 5: (0, 2, 3, 4, 6), 6: (0, 1, 2, 4, 5, 6)}


def fair_die(urandom):
    """A face 1-6 from random bytes, without modulo bias (bytes 252-255 are drawn again)."""
    while True:
        byte = urandom(1)[0]
        if byte < 252:
            return byte % 6 + 1


def encode(value):
    """The three line levels of a face, least significant bit first."""
    return (value & 1, value >> 1 & 1, value >> 2 & 1)


class Roller:
    """The roller's logic over injected hardware: ``machine``, ``time`` functions, entropy, LEDs."""

    def __init__(self, machine, sleep_ms, sleep_us, ticks_ms, ticks_diff, urandom, pixels=None, dice=3):
        self.machine = machine
        self.sleep_ms, self.sleep_us = sleep_ms, sleep_us
        self.ticks_ms, self.ticks_diff = ticks_ms, ticks_diff
        self.urandom = urandom
        self.pixels = pixels
        Pin = machine.Pin
        self.dice_lines = [[Pin(n, Pin.OUT, value=0) for n in die] for die in (DIE_A, DIE_B, DIE_C)[:dice]]
        self.strobe = Pin(STROBE, Pin.OUT, value=0)
        self.request = Pin(REQUEST, Pin.IN, Pin.PULL_DOWN)
        self.button = Pin(BUTTON, Pin.IN, Pin.PULL_UP)
        self.pending = False
        self.last_edge = None
        self.latched = not self.button.value()  # held down at power-up: no roll until it is released
        self.request.irq(trigger=Pin.IRQ_RISING, handler=self._on_request)
        self.button.irq(trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING, handler=self._on_button)
        self.values = ()

    # interrupt handlers: only set a flag (no allocation, no waiting)
    def _on_request(self, pin):
        self.pending = True

    def _on_button(self, pin):
        """Only notes the time: the level read here may be a bounce (the handler runs after the edge);
        :meth:`poll_button` decides once the switch has been quiet."""
        self.last_edge = self.ticks_ms()

    def poll_button(self):
        """A press is the button down after DEBOUNCE_MS without an edge; one roll a press (latched until it
        is up again). Contact bounce, and a tilt switch rattling while it is shaken, make no second roll."""
        if self.last_edge is not None and self.ticks_diff(self.ticks_ms(), self.last_edge) < DEBOUNCE_MS:
            return  # still bouncing
        down = not self.button.value()
        if down and not self.latched:
            self.pending = True
        self.latched = down

    def roll(self):
        """Animate, draw the dice, present them and strobe. Returns the values.

        A press, a shake or a REQUEST that came while the dice tumbled belongs to this roll; one that comes
        from the strobe on (the Pi asking again after a bad reading) asks for the next."""
        self.animate()
        self.pending = False
        self.latched = not self.button.value()
        values = tuple(fair_die(self.urandom) for _ in self.dice_lines)
        self.show(values)
        self.present(values)
        self.values = values
        return values

    def present(self, values):
        """The GPIO protocol: data lines, a short settle, STROBE high for STROBE_MS, low."""
        for lines, value in zip(self.dice_lines, values):
            for line, level in zip(lines, encode(value)):
                line.value(level)
        self.sleep_us(SETTLE_US)
        self.strobe.value(1)
        self.sleep_ms(STROBE_MS)
        self.strobe.value(0)

    def animate(self):
        """Tumbling faces on the LEDs, slowing down (random faces: nothing is decided yet)."""
        delay, spent = 30, 0
        while spent < ANIMATION_MS:
            self.show(tuple(fair_die(self.urandom) for _ in self.dice_lines))
            self.sleep_ms(delay)
            spent += delay
            delay = delay * 5 // 4

    def show(self, values):
        if self.pixels is None:
            return
        for die, value in enumerate(values):
            for pip in range(7):
                self.pixels[die * 7 + pip] = (40, 40, 40) if pip in PIPS[value] else (0, 0, 0)
        self.pixels.write()

    def run_once(self):
        """One pass of the main loop: roll if the button was pressed or the Pi asked."""
        self.poll_button()
        if not self.pending:
            return None
        return self.roll()

    def run(self):
        while True:
            self.run_once()
            self.sleep_ms(5)
