"""Practice from one's own mistakes: "Try this position again" in a review starts an unrated
game from that position against bots (games/services/practice.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.requests import MemberRequest
from games import error_texts, services
from games.services import practice
from games.views.common import get_game, int_param


@require_POST
@login_required
def start(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    number = int_param(request.POST.get("move"))
    try:
        if number is None:
            raise services.GameError("bad_number", "No decision was chosen.")
        started = practice.start_practice(
            game_id=game.pk, number=number, user=request.user, level=request.POST.get("level", "")
        )
    except services.GameError as exc:
        messages.error(request, error_texts.describe(exc))
        target = reverse("games:replay", args=[game.pk])
        return redirect(f"{target}?move={number}" if number is not None else target)
    return redirect("games:play", game_id=started.pk)
