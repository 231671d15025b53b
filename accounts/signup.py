"""The sign-up form (ACCOUNT_FORMS): allauth's, doing the same work for a registered address
as for a new one, so that the time of the answer tells nothing either (a signup never shows
whether an address is already registered).

Its own module: allauth builds its sign-up form on `accounts.forms.SignupExtraForm`, so that
module cannot import allauth's forms itself.
"""

from __future__ import annotations

import time
from typing import Any

from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.views import signup as allauth_signup
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.http import HttpRequest, HttpResponse
from django.template.response import SimpleTemplateResponse


class SignupForm(AllauthSignupForm):
    def try_save(self, request: HttpRequest) -> tuple[Any, Any]:
        if self.account_already_exists:
            # A new account's password is hashed, which takes a few hundred milliseconds by
            # design; hash this one too and throw it away (as Django's ModelBackend does for an
            # unknown username), so that the answer comes as late as a newcomer's.
            make_password(self.cleaned_data.get("password1"))
        return super().try_save(request)


def padded_signup(request: HttpRequest) -> HttpResponse:
    """allauth's sign-up page, whose posts are answered no sooner than SIGNUP_MIN_SECONDS after
    they arrived. Hashing on both paths leaves only the new account's own writes and e-mail to
    tell the two apart; the floor hides those too, whatever the database or the mail server."""
    start = time.monotonic()
    response = allauth_signup(request)
    if request.method == "POST":
        if isinstance(response, SimpleTemplateResponse) and not response.is_rendered:
            response.render()  # the page with the form's errors costs its time here too
        rest = start + settings.SIGNUP_MIN_SECONDS - time.monotonic()
        if rest > 0:
            time.sleep(rest)
    return response
