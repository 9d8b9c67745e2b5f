"""The running table's heap: what the start-up made is set aside from the garbage collector (issue 43)."""

from __future__ import annotations

import gc

#: Net allocations between two collections of the young generation (Python's default: 700).
YOUNG_EVERY = 3000


def settle_heap() -> None:
    """Once the table is up: collect what the start-up left, freeze the rest, collect the young less often.

    The modules, the boards, the app and the station (~56,000 objects) live as long as the table: frozen, no later
    collection looks at them again. Each input makes and drops thousands of objects, nearly all freed at once by
    their counts, so the young generation's collections find little; every 3,000 objects instead of 700 they run
    4 times in bench/phones_bench.py's 324 actions instead of 18 (and 2 of the middle generation). The collector's
    own CPU there (its ``gc.callbacks``' thread clock): 6.5-8.0 ms a run before, 2.8-3.4 ms after (~13 µs less an
    action); a young collection takes ~0.75 ms instead of ~0.25 ms. docs/web.md: "In a Pi Zero 2 W's budget".
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_EVERY)
