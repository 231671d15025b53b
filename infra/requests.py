"""What a view's request holds once the site-wide middleware has run, for the type checker
(django-stubs' pattern): Django's `HttpRequest` does not know it. A member's request, with its
user, is `accounts.requests.MemberRequest`."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    """Any request: django-htmx's middleware says whether htmx sent it."""

    htmx: HtmxDetails
