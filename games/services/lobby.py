"""The lobby: creating a game, taking and leaving seats, bots filling open seats, the start."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import deals
from games.clocks import MAX_DAYS_PER_MOVE
from games.engines.base import Engine
from games.models import PRACTICE_OPTION, Game, Seat
from games.services import notices
from games.services.clocks import run_clocks
from games.services.common import (
    BOT_LEVELS,
    GameError,
    announce_lobby_on_commit,
    broadcast_on_commit,
    engine_for,
    first_state_of,
    locked,
    schedule_bot_turns,
)


@transaction.atomic
def create_game(
    *,
    engine_slug: str,
    players: int,
    options: dict[str, Any] | None,
    seats: list[dict[str, Any]],
    created_by: User | None,
    seed: int | None = None,
    random_first: bool = False,
    rated: bool = True,
    days_per_move: int | None = None,
) -> Game:
    """Create a game with its seats; it starts at once when no seat is open.

    Seats are listed clockwise. With `random_first` a player drawn at random when the game
    starts plays first and the others follow clockwise (the seats are rotated, never
    shuffled): the printed rules let the table choose the first player, and the site draws
    one unless the host keeps the listed order. Until the start the seats keep the order
    the host gave.

    Each seat is `{"kind": "me" | "open" | "invite" | "bot", "bot_level": ...,
    "fill_bot_level": ..., "fill_after_minutes": int | None}`: "me" is `created_by`, a bot
    needs `bot_level`; an "open" seat is the club's (any member may take it), an "invite" seat
    only the holder of its invitation link. An open seat of either kind may name a bot to
    fill it if nobody joins within `fill_after_minutes`. An unrated game (`rated=False`, a
    friendly or practice game) keeps its results but moves nobody's rating. `days_per_move`
    is the game's time control (games/services/clocks.py); None: the site's TURN_TIMEOUT.
    """
    engine = engine_for(engine_slug)
    if type(players) is not int or not engine.min_players <= players <= engine.max_players:
        raise GameError(
            "bad_players",
            f"{engine.name} is for {engine.min_players}-{engine.max_players} players.",
            min=engine.min_players,
            max=engine.max_players,
        )
    if len(seats) != players:
        raise GameError("bad_seats", f"Expected {players} seats, got {len(seats)}.")
    if days_per_move is not None and (
        type(days_per_move) is not int or not 1 <= days_per_move <= MAX_DAYS_PER_MOVE
    ):
        raise GameError("bad_days_per_move", "Days per move: a whole number from 1 to 30.")
    if seed is None:
        seed = secrets.randbits(62)
    options = dict(options or {})
    if PRACTICE_OPTION in options:  # a practice game starts from a review (services/practice.py)
        raise GameError("bad_options", "A practice game starts from a review.")
    try:
        engine.new_game(players, seed, options)
    except ValueError as exc:
        raise GameError("bad_options", str(exc)) from None
    kinds = [seat.get("kind") for seat in seats]
    if any(kind not in ("me", "open", "invite", "bot") for kind in kinds):
        raise GameError("bad_seats", "A seat is 'me', 'open', 'invite' or 'bot'.")
    if kinds.count("me") > 1:
        raise GameError("two_seats_for_me", "A member takes at most one seat.")
    if "me" in kinds and created_by is None:
        raise GameError("bad_seats", "A seat for 'me' needs a member.")
    game = Game.objects.create(
        engine_slug=engine_slug,
        options=options,
        seed=seed,
        # The commitment to the seed is shown from the start (principle 11).
        **deals.committed(seed),
        players=players,
        created_by=created_by,
        random_first=random_first,
        rated=bool(rated),
        days_per_move=days_per_move,
    )
    now = timezone.now()
    for position, spec in enumerate(seats):
        seat = Seat(game=game, position=position)
        if spec["kind"] == "me":
            seat.user = created_by
        elif spec["kind"] == "bot":
            seat.bot_level = _level(spec.get("bot_level"))
        else:
            seat.invited = spec["kind"] == "invite"
        if spec["kind"] in ("open", "invite") and spec.get("fill_bot_level"):
            seat.fill_bot_level = _level(spec["fill_bot_level"])
            minutes = _minutes(spec.get("fill_after_minutes"))
            if minutes < 0:
                raise GameError("bad_seats", "A deadline cannot be in the past.")
            seat.fill_deadline = now + timedelta(minutes=minutes)
        seat.save()
    if "open" not in kinds and "invite" not in kinds:
        _start(game, engine)
    else:
        announce_lobby_on_commit()
    return game


def _minutes(value: Any) -> int:
    if value in (None, ""):
        return 0
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GameError("bad_seats", f"{value!r} is not a number of minutes.") from None


def _level(level: Any) -> str:
    if level not in BOT_LEVELS:
        raise GameError("bad_bot_level", f"Unknown bot level {level!r}.", level=str(level))
    return str(level)


def _draw_first_player(game: Game) -> None:
    """Rotate the seats so a player drawn at random sits first; the others follow clockwise
    (rotated, never shuffled: the listed order is the order around the table)."""
    first = secrets.randbelow(game.players)
    if first == 0:
        return
    seats = list(game.seats.order_by("position"))
    for seat in seats:  # out of the way first: (game, position) is unique
        seat.position += game.players
        seat.save(update_fields=["position"])
    for seat in seats:
        seat.position = (seat.position - game.players - first) % game.players
        seat.save(update_fields=["position"])


def _start(game: Game, engine: Engine) -> None:
    if game.random_first:
        _draw_first_player(game)
    state = first_state_of(game, engine)
    now = timezone.now()
    game.state = engine.dump(state)
    game.version = 0
    game.status = Game.Status.RUNNING
    game.started_at = game.turn_started_at = now
    game.save()
    to_move = engine.to_move(state)
    run_clocks(game, to_move, now)
    schedule_bot_turns(game, to_move)
    notices.tell_turn_if_away(game, list(game.seats.all()), to_move)
    broadcast_on_commit(game)
    announce_lobby_on_commit()


def start_created(game: Game, engine: Engine) -> None:
    """Start a game another service created with every seat taken (a practice game)."""
    _start(game, engine)


@transaction.atomic
def start_game(*, game_id: int) -> Game:
    game = locked(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError("not_open", "The game has already started.")
    if any(seat.is_open for seat in game.seats.all()):
        raise GameError("not_full", "Every seat must be taken first.")
    _start(game, engine_for(game.engine_slug))
    return game


@transaction.atomic
def join_seat(
    *,
    game_id: int,
    user: User,
    token: str | None = None,
    position: int | None = None,
    tell: bool = True,
) -> Seat:
    """Seat `user` in an open game: the seat of the invitation `token`, or else the chosen
    seat or the first one open to the club. An invited seat is taken only with its token.
    With `tell` off the members already seated are not told (a game night seats everyone at
    once and tells them it has begun)."""
    game = locked(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError("not_open", "The game is not waiting for players.")
    seats = list(game.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise GameError("already_seated", "The member already has a seat.")
    seat: Seat | None
    if token:
        given = token.encode()  # bytes: compare_digest refuses non-ASCII str
        matching = [s for s in seats if secrets.compare_digest(s.invite_token.encode(), given)]
        if not matching:
            raise GameError("bad_invite", "No seat of this game has that invitation.")
        seat = matching[0]
    elif position is not None:
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:
            raise GameError("no_open_seat", f"There is no seat {position}.")
        if seat.is_open and seat.invited:
            raise GameError("invited_only", "That seat is taken only with its invitation.")
    else:
        seat = next((s for s in seats if s.is_open_to_club), None)
        if seat is None and any(s.is_open for s in seats):
            raise GameError("invited_only", "The open seats are taken only with invitations.")
        if seat is None:
            raise GameError("no_open_seat", "Every seat is taken.")
    if not seat.is_open:
        raise GameError("no_open_seat", "That seat is taken.")
    seat.user = user
    seat.fill_deadline = None
    seat.save(update_fields=["user", "fill_deadline"])
    if tell:
        notices.tell_joined(game, seat)
    if not any(s.is_open for s in game.seats.all()):
        _start(game, engine_for(game.engine_slug))
    else:
        game.save(update_fields=["updated_at"])
        broadcast_on_commit(game)
        announce_lobby_on_commit()
    return seat


@transaction.atomic
def leave_seat(*, game_id: int, user: User) -> None:
    """Give a seat back before the game starts; it becomes open again (and gets a new invite)."""
    game = locked(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError("not_open", "Only a game that has not started can be left.")
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError("not_seated", "The member has no seat here.")
    seat.user = None
    # A new token: the old invitation may have been shared with someone who has now left.
    seat.invite_token = secrets.token_urlsafe(16)
    seat.save(update_fields=["user", "invite_token"])
    if not game.seats.filter(user__isnull=False).exists():
        # Nobody is left to wait for: the game leaves the open list rather than linger there.
        game.status = Game.Status.ABANDONED
    game.save(update_fields=["status", "updated_at"])
    broadcast_on_commit(game)
    announce_lobby_on_commit()


def fill_open_seats_with_bots(*, now: datetime | None = None) -> int:
    """Open seats whose deadline has passed get their bot (beat task); returns how many."""
    now = now or timezone.now()
    due = (
        Seat.objects.filter(
            game__status=Game.Status.OPEN,
            user__isnull=True,
            bot_level="",
            fill_deadline__lte=now,
        )
        .exclude(fill_bot_level="")
        .values_list("game_id", flat=True)
        .distinct()
    )
    return sum(_fill_game(game_id, now) for game_id in list(due))


@transaction.atomic
def _fill_game(game_id: int, now: datetime) -> int:
    game = locked(game_id)
    if game.status != Game.Status.OPEN:
        return 0
    filled = 0
    for seat in game.seats.all():
        due = seat.fill_deadline is not None and seat.fill_deadline <= now
        if seat.is_open and seat.fill_bot_level and due:
            seat.bot_level = seat.fill_bot_level
            seat.save(update_fields=["bot_level"])
            filled += 1
    if not any(seat.is_open for seat in game.seats.all()):
        _start(game, engine_for(game.engine_slug))
    elif filled:
        game.save(update_fields=["updated_at"])
        broadcast_on_commit(game)
        announce_lobby_on_commit()
    return filled
