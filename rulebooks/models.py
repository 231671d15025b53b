"""Rulebooks: ordered sections with stable keys, a text per language, every save a revision.

The current text of a section in a language is its newest revision; ``SectionText.title`` and
``SectionText.body`` are a copy of that revision, kept by ``rulebooks.services`` (the only
writer), so that reading and searching never have to look through the history.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from rulebooks.titles import shipped_titles


class Rulebook(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    titles = models.JSONField(_("titles"), default=dict, help_text=_("Title per language code."))
    originals = models.JSONField(
        _("original languages"),
        default=list,
        help_text=_("Languages of the club's original texts."),
    )
    source_language = models.CharField(
        _("source language"),
        max_length=8,
        choices=settings.LANGUAGES,
        help_text=_("Translations follow this language."),
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["order", "slug"]
        verbose_name = _("rulebook")
        verbose_name_plural = _("rulebooks")

    def __str__(self) -> str:
        return self.title_in(translation.get_language() or "en")

    def get_absolute_url(self) -> str:
        return reverse("rulebooks:book", args=[self.slug])

    def title_in(self, language: str) -> str:
        """The shipped book.json titles are the one source (rulebooks.titles); a rulebook made
        in the admin only has its own."""
        titles = {**self.titles, **shipped_titles(self.slug)}
        return titles.get(language) or titles.get("en") or self.slug


class Section(models.Model):
    rulebook = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="sections")
    key = models.SlugField(_("key"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["rulebook", "order", "key"]
        constraints = [
            models.UniqueConstraint(fields=["rulebook", "key"], name="rulebooks_section_unique_key")
        ]
        verbose_name = _("section")
        verbose_name_plural = _("sections")

    def __str__(self) -> str:
        return f"{self.rulebook.slug}#{self.key}"


class SectionText(models.Model):
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="texts")
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    title = models.CharField(_("heading"), max_length=200)
    body = models.TextField(_("text (Markdown)"), blank=True)
    revision_number = models.PositiveIntegerField(_("current revision"), default=0)
    # The revision of the source-language text this translation was made from (or confirmed
    # against); None for the source language itself.
    source_revision = models.ForeignKey(
        "Revision",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("translated from revision"),
    )

    class Meta:
        ordering = ["section", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["section", "language"], name="rulebooks_sectiontext_unique_language"
            )
        ]
        verbose_name = _("section text")
        verbose_name_plural = _("section texts")

    def __str__(self) -> str:
        return f"{self.section} [{self.language}]"


class Revision(models.Model):
    class Origin(models.TextChoices):
        IMPORT = "import", _("imported from the content files")
        EDIT = "edit", _("edited")
        RESTORE = "restore", _("restored")
        KEPT = "kept", _("editor's text kept over a re-import")

    text = models.ForeignKey(SectionText, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField(_("number"))
    title = models.CharField(_("heading"), max_length=200)
    body = models.TextField(_("text (Markdown)"), blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rulebook_revisions",
        verbose_name=_("author"),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    comment = models.CharField(_("comment"), max_length=300, blank=True)
    origin = models.CharField(_("origin"), max_length=10, choices=Origin.choices)
    # For a translation: the source-language revision this text was made from, so that
    # restoring an old translation also restores what it was translated from.
    source_revision = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["text", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["text", "number"], name="rulebooks_revision_unique_number"
            )
        ]
        verbose_name = _("revision")
        verbose_name_plural = _("revisions")

    def __str__(self) -> str:
        return f"{self.text} r{self.number}"

    def same_content(self, title: str, body: str) -> bool:
        return self.title == title and self.body == body


class GlossaryTerm(models.Model):
    rulebook = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="glossary")
    key = models.SlugField(_("key"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    terms = models.JSONField(_("terms"), default=dict, help_text=_("Dictionary form per language."))
    stems = models.JSONField(
        _("stems"), default=dict, help_text=_("Per language, word beginnings that mark the term.")
    )
    notes = models.JSONField(_("notes"), default=dict, blank=True)
    # What the last import wrote: an admin's change is recognised (and kept) by differing from it.
    shipped = models.JSONField(default=dict, blank=True, editable=False)

    class Meta:
        ordering = ["rulebook", "order", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["rulebook", "key"], name="rulebooks_glossary_unique_key"
            )
        ]
        verbose_name = _("glossary term")
        verbose_name_plural = _("glossary terms")

    def __str__(self) -> str:
        return " / ".join(self.terms.get(lang, "") for lang in ("en", "hu", "pl"))


class SiteNote(models.Model):
    """The "How this site plays it" box of a rulebook, in one language."""

    rulebook = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="site_notes")
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    body = models.TextField(_("text (Markdown)"))
    shipped_body = models.TextField(blank=True, editable=False)

    class Meta:
        ordering = ["rulebook", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["rulebook", "language"], name="rulebooks_sitenote_unique_language"
            )
        ]
        verbose_name = _("site note")
        verbose_name_plural = _("site notes")

    def __str__(self) -> str:
        return f"{self.rulebook.slug} [{self.language}]"
