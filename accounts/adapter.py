"""allauth, the club's way: e-mails name the club and reach members in their language, and
logging in keeps the language the visitor chose (accounts.language)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import filter_users_by_email
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext

from accounts.language import keep_language_on_login, mail_language
from accounts.models import User
from accounts.names import validate_member_name


def club_name() -> str:
    """The club's name as e-mails show it: CLUB_NAME, else "Board-game club" translated."""
    return getattr(settings, "CLUB_NAME", "") or gettext("Board-game club")


def account_named_by(credentials: dict[str, Any]) -> User | None:
    """The account a log-in names: by its e-mail address first (as allauth tries it), else by
    its username."""
    email = credentials.get("email")
    if email:
        users = filter_users_by_email(email)
        if len(users) == 1:
            return users[0]
    username = credentials.get("username")
    if username:
        return User.objects.filter(username__iexact=username).first()
    return None


class AccountAdapter(DefaultAccountAdapter):
    def login(self, request: HttpRequest, user: Any) -> None:
        super().login(request, user)
        keep_language_on_login(request, user)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """allauth counts failed log-ins per name typed; count them per account instead, so
        that the username and the e-mail of one account share one limit (ACCOUNT_RATE_LIMITS).
        A name that belongs to no account keeps a counter of its own, as before."""
        account = account_named_by(credentials)
        if account is None:
            return super()._get_login_attempts_cache_key(request, **credentials)
        return f"account:{account.pk}"

    def clean_username(self, username: str, shallow: bool = False) -> str:
        validate_member_name(username)  # nobody signs up as "hard_bot" (accounts.names)
        return super().clean_username(username, shallow=shallow)

    def format_email_subject(self, subject: str) -> str:
        # allauth's default prefix is the site's host name ("[127.0.0.1:8000]").
        return f"[{club_name()}] {subject}"

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        user = context.get("user")
        language = mail_language(email, user if isinstance(user, User) else None)
        with translation.override(language):
            super().send_mail(template_prefix, email, {**context, "club": club_name()})
