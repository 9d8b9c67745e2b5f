"""The drivers' words for a person: :class:`~companion.said.Said` (a msgid and its arguments), an OSError's reason
said by its errno, and :class:`SaidError`, a part's failure that says itself."""

from __future__ import annotations

import errno
from collections.abc import Mapping

from companion.said import N_, Said, Saying

__all__ = ["N_", "Said", "SaidError", "reason"]


class SaidError(Saying, OSError):
    """A part's failure that says itself: :attr:`said` for a person (in the table's language), ``str()`` the
    detail for the log."""


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
    if isinstance(error, Saying):
        return error.said
    if isinstance(error, OSError) and error.errno is not None and error.errno in _OS_REASONS:
        return Said(_OS_REASONS[error.errno])
    return Said(N_("not working"))
