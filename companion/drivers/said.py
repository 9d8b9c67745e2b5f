"""What a driver tells a person, as data: a msgid of the table's catalogue and its arguments, never a sentence.

A driver cannot know the table's language (it imports no face and no words): it reports a fault as
``Said(N_("die {die} read {value}, not a face: roll again"), {"die": "A", "value": 7})`` and the face says it with
its words (``Words.said``), an argument that is itself a :class:`Said` said in its turn. ``str()`` is the English,
for the log. :func:`N_` marks a msgid for ``pybabel extract`` (the table's catalogue, babel-table.cfg).
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(msgid: str) -> str:  # noqa: N802 - gettext's name for "marked for extraction"
    """A msgid of the table's catalogue, marked for extraction; returned as it is."""
    return msgid


@dataclass(frozen=True)
class Said:
    """A msgid (an English ``str.format`` template) and its arguments: a value, or a :class:`Said` in its turn."""

    msg: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.msg.format(**{name: str(value) for name, value in self.args.items()}) if self.args else self.msg


class SaidError(OSError):
    """A part's failure that says itself: :attr:`said` for a person (in the table's language), ``str()`` the
    detail for the log."""

    def __init__(self, said: Said, detail: str | None = None) -> None:
        super().__init__(detail or str(said))
        self.said = said


#: The OS's reasons a part fails for, as the C library says them in small letters ("input/output error"); another
#: error is "not working" (its own words, a library's English, go to the log).
_OS_REASONS: Mapping[int, str] = {
    errno.EIO: N_("input/output error"),
    errno.ENOENT: N_("no such file or directory"),
    errno.ENODEV: N_("no such device"),
    errno.ENXIO: N_("no such device or address"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EBUSY: N_("device or resource busy"),
    errno.ETIMEDOUT: N_("connection timed out"),
    errno.EREMOTEIO: N_("remote i/o error"),
}


def reason(error: BaseException) -> Said:
    """A short reason for the OLED: a :class:`SaidError`'s own, the OS's words for a known OSError, else "not
    working" (the error's own words, a library's English, are the log's)."""
    if isinstance(error, SaidError):
        return error.said
    if isinstance(error, OSError) and error.errno is not None and error.errno in _OS_REASONS:
        return Said(_OS_REASONS[error.errno])
    return Said(N_("not working"))
