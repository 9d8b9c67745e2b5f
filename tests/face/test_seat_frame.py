"""The seat lights' frame, made from the seats waited for (issue 43: not every seat walked at every input and blink),
is the frame the walk over every seat made, for any cues, players, lights and moment."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.drivers.lights import OFF
from companion.face.cues import Cues
from companion.face.seat_lights import BLINK, seat_frame
from companion.seats import RGB, Seat, led_rgb, seats


def walked(cues: Cues, seated: Sequence[Seat], count: int, elapsed: float) -> tuple[RGB, ...]:
    """The frame as it was made before: every seat walked (the chase aside, which is unchanged)."""
    blink_on = int(elapsed / BLINK) % 2 == 0
    frame = []
    for i in range(count):
        how = cues.lit.get(i)
        on = i < len(seated) and (how == "steady" or (how == "blink" and blink_on))
        frame.append(led_rgb(seated[i].colour) if on else OFF)
    return tuple(frame)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.integers(-2, 12), st.sampled_from(["steady", "blink", "other"]), max_size=6),
       st.integers(0, 10), st.integers(0, 12), st.floats(0, 5, allow_nan=False))
def test_the_frame_is_the_walked_one(lit: dict[int, str], players: int, count: int, elapsed: float) -> None:
    seated = seats({"players": [{"name": f"P{i}"} for i in range(players)]})
    cues = Cues(lit=lit)
    assert seat_frame(cues, seated, count, elapsed) == walked(cues, seated, count, elapsed)
