"""A member's request, for the type checker (django-stubs' pattern): what `login_required`
lets through has a member for its user, which Django's `HttpRequest` does not know."""

from __future__ import annotations

from accounts.models import User
from infra.requests import HtmxRequest


class MemberRequest(HtmxRequest):
    """A request that `login_required` let through: its user is a member."""

    user: User
