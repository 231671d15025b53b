"""Helpers the game views share: finding the game, the viewer's seat, the board context."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404

from games import rendering, selectors, services
from games.models import Game, Seat


def int_param(raw: str | None) -> int | None:
    """A small non-negative integer from a query string, or None. `str.isdigit` alone would
    pass '²' and strings too long for `int()`."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= 9:
        return int(raw)
    return None


def get_game(game_id: int) -> Game:
    return get_object_or_404(Game.objects.prefetch_related("seats__user"), pk=game_id)


def my_seat(game: Game, user: Any) -> Seat | None:
    if not user.is_authenticated:
        return None
    return selectors.seat_for_user(game, user)


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
