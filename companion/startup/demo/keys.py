"""The terminal demo's keyboard: keys as the table's buttons (a key held is one press, ``M`` holds MENU), and ``t``
to type a card's name for the virtual reader."""

from __future__ import annotations

from collections.abc import Callable

from companion.words import N_


KEYS = {"r": "ROLL", " ": "ROLL", "y": "YES", "\r": "YES", "\n": "YES", "n": "NO", "p": "PREV", ",": "PREV",
        "\x1b[D": "PREV", ".": "NEXT", "\x1b[C": "NEXT", "m": "MENU"}
#: What the terminal shows while a card's name is typed (said in the table's language).
CARD_LINE = N_("tap which card? {typed}_  (enter: tap · esc: cancel)")
#: The keys, as the terminal shows them below the OLED (said in the table's language).
HELP = (N_("keys: r/space ROLL · y/enter YES · n NO · p/←/, PREV · ./→ NEXT"),
        N_("      m MENU · M hold MENU (host menu) · t tap a card · q or Ctrl-C quit"))
TAP_TIME = 0.4  # a card typed after t stays on the (virtual) reader this long
#: A held key's repeats come this close together (every 30-40 ms; 80 at the slowest common setting): a key again
#: within this long of the last one is a repeat. It is also how long a key's button stays down.
KEY_HOLD = 0.09
#: Terminals start repeating a held key after a delay (250 ms to about a second): the same key again within this
#: long of its press waits ``KEY_HOLD`` to see whether repeats follow it (a key held) or not (a key tapped again).
REPEAT_DELAY = 1.1
MENU_HOLD = 2.0  # ``M``: MENU held this long, the host menu
KEY_GAP = 0.03  # a button up at least this long between two presses (longer than the buttons' 20 ms debounce)


class HeldKeys:
    """Terminal keys as buttons, so that a key held down (the terminal repeats it) is one press, as a button held
    down is, and a key tapped again is another press (``M``: MENU held 2 s, the host menu).

    A terminal gives no key-up, only the repeats: after a press, the same key again within ``REPEAT_DELAY`` is
    held back ``KEY_HOLD``; if another follows that fast it is the terminal's repeat (the key is held: nothing is
    pressed until it has been let go), else a second tap, pressed as soon as the button is up again."""

    def __init__(self, down: Callable[[str], None], up: Callable[[str], None]) -> None:
        self.down, self.up = down, up
        self._until: dict[str, float] = {}  # buttons down, and when each goes up
        self._pressed: dict[str, float] = {}  # when each button was last pressed
        self._last: dict[str, float] = {}  # when each key was last typed (a repeat comes within KEY_HOLD)
        self._waiting: dict[str, float] = {}  # the same key again soon after its press: a tap, or repeats?
        self._repeating: set[str] = set()  # keys held down (the terminal repeating them)
        self._queued: set[str] = set()  # taps to press once the button has been up KEY_GAP
        self._up_at: dict[str, float] = {}  # when each button went up

    def typed(self, keys: list[str], now: float) -> None:
        for key in keys:
            name = "MENU" if key == "M" else KEYS.get(key)
            if name is None:
                continue
            repeat = now - self._last.get(name, float("-inf")) <= KEY_HOLD
            self._last[name] = now
            if not repeat:  # what release() would have found by now: the key let go, a tap waiting
                self._let_go(name)
                if self._waiting.pop(name, None) is not None:
                    self._queued.add(name)
            if key == "M":  # the host menu: MENU held, whatever was typed before it
                self._waiting.pop(name, None)
                self._queued.discard(name)
                if name in self._until:
                    self._until[name] = max(self._until[name], now + MENU_HOLD)
                else:
                    self._press(name, now, MENU_HOLD)
            elif name in self._until and self._until[name] > now + KEY_HOLD:
                continue  # MENU held for the host menu: a tap of m does not cut it short
            elif name in self._repeating:
                continue
            elif name in self._waiting or (repeat and name in self._until):  # repeats: the key is held
                self._waiting.pop(name, None)
                self._repeating.add(name)
                if name in self._until:
                    self._until[name] = now + KEY_HOLD
            elif now - self._pressed.get(name, float("-inf")) < REPEAT_DELAY:
                self._waiting[name] = now
            else:
                self._press(name, now, KEY_HOLD)

    def release(self, now: float) -> None:
        for name, when in list(self._until.items()):
            if now >= when:
                self.up(name)
                del self._until[name]
                self._up_at[name] = now
        for name, when in list(self._waiting.items()):
            if now >= when + KEY_HOLD:  # no repeat followed: tapped again
                del self._waiting[name]
                self._queued.add(name)
        for name in list(self._queued):
            if name not in self._until and now - self._up_at.get(name, float("-inf")) >= KEY_GAP:
                self._queued.discard(name)
                self._press(name, now, KEY_HOLD)
        for name in list(self._repeating):
            if now - self._last[name] > KEY_HOLD:
                self._let_go(name)

    def _let_go(self, name: str) -> None:
        """A key held (repeating) is let go: its next key is a press again, however soon."""
        if name in self._repeating:
            self._repeating.discard(name)
            self._pressed.pop(name, None)

    def _press(self, name: str, now: float, hold: float) -> None:
        self.down(name)
        self._pressed[name] = now
        self._until[name] = now + hold


class CardPrompt:
    """``t`` in the terminal demo: type a card's name (a player's, a space id such as ``boardwalk``), Enter taps it
    on the virtual reader; Esc, or Enter on nothing, taps nothing. Ctrl-C and Ctrl-D still quit."""

    def __init__(self) -> None:
        self.typing: str | None = None  # the name so far, while one is typed

    def typed(self, keys: list[str]) -> tuple[list[str], str | None]:
        """The keys that are buttons (or quit), and the card to tap if Enter ended a name."""
        rest, tapped = [], None
        for key in keys:
            if key in ("\x03", "\x04") or (self.typing is None and key != "t"):
                rest.append(key)
            elif self.typing is None:
                self.typing = ""
            elif key in ("\r", "\n"):
                tapped, self.typing = self.typing.strip() or None, None
            elif key == "\x1b":
                self.typing = None
            elif key in ("\x7f", "\b"):
                self.typing = self.typing[:-1]
            elif len(key) == 1 and key.isprintable():
                self.typing += key
        return rest, tapped

    def line(self) -> str | None:
        """What the terminal shows while a name is typed."""
        return None if self.typing is None else CARD_LINE.format(typed=self.typing)


def split_keys(text: str) -> list[str]:
    """The keys in one read of the terminal: characters, and the arrows' escape sequences whole."""
    keys, i = [], 0
    while i < len(text):
        if text.startswith("\x1b[", i) and i + 2 < len(text):
            keys.append(text[i:i + 3])
            i += 3
        else:
            keys.append(text[i])
            i += 1
    return keys
