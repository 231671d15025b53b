from __future__ import annotations

from typing import Any, cast

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.language import use_language
from accounts.models import User
from accounts.names import validate_member_name


def native_languages() -> list[tuple[str, str]]:
    """The site's languages, each called by its own name ("Magyar", "Polski"), as the
    language switch in the header calls them: a reader looks for their language's word."""
    return [
        (code, translation.get_language_info(code)["name_local"].capitalize())
        for code, _name in settings.LANGUAGES
    ]


class SignupExtraForm(forms.Form):
    """Extra fields on allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("How other members see you. Leave empty to use your username."),
    )
    language = forms.ChoiceField(label=_("Preferred language"), choices=native_languages)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = translation.get_language() or "en"

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        validate_member_name(name)
        return name

    def signup(self, request: Any, user: User) -> None:
        user.display_name = self.cleaned_data.get("display_name", "")
        user.language = self.cleaned_data.get("language") or "en"
        user.save(update_fields=["display_name", "language"])
        # The language just chosen: the messages and the e-mail that follow are in it.
        use_language(request, user.language)


# The longest e-mail address a mail server accepts (RFC 5321); usernames are shorter still.
LOGIN_MAX_LENGTH = 254


class LoginForm(AllauthLoginForm):
    """allauth's log-in form (ACCOUNT_FORMS), with a length limit on the username or e-mail
    address field, which allauth leaves unlimited when both are accepted. Without it a
    megabyte-long name reached the database's case-insensitive lookup, which SQLite refuses
    ("LIKE pattern too complex"): a 500 instead of a message."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        if getattr(login, "max_length", None) is None:
            login.max_length = LOGIN_MAX_LENGTH
            login.validators.append(MaxLengthValidator(LOGIN_MAX_LENGTH))
            login.widget.attrs["maxlength"] = str(LOGIN_MAX_LENGTH)


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
            "time_zone",
            "email_your_turn",
            "email_finished",
            "email_game_nights",
        ]
        help_texts = {
            "time_zone": _("Game nights are scheduled and shown in this time zone."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form posted without it (an older page) keeps the member's zone.
        self.fields["time_zone"].required = False
        cast(forms.ChoiceField, self.fields["language"]).choices = native_languages()

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        validate_member_name(name, account=self.instance.username)
        return name

    def clean_time_zone(self) -> str:
        return str(self.cleaned_data.get("time_zone") or self.instance.time_zone)
