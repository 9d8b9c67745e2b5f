"""A connection's socket file that reads a request's head lines at C speed (issue 43).

cheroot reads from its sockets through ``_pyio``'s pure-Python ``BufferedReader`` (cheroot.makefile), and a request's
head line by line (its ``HeaderReader``, 256 bytes at most a call): each line a Python ``readline`` that peeks and
reads the buffer in small steps, the largest part of cheroot's own CPU on a request (a browser's POST has ten lines).
A phone sends its head in one packet, so after the first line the others are in the buffer already: such a line is
found there with ``bytes.find`` and taken at once. Anything else (no whole line in the buffer, a line longer than
asked for, a closed file) is ``_pyio``'s own ``readline``, as before. The buffer's fields are ``_pyio``'s, which
cheroot's own ``has_data`` reads too.
"""

from __future__ import annotations

from typing import Any

from cheroot.makefile import MakeFile, StreamReader


class LineReader(StreamReader):
    """cheroot's socket reader, a line already in its buffer taken at C speed."""

    def readline(self, size: int | None = -1) -> bytes:
        pyio: Any = self  # _pyio's BufferedReader, whose buffer's fields cheroot's type stubs leave out
        with pyio._read_lock:
            buffer, start = pyio._read_buf, pyio._read_pos
            end = buffer.find(b"\n", start) + 1
            if end and (size is None or size < 0 or end - start <= size) and not self.closed:
                pyio._read_pos = end
                self.bytes_read += end - start
                line: bytes = buffer[start:end]
                return line
        return bytes(super().readline(size))


def make_file(sock: Any, mode: str, bufsize: int) -> Any:
    """cheroot's ``MakeFile`` (as its connection calls it), with a :class:`LineReader` to read from."""
    return LineReader(sock, mode, bufsize) if "r" in mode else MakeFile(sock, mode, bufsize)
