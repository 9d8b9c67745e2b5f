"""The engine's English, byte for byte as it was before its sentences became messages (issue 41).

tests/golden/english.jsonl.gz was recorded by tests/golden/record_english.py from the f-string engine: every event's,
prompt's and refusal's sentence and the log over every game file and two bot games of each ruleset. The messages'
English renderer must give the same bytes. Record again only for a change of wording an issue asks for:

    python tests/golden/record_english.py | gzip -9 -n > tests/golden/english.jsonl.gz
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tests.golden.record_english import records

GOLDEN = Path(__file__).parent / "golden" / "english.jsonl.gz"


def test_the_english_is_as_recorded() -> None:
    recorded = [json.loads(line) for line in gzip.decompress(GOLDEN.read_bytes()).decode().splitlines()]
    now = list(records())
    assert len(now) == len(recorded)
    for was, is_ in zip(recorded, now, strict=True):
        assert is_ == was, was["at"]
    assert len(recorded) > 4000
