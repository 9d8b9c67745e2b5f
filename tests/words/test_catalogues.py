"""The catalogues are complete and made by the tools: each template is what ``pybabel extract`` finds in the code
now (docs/languages.md's command), every msgid has its translation in German, French and Spanish (none empty, none
fuzzy: no screen falls back to English), with the same placeholders, and a translation fits where its English did
(a string that fits one OLED row still does)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from companion.words import LANGUAGES, SOURCE_LANGUAGE

ROOT = Path(__file__).parents[2]
LOCALES = ROOT / "companion" / "words" / "locales"
#: The extraction of each domain this branch makes (the engine's is the engine's own).
EXTRACT = {
    "table": ["-F", "babel-table.cfg", "-k", "t", "-k", "N_", "-k", "nt:1,2", "-k", "said", "--no-default-keywords"],
    "page": ["-F", "babel-page.cfg", "-k", "t", "-k", "nt:1,2", "-k", "N_", "--no-default-keywords"],
}
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
ROW = 25  # characters of one small OLED row
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def catalogue(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def ids(cat: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}


@pytest.mark.parametrize("domain", sorted(EXTRACT))
def test_the_template_is_what_pybabel_extract_finds(tmp_path: Path, domain: str) -> None:
    out = tmp_path / f"{domain}.pot"
    subprocess.run([sys.executable, "-c", "from babel.messages.frontend import main; main()", "extract",
                    *EXTRACT[domain], "-o", str(out), "."], cwd=ROOT, check=True, capture_output=True)
    assert ids(catalogue(out)) == ids(catalogue(LOCALES / f"{domain}.pot"))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", sorted(EXTRACT))
def test_every_msgid_is_translated(domain: str, language: str) -> None:
    template = catalogue(LOCALES / f"{domain}.pot")
    translated = catalogue(LOCALES / language / "LC_MESSAGES" / f"{domain}.po", language)
    problems = []
    for message in template:
        if not message.id:
            continue
        found = translated.get(message.id)
        strings = () if found is None else found.string if isinstance(found.string, tuple) else (found.string,)
        if found is None or found.fuzzy or not all(strings):
            problems.append(message.id)
            continue
        want = set(PLACEHOLDER.findall(message.id if isinstance(message.id, str) else message.id[1]))
        for text in strings:
            if set(PLACEHOLDER.findall(text)) - want - {"n"} or \
                    (want - {"n"} - set(PLACEHOLDER.findall(text))):
                problems.append(f"{message.id!r}: placeholders {PLACEHOLDER.findall(text)} for {sorted(want)}")
    assert not problems, problems[:10]
    assert ids(translated) <= ids(template), sorted(ids(translated) - ids(template))[:5]  # nothing obsolete


#: The words of a row that is never wrapped: a hint names a button, a title is in capitals.
BUTTONS = re.compile(r"\b(YES|NO|ROLL|MENU|NEXT|PREV)\b|^< >")


def one_row(msgid: str) -> bool:
    """A msgid drawn on one row of its own (a hint, a title), never wrapped: its translation must fit that row."""
    fixed = not PLACEHOLDER.search(msgid)
    return fixed and len(msgid) <= ROW and (bool(BUTTONS.search(msgid)) or msgid.isupper())


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_hint_or_title_fits_its_row(language: str) -> None:
    translated = catalogue(LOCALES / language / "LC_MESSAGES" / "table.po", language)
    too_long = [(m.id, m.string) for m in translated if isinstance(m.id, str) and m.id and one_row(m.id)
                and len(m.string) > ROW]
    assert not too_long, too_long
