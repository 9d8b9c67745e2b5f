"""`companion demo` on a terminal (a pseudo-terminal here): keys as buttons, the OLED drawn, quitting cleanly.

It was untested; an audit found Ctrl-C ending in a traceback, a low wide terminal scrolling every frame, no redraw
after a resize, and a held key flooding the game with presses.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from PIL import Image

from companion.engine import new_game, public_state
from companion.face import screens
from companion.face.draw import Painter
from companion.face.join import qr_matrix
from companion.face.screens import Labels
from companion.face.terminal import BELOW, PLAIN, REVERSE, frame_text
from companion.journal import Journal
from companion.seats import PLAYER_COLOURS, led_rgb
from companion.startup.demo.keys import KEY_HOLD, CardPrompt, HeldKeys, split_keys

ROOT = Path(__file__).resolve().parents[2]


def inputs(journal: Path) -> int:
    """Inputs journaled in the demo's games so far (the demo holds the journal: read it on the side)."""
    if not journal.exists():
        return 0
    import sqlite3

    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM records").fetchone()[0] - db.execute(
            "SELECT count(*) FROM games").fetchone()[0]


def test_a_key_held_down_is_one_press_and_keys_typed_again_are_more() -> None:
    """Twenty repeats of a held key (every 30 ms) were twenty presses: a 1924 player moved her sign five times."""
    pressed: list[tuple[str, str]] = []
    held = HeldKeys(lambda name: pressed.append(("down", name)), lambda name: pressed.append(("up", name)))
    for i in range(20):
        held.typed(["y"], i * 0.03)
        held.release(i * 0.03)
    held.release(0.57 + KEY_HOLD)
    assert pressed == [("down", "YES"), ("up", "YES")]
    held.typed(["y", "y", "."], 1.0)  # in one read: YES once (repeated), NEXT once
    held.release(1.0 + KEY_HOLD)
    held.typed(["y"], 1.5)  # typed again after a pause: another press (held back KEY_HOLD: no repeat follows)
    held.release(1.5 + KEY_HOLD)
    held.release(1.5 + 3 * KEY_HOLD)
    assert pressed[2:] == [("down", "YES"), ("down", "NEXT"), ("up", "YES"), ("up", "NEXT"), ("down", "YES"),
                           ("up", "YES")]
    held.typed(["M"], 3.0)
    held.release(4.0)
    assert pressed[-1] == ("down", "MENU")  # held for the host menu: still down after a second
    held.release(5.0)
    assert pressed[-1] == ("up", "MENU")


def play_keys(key: str, times: list[float]) -> list[tuple[str, str]]:
    """The presses a key typed at ``times`` makes, the demo's loop ticking every 10 ms meanwhile."""
    pressed: list[tuple[str, str]] = []
    held = HeldKeys(lambda name: pressed.append(("down", name)), lambda name: pressed.append(("up", name)))
    typed = sorted(times)
    for tick in range(int((typed[-1] + 2.5) * 100)):
        now = tick / 100
        while typed and typed[0] <= now:
            held.typed([key], typed.pop(0))
        held.release(now)
    return pressed


def test_a_key_held_as_terminals_repeat_it_is_one_press_and_quick_taps_are_each_a_press() -> None:
    """Terminals repeat a held key only after a delay (here 500 ms), then every 33 ms: the first repeat came after
    the button had gone up, so holding `y` at "Go bankrupt? YES again" confirmed it."""
    for delay, every in ((0.25, 0.03), (0.5, 0.033), (0.66, 0.04), (1.0, 0.08)):  # X, Windows, macOS settings
        held_down = [0.0] + [delay + i * every for i in range(int(1.5 / every))]
        assert play_keys("y", held_down) == [("down", "YES"), ("up", "YES")], (delay, every)
    for every in (0.1, 0.15, 0.2):  # NEXT tapped five times, quickly: five presses
        assert play_keys(".", [i * every for i in range(5)]) == [("down", "NEXT"), ("up", "NEXT")] * 5, every


