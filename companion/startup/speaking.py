"""The command line's language: what ``companion run/demo/replay/games/check-board/simulate`` print to a person is
in the table's catalogue, said in one language chosen once per command (docs/languages.md):

1. the command's ``--language`` (``replay``, ``demo``);
2. else the config's ``language`` (``run``: the table's language, the OLED's and the terminal's alike);
3. else the environment's locale, as gettext reads it: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``
   (``de_DE.UTF-8`` is German; ``C``, ``POSIX`` or a language the table does not speak is English);
4. else English.

The help (``companion --help``, ``companion COMMAND --help``) is said in the same language: ``--language`` is
read from the command line before the parser is built (:func:`option_language`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from companion.words import LANGUAGES, SOURCE_LANGUAGE, Words

#: The environment's variables that name the locale of messages, in gettext's order (the first set one wins).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def environment_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment's locale names, if the table speaks it (``de_AT.UTF-8`` → ``de``)."""
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name)
        if value:
            language = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            return language if language in LANGUAGES else None
    return None


def option_language(argv: Sequence[str]) -> str | None:
    """The ``--language`` of a command line (``--language de`` or ``--language=de``) before it is parsed: the
    parser's help is said in the command's language, so that language is known before the parser is built."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--language" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--language="):
            return arg.partition("=")[2]
    return None


def chosen_language(option: str | None = None, config: str | None = None,
                    environ: Mapping[str, str] | None = None) -> str:
    """The command's language: its option, else the config's, else the environment's, else English."""
    for language in (option, config, environment_language(environ)):
        if language in LANGUAGES:
            return str(language)
    return SOURCE_LANGUAGE


def terminal_words(language: str) -> Words:
    """The words of the command line in ``language`` (English loads nothing); English when Babel, which the other
    languages need, is not installed (the simulator's install, ``pip install -e .``, has no table extra)."""
    try:
        return Words.for_language(language)
    except ImportError:
        return Words.for_language(SOURCE_LANGUAGE)
