"""The hint in a game against bots (games/services/hints.py): asked for with a post that
answers at once, computed by the heavy worker, fetched by the page while it is thinking."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import MemberRequest
from games import error_texts, rendering, services
from games.models import Game, Hint
from games.services import hints
from games.views.common import get_game, my_seat, play_context


@require_POST
@login_required
def request(request: MemberRequest, game_id: int) -> HttpResponse:
    """Ask for the hint of the current position; the game page shows it (thinking, then the
    move). With `show=board`, the page shows the board after the hinted move once it is ready."""
    try:
        hint = hints.request_hint(game_id=game_id, user=request.user)
    except services.GameError as exc:
        if exc.code == "unknown_game":
            raise Http404 from exc
        messages.error(request, error_texts.describe(exc))
        return redirect("games:play", game_id=game_id)
    if request.POST.get("show") != "board" or hint.status != Hint.Status.READY:
        return redirect("games:play", game_id=game_id)
    game = get_game(game_id)
    seat = my_seat(game, request.user)
    ctx = play_context(game, seat)
    ctx["can_hint"] = True
    ctx.update(hint_context(game, hint, ctx["names"]))
    ctx.update(preview_context(game, hint, ctx["hint_text"]))
    return render(request, "games/play.html", ctx)


@require_GET
@login_required
def status(request: MemberRequest, game_id: int) -> HttpResponse:
    """The hint box alone, fetched by the page every second while the hint is thinking; empty
    once the position it was for has changed."""
    game = get_game(game_id)
    seat = my_seat(game, request.user)
    hint = hints.current_hint(game, seat.position if seat is not None else None)
    ctx: dict[str, Any] = {"game": game}
    if hint is not None:
        ctx.update(hint_context(game, hint, rendering.seat_names(game)))
    return render(request, "games/_hint.html", ctx)


def page_context(game: Game, seat: Any, names: list[str]) -> dict[str, Any]:
    """The hint box of the game page: the hint of the current position, if the seat has one."""
    hint = hints.current_hint(game, seat.position if seat is not None else None)
    return hint_context(game, hint, names) if hint is not None else {}


def hint_context(game: Game, hint: Hint, names: list[str]) -> dict[str, Any]:
    ctx: dict[str, Any] = {"hint": hint}
    if hint.status == Hint.Status.READY and hint.move is not None:
        ctx["hint_text"] = rendering.advise_payload(
            game.engine_slug, names, hint.move, hint.summary
        )
    return ctx


def preview_context(game: Game, hint: Hint, text: str) -> dict[str, Any]:
    """The board as the hinted move would leave it (what is hidden from the seat drawn from its
    own view), with the move as the last of `recent`, so the board marks it as the last move."""
    recent = rendering.recent_moves(game)
    recent.append(
        {
            "number": game.version + 1,
            "seat": hint.seat,
            "type": str((hint.move or {}).get("type", "")),
            "summary": hint.summary,
            "text": text,
        }
    )
    board = rendering.board_context(
        game=game, seat=hint.seat, view=hint.view or {}, replay_number=game.version, recent=recent
    )
    ctx = {key: board[key] for key in ("view", "board", "is_my_turn", "scores", "recent")}
    ctx["hint_board"] = True
    return ctx
