"""Read-only questions about games that pages and consumers ask."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q

from games import engines
from games.models import Game, Seat

STATUS_ORDER = {Game.Status.RUNNING: 1, Game.Status.OPEN: 2, Game.Status.FINISHED: 3}


def seat_for_user(game: Game | int, user: Any) -> Seat | None:
    """The user's seat in the game, or None (a spectator, or an anonymous visitor)."""
    if user is None or not user.is_authenticated:
        return None
    game_id = game if isinstance(game, int) else game.pk
    return Seat.objects.filter(game_id=game_id, user_id=user.pk).first()


def seats_to_move(game: Game) -> list[Seat]:
    """The seats whose turn it is, in seat order ([] unless the game runs)."""
    if game.status != Game.Status.RUNNING or game.state is None:
        return []
    engine = engines.get(game.engine_slug)
    to_move = set(engine.to_move(engine.load(game.state)))
    return [seat for seat in game.seats.all() if seat.position in to_move]


def _with_seats(queryset: Any) -> Any:
    return queryset.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    )


def games_for_user(user: Any, *, active_only: bool = False) -> list[Game]:
    """The member's games, each with `my_seat`, `to_move_seats` and `my_turn` set.

    The games they sit in, and the games they imported (whose seats carry only the names
    recorded in the file, so `my_seat` is None there). Games where it is the member's turn
    come first, then running, waiting and finished ones, each newest first. With
    `active_only`, only the running and waiting games (a page that lists finished games
    reads them a page at a time: games.stats).
    """
    mine = Q(seats__user=user) | Q(imported=True, created_by=user)
    games = Game.objects.filter(mine).exclude(status=Game.Status.ABANDONED)
    if active_only:
        games = games.filter(status__in=(Game.Status.OPEN, Game.Status.RUNNING))
    found = list(_with_seats(games).distinct().order_by("-updated_at", "-pk"))
    for game in found:
        game.my_seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
        game.to_move_seats = seats_to_move(game)
        game.my_turn = any(s.user_id == user.pk and not s.is_bot for s in game.to_move_seats)
    found.sort(key=lambda g: (not g.my_turn, STATUS_ORDER.get(g.status, 9)))
    return found


def open_games(user: Any = None) -> list[Game]:
    """Games waiting for players with a seat open to the club; without those `user` already
    sits in. A game whose open seats are all invited ones is not listed: only the holders of
    their links may take them."""
    games = _with_seats(Game.objects.filter(status=Game.Status.OPEN)).order_by("-created_at", "-pk")
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user=user)
    return [game for game in games if any(seat.is_open_to_club for seat in game.seats.all())]


def replay_seats(game: Game, user: Any) -> list[int | None]:
    """Whose view a visitor may step through: while the game runs a player sees only their own
    seat and anyone else the spectator's view; after the end, every seat's view."""
    if game.status == Game.Status.FINISHED:
        return [None, *range(game.players)]
    seat = seat_for_user(game, user)
    return [seat.position if seat is not None else None]
