from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts.language import remember_chosen_language


class UserLanguageMiddleware:
    """A signed-in member reads the site in their remembered language, on every device, and
    sees times in their own time zone (the club's, TIME_ZONE, for everyone else)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        zone = getattr(user, "time_zone", "") if user is not None and user.is_authenticated else ""
        try:
            if zone:
                timezone.activate(ZoneInfo(zone))
            else:
                timezone.deactivate()
        except (ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        # A language chosen while signing up or logging in is kept by the browser as well.
        return remember_chosen_language(request, self.get_response(request))
