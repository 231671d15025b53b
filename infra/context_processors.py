"""Template context every page shares."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def club(request: HttpRequest) -> dict[str, Any]:
    # Where members write when something goes wrong (the password-reset page names it).
    return {"CLUB_CONTACT_EMAIL": settings.CLUB_CONTACT_EMAIL}
