"""Which language a member reads the site in, and keeping it when they sign up or log in.

A member's saved language (``User.language``) decides every page once they are signed in
(accounts.middleware). The language someone has just chosen (with the switcher, which sets the
cookie, or in the sign-up form) must survive signing up and logging in: logging in adopts it as
the saved language, says so, and every message and e-mail of that request is in it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


def use_language(request: HttpRequest, language: str, *, remember: bool = True) -> None:
    """The rest of this request is in ``language``; with ``remember`` the browser keeps it too."""
    translation.activate(language)
    request.LANGUAGE_CODE = language
    if remember:
        request.chosen_language = language  # type: ignore[attr-defined]


def chosen_language(request: HttpRequest) -> str | None:
    """The language chosen in this request (sign-up form), else with the switcher (cookie)."""
    for language in (
        getattr(request, "chosen_language", None),
        request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME),
    ):
        if language in LANGUAGE_CODES:
            return language
    return None


def keep_language_on_login(request: HttpRequest, user: User) -> None:
    """Logging in keeps the language the visitor chose; it becomes the member's saved one."""
    language = chosen_language(request)
    if language and language != user.language:
        user.language = language
        user.save(update_fields=["language"])
        use_language(request, language)
        name = translation.get_language_info(language)["name_translated"]
        messages.info(
            request,
            gettext(
                "%(language)s is now your preferred language. You can change it in your profile."
            )
            % {"language": name},
        )
        return
    use_language(request, user.language)


def remember_chosen_language(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Stores a language chosen during the request in the cookie the switcher uses."""
    language = getattr(request, "chosen_language", None)
    if language in LANGUAGE_CODES:
        set_language_cookie(response, language)
    return response


def set_language_cookie(response: HttpResponse, language: str) -> None:
    """The browser keeps ``language`` for the pages it opens signed out; the cookie is sent as
    the session's is (Secure over HTTPS) and no script reads it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def mail_language(email: str, user: User | None = None) -> str:
    """An e-mail to a member is in their saved language; to anyone else, in the page's."""
    if user is None:
        user = User.objects.filter(email__iexact=email).order_by("pk").first()
    if user is not None and user.language in LANGUAGE_CODES:
        return user.language
    return translation.get_language() or settings.LANGUAGE_CODE
