"""Seasons: the index with each season's champions, a season's standings, and the organisers'
form to create or edit one (permission `games.manage_seasons`)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.requests import MemberRequest
from games import seasons
from games.calendar_forms import SeasonForm, overlap_text
from games.models import Season

PERMISSION = "games.manage_seasons"


def may_manage(user: Any) -> bool:
    return bool(user.has_perm(PERMISSION))


@require_GET
@login_required
def index(request: MemberRequest) -> HttpResponse:
    listed = list(Season.objects.order_by("-starts_on", "-pk"))
    tables = seasons.summaries(listed)
    today = seasons.today()
    return render(
        request,
        "games/seasons.html",
        {
            "rows": [
                {
                    "season": season,
                    "tables": tables[season.pk],
                    "current": season.starts_on <= today <= season.ends_on,
                    "ended": season.ends_on < today,
                }
                for season in listed
            ],
            "may_manage": may_manage(request.user),
            "min_games": seasons.min_games(),
        },
    )


@require_GET
@login_required
def season(request: MemberRequest, season_id: int) -> HttpResponse:
    """One game's standings in the season (`?game=`, the first game played by default), with
    links to the other games played in it: a table lists every member who played."""
    shown = get_object_or_404(Season, pk=season_id)
    table, others = seasons.season_tables(shown, game=request.GET.get("game", ""))
    today = seasons.today()
    return render(
        request,
        "games/season.html",
        {
            "season": shown,
            "table": table,
            "others": others,
            "current": shown.starts_on <= today <= shown.ends_on,
            "ended": shown.ends_on < today,
            "may_manage": may_manage(request.user),
            "min_games": seasons.min_games(),
        },
    )


@require_http_methods(["GET", "POST"])
@login_required
def edit(request: MemberRequest, season_id: int | None = None) -> HttpResponse:
    if not may_manage(request.user):
        raise PermissionDenied(_("Only the club's organisers may create or change seasons."))
    instance = get_object_or_404(Season, pk=season_id) if season_id is not None else None
    form = SeasonForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        try:
            saved = seasons.save_season(season=form.save(commit=False), user=request.user)
        except seasons.SeasonOverlap as exc:  # another organiser saved one at the same moment
            form.add_error(None, overlap_text(exc.other))
        else:
            messages.success(request, _("The season is saved."))
            return redirect("games:season", season_id=saved.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "games/season_form.html", {"form": form, "season": instance}, status=status
    )
