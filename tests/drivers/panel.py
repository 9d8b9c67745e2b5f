"""Models of the OLED controllers' display memory, fed with the bytes a driver put on the bus.

They read :class:`companion.drivers.virtual.VirtualI2CBus` transfers the way the SSD1306 and
SH1106 datasheets describe, so a test can check what the panel would show after any sequence
of partial updates.
"""

from __future__ import annotations

from companion.drivers.virtual import VirtualI2CBus

# SSD1306 commands that take arguments (datasheet §9), and how many.
SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class SSD1306Ram:
    """Horizontal addressing mode: a column window and a page window; data fills it row by row."""

    def __init__(self) -> None:
        self.ram = [bytearray(128) for _ in range(8)]
        self.c0, self.c1, self.p0, self.p1 = 0, 127, 0, 7
        self.col, self.page = 0, 0

    def feed(self, bus: VirtualI2CBus) -> None:
        for _, control, payload in bus.transfers:
            if control == 0x00:
                self._commands(payload)
            else:
                for byte in payload:
                    self.ram[self.page][self.col] = byte
                    self.col += 1
                    if self.col > self.c1:
                        self.col = self.c0
                        self.page = self.page + 1 if self.page < self.p1 else self.p0
        bus.reset()

    def _commands(self, payload: bytes) -> None:
        i = 0
        while i < len(payload):
            cmd = payload[i]
            args = payload[i + 1:i + 1 + SSD1306_ARGS.get(cmd, 0)]
            if cmd == 0x21:
                self.c0, self.c1 = args
                self.col = self.c0
            elif cmd == 0x22:
                self.p0, self.p1 = args
                self.page = self.p0
            i += 1 + len(args)

    def pages(self) -> bytes:
        return b"".join(bytes(p) for p in self.ram)


class SH1106Ram:
    """Page addressing: 0xB0+page, column low and high nibbles; data fills one page (132 columns)."""

    def __init__(self) -> None:
        self.ram = [bytearray(132) for _ in range(8)]
        self.page, self.col = 0, 0

    def feed(self, bus: VirtualI2CBus) -> None:
        for _, control, payload in bus.transfers:
            if control == 0x00 and len(payload) == 3 and 0xB0 <= payload[0] <= 0xB7:
                self.page = payload[0] - 0xB0
                self.col = (payload[1] & 0x0F) | ((payload[2] & 0x0F) << 4)
            elif control == 0x40:
                for byte in payload:
                    if self.col < 132:
                        self.ram[self.page][self.col] = byte
                    self.col += 1
        bus.reset()

    def pages(self, offset: int = 2) -> bytes:
        return b"".join(bytes(p[offset:offset + 128]) for p in self.ram)
