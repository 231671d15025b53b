from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from accounts.models import User
from rulebooks import services
from rulebooks.importers import CONTENT_DIR, SECTION_HEADING, import_all
from rulebooks.models import GlossaryTerm, Revision, Rulebook, Section, SectionText, SiteNote

SLUGS = ["akropolis", "babylon", "hanging-gardens", "tower-of-babel"]


def snapshot() -> dict[str, list[tuple]]:
    """Everything an import writes that a reader or an editor would notice changing."""
    return {
        "revisions": list(
            Revision.objects.order_by("pk").values_list("pk", "text_id", "number", "title", "body")
        ),
        "texts": list(
            SectionText.objects.order_by("pk").values_list(
                "pk", "revision_number", "title", "body", "source_revision_id"
            )
        ),
        "rulebooks": list(
            Rulebook.objects.order_by("pk").values_list(
                "pk", "slug", "titles", "originals", "source_language", "order"
            )
        ),
        # Section order is what lines the languages up and fills the table of contents.
        "sections": list(
            Section.objects.order_by("rulebook__slug", "order", "key").values_list(
                "pk", "rulebook__slug", "key", "order"
            )
        ),
        # The "How this site plays it" box.
        "site_notes": list(
            SiteNote.objects.order_by("pk").values_list("pk", "rulebook_id", "language", "body")
        ),
    }


@pytest.mark.django_db
def test_import_loads_every_rulebook_with_site_box_and_glossary() -> None:
    call_command("import_rulebooks")
    assert sorted(Rulebook.objects.values_list("slug", flat=True)) == SLUGS
    for book in Rulebook.objects.all():
        assert book.sections.count() > 5
        assert set(SiteNote.objects.filter(rulebook=book).values_list("language", flat=True)) == {
            "en",
            "hu",
            "pl",
        }
        assert book.glossary.count() > 10
        # Every rulebook can be read in English.
        assert SectionText.objects.filter(section__rulebook=book, language="en").count() == (
            book.sections.count()
        )


@pytest.mark.django_db
def test_importing_twice_changes_nothing() -> None:
    call_command("import_rulebooks")
    before = snapshot()
    terms = list(GlossaryTerm.objects.order_by("pk").values())
    call_command("import_rulebooks")
    after = snapshot()
    for part, rows in before.items():
        assert rows, f"the import wrote no {part}"
        assert after[part] == rows, part
    assert list(GlossaryTerm.objects.order_by("pk").values()) == terms


@pytest.mark.parametrize("slug", SLUGS)
def test_sections_line_up_across_languages(slug: str) -> None:
    folder = CONTENT_DIR / slug
    keys = json.loads((folder / "book.json").read_text())["sections"]
    languages = [p.stem for p in folder.glob("??.md")]
    assert "en" in languages
    for language in languages:
        text = (folder / f"{language}.md").read_text()
        found = [m["key"] for line in text.splitlines() if (m := SECTION_HEADING.match(line))]
        assert found == keys, f"{slug}/{language}.md"


@pytest.mark.django_db
def test_glossary_has_every_term_in_every_language(rulebooks: None) -> None:
    pillar = GlossaryTerm.objects.get(rulebook__slug="babylon", key="pillar")
    terms = tuple(pillar.terms[code].casefold() for code in ("hu", "pl", "en"))
    assert terms == ("oszlop", "filar", "pillar")
    for term in GlossaryTerm.objects.all():
        assert all(term.terms.get(code) for code in ("en", "hu", "pl")), term.key


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(CONTENT_DIR / "babylon", target / "babylon")
    return target


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


@pytest.mark.django_db
def test_reimport_applies_a_changed_file_when_nobody_edited(content_copy: Path) -> None:
    import_all(content_copy)
    replace_in(
        content_copy / "babylon" / "en.md",
        "## Overview {#overview}\n",
        "## Overview {#overview}\n\nNew first line.\n",
    )
    import_all(content_copy)
    text = SectionText.objects.get(section__key="overview", language="en")
    assert text.body.startswith("New first line.")
    assert text.revisions.count() == 2


@pytest.mark.django_db
def test_reimport_keeps_the_editors_text_and_the_shipped_one(
    content_copy: Path, editor: User
) -> None:
    import_all(content_copy)
    section = Section.objects.get(rulebook__slug="babylon", key="overview")
    text = section.texts.get(language="en")
    services.save_section_text(
        section=section,
        language="en",
        title=text.title,
        body="Edited by Edna.",
        author=editor,
        comment="mine",
        base_number=text.revision_number,
    )
    replace_in(
        content_copy / "babylon" / "en.md",
        "## Overview {#overview}\n",
        "## Overview {#overview}\n\nShipped change.\n",
    )

    import_all(content_copy)
    import_all(content_copy)

    text.refresh_from_db()
    assert text.body == "Edited by Edna."
    bodies = list(text.revisions.order_by("number").values_list("body", flat=True))
    assert len(bodies) == 4  # import, edit, new import, editor's text again
    assert bodies[2].startswith("Shipped change.")
    assert bodies[3] == "Edited by Edna."


@pytest.mark.django_db
def test_reimport_keeps_a_glossary_term_changed_in_the_admin(content_copy: Path) -> None:
    import_all(content_copy)
    term = GlossaryTerm.objects.get(rulebook__slug="babylon", key="pillar")
    term.terms = {**term.terms, "en": "column"}
    term.save()
    path = content_copy / "babylon" / "glossary.json"
    entries = json.loads(path.read_text())
    next(e for e in entries if e["key"] == "pillar")["notes"]["en"] = "Changed upstream."
    path.write_text(json.dumps(entries))

    import_all(content_copy)

    term.refresh_from_db()
    assert term.terms["en"] == "column"
