"""Members' public profiles (their statistics) and the standings of each game."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from accounts.requests import MemberRequest
from games import seasons, stats, tournament_results
from games.models import Season


@require_GET
@login_required
def member(request: MemberRequest, username: str) -> HttpResponse:
    """A member's profile as every member sees it (never signed-out visitors)."""
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(
        request,
        "accounts/member.html",
        {
            "member": person,
            "is_me": person.pk == request.user.pk,
            "games": stats.profile_stats(person),
            "head_to_head": stats.head_to_head(person),
            "seasons": seasons.member_places(person, list(Season.objects.all())),
            "tournaments": tournament_results.member_tournaments(person),
            "min_games": stats.MIN_RATED_GAMES,
            "chart_points": stats.CHART_POINTS,
        },
    )


@require_GET
@login_required
def leaderboard(request: MemberRequest, slug: str) -> HttpResponse:
    titles = stats.game_titles()
    if slug not in titles:
        raise Http404("No such game.")
    return render(
        request,
        "games/leaderboard.html",
        {
            "slug": slug,
            "title": titles[slug],
            "board": stats.leaderboard(slug),
            "others": [(s, t) for s, t in titles.items() if s != slug],
            "min_games": stats.MIN_RATED_GAMES,
        },
    )


@require_GET
@login_required
def standings(request: MemberRequest) -> HttpResponse:
    """Every game's top of the standings, each with a link to its whole table."""
    return render(
        request,
        "games/standings.html",
        {"tops": stats.top_of_every_game(), "min_games": stats.MIN_RATED_GAMES},
    )
