"""Words: what the adapters say, in the language of the person who reads it (issue 41).

The engine gives events, prompts and rejections as messages (an English msgid and its arguments); the face, the
voice, the command line and the phone page say them through a :class:`Words` for one language and one board: its
gettext catalogues (domains ``engine``, ``table`` and ``page``, under ``locales/``), Babel's numbers, money and
lists for the locale, and the board's own names for its spaces and cards (a ``[names.<lang>]`` table). This room
depends on the engine only (board data); the face, the phone page, the start-up and the command line use it.
"""

from __future__ import annotations

from .catalogue import DOMAINS, LANGUAGES, SOURCE_LANGUAGE, catalogue_path, translations
from .choose import language_name, negotiate, parse_accept_language
from .words import ENGLISH, N_, Words

__all__ = ["DOMAINS", "ENGLISH", "N_", "LANGUAGES", "SOURCE_LANGUAGE", "Words", "catalogue_path", "language_name", "negotiate",
           "parse_accept_language", "translations"]
