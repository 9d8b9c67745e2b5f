"""The heads' line reader reads what cheroot's own reader reads, line for line, byte for byte, however the bytes
arrive (companion.web.line_reader)."""

from __future__ import annotations

import socket
import threading

from cheroot.makefile import StreamReader
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.web.line_reader import LineReader

#: Lines as a head has them (some longer than cheroot's 256-byte steps, some without their end), cut anywhere.
LINES = st.lists(st.binary(max_size=600).map(lambda b: b.replace(b"\n", b"")).flatmap(
    lambda line: st.sampled_from([line + b"\r\n", line + b"\n", line])), max_size=12)


def read_all(reader_class: type[StreamReader], pieces: list[bytes], sizes: list[int | None]) -> tuple[list[bytes], int]:
    """Every line ``reader_class`` reads from a socket the pieces are sent to one by one (``readline(size)`` with
    each of ``sizes`` in turn, as cheroot's ``SizeCheckWrapper`` asks for 256 bytes), and its count of bytes read."""
    ours, theirs = socket.socketpair()
    sender = threading.Thread(target=lambda: ([theirs.sendall(p) for p in pieces], theirs.shutdown(socket.SHUT_WR)))
    sender.start()
    reader = reader_class(ours, "rb", 8192)
    lines, turn = [], 0
    while line := reader.readline(sizes[turn % len(sizes)]):
        lines.append(line)
        turn += 1
    sender.join()
    count = reader.bytes_read
    reader.close()
    ours.close()
    theirs.close()
    return lines, count


@settings(max_examples=60, deadline=None)
@given(LINES, st.lists(st.integers(min_value=1, max_value=700), max_size=6),
       st.lists(st.sampled_from([256, None, -1, 1, 5, 1000]), min_size=1, max_size=3))
def test_the_line_reader_reads_what_cheroots_reader_reads(lines: list[bytes], cuts: list[int],
                                                            sizes: list[int | None]) -> None:
    data = b"".join(lines)
    pieces, start = [], 0
    for cut in sorted(set(cuts)):
        if start < cut < len(data):
            pieces.append(data[start:cut])
            start = cut
    pieces.append(data[start:])
    assert read_all(LineReader, pieces, sizes) == read_all(StreamReader, pieces, sizes)


def test_a_head_sent_in_one_packet_is_read_line_by_line() -> None:
    head = b"POST /api/input HTTP/1.1\r\nHost: 10.0.0.1\r\nContent-Length: 2\r\n\r\n{}"
    lines, count = read_all(LineReader, [head], [256])
    assert lines == [b"POST /api/input HTTP/1.1\r\n", b"Host: 10.0.0.1\r\n", b"Content-Length: 2\r\n", b"\r\n", b"{}"]
    assert count == len(head)
