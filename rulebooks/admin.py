from __future__ import annotations

from typing import Any, cast

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext

from accounts.models import User
from rulebooks import services
from rulebooks.forms import SectionTextAdminForm
from rulebooks.models import GlossaryTerm, Revision, Rulebook, Section, SectionText, SiteNote


class SectionInline(admin.TabularInline):
    model = Section
    extra = 0
    fields = ["key", "order"]


class SiteNoteInline(admin.StackedInline):
    model = SiteNote
    extra = 0


@admin.register(Rulebook)
class RulebookAdmin(admin.ModelAdmin):
    list_display = ["slug", "source_language", "order"]
    inlines = [SectionInline, SiteNoteInline]


class SectionTextInline(admin.TabularInline):
    model = SectionText
    extra = 0
    fields = ["language", "title", "revision_number"]
    readonly_fields = ["language", "title", "revision_number"]
    show_change_link = True
    can_delete = False


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["key", "rulebook", "order"]
    list_filter = ["rulebook"]
    search_fields = ["key"]
    inlines = [SectionTextInline]


class RevisionInline(admin.TabularInline):
    model = Revision
    fk_name = "text"
    extra = 0
    fields = readonly_fields = ("number", "created_at", "author", "origin", "comment")
    can_delete = False
    ordering = ["-number"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(SectionText)
class SectionTextAdmin(admin.ModelAdmin):
    form = SectionTextAdminForm
    list_display = ["section", "language", "title", "revision_number"]
    list_filter = ["language", "section__rulebook"]
    search_fields = ["title", "body", "section__key"]
    readonly_fields = ["revision_number", "source_revision"]
    inlines = [RevisionInline]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        fields = ["section", "language", "title", "body", "opened_revision"]
        fields += ["revision_number", "source_revision"]
        if obj is not None and obj.language != obj.section.rulebook.source_language:
            fields.append("translation_is_current")
        return tuple(fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is not None:
            return [*self.readonly_fields, "section", "language"]
        return list(self.readonly_fields)

    def save_model(
        self, request: HttpRequest, obj: SectionText, form: SectionTextAdminForm, change: bool
    ) -> None:
        # Saves go through the revision history here too, so nothing edited in the admin is
        # lost, and over the revision the editor opened, so nobody's work is overwritten.
        mark_current = form.cleaned_data.get("translation_is_current", False)
        if form.text_changed():
            services.save_section_text(
                section=obj.section,
                language=obj.language,
                title=obj.title,
                body=obj.body,
                author=cast(User, request.user),  # the admin is for signed-in staff
                comment=gettext("Edited in the admin"),
                base_number=form.cleaned_data["opened_revision"],
                keep_source=not mark_current,
            )
            obj.pk = SectionText.objects.get(section=obj.section, language=obj.language).pk
        elif mark_current:
            services.mark_still_current(text=obj)


@admin.register(Revision)
class RevisionAdmin(admin.ModelAdmin):
    list_display = ["text", "number", "created_at", "author", "origin", "comment"]
    list_filter = ["origin", "text__language", "text__section__rulebook"]
    readonly_fields = [
        "text",
        "number",
        "title",
        "body",
        "author",
        "created_at",
        "comment",
        "origin",
        "source_revision",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GlossaryTerm)
class GlossaryTermAdmin(admin.ModelAdmin):
    list_display = ["key", "rulebook", "__str__", "order"]
    list_filter = ["rulebook"]
    search_fields = ["key"]


@admin.register(SiteNote)
class SiteNoteAdmin(admin.ModelAdmin):
    list_display = ["rulebook", "language"]
    list_filter = ["rulebook", "language"]