def test_m_typed_during_the_host_menus_hold_does_not_cut_it_short() -> None:
    assert play_keys("M", [0.0]) == [("down", "MENU"), ("up", "MENU")]
    pressed: list[tuple[str, float]] = []
    held = HeldKeys(lambda name: pressed.append(("down", now)), lambda name: pressed.append(("up", now)))
    for tick in range(300):
        now = tick / 100
        if tick == 0:
            held.typed(["M"], now)
        if tick == 50:
            held.typed(["m"], now)  # half a second into the hold
        held.release(now)
    assert pressed == [("down", 0.0), ("up", 2.0)]  # held 2 s: the host menu
    pressed.clear()
    held = HeldKeys(lambda name: pressed.append(("down", now)), lambda name: pressed.append(("up", now)))
    for tick in range(400):
        now = tick / 100
        if tick in (0, 20):
            held.typed(["m"], now)
        if tick == 40:
            held.typed(["M"], now)  # m, m, then M: the hold is not swallowed
        held.release(now)
    assert ("down", 0.4) in pressed and ("up", 2.4) in pressed


def test_keys_in_one_read_are_each_a_key_and_arrows_stay_whole() -> None:
    assert split_keys("ry.\x1b[D,") == ["r", "y", ".", "\x1b[D", ","]
    assert split_keys("") == []


@pytest.mark.parametrize(("columns", "lines", "blocks"), [(140, 40, True), (132, 24, False), (80, 24, False)])
def test_the_picture_fits_the_terminal(columns: int, lines: int, blocks: bool) -> None:
    """A terminal wide enough for half blocks but lower than their 34 rows and the 3 below got them, and scrolled."""
    text = frame_text(Image.new("1", (128, 64)), columns, lines)
    rows = text.split("\n")
    assert len(rows) + BELOW <= lines and max(len(r) for r in rows) <= columns
    assert (len(rows) == 34) == blocks


def printed(row: str) -> str:
    return row.replace(REVERSE, "").replace(PLAIN, "")


@pytest.mark.parametrize("name", ["game", "join"])
def test_at_80_by_24_the_oled_is_text_with_reverse_video(name: str) -> None:
    """Below 130 × 37 the OLED was drawn in Braille: the inverted header and highlighted row were dot noise. Now
    the same screen model is shown as text, its inverted rows in reverse video, a QR code in half blocks."""
    state, _ = new_game({"ruleset": "classic", "players": ["Ann", "Bob"], "seed": 1})
    screen = screens.game_screen(public_state(state), [], Labels(), choice=screens.Choice(
        (screens.ROLL_LABEL, "Pay $50 fine"))) if name == "game" else screens.join_screen(
        qr_matrix("http://192.168.1.20:8080/join#code=482913"), "http://192.168.1.20:8080", "482913")
    text = frame_text(Painter().paint(screen), 80, 24, screen, "auto")
    rows = text.split("\n")
    assert len(rows) + BELOW <= 24 and max(len(printed(r)) for r in rows) <= 80
    if name == "game":
        assert f"{REVERSE}Ann $1500" in text and f"{REVERSE}    < Roll the dice >" in text
        assert "Ann, roll the dice" in text and "⠀" not in text
    else:
        assert "482913" in text and "█" in text
    assert frame_text(Painter().paint(screen), 80, 24, screen, "pixels").count("\n") == 17  # Braille, when asked


def _own_terminal() -> None:
    """In the child: a session of its own, with the pseudo-terminal as its controlling terminal (so that Ctrl-C
    is a SIGINT to it, as in a shell)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """`companion demo` in a pseudo-terminal of a given size."""

    def __init__(self, tmp_path: Path, columns: int = 100, lines: int = 30) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "TERM": "xterm"}
        self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "demo", "--port", "0"], cwd=ROOT,
                                     stdin=slave, stdout=slave, stderr=slave, env=env, preexec_fn=_own_terminal)
        os.close(slave)
        self.output = b""

    def read_until(self, text: bytes, timeout: float = 30.0, since: int = 0) -> bytes:
        """The output so far, once ``text`` has appeared after position ``since`` (or after ``timeout``)."""
        end = time.monotonic() + timeout
        while text not in self.output[since:] and time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:
                    break
        return self.output

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def finish(self, timeout: float = 30.0) -> int:
        """Its exit status, reading its output meanwhile (a full terminal buffer would hold it up)."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            self.read_until(b"\x00", 0.1)
        self.read_until(b"\x00", 0.3)
        os.close(self.master)
        return self.proc.wait(timeout=1)


