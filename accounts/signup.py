"""The sign-up form (ACCOUNT_FORMS): allauth's, doing the same work for a registered address
as for a new one, so that the time of the answer tells nothing either (issue 20, item 6).

Its own module: allauth builds its sign-up form on `accounts.forms.SignupExtraForm`, so that
module cannot import allauth's forms itself.
"""

from __future__ import annotations

from typing import Any

from allauth.account.forms import SignupForm as AllauthSignupForm
from django.contrib.auth.hashers import make_password
from django.http import HttpRequest


class SignupForm(AllauthSignupForm):
    def try_save(self, request: HttpRequest) -> tuple[Any, Any]:
        if self.account_already_exists:
            # A new account's password is hashed, which takes a few hundred milliseconds by
            # design; hash this one too and throw it away (as Django's ModelBackend does for an
            # unknown username), so that the answer comes as late as a newcomer's.
            make_password(self.cleaned_data.get("password1"))
        return super().try_save(request)
