"""The only writers of rulebook texts: every change is a new revision, nothing is overwritten."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from rulebooks.models import Revision, Rulebook, Section, SectionText

EDITORS_GROUP = "Rulebook editors"
LANGUAGE_CODES = [code for code, _name in settings.LANGUAGES]


class StaleEdit(Exception):
    """The text changed since the editor opened it; their save would overwrite someone's work."""

    def __init__(self, current: SectionText) -> None:
        super().__init__("The section changed since it was opened.")
        self.current = current


class UnknownRevision(Exception):
    pass


def is_editor(user: User | AnonymousUser | None) -> TypeGuard[User]:
    """An editor is an active member of the editors' group (or a superuser)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or user.groups.filter(name=EDITORS_GROUP).exists()


def source_text(section: Section) -> SectionText | None:
    language = section.rulebook.source_language
    return section.texts.filter(language=language).first()


def add_revision(
    *,
    text: SectionText,
    title: str,
    body: str,
    author: User | None,
    comment: str,
    origin: str,
    source_revision: Revision | None = None,
) -> Revision:
    """Appends a revision and makes it the current text. Callers hold the row lock."""
    revision = Revision.objects.create(
        text=text,
        number=text.revision_number + 1,
        title=title,
        body=body,
        author=author,
        comment=comment,
        origin=origin,
        source_revision=source_revision,
    )
    text.title, text.body, text.revision_number = title, body, revision.number
    text.source_revision = source_revision
    text.save(update_fields=["title", "body", "revision_number", "source_revision"])
    return revision


def _source_revision_for(section: Section, language: str, number: int | None) -> Revision | None:
    """The source revision a translation is now based on: the one the editor saw, else current."""
    if language == section.rulebook.source_language:
        return None
    source = source_text(section)
    if source is None:
        return None
    if number:
        found = source.revisions.filter(number=number).first()
        if found is not None:
            return found
    return source.revisions.filter(number=source.revision_number).first()


@transaction.atomic
def save_section_text(
    *,
    section: Section,
    language: str,
    title: str,
    body: str,
    author: User,
    comment: str,
    base_number: int,
    source_number: int | None = None,
    keep_source: bool = False,
) -> Revision:
    """Saves an editor's text as a new revision.

    ``base_number`` is the revision the editor started from (0 for a text that did not exist).
    If someone saved in the meantime, StaleEdit is raised and nothing is written.

    A translation is then based on revision ``source_number`` of the original (the one the
    editor was shown; the current one when not given). With ``keep_source`` an existing
    translation keeps the revision it was made from: an editor who never saw the original
    (the admin) has not confirmed that it matches a newer one, so "out of date" stays.
    """
    text = (
        SectionText.objects.select_for_update().filter(section=section, language=language).first()
    )
    if text is None:
        if base_number != 0:
            raise UnknownRevision(base_number)
        text = SectionText.objects.create(section=section, language=language, title=title)
    elif text.revision_number != base_number:
        raise StaleEdit(text)
    if keep_source and text.revision_number:
        source_revision = text.source_revision
    else:
        source_revision = _source_revision_for(section, language, source_number)
    return add_revision(
        text=text,
        title=title,
        body=body,
        author=author,
        comment=comment,
        origin=Revision.Origin.EDIT,
        source_revision=source_revision,
    )


@transaction.atomic
def restore_revision(*, text: SectionText, number: int, author: User) -> Revision:
    """Makes an old revision current again by copying it into a new revision."""
    text = SectionText.objects.select_for_update().get(pk=text.pk)
    old = text.revisions.filter(number=number).first()
    if old is None:
        raise UnknownRevision(number)
    return add_revision(
        text=text,
        title=old.title,
        body=old.body,
        author=author,
        comment=gettext("Restored revision %(number)s") % {"number": number},
        origin=Revision.Origin.RESTORE,
        source_revision=old.source_revision,
    )


@transaction.atomic
def mark_still_current(*, text: SectionText) -> None:
    """An editor confirms that a translation still says what the changed original says."""
    text = SectionText.objects.select_for_update().get(pk=text.pk)
    text.source_revision = _source_revision_for(text.section, text.language, None)
    text.save(update_fields=["source_revision"])


def out_of_date(text: SectionText, source: SectionText | None) -> bool:
    """A translation is out of date when the original's text differs from what it was made from."""
    if source is None or text.language == source.language or text.source_revision is None:
        return False
    return not text.source_revision.same_content(source.title, source.body)


@dataclass(frozen=True, slots=True)
class Coverage:
    language: str
    translated: int
    out_of_date: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.translated / self.total) if self.total else 0


def coverage(rulebook: Rulebook) -> list[Coverage]:
    """Per language: how many sections have a text, and how many of those are out of date."""
    sections = list(rulebook.sections.all())
    texts = list(
        SectionText.objects.filter(section__rulebook=rulebook).select_related("source_revision")
    )
    sources = {t.section_id: t for t in texts if t.language == rulebook.source_language}
    result = []
    for language in LANGUAGE_CODES:
        mine = [t for t in texts if t.language == language]
        stale = sum(1 for t in mine if out_of_date(t, sources.get(t.section_id)))
        result.append(Coverage(language, len(mine), stale, len(sections)))
    return result
