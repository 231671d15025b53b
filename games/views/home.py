"""The home page: the club page for members, the games and how to join for everyone else."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from games import catalog
from infra.requests import HtmxRequest


def home(request: HtmxRequest) -> HttpResponse:
    """The club page for signed-in members (its lists refresh on the lobby socket's hints);
    the games and how to join for everyone else."""
    if request.user.is_authenticated:
        from games import club

        context = club.club_context(request.user)
        if request.htmx:
            return render(request, "club.html#club-lists", context)
        return render(request, "club.html", {**context, "games": catalog.games()})
    return render(request, "home.html", {"games": catalog.games()})
