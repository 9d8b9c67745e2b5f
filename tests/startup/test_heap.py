"""The running table's heap (issue 43): after the start-up its objects are frozen out of the garbage collector's
sight and the young generation is collected less often; cycles made later are still collected."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import gc, json, weakref
import companion.startup.pi  # the start-up's modules, as `companion run` has them
from companion.startup.heap import YOUNG_EVERY, settle_heap
before = gc.get_threshold()
settle_heap()
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a  # a cycle made after the start-up
gone = weakref.ref(a)
del a, b
gc.collect()
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count(),
                  "young": YOUNG_EVERY, "cycle_collected": gone() is None}))
"""


def test_the_start_ups_objects_are_frozen_and_the_young_collected_less_often() -> None:
    run = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["before"][0] == 700  # Python's default
    assert found["after"] == [found["young"], *found["before"][1:]] == [3000, 10, 10]
    assert found["frozen"] > 10_000  # the modules' functions, classes and constants
    assert found["cycle_collected"]
