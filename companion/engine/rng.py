"""Deterministic pseudo-random numbers derived from a game's seed.

The engine owns no randomness: every shuffle is derived from the seed stored in the
state with SplitMix64, which is specified bit for bit, so a game file replays the same
on every Python version and machine (``random.Random``'s algorithms may change).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """Return ``(next_state, output)`` of SplitMix64 for state ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def stream_seed(seed: int, label: str) -> int:
    """Mix a game seed with a label ("deck:chance") into an independent stream seed."""
    x = seed & _MASK
    for byte in label.encode():
        x, out = splitmix64(x ^ byte)
        x = out
    return x


def shuffled(items: Sequence[T], seed: int, label: str) -> list[T]:
    """A Fisher-Yates shuffle of ``items`` determined by ``seed`` and ``label``."""
    result = list(items)
    state = stream_seed(seed, label)
    for i in range(len(result) - 1, 0, -1):
        state, out = splitmix64(state)
        j = out % (i + 1)
        result[i], result[j] = result[j], result[i]
    return result
