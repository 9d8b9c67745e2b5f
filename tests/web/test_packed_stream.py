"""The live stream gzip'd (companion/web/packed_stream.py): what a browser decodes is the text, event by event as
it comes; streams that sent the same share the work; a slow stream keeps no chain of the others' compressors."""

from __future__ import annotations

import gc
import weakref
import zlib

from companion.web.feed import RETRY
from companion.web.packed_stream import Packed, StreamPacker

EVENTS = [RETRY] + [f'id:1:{n}\nevent:delta\ndata:[["/seq",{n}],["/log",["Ann pays Bob ${n}"],1]]\n\n' for n in range(40)]


def decoded(chunks: list[bytes]) -> list[str]:
    """Each chunk decoded as it comes (a browser's gzip decoder): each flush gives its event whole."""
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    return [inflate.decompress(chunk).decode() for chunk in chunks]


def test_each_event_decodes_whole_as_it_comes_and_the_repeats_cost_little() -> None:
    chunks = list(StreamPacker(RETRY).packed(iter(EVENTS)))
    assert decoded(chunks) == EVENTS
    assert sum(map(len, chunks[2:])) < sum(map(len, EVENTS[2:])) / 3


def test_streams_that_sent_the_same_share_the_bytes_and_the_compressor() -> None:
    packer = StreamPacker(RETRY)
    texts = EVENTS[:3], EVENTS[:2] + ["other\n\n"]
    a, b = zip(*zip(packer.packed(iter(texts[0])), packer.packed(iter(texts[1]))))  # side by side, as streams go
    assert a[1] is b[1]  # the same event after the same bytes: compressed once, for both
    assert a[2] is not b[2]
    assert decoded(list(a)) == texts[0] and decoded(list(b)) == texts[1]


def test_a_compressor_is_kept_by_the_streams_at_it_not_by_the_one_before() -> None:
    start = StreamPacker(RETRY).start
    data, after = start.then(EVENTS[1])
    assert start.then(EVENTS[1]) == (data, after)
    gone = weakref.ref(after)
    del after
    gc.collect()
    assert gone() is None  # no stream at it: not kept
    again = start.then(EVENTS[1])  # worked out again, to the same bytes
    assert again[0] == data and isinstance(again[1], Packed)
