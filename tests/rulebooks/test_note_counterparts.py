"""What a translation's notes tell its reader, the original-language text tells its reader too.

A translation is written from the club's original and adds the site's notes (a reconstructed
picture, a reading, a missing number) where the original needs them, so the original needs them
just as much. Every ``> [!site]`` note of a translation must have a counterpart, a note in the
same section of every original-language text of the book, or a reason recorded below why not.

Within a section the notes are paired in order of appearance, so an original needs at least as
many notes in a section as any translation has there (an original may have more: notes on its
own scan, such as an unreadable word).
"""

from __future__ import annotations

import json
import re

import pytest

from rulebooks.importers import CONTENT_DIR, SECTION_HEADING

LANGUAGES = ["en", "hu", "pl"]
SLUGS = ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"]
NOTE = re.compile(r"^> \[!site\]\s*(.*)$")

# Notes of a translation that have no counterpart in the original, by (book, language, section),
# with the note's opening words (so that the reason cannot outlive the note) and the reason.
TRANSLATED_FROM = (
    "A translation says what it was translated from and how it names things; the original is "
    "not translated from anything."
)
NO_COUNTERPART: dict[tuple[str, str, str], tuple[str, str]] = {
    ("akropolis", "en", "overview"): ("This English text was written", TRANSLATED_FROM),
    ("akropolis", "pl", "overview"): ("Ten polski tekst przygotował", TRANSLATED_FROM),
    ("babylon", "en", "overview"): ("This English text is translated", TRANSLATED_FROM),
    ("hanging-gardens", "hu", "overview"): ("Ezt a magyar szöveget", TRANSLATED_FROM),
    ("hanging-gardens", "pl", "overview"): ("Ten polski tekst przetłumaczył", TRANSLATED_FROM),
    ("tower-of-babel", "en", "overview"): ("This English text was written", TRANSLATED_FROM),
    ("tower-of-babel", "pl", "overview"): ("Ten polski tekst przygotował", TRANSLATED_FROM),
}


def book(slug: str) -> dict:
    return json.loads((CONTENT_DIR / slug / "book.json").read_text(encoding="utf-8"))


def notes_by_section(text: str) -> dict[str, list[str]]:
    """The opening line of every site note, by the key of the section it is in."""
    notes: dict[str, list[str]] = {}
    key = ""
    for line in text.splitlines():
        if heading := SECTION_HEADING.match(line):
            key = heading["key"]
        elif note := NOTE.match(line):
            notes.setdefault(key, []).append(note.group(1))
    return notes


def notes(slug: str, language: str) -> dict[str, list[str]]:
    path = CONTENT_DIR / slug / f"{language}.md"
    return notes_by_section(path.read_text(encoding="utf-8"))


def missing_counterparts(
    translation: dict[str, list[str]],
    original: dict[str, list[str]],
    excused: dict[str, str],
) -> list[str]:
    """The notes of ``translation`` left without a counterpart in ``original``.

    ``excused`` maps a section to the opening words of its one note that needs none.
    """
    missing = []
    for key, found in translation.items():
        wanted = [note for note in found if not (key in excused and note.startswith(excused[key]))]
        have = original.get(key, [])
        missing += [f"{key}: {note[:70]}" for note in wanted[len(have) :]]
    return missing


TRANSLATIONS = [
    (slug, language)
    for slug in SLUGS
    for language in LANGUAGES
    if language not in book(slug)["originals"]
]


def test_the_books_have_twelve_texts_of_which_seven_are_translations() -> None:
    originals = {slug: book(slug)["originals"] for slug in SLUGS}
    assert originals == {
        "akropolis": ["hu"],
        "babylon": ["hu", "pl"],
        "hanging-gardens": ["en"],
        "tower-of-babel": ["hu"],
    }
    assert len(TRANSLATIONS) == 7


@pytest.mark.parametrize(("slug", "language"), TRANSLATIONS)
def test_every_note_of_a_translation_has_its_counterpart_in_the_originals(
    slug: str, language: str
) -> None:
    excused = {
        key: opening
        for (s, lang, key), (opening, _why) in NO_COUNTERPART.items()
        if (s, lang) == (slug, language)
    }
    for original in book(slug)["originals"]:
        assert missing_counterparts(notes(slug, language), notes(slug, original), excused) == [], (
            f"{slug}/{original}.md lacks notes that {slug}/{language}.md has"
        )


@pytest.mark.parametrize(("slug", "language"), TRANSLATIONS)
def test_every_translation_opens_with_a_note_saying_what_it_is_translated_from(
    slug: str, language: str
) -> None:
    opening, _why = NO_COUNTERPART[(slug, language, "overview")]
    assert notes(slug, language)["overview"][0].startswith(opening)


def test_every_recorded_reason_belongs_to_a_note_of_a_translation() -> None:
    for (slug, language, key), (opening, why) in NO_COUNTERPART.items():
        assert (slug, language) in TRANSLATIONS
        assert why
        found = [note for note in notes(slug, language).get(key, []) if note.startswith(opening)]
        assert len(found) == 1, (slug, language, key, opening)


def test_a_missing_note_is_found_and_an_original_may_have_more() -> None:
    translation = notes_by_section(
        "## Overview {#overview}\n\n> [!site] Translated from the Hungarian.\n\n"
        "## Setup {#setup}\n\n> [!site] The picture is missing.\n\n> [!site] Nothing removed.\n"
    )
    original = notes_by_section(
        "## Bevezetés {#overview}\n\nSzöveg.\n\n## Előkészületek {#setup}\n\n"
        "> [!site] Az ábra hiányzik.\n"
    )
    excused = {"overview": "Translated from"}
    assert missing_counterparts(translation, original, excused) == ["setup: Nothing removed."]
    assert missing_counterparts(translation, original, {}) == [
        "overview: Translated from the Hungarian.",
        "setup: Nothing removed.",
    ]
    assert missing_counterparts(original, translation, {}) == []
