"""Helpers the game views share: finding the game, the viewer's seat, the board context."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from games import rendering, services
from games.models import Game, Seat


def int_param(raw: str | None) -> int | None:
    """A small non-negative integer from a query string, or None. `str.isdigit` alone would
    pass '²' and strings too long for `int()`."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= 9:
        return int(raw)
    return None


def get_game(game_id: int) -> Game:
    """The game with its seats and their members (one query for both)."""
    seats = Prefetch("seats", Seat.objects.select_related("user"))
    return get_object_or_404(Game.objects.prefetch_related(seats), pk=game_id)


def my_seat(game: Game, user: Any) -> Seat | None:
    """The viewer's seat, from the game's seats (`get_game` has them already)."""
    if not user.is_authenticated:
        return None
    return next((s for s in game.seats.all() if s.user_id == user.pk), None)


def play_context(game: Game, seat: Seat | None, *, error: str | None = None) -> dict[str, Any]:
    """Everything the play page and its board partial need, for the viewer's own seat."""
    position = seat.position if seat is not None else None
    ctx: dict[str, Any] = {"game": game, "seat": position}
    if game.state is None:
        ctx["waiting"] = True
        return ctx
    view = services.view_for(game=game, seat=position)
    ctx.update(rendering.board_context(game=game, seat=position, view=view, error=error))
    return ctx
