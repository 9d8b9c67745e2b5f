"""Which language a person gets: the browser's ``Accept-Language`` negotiated with Babel against the table's."""

from __future__ import annotations

from .catalogue import LANGUAGES, SOURCE_LANGUAGE


def parse_accept_language(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (``q=0`` ones dropped, ``*`` ignored)."""
    wanted: list[tuple[float, int, str]] = []
    for order, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            wanted.append((-quality, order, tag))
    return [tag for _, _, tag in sorted(wanted)]


def negotiate(header: str | None, default: str = SOURCE_LANGUAGE) -> str:
    """The table's language that best suits an ``Accept-Language`` header (``de-AT,de;q=0.9`` → ``de``), else
    ``default`` (the table's own language)."""
    from babel.core import negotiate_locale  # the phone page's extra brings Babel

    preferred = parse_accept_language(header)
    # Babel takes "de-AT" as "de" when the region's own is not offered.
    return negotiate_locale([t.replace("_", "-") for t in preferred], LANGUAGES, sep="-") or default


def language_name(language: str) -> str:
    """A language's own name, as its speakers write it ("Deutsch", "Français", "Español", "English")."""
    from babel import Locale

    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]
