"""The gettext catalogues, read from their ``.po`` files once per process and language.

The ``.po`` files under ``locales/<lang>/LC_MESSAGES/<domain>.po`` are the only form kept: Babel reads one and
writes its compiled ``.mo`` form in memory, which :class:`babel.support.Translations` (gettext's own class)
loads. No build step makes ``.mo`` files, so an editable install, a wheel and the source tree say the same, and a
translator's edit shows at the next start. The cost is paid once per language and domain (docs/languages.md has
the figures: a few milliseconds on this machine).
"""

from __future__ import annotations

import functools
from importlib import resources
from io import BytesIO
from pathlib import Path

from gettext import NullTranslations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.support import Translations

#: The languages the table speaks: English is the source (the msgids are English), the others are translations.
SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "de", "fr", "es")
#: The engine's messages (events, prompts, rejections), the table's (OLED, voice, command line, the web server's
#: own), and the phone page's (its scripts and template).
DOMAINS = ("engine", "table", "page")


def catalogue_path(language: str, domain: str) -> Path:
    """Where the ``.po`` file of one language and domain lives (``en`` has none: its msgids are its words)."""
    folder = resources.files("companion.words").joinpath("locales", language, "LC_MESSAGES", f"{domain}.po")
    return Path(str(folder))


@functools.lru_cache(maxsize=None)
def translations(language: str) -> NullTranslations:
    """Every domain's catalogue of ``language`` merged into one gettext object (the msgids of the domains never
    clash: they are the English words, the same words mean the same). English: the msgids themselves, with no
    Babel (the simulator and the command line in English need no extra package)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    if language == SOURCE_LANGUAGE:
        return NullTranslations()
    from babel.messages.mofile import write_mo  # the languages beyond English come with the table's extra
    from babel.messages.pofile import read_po
    from babel.support import Translations

    merged: Translations | None = None
    for domain in DOMAINS:
        path = catalogue_path(language, domain)
        if not path.is_file():
            continue
        with path.open("rb") as po:
            catalog = read_po(po, locale=language, domain=domain)
        compiled = BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        loaded = Translations(compiled, domain=domain)
        if merged is None:
            merged = loaded
        else:
            merged.merge(loaded)
    return merged if merged is not None else NullTranslations()
