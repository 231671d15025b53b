"""Leaving a running game: resigning, timeouts handing a seat to a bot, taking it back."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import Notification, User
from accounts.services import withdraw
from games import clocks
from games.engines.base import Engine
from games.models import Game, Seat
from games.services import notices
from games.services.common import (
    TAKE_OVER_LEVEL,
    GameError,
    after_commit,
    broadcast_on_commit,
    current_state,
    engine_for,
    locked,
    task_named,
)


def _hand_to_bot(game: Game, seat: Seat, engine: Engine) -> None:
    seat.bot_took_over = True
    seat.bot_level = seat.bot_level or TAKE_OVER_LEVEL
    seat.save(update_fields=["bot_took_over", "bot_level", "resigned"])
    if seat.position in engine.to_move(current_state(game, engine)):
        after_commit(
            task_named("play_bot_turn"),
            game.pk,
            seat.position,
            game.version,
            countdown=settings.BOT_MOVE_DELAY,
        )


@transaction.atomic
def resign(*, game_id: int, user: User) -> Game:
    """The member gives up: a bot finishes the game for the seat, which ranks last."""
    game = locked(game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "Only a running game can be resigned.")
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError("not_seated", "The member has no seat here.")
    if seat.resigned:
        raise GameError("already_resigned", "The member has already resigned.")
    seat.resigned = True
    _hand_to_bot(game, seat, engine_for(game.engine_slug))
    game.save(update_fields=["updated_at"])
    # "Your turn" no longer holds: the bot plays the seat now.
    withdraw(user=user, kind=Notification.Kind.YOUR_TURN, game_id=game.pk)
    broadcast_on_commit(game)
    return game


@transaction.atomic
def reclaim_seat(*, game_id: int, user: User) -> Game:
    """The member plays their seat again after a bot took it over for a timeout.

    A bot task already on its way finds a member's seat and plays nothing (`play_move`
    refuses a bot move for it under the row lock). A resignation is final.
    """
    game = locked(game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "The game is not running.")
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError("not_seated", "The member has no seat here.")
    if seat.resigned:
        raise GameError("already_resigned", "The member has resigned.")
    if not seat.bot_took_over:
        raise GameError("not_taken_over", "The member already plays this seat.")
    if clocks.past_round_deadline(game, timezone.now()):
        raise GameError("round_over", "The round's deadline has passed: a bot plays it out.")
    seat.bot_took_over = False
    seat.bot_level = ""
    seat.save(update_fields=["bot_took_over", "bot_level"])
    if seat.clock_started_at is not None:  # the member gets a whole turn's time again
        seat.clock_started_at = timezone.now()
        seat.save(update_fields=["clock_started_at"])
    game.save(update_fields=["updated_at"])
    broadcast_on_commit(game)
    return game


@transaction.atomic
def hand_over_for_good(*, game_id: int, level: str) -> list[int]:
    """Every member still playing a seat of the game hands it to a bot of `level`, which plays
    it to the end (an async tournament round's deadline; the member cannot take it back:
    `reclaim_seat` refuses after the deadline). Returns the members' ids."""
    game = locked(game_id)
    if game.status != Game.Status.RUNNING:
        return []
    engine = engine_for(game.engine_slug)
    users = []
    for seat in game.seats.filter(user__isnull=False, bot_level="").order_by("position"):
        assert seat.user_id is not None  # the query's: a member's seat
        seat.bot_level = level
        _hand_to_bot(game, seat, engine)
        users.append(seat.user_id)
    if users:
        game.save(update_fields=["updated_at"])
        broadcast_on_commit(game)
    return users


def take_over_timed_out_seats(*, now: datetime | None = None) -> int:
    """Seats whose clock ran out (games/services/clocks.py: the game's days per move, or
    TURN_TIMEOUT, with the member's vacations not counted) are played by a bot from now on,
    and their members are told (beat task). Returns how many seats were taken over."""
    now = now or timezone.now()
    limit = now - clocks.shortest_limit()
    due = Seat.objects.filter(game__status=Game.Status.RUNNING, clock_started_at__lte=limit)
    games = sorted(set(due.values_list("game_id", flat=True)))
    return sum(_take_over(game_id, now) for game_id in games)


@transaction.atomic
def _take_over(game_id: int, now: datetime) -> int:
    game = locked(game_id)
    if game.status != Game.Status.RUNNING:
        return 0
    engine = engine_for(game.engine_slug)
    taken = 0
    for seat in clocks.timed_out(game, now):
        _hand_to_bot(game, seat, engine)
        notices.tell_taken_over(game, seat)
        taken += 1
    if taken:
        game.save(update_fields=["updated_at"])
        broadcast_on_commit(game)
    return taken
