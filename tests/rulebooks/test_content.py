"""The shipped rulebook texts: all twelve exist and are complete, and the site's words are marked.

Every book is read in three languages, section against section, so each text must have every
section of its book, in order, and keep the original's numbers (component counts, points). The
numbers below were read off the club's originals in ``shared/rulebooks/`` by hand.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rulebooks.importers import CONTENT_DIR, SECTION_HEADING, import_all
from rulebooks.models import Revision, SectionText
from rulebooks.services import out_of_date

LANGUAGES = ["en", "hu", "pl"]
SLUGS = ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"]
TEXTS = [(slug, language) for slug in SLUGS for language in LANGUAGES]

# Numbers printed in the originals that a faithful text in any language keeps.
ORIGINAL_NUMBERS = {
    # akropolis.hu.txt: 61 city tiles, 4 starting tiles, 40 stones, 11 stacks of 3/4/5 tiles,
    # 19 or 14 stacks for a longer game, 6 tiles on the site with 4 players, the houses example
    # (9, 27), the houses variant (10 or more).
    "akropolis": [61, 4, 40, 11, 3, 5, 19, 14, 6, 9, 27, 10],
    # babylon.hu.txt and babylon.pl.txt: the component list, 16 tiles per layer, 64 notches,
    # 6 storage spaces, 14/12/10 round tokens, 15/13/11 rounds, stairs between levels 2 and 3
    # score 5.
    "babylon": [4, 48, 148, 60, 38, 15, 14, 16, 64, 6, 12, 10, 13, 11, 5],
    # hanging-gardens.en.txt: 60 building cards, 4 start cards, 49 point tiles (44 series,
    # 5 person), 20 temples, the series counts 6/10/8, garden 2/8/16 and 16 + 8 = 24,
    # gardener 3/11, the 7-section group.
    "hanging-gardens": [60, 4, 49, 44, 5, 20, 6, 10, 8, 2, 16, 24, 3, 11, 7],
    # tower-of-babel.hu.txt: 20 building parts (15 small, 5 large), 28 discs (24 without the
    # two-type ones), 100 building cards (25 of each), 8 wonders, 15 action cards, the
    # examples' 8/4/3 points and the 20 + 5 = 25 disc bonus.
    "tower-of-babel": [20, 15, 5, 28, 24, 100, 25, 8, 4, 3],
}

# Words that mark a sentence as the site's own (a note, a reconstruction, a reading). Outside a
# "> [!site]" note none of them may appear in italics or in parentheses.
SITE_WORDS = {
    "en": ["this site", "site's", "our copy", "our source", "reconstruct", "cannot be read"],
    "hu": ["az oldal", "olvasat", "pótoltuk", "olvashatatlan", "nem olvasható", "hiányzik"],
    "pl": ["serwis", "nasz egzemplarz", "odtworz", "nieczyteln", "strona "],
}
ITALIC = re.compile(r"(?<![*\w])\*(?!\*)(.+?)(?<!\*)\*(?![*\w])")
PARENTHESES = re.compile(r"\(([^()]*)\)")


def book(slug: str) -> dict:
    return json.loads((CONTENT_DIR / slug / "book.json").read_text(encoding="utf-8"))


def text_path(slug: str, language: str) -> Path:
    return CONTENT_DIR / slug / f"{language}.md"


def outside_site_notes(text: str) -> str:
    """The text without its blockquotes: what is left must be the original's words only."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(">"))


@pytest.mark.parametrize(("slug", "language"), TEXTS)
def test_every_rulebook_exists_in_every_language(slug: str, language: str) -> None:
    assert text_path(slug, language).is_file(), f"{slug}/{language}.md is missing"


@pytest.mark.parametrize(("slug", "language"), TEXTS)
def test_every_text_has_every_section_once_in_the_books_order(slug: str, language: str) -> None:
    text = text_path(slug, language).read_text(encoding="utf-8")
    keys = [m["key"] for line in text.splitlines() if (m := SECTION_HEADING.match(line))]
    assert keys == book(slug)["sections"]


@pytest.mark.parametrize(("slug", "language"), TEXTS)
def test_every_text_starts_with_the_books_title_in_its_language(slug: str, language: str) -> None:
    first_line = text_path(slug, language).read_text(encoding="utf-8").splitlines()[0]
    assert first_line == f"# {book(slug)['titles'][language]}"


@pytest.mark.parametrize(("slug", "language"), TEXTS)
def test_the_originals_numbers_appear_in_every_text(slug: str, language: str) -> None:
    text = text_path(slug, language).read_text(encoding="utf-8")
    missing = [n for n in ORIGINAL_NUMBERS[slug] if not re.search(rf"(?<!\d){n}(?!\d)", text)]
    assert missing == []


@pytest.mark.parametrize(("slug", "language"), TEXTS)
def test_the_sites_words_appear_only_in_site_notes(slug: str, language: str) -> None:
    text = text_path(slug, language).read_text(encoding="utf-8")
    original = outside_site_notes(text)
    spans = ITALIC.findall(original) + PARENTHESES.findall(original)
    flagged = [
        span for span in spans if any(word in span.casefold() for word in SITE_WORDS[language])
    ]
    assert flagged == []
    assert "[!site]" not in original
    for line in text.splitlines():
        if "[!site]" in line:
            assert re.match(r"^\s*> \[!site\]", line), line


def test_the_lists_of_site_words_catch_the_old_forms() -> None:
    """The check above would have failed on the texts before the one marked form."""
    old = (
        "- for each edge *(this site's reading: a neighbouring stack dug out)*;\n"
        "*The picture of this example is missing; this quarry is reconstructed.*"
    )
    spans = ITALIC.findall(outside_site_notes(old)) + PARENTHESES.findall(old)
    assert [s for s in spans if any(w in s.casefold() for w in SITE_WORDS["en"])]
    assert not ITALIC.findall(outside_site_notes("> [!site] *This site's reading.*"))


@pytest.mark.django_db
def test_every_translation_is_imported_as_made_from_the_shipped_source() -> None:
    import_all()
    texts = SectionText.objects.select_related("section__rulebook", "source_revision__text")
    translations = [t for t in texts if t.language != t.section.rulebook.source_language]
    assert translations
    for text in translations:
        source = text.source_revision
        assert source is not None, f"{text} is not marked as a translation"
        assert source.origin == Revision.Origin.IMPORT
        assert source.text.language == text.section.rulebook.source_language
        assert source.text.section_id == text.section_id
        assert not out_of_date(text, source.text)


@pytest.mark.django_db
def test_a_translation_shipped_later_goes_out_of_date_when_its_source_changes(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "content" / "babylon"
    shutil.copytree(CONTENT_DIR / "babylon", folder)
    polish = (folder / "pl.md").read_text(encoding="utf-8")
    (folder / "pl.md").unlink()
    import_all(folder.parent)

    (folder / "pl.md").write_text(polish, encoding="utf-8")
    import_all(folder.parent)
    overview = SectionText.objects.get(section__key="overview", language="pl")
    assert overview.source_revision is not None
    source = SectionText.objects.get(section__key="overview", language="hu")
    assert not out_of_date(overview, source)

    hungarian = (folder / "hu.md").read_text(encoding="utf-8")
    (folder / "hu.md").write_text(
        hungarian.replace("## Bevezetés {#overview}\n", "## Bevezetés {#overview}\n\nÚj sor.\n"),
        encoding="utf-8",
    )
    import_all(folder.parent)
    overview.refresh_from_db()
    source.refresh_from_db()
    assert source.body.startswith("Új sor.")
    assert out_of_date(overview, source)
