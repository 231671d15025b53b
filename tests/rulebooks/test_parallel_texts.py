"""The three languages of a book are read side by side, section against section, so they match.

A section has the same shape in en, hu and pl: as many sub-headings, list items, table rows and
examples, and as many site notes. A list that one language turns into a table, a numbered list
in one language where the others have bullets, or a note on an unreadable spot that one
language lacks, each leave a reader comparing two columns unsure whether the rules differ.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rulebooks.importers import CONTENT_DIR, SECTION_HEADING

LANGUAGES = ["en", "hu", "pl"]
SLUGS = ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"]

# Notes that only some languages have, by (book, section): the languages that have one more
# note there than the others, and why.
TRANSLATED = "a translation says what it was translated from"
EXTRA_NOTES: dict[tuple[str, str], tuple[set[str], str]] = {
    ("akropolis", "overview"): ({"en", "pl"}, TRANSLATED),
    ("babylon", "overview"): ({"en"}, TRANSLATED),
    ("hanging-gardens", "overview"): ({"hu", "pl"}, TRANSLATED),
    ("tower-of-babel", "overview"): ({"en", "pl"}, TRANSLATED),
    ("tower-of-babel", "setup"): (
        {"hu"},
        "the Hungarian scan reads 'oszlopát' where the piece is a tower; the translations call "
        "the piece a column and have no misreading to explain",
    ),
}


def shape(text: str) -> dict[str, Counter[str]]:
    """What each section is made of: sub-headings, list items, table rows, examples, notes."""
    sections: dict[str, Counter[str]] = {}
    key = ""
    for line in text.splitlines():
        if heading := SECTION_HEADING.match(line):
            key = heading["key"]
            sections[key] = Counter()
            continue
        if not key:
            continue
        parts = sections[key]
        if line.startswith("> [!site]"):
            parts["site note"] += 1
        elif line.startswith(">"):
            continue
        elif re.match(r"#{3,6} ", line):
            parts[f"heading {line.split()[0]}"] += 1
        elif match := re.match(r"(\s*)(?:[-*]|\d+\.) ", line):
            kind = "numbered" if re.match(r"\s*\d", line) else "bulleted"
            parts[f"{kind} item, depth {len(match.group(1)) // 2}"] += 1
        elif line.startswith("|"):
            parts["table row"] += 1
        elif re.match(r"\*[^*\s]", line):
            parts["example"] += 1
    return sections


def book_shapes(slug: str) -> dict[str, dict[str, Counter[str]]]:
    shapes = {
        language: shape((CONTENT_DIR / slug / f"{language}.md").read_text(encoding="utf-8"))
        for language in LANGUAGES
    }
    for (book, key), (languages, _why) in EXTRA_NOTES.items():
        if book == slug:
            for language in languages:
                shapes[language][key]["site note"] -= 1
    return shapes


def differences(shapes: dict[str, dict[str, Counter[str]]]) -> list[str]:
    found = []
    for key, english in shapes["en"].items():
        for language in LANGUAGES[1:]:
            other = shapes[language].get(key, Counter())
            for part in sorted(set(english) | set(other)):
                if english[part] != other[part]:
                    found.append(f"{key}: {part}: en {english[part]}, {language} {other[part]}")
    return found


@pytest.mark.parametrize("slug", SLUGS)
def test_every_section_has_the_same_shape_in_every_language(slug: str) -> None:
    assert differences(book_shapes(slug)) == []


def test_the_excused_notes_exist() -> None:
    for (slug, key), (languages, why) in EXTRA_NOTES.items():
        assert why
        for language in languages:
            text = (CONTENT_DIR / slug / f"{language}.md").read_text(encoding="utf-8")
            assert shape(text)[key]["site note"] >= 1, (slug, language, key)


def test_a_table_for_a_list_and_numbers_for_bullets_are_found() -> None:
    english = shape(
        "## Groups {#groups}\n\n| size | tiles |\n|---|---|\n| 3 | column 1 |\n\n"
        "## Setup {#setup}\n\n1. Deal the discs.\n2. Place the marker.\n"
    )
    hungarian = shape(
        "## Csoportok {#groups}\n\n- 3 mező: 1. oszlop\n\n"
        "## Előkészületek {#setup}\n\n- Osszátok ki a korongokat.\n- Tegyétek le a jelzőt.\n"
    )
    polish = shape(
        "## Grupy {#groups}\n\n- 3 pola: kolumna 1\n\n"
        "## Przygotowanie {#setup}\n\n- Rozłóżcie krążki.\n- Połóżcie wskaźnik.\n\n"
        "*Przykład: wskaźnik.*\n\n> [!site] Uwaga.\n"
    )
    found = differences({"en": english, "hu": hungarian, "pl": polish})
    assert "groups: table row: en 3, hu 0" in found
    assert "setup: numbered item, depth 0: en 2, hu 0" in found
    assert "setup: example: en 0, pl 1" in found
    assert "setup: site note: en 0, pl 1" in found
