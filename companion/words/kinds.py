"""How an engine message's argument is said, by its placeholder's name (the shared plan of issue 41).

The table and its matching rule are the engine's (``companion.engine.messages``: a placeholder's name, or the name
cut at its last ``_`` or digit, to its kind); this module only names them for the words' room.
"""

from __future__ import annotations

from companion.engine.messages import ARG_KINDS, arg_kind

__all__ = ["ARG_KINDS", "arg_kind"]
