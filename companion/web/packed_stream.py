"""The live stream gzip'd, when the phone asks (``Accept-Encoding: gzip``: every browser does): one deflate stream
for the whole connection, each event flushed whole (``Z_SYNC_FLUSH``) so that it leaves at once and the browser
decodes it as it arrives.

A delta says much that the events before it said: its keys and paths, and each sentence twice (a new line of the
log and the text of a "Just now" line, in every language), beside a payment's names and reason. The compressor's
window (:data:`WINDOW_BITS`: the last 4 KB, a few events) turns each repeat into a few bytes, so a phone receives
about a sixth of the text (issue 43: ≤ 250 bytes per phone per ordinary action) while the view, the delta and the
page stay as they are; a client that does not ask (the tests' own, curl) gets the text as before.

Compressing costs a few microseconds an event; phones that have received the same bytes so far (the usual case:
they follow one game, seeing the same view) share it. A :class:`Packed` is a compressor after some text; what the
next text makes of it is worked out once, by the first stream that sends it, and the next streams take the same
bytes and the same compressor after them (each compressor is copied before it is used, never changed). A compressor
is kept by the streams at it alone (the one before holds it weakly): a slow phone keeps one, never the chain of
every event the others have had since.
"""

from __future__ import annotations

import threading
import weakref
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator

WINDOW_BITS = 12  # 4 KB: a delta's repeats are in the last few events; more costs memory and copying, for little
MEMORY_LEVEL = 4  # zlib's memLevel: ~16 KB a compressor (the default, 8, ~270 KB, and so much slower to copy)
LEVEL = 6
GZIP = 16  # added to the window's bits: a gzip header and trailer, as ``Content-Encoding: gzip`` says
KEPT_BRANCHES = 8  # the texts a compressor keeps what it made of (streams seeing other views, or just opened)


class Packed:
    """A compressor after some text; :meth:`then` gives the bytes the next text becomes, and the compressor after
    it, once for every stream at this point that sends the same text."""

    __slots__ = ("_compressor", "_next", "_lock", "__weakref__")

    def __init__(self, compressor: zlib._Compress) -> None:
        self._compressor = compressor
        self._next: OrderedDict[str, tuple[bytes, weakref.ref[Packed]]] = OrderedDict()
        self._lock = threading.Lock()

    def then(self, text: str) -> tuple[bytes, Packed]:
        """``text`` compressed and flushed after what this compressor has had, and the compressor after it."""
        found = self._next.get(text)  # without the lock: the streams after the first only look (a dict's get is atomic)
        after = found[1]() if found is not None else None
        if found is not None and after is not None:
            return found[0], after
        with self._lock:
            found = self._next.get(text)  # the streams that came while the first was compressing it
            after = found[1]() if found is not None else None
            if found is not None and after is not None:
                return found[0], after
            compressor = self._compressor.copy()
            data = compressor.compress(text.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)
            after = Packed(compressor)
            self._next[text] = (data, weakref.ref(after))
            if len(self._next) > KEPT_BRANCHES:
                self._next.popitem(last=False)
            return data, after


def deflating() -> Packed:
    """Where every compressed websocket starts (permessage-deflate, RFC 7692): the same compressor as a stream's,
    raw (no gzip header); each event flushed whole, as the extension's messages are."""
    return Packed(zlib.compressobj(LEVEL, zlib.DEFLATED, -WINDOW_BITS, MEMORY_LEVEL))


class StreamPacker:
    """Where every gzip'd stream starts: the gzip header and the stream's first text, the same for all."""

    def __init__(self, first: str) -> None:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, GZIP + WINDOW_BITS, MEMORY_LEVEL)
        self.head = compressor.compress(first.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)
        self.first = first
        self.start = Packed(compressor)

    def packed(self, texts: Iterable[str]) -> Iterator[bytes]:
        """``texts`` (a stream's events, the first of which is :attr:`first`) gzip'd, each flushed whole. The
        stream never ends with a trailer: it ends when the phone goes, and the browser reads what came."""
        texts = iter(texts)
        if next(texts, None) != self.first:
            raise ValueError("a packed stream begins with the packer's first text")
        yield self.head
        at = self.start
        for text in texts:
            data, at = at.then(text)
            yield data
