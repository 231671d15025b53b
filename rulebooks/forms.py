from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from rulebooks.models import SectionText


class SectionTextForm(forms.Form):
    title = forms.CharField(label=_("Heading"), max_length=200)
    body = forms.CharField(
        label=_("Text (Markdown)"), widget=forms.Textarea(attrs={"rows": 16}), required=False
    )
    comment = forms.CharField(
        label=_("What did you change?"),
        max_length=300,
        required=False,
        help_text=_("A short note for the history, e.g. 'fixed a typo'."),
    )
    # The revision the editor started from: a save over a newer revision is refused.
    base_number = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    # For translations: the revision of the original shown while translating.
    source_number = forms.IntegerField(widget=forms.HiddenInput, min_value=0, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # The hidden numbers come from the page itself, and the page shows no errors of
        # hidden fields: a form without them (a broken or tampered page) says so up top.
        if any(name in self.errors for name in ("base_number", "source_number")):
            raise ValidationError(
                _("This form came incomplete from the page. Reload the page and try again."),
                code="incomplete",
            )
        return cleaned


class RestoreForm(forms.Form):
    number = forms.IntegerField(min_value=1)


class SectionTextAdminForm(forms.ModelForm):
    """The admin's form for a section text, with the same stale-edit check as the browser."""

    # The revision shown when the page was opened: a save over a newer one is refused.
    opened_revision = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    translation_is_current = forms.BooleanField(
        label=_("Matches the current original"),
        required=False,
        help_text=_(
            "Tick this when the translation now says what the current original says. "
            "Otherwise it stays marked as made from the revision of the original it was "
            "translated from."
        ),
    )

    class Meta:
        model = SectionText
        fields = ["section", "language", "title", "body"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["opened_revision"].initial = self.instance.revision_number

    def text_changed(self) -> bool:
        return self.instance.pk is None or bool({"title", "body"} & set(self.changed_data))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        opened = cleaned.get("opened_revision")
        if self.instance.pk is None or opened is None or not self.text_changed():
            return cleaned
        # The admin runs the whole request in one transaction, so this lock holds until the
        # text is saved: nobody can slip a revision in between this check and the save.
        current = SectionText.objects.select_for_update().get(pk=self.instance.pk)
        if current.revision_number != opened:
            # Keep the editor's text, but let their next save (after merging) go through.
            data = cast(QueryDict, self.data).copy()  # a bound form's data is the POST
            data[self.add_prefix("opened_revision")] = str(current.revision_number)
            self.data = data
            raise ValidationError(
                _(
                    "Not saved: someone saved revision %(current)s of this text after you "
                    "opened revision %(opened)s. Your text is kept below. Compare it with the "
                    "current revision in the history, merge the changes and save again."
                ),
                code="stale",
                params={"current": current.revision_number, "opened": opened},
            )
        return cleaned
