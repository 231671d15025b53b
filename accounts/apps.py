from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Members")

    def ready(self) -> None:
        # A member's sockets end with their session (log-out, password change).
        from accounts import sessions  # noqa: F401
