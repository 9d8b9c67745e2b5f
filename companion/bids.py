"""The quick bids every face of the table offers in an auction: the same steps over the highest bid on the OLED's
buttons and on every phone (issue 38: "+$10, +$50, +$100 over the high bid, the same steps as the OLED")."""

from __future__ import annotations

#: What one press or one tap raises the highest bid by. With +$10 alone a bidding war for Boardwalk took some forty
#: presses; the phones also bid any amount in their box.
BID_STEPS: tuple[int, ...] = (10, 50, 100)


def quick_bids(high: int, minimum: int = 1) -> list[int]:
    """The amounts the quick bids offer over the highest bid ``high`` (at least the opening bid ``minimum``), in
    increasing order, each once."""
    return sorted({max(minimum, high + step) for step in BID_STEPS})
