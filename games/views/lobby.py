"""The lobby: create a game, my games with whose turn it is, open games; joining and leaving."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.requests import MemberRequest
from games import error_texts, rendering, selectors, services
from games.forms import CreateGameForm
from games.models import Game, Seat
from games.views.common import get_game, my_seat


def lobby_context(request: HttpRequest, form: CreateGameForm | None) -> dict:
    mine = selectors.games_for_user(request.user)
    return {
        "form": form,
        "my_games": [g for g in mine if g.status in (Game.Status.OPEN, Game.Status.RUNNING)],
        "open_games": selectors.open_games(user=request.user),
    }


@require_GET
@login_required
def lobby(request: MemberRequest) -> HttpResponse:
    if request.htmx:  # the live lists, fetched again on a hint from the lobby socket
        return render(request, "games/lobby.html#lobby-lists", lobby_context(request, None))
    return render(request, "games/lobby.html", lobby_context(request, CreateGameForm()))


@require_POST
@login_required
def create(request: MemberRequest) -> HttpResponse:
    form = CreateGameForm(request.POST)
    if form.is_valid():
        try:
            game = services.create_game(
                engine_slug=form.cleaned_data["engine_slug"],
                players=form.cleaned_data["players"],
                options=form.cleaned_data["options"],
                seats=form.cleaned_data["seats"],
                created_by=request.user,
                random_first=form.cleaned_data["random_first"],
                rated=not form.cleaned_data["unrated"],
                days_per_move=form.cleaned_data["days_per_move"],
            )
        except services.GameError as exc:
            form.add_error(None, error_texts.describe(exc))
        else:
            if game.status == Game.Status.OPEN:
                return redirect("games:join", game_id=game.pk)
            return redirect("games:play", game_id=game.pk)
    return render(request, "games/lobby.html", lobby_context(request, form), status=400)


@require_http_methods(["GET", "POST"])
@login_required
def join(request: MemberRequest, game_id: int) -> HttpResponse:
    """The waiting room of an open game; an invite link is this page with `?token=`."""
    game = get_game(game_id)
    token = request.POST.get("token") or request.GET.get("token") or None
    if request.method == "POST":
        try:
            services.join_seat(game_id=game.pk, user=request.user, token=token)
        except services.GameError as exc:
            messages.error(request, error_texts.describe(exc))
        else:
            messages.success(request, _("You have joined the game."))
        game = get_game(game_id)
    if game.status == Game.Status.ABANDONED:
        messages.info(request, _("Everyone left this game before it started."))
        return redirect("games:lobby")
    if game.status != Game.Status.OPEN:
        if request.htmx:  # the room refreshing itself: the whole page moves on to the board
            return HttpResponseClientRedirect(reverse("games:play", args=[game.pk]))
        return redirect("games:play", game_id=game.pk)
    seat = my_seat(game, request.user)
    seats = list(game.seats.all())
    names = rendering.seat_names(game)
    rows = [
        {
            "seat": s,
            "name": names[s.position],
            "invited": s.is_open and s.invited,
            "invite": request.build_absolute_uri(f"{request.path}?token={s.invite_token}")
            if s.is_open and game.created_by_id == request.user.pk
            else "",
        }
        for s in seats
    ]
    return render(
        request,
        "games/join.html#room" if request.htmx else "games/join.html",
        {
            "game": game,
            "seat": seat,
            "rows": rows,
            "token": token,
            "engine_name": rendering.game_name(game.engine_slug),
            "can_join": seat is None and any(can_take(s, token) for s in seats),
        },
    )


def can_take(seat: Seat, token: str | None) -> bool:
    """Whether a visitor with `token` (from an invitation link, or none) may take the seat."""
    if not seat.is_open:
        return False
    if token and secrets.compare_digest(seat.invite_token.encode(), token.encode()):
        return True
    return not seat.invited


@require_POST
@login_required
def leave(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    try:
        services.leave_seat(game_id=game.pk, user=request.user)
    except services.GameError as exc:
        messages.error(request, error_texts.describe(exc))
        return redirect("games:join", game_id=game.pk)
    messages.success(request, _("You have left the game."))
    return redirect("games:lobby")
