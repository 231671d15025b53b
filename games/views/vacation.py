"""A member's vacation days: they pause the member's clocks in every game
(games/services/clocks.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.requests import MemberRequest
from games import error_texts, services
from games.models import Vacation
from games.views.common import int_param


@require_http_methods(["GET", "POST"])
@login_required
def vacation(request: MemberRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        days = int_param(request.POST.get("days"))
        try:
            services.take_vacation(user=request.user, days=days)
        except services.GameError as exc:
            error = error_texts.describe(exc)
        else:
            return redirect("games:vacation")
    now = timezone.now()
    ctx = {
        "days_left": services.vacation_days_left(request.user, now=now),
        "per_year": settings.VACATION_DAYS,
        "vacations": Vacation.objects.filter(user=request.user, ends_at__gt=now),
        "error": error,
        "title": _("Vacation"),
    }
    return render(request, "games/vacation.html", ctx, status=400 if error else 200)
