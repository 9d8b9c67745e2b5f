"""What a part of the table tells a person, as data: a msgid of the table's catalogue and its arguments, never a
sentence.

The rooms below the face (the drivers, the network) cannot know the table's language (they import no face and no
words): they report ``Said(N_("die {die} read {value}, not a face: roll again"), {"die": "A", "value": 7})`` and the
face says it with its words (``Words.told``), an argument that is itself a :class:`Said` said in its turn. ``str()``
is the English, for the log. :func:`N_` marks a msgid for ``pybabel extract`` (the table's catalogue,
babel-table.cfg). Shared like ``companion.errors``: it imports nothing of the companion's.
"""

from __future__ import annotations

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


class Saying:
    """An error that says itself to a person: :attr:`said` (said in the table's language); ``str()`` is the detail
    for the log (the English of :attr:`said` unless another is given). Mixed into a room's own error classes."""

    said: Said

    def __init__(self, said: Said, detail: str | None = None) -> None:
        super().__init__(detail or str(said))  # type: ignore[call-arg]  # the error class it is mixed into
        self.said = said