def test_the_demo_plays_with_keys_and_quits_cleanly_with_q_and_ctrl_c(tmp_path: Path) -> None:
    term = Terminal(tmp_path)
    try:
        assert b"phone page: http://" in term.read_until(b"q or Ctrl-C quit")
        term.type("r")  # ROLL: the demo's roller answers the REQUEST pulse
        journal = tmp_path / "companion" / "demo.sqlite3"
        end = time.monotonic() + 20
        while time.monotonic() < end and inputs(journal) < 1:
            term.read_until(b"\x00", 0.2)
        term.type("q")
        assert term.finish() == 0, term.output[-600:]
        assert b"The game is saved in" in term.output
        assert inputs(journal) == 1  # one roll, in one game
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    term = Terminal(tmp_path)  # again: it resumes, and Ctrl-C quits as q does
    try:
        term.read_until(b"q or Ctrl-C quit")
        term.type("\x03")
        assert term.finish() == 0
        out = term.read_until(b"resumes it")
        assert b"The game is saved in" in out and b"Traceback" not in out and b"KeyboardInterrupt" not in out
        with Journal(journal) as kept:
            assert len(kept.games()) == 1  # resumed, not a new game
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_the_seat_lights_are_drawn_below_the_oled_in_the_players_colours(tmp_path: Path) -> None:
    term = Terminal(tmp_path, columns=80, lines=24)
    try:
        out = term.read_until(b"q or Ctrl-C quit")
        ann = f"\x1b[38;2;{';'.join(map(str, led_rgb(PLAYER_COLOURS[0])))}m██\x1b[0m Ann".encode()
        assert b"seats: " + ann in out  # Ann's turn: her seat lit in her colour, Bob's off
        assert "░░\x1b[0m Bob".encode() in out
        term.type("q")
        assert term.finish() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_a_resize_redraws_and_a_second_demo_is_refused(tmp_path: Path) -> None:
    term = Terminal(tmp_path, columns=140, lines=40)
    try:
        term.read_until(b"q or Ctrl-C quit")
        assert "▀".encode() in term.output or "▄".encode() in term.output  # half blocks at 140 × 40
        before = len(term.output)
        fcntl.ioctl(term.master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        os.killpg(term.proc.pid, signal.SIGWINCH)
        term.read_until(b"q or Ctrl-C quit", 5, since=before)
        assert b"\x1b[2J" in term.output[before:]  # cleared and drawn again at once
        assert b"\x1b[7m" in term.output[before:]  # as text now (100 columns): the inverted rows in reverse video
        assert "⠀".encode() not in term.output[before:]  # not Braille's dot noise
        second = Terminal(tmp_path)  # on the same journal
        assert second.finish() == 2 and b"another companion is using" in second.output  # one line, status 2
        term.type("q")
        assert term.finish() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_t_then_a_name_taps_that_card_and_its_letters_are_not_buttons() -> None:
    prompt = CardPrompt()
    assert prompt.typed(["y", "t", "r", "q", "\x7f", "\r"]) == (["y"], "r")  # q and r typed into the name
    assert prompt.typed(["t", "A", "n", "n"]) == ([], None) and prompt.line() is not None and "Ann_" in prompt.line()
    assert prompt.typed(["\r", "r"]) == (["r"], "Ann")
    assert prompt.typed(["t", "x", "\x1b", "n"]) == (["n"], None)  # Esc: nothing tapped
    assert prompt.typed(["t", "\x03"]) == (["\x03"], None)  # Ctrl-C still quits


def test_the_demo_taps_a_named_card_on_its_virtual_reader(tmp_path: Path) -> None:
    """t, a name, Enter: the card goes on the demo's virtual PN532 and its player's window opens (the OLED is
    pixels here: what the window did is read from the journal)."""
    term = Terminal(tmp_path, columns=140, lines=40)
    journal = tmp_path / "companion" / "demo.sqlite3"
    try:
        start = len(term.read_until(b"t tap a card"))
        term.type("tAnn")
        assert b"tap which card? Ann_" in term.read_until(b"tap which card? Ann_", since=start)
        term.type("\r")
        term.read_until(b"\x00", 1.5)  # Ann's window: her deeds, an offer, going bankrupt (the last)
        for key in "pyy":  # PREV to "Go bankrupt", YES, YES again
            term.type(key)
            term.read_until(b"\x00", 0.6)
        end = time.monotonic() + 20
        while time.monotonic() < end and inputs(journal) < 1:
            term.read_until(b"\x00", 0.2)
        term.type("q")
        assert term.finish() == 0, term.output[-600:]
        import sqlite3

        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
            assert db.execute("SELECT source, line FROM records ORDER BY id DESC LIMIT 1").fetchone() == \
                ("tap:Ann", '{"act":{"player":"Ann","do":"bankrupt"}}')
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
