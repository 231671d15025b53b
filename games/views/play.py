"""The game page: the board for the viewer's seat, moves posted with htmx, gap recovery."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.requests import MemberRequest
from games import error_texts, live, services
from games.engines.base import IllegalMove
from games.forms import MoveForm
from games.models import Game, Seat
from games.rendering import board_stamp
from games.views import hint
from games.views.common import get_game, int_param, my_seat, play_context
from infra import timing
from infra.requests import HtmxRequest

# A stale page or a move out of turn conflicts with the game's state; anything else the
# member sent was simply wrong.
CONFLICT_CODES = {
    "stale",
    "not_your_turn",
    "not_running",
    "bot_seat",
    "game_over",
    "nothing_to_take_back",
    "cannot_take_back_whole_turns",
    "cannot_take_back_turn_passed",
    "cannot_take_back_step_revealed",
}


@require_GET
@login_required
def play(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    seat = my_seat(game, request.user)
    ctx = play_context(game, seat)
    if ctx.get("waiting"):  # not started yet (or abandoned): the waiting room says which
        return redirect("games:join", game_id=game.pk)
    ctx["can_hint"] = can_hint(game, seat)
    if ctx["can_hint"]:
        ctx.update(hint.page_context(game, seat, ctx["names"]))
    return render(request, "games/play.html", ctx)


def can_hint(game: Game, seat: Any) -> bool:
    """A member playing their own seat of a running game with no other member seated."""
    if seat is None or seat.user_id is None or game.status != Game.Status.RUNNING:
        return False
    return all(s.user_id in (None, seat.user_id) for s in game.seats.all())


@require_GET
@login_required
def board(request: MemberRequest, game_id: int) -> HttpResponse:
    """The current board over HTTP, for a browser that missed a live message (principle 7).

    With `?known=N&stamp=S` and nothing changed since (N is the board's `data-version`, the
    game's revision: no move and no step taken back since, and the same stamp: results,
    resignations and take-overs change it without a move), the answer is 204 so htmx keeps
    the board as it is (and any half-made choice on it).
    """
    game = get_game(game_id)
    if game.state is None:
        return HttpResponse(status=204)
    known = int_param(request.GET.get("known"))
    if known == game.revision and request.GET.get("stamp") == board_stamp(game):
        return HttpResponse(status=204)
    seat = my_seat(game, request.user)
    ctx = play_context(game, seat)
    ctx["oob_actions"] = True  # at the end, the header's actions follow (_end_actions.html)
    return render(request, "games/play.html#board", ctx)


@require_POST
@login_required
def move(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    seat = my_seat(game, request.user)
    if seat is None or game.state is None:
        return not_seated(request, game)
    form = MoveForm(request.POST)
    error = None
    status = 400
    played = None
    if form.is_valid():
        timing.mark("checks")
        try:
            played = services.play_move(
                game_id=game.pk,
                seat=seat.position,
                move=form.cleaned_data["move"],
                expected_version=form.cleaned_data["expected_version"],
            )
            timing.mark("hooks")
        except (services.GameError, IllegalMove) as exc:
            error = error_texts.describe(exc, game.engine_slug)
            if exc.code in CONFLICT_CODES:
                status = 409
    else:
        error = form.error_text()
    return after_the_post(request, game_id, seat, error, status, played)


def after_the_post(
    request: HtmxRequest,
    game_id: int,
    seat: Seat,
    error: str | None,
    status: int,
    played: Game | None = None,
) -> HttpResponse:
    """The answer to a move or a step taken back: the fresh board (htmx), or the page. The
    board of a move just played is drawn from the game as the move left it (`played`, its
    seats loaded), without reading it again."""
    game = played or get_game(game_id)
    if request.htmx and played is not None and error is None:
        # The mover's own view of the board the move made: the hub draws the same for the
        # mover's socket at this moment, and the two share one drawing (games/live.py).
        with timing.span("render"):
            board = live.shared_board(played, seat.position, get_language())
        return HttpResponse(board)
    if request.htmx:
        # htmx swaps only 2xx answers: the reason is shown inside the fresh board.
        with timing.span("context"):
            ctx = play_context(game, seat, error=error)
        with timing.span("render"):
            return render(request, "games/play.html#board", ctx)
    if error is None:
        return redirect("games:play", game_id=game.pk)
    ctx = play_context(game, seat, error=error)
    ctx["page_error"] = error
    return render(request, "games/play.html", ctx, status=status)


def not_seated(request: HttpRequest, game: Game) -> HttpResponse:
    return render(
        request,
        "games/forbidden.html",
        {"game": game, "reason": _("You do not have a seat in this game.")},
        status=403,
    )


@require_POST
@login_required
def take_back_step(request: MemberRequest, game_id: int) -> HttpResponse:
    """Take back the member's last step of their turn (DESIGN.md principle 8)."""
    game = get_game(game_id)
    seat = my_seat(game, request.user)
    if seat is None or game.state is None:
        return not_seated(request, game)
    error = None
    status = 400
    try:
        services.take_back_step(
            game_id=game.pk,
            seat=seat.position,
            # A missing or garbled number never matches the game's: "the game moved on".
            expected_version=int_param(request.POST.get("expected_version")),
        )
    except services.GameError as exc:
        error = error_texts.describe(exc, game.engine_slug)
        if exc.code in CONFLICT_CODES:
            status = 409
    return after_the_post(request, game_id, seat, error, status)


@require_POST
@login_required
def resign(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    try:
        services.resign(game_id=game.pk, user=request.user)
    except services.GameError as exc:
        messages.error(request, error_texts.describe(exc))
    else:
        messages.success(request, _("You resigned. A bot finishes the game for your seat."))
    if game.status == Game.Status.OPEN:
        return redirect("games:lobby")
    return back_to_the_game(request, game)


def back_to_the_game(request: HtmxRequest, game: Game) -> HttpResponse:
    """Reload the play page, which shows the message just stored (htmx: the whole page)."""
    if request.htmx:
        return HttpResponseClientRedirect(game.get_absolute_url())
    return redirect("games:play", game_id=game.pk)


@require_POST
@login_required
def reclaim_seat(request: MemberRequest, game_id: int) -> HttpResponse:
    """After a timeout a bot plays the member's seat; this gives the seat back to them."""
    game = get_game(game_id)
    try:
        services.reclaim_seat(game_id=game.pk, user=request.user)
    except services.GameError as exc:
        messages.error(request, error_texts.describe(exc))
    else:
        messages.success(request, _("Welcome back: you play your seat again."))
    return back_to_the_game(request, game)
