"""What a view's request holds once the middleware and decorators have run, for the type
checker (django-stubs' pattern): Django's `HttpRequest` knows neither."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxRequest(HttpRequest):
    """Any request: django-htmx's middleware says whether htmx sent it."""

    htmx: HtmxDetails


class MemberRequest(HtmxRequest):
    """A request that `login_required` let through: its user is a member."""

    user: User
