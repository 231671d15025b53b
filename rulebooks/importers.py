"""Load the shipped content (``rulebooks/content/``, see its FORMAT.md) into the database.

Idempotent: a text is written only when its shipped file changed since the last import. When an
editor changed a section after the last import and the shipped text changed too, the shipped
text is stored as a revision and the editor's text is then re-stated as the newest revision, so
it stays current and both are in the history. Glossary terms and site notes changed in the admin
are likewise kept; sections dropped from the files are kept, never deleted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from rulebooks.models import GlossaryTerm, Revision, Rulebook, Section, SectionText, SiteNote
from rulebooks.services import LANGUAGE_CODES, add_revision

CONTENT_DIR = Path(__file__).resolve().parent / "content"
SECTION_HEADING = re.compile(r"^## +(?P<title>.+?) +\{#(?P<key>[a-z0-9][a-z0-9-]*)\}\s*$")
# History pages show the (translated) origin of these revisions, so they carry no comment.
IMPORT_COMMENT = ""
KEPT_COMMENT = ""


class ContentError(Exception):
    """A content file does not follow FORMAT.md."""


@dataclass
class ImportReport:
    created: int = 0
    updated: int = 0
    kept: int = 0
    unchanged: int = 0
    books: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{len(self.books)} rulebooks ({', '.join(self.books)}): {self.created} texts created, "
            f"{self.updated} updated, {self.kept} kept editors' changes, {self.unchanged} unchanged"
        )


def parse_sections(text: str, path: Path) -> list[tuple[str, str, str]]:
    """Splits a rulebook file into (key, title, body) by its ``## Title {#key}`` headings."""
    sections: list[tuple[str, str, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = SECTION_HEADING.match(line)
        if match:
            sections.append((match["key"], match["title"].strip(), []))
        elif line.startswith("## "):
            raise ContentError(f"{path}:{number}: a section heading needs a {{#key}}: {line!r}")
        elif sections:
            sections[-1][2].append(line)
        elif line.strip() and not line.startswith("# "):
            raise ContentError(f"{path}:{number}: text before the first section")
    return [(key, title, "\n".join(lines).strip()) for key, title, lines in sections]


def import_all(content_dir: Path = CONTENT_DIR) -> ImportReport:
    report = ImportReport()
    folders = sorted(p for p in content_dir.iterdir() if (p / "book.json").is_file())
    for order, folder in enumerate(folders):
        import_rulebook(folder, order=order, report=report)
    return report


@transaction.atomic
def import_rulebook(
    folder: Path, *, order: int = 0, report: ImportReport | None = None
) -> Rulebook:
    report = report if report is not None else ImportReport()
    meta = _read_json(folder / "book.json")
    if not isinstance(meta, dict):
        raise ContentError(f"{folder / 'book.json'}: expected an object")
    slug = meta.get("slug") or folder.name
    keys = list(meta.get("sections") or [])
    source = meta.get("source") or "en"
    if source not in LANGUAGE_CODES or not keys:
        raise ContentError(f"{folder / 'book.json'}: needs a known 'source' and 'sections'")

    book, _ = Rulebook.objects.get_or_create(slug=slug, defaults={"source_language": source})
    book.titles = meta.get("titles") or {}
    book.originals = meta.get("originals") or []
    book.source_language = source
    book.order = order
    book.save()

    sections = {}
    for position, key in enumerate(keys):
        section, _ = Section.objects.get_or_create(rulebook=book, key=key)
        if section.order != position:
            section.order = position
            section.save(update_fields=["order"])
        sections[key] = section

    # The source language first, so translations can record which source revision they follow.
    languages = [source] + [code for code in LANGUAGE_CODES if code != source]
    for language in languages:
        path = folder / f"{language}.md"
        if not path.is_file():
            continue
        for key, title, body in parse_sections(path.read_text(encoding="utf-8"), path):
            if key not in sections:
                raise ContentError(f"{path}: section {key!r} is not listed in book.json")
            _import_text(sections[key], language, title, body, report)

    for language in LANGUAGE_CODES:
        path = folder / f"site.{language}.md"
        if path.is_file():
            _import_site_note(book, language, path.read_text(encoding="utf-8").strip())

    glossary_path = folder / "glossary.json"
    if glossary_path.is_file():
        entries = _read_json(glossary_path)
        if not isinstance(entries, list):
            raise ContentError(f"{glossary_path}: expected a list of terms")
        for position, entry in enumerate(entries):
            _import_term(book, position, entry, glossary_path)

    report.books.append(slug)
    return book


def _import_text(
    section: Section, language: str, title: str, body: str, report: ImportReport
) -> None:
    text = (
        SectionText.objects.select_for_update().filter(section=section, language=language).first()
    )
    if text is None:
        text = SectionText.objects.create(section=section, language=language, title=title)
        add_revision(
            text=text,
            title=title,
            body=body,
            author=None,
            comment=IMPORT_COMMENT,
            origin=Revision.Origin.IMPORT,
            source_revision=_shipped_source(section, language),
        )
        report.created += 1
        return
    last_import = text.revisions.filter(origin=Revision.Origin.IMPORT).order_by("-number").first()
    if last_import is not None and last_import.same_content(title, body):
        report.unchanged += 1
        return
    edited = text.revisions.filter(number=text.revision_number).first()
    add_revision(
        text=text,
        title=title,
        body=body,
        author=None,
        comment=IMPORT_COMMENT,
        origin=Revision.Origin.IMPORT,
        source_revision=_shipped_source(section, language),
    )
    if edited is not None and edited.origin != Revision.Origin.IMPORT:
        add_revision(
            text=text,
            title=edited.title,
            body=edited.body,
            author=edited.author,
            comment=KEPT_COMMENT,
            origin=Revision.Origin.KEPT,
            source_revision=edited.source_revision,
        )
        report.kept += 1
    else:
        report.updated += 1


def _shipped_source(section: Section, language: str) -> Revision | None:
    """Shipped translations are made from the shipped source text: its latest imported revision."""
    if language == section.rulebook.source_language:
        return None
    return (
        Revision.objects.filter(
            text__section=section,
            text__language=section.rulebook.source_language,
            origin=Revision.Origin.IMPORT,
        )
        .order_by("-number")
        .first()
    )


def _import_site_note(book: Rulebook, language: str, body: str) -> None:
    note = SiteNote.objects.filter(rulebook=book, language=language).first()
    if note is None:
        SiteNote.objects.create(rulebook=book, language=language, body=body, shipped_body=body)
        return
    if note.shipped_body == body:
        return
    if note.body == note.shipped_body:  # nobody changed it in the admin
        note.body = body
    note.shipped_body = body
    note.save(update_fields=["body", "shipped_body"])


def _import_term(book: Rulebook, position: int, entry: dict, path: Path) -> None:
    if (
        not isinstance(entry, dict)
        or not entry.get("key")
        or not isinstance(entry.get("terms"), dict)
    ):
        raise ContentError(f"{path}: entry {position} needs a 'key' and 'terms'")
    shipped = {
        "terms": entry["terms"],
        "stems": entry.get("stems") or {},
        "notes": entry.get("notes") or {},
    }
    term = GlossaryTerm.objects.filter(rulebook=book, key=entry["key"]).first()
    if term is None:
        GlossaryTerm.objects.create(
            rulebook=book, key=entry["key"], order=position, shipped=shipped, **shipped
        )
        return
    current = {"terms": term.terms, "stems": term.stems, "notes": term.notes}
    if term.shipped == shipped and term.order == position:
        return
    if current == term.shipped:  # nobody changed it in the admin
        term.terms, term.stems, term.notes = shipped["terms"], shipped["stems"], shipped["notes"]
    term.shipped = shipped
    term.order = position
    term.save()


def _read_json(path: Path) -> dict | list:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ContentError(f"{path}: {exc}") from exc
