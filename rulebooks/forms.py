from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


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


class RestoreForm(forms.Form):
    number = forms.IntegerField(min_value=1)
