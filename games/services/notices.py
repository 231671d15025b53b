"""What members are told about their games: someone joined, your turn, the game finished,
a bot took over your seat (stored as notifications, pushed live to their pages).

Each notice is written after the game's own transaction commits, one member at a time in a
transaction of its own: numbering a member's notifications locks that member's row, and a
move's transaction, which holds the game row, must not wait on members' rows in some order
another game's transaction may take the other way round. A process that dies between the
two loses a notice, never a move.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from accounts.services import notify
from games.models import Game, OpenPage, Seat
from games.services.common import engine_for

# A socket renews its page's row this often; a row not renewed for PAGE_STALE_AFTER belongs
# to a server that went away without closing its sockets.
PAGE_RENEW_SECONDS = 60.0
PAGE_STALE_AFTER = timedelta(seconds=3 * PAGE_RENEW_SECONDS)


def _about(game: Game) -> dict[str, Any]:
    """The parameters that name a game in a notification (its title is looked up when read)."""
    return {"game": game.pk, "slug": game.engine_slug}


def _tell(user: User, kind: str, params: dict[str, Any], link: str) -> None:
    """Stored as kind and parameters: the text is written when read, in the reader's language
    (accounts/texts.py)."""
    notify(user=user, kind=kind, params=params, link=link)


def _later(job: Any, *args: Any) -> None:
    transaction.on_commit(partial(job, *args), robust=True)


# --- someone joined ---------------------------------------------------------------------------


def tell_joined(game: Game, joined: Seat) -> None:
    """After commit: the members already seated hear that `joined`'s member took a seat."""
    _later(_deliver_joined, game.pk, joined.pk)


def _deliver_joined(game_id: int, seat_id: int) -> None:
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    if seat is None or seat.user is None:
        return
    game = seat.game
    started = game.state is not None
    link = game.get_absolute_url() if started else reverse("games:join", args=[game.pk])
    others = game.seats.exclude(pk=seat_id).filter(user__isnull=False).select_related("user")
    for other in others.order_by("user_id"):
        assert other.user is not None  # the query's: a member's seat
        _tell(
            other.user,
            Notification.Kind.JOINED,
            {**_about(game), "name": seat.user.name},
            link,
        )


# --- your turn --------------------------------------------------------------------------------


def tell_turn_if_away(
    game: Game, seats: list[Seat], to_move: list[int], mover: int | None = None
) -> None:
    """After commit: a member whose turn it now is, and who has no page of the game open,
    is told once; they are not told again until they have moved (`Seat.told_turn`). The
    seat that just moved (`mover`, still to move in a turn of several steps) is not told.

    `seats` are the game's seats as the caller holds them: a table of bots costs nothing.
    """
    if any(
        s.position in to_move
        and s.position != mover
        and s.user_id is not None
        and not s.is_bot
        and not s.told_turn
        for s in seats
    ):
        _later(deliver_turn, game.pk, mover, game.version)


def has_page_open(game_id: int, user_id: int) -> bool:
    fresh = timezone.now() - PAGE_STALE_AFTER
    return OpenPage.objects.filter(game_id=game_id, user_id=user_id, seen_at__gte=fresh).exists()


def deliver_turn(game_id: int, mover: int | None = None, version: int | None = None) -> int:
    """Tell the members to move now who are away and were not told yet; returns how many.

    Reads the game as it is now (another move may have come since) under its row lock, so a
    member's move and the `told_turn` mark cannot cross. `mover` moved last at `version`.
    """
    told = 0
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.RUNNING or game.state is None:
            return 0
        engine = engine_for(game.engine_slug)
        to_move = engine.to_move(engine.load(game.state))
        waiting = (
            game.seats.filter(position__in=to_move, user__isnull=False, told_turn=False)
            .select_related("user")
            .order_by("user_id")
        )
        for seat in waiting:
            assert seat.user is not None and seat.user_id is not None  # the query's
            if seat.position == mover and game.version == version:
                continue
            if seat.is_bot or has_page_open(game.pk, seat.user_id):
                continue
            seat.told_turn = True
            seat.save(update_fields=["told_turn"])
            _tell(
                seat.user,
                Notification.Kind.YOUR_TURN,
                _about(game),
                game.get_absolute_url(),
            )
            told += 1
    return told


# --- the end, and bots taking over ------------------------------------------------------------


def tell_finished(game: Game) -> None:
    """After commit: every member who played hears the game ended, and their place."""
    _later(_deliver_finished, game.pk)


def _deliver_finished(game_id: int) -> None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    ranks = {r.seat: r.rank for r in game.results.all()}
    for seat in game.seats.filter(user__isnull=False).select_related("user").order_by("user_id"):
        rank = ranks.get(seat.position)
        assert seat.user is not None  # the query's: a member's seat
        _tell(
            seat.user,
            Notification.Kind.FINISHED,
            {**_about(game), "place": rank, "players": game.players},
            game.get_absolute_url(),
        )


def tell_taken_over(game: Game, seat: Seat) -> None:
    """After commit: the member whose turn waited too long hears a bot plays their seat now."""
    _later(_deliver_taken_over, game.pk, seat.pk)


def _deliver_taken_over(game_id: int, seat_id: int) -> None:
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    if seat is None or seat.user is None:
        return
    _tell(
        seat.user,
        Notification.Kind.TAKEN_OVER,
        _about(seat.game),
        seat.game.get_absolute_url(),
    )


def tell_clock_running_out(game: Game, seat: Seat, deadline: Any) -> None:
    """After commit: the member whose clock runs out soon hears when (games/services/clocks)."""
    _later(_deliver_clock_warning, game.pk, seat.pk, deadline.isoformat())


def _deliver_clock_warning(game_id: int, seat_id: int, deadline: str) -> None:
    seat = Seat.objects.select_related("user", "game").filter(pk=seat_id).first()
    if seat is None or seat.user is None:
        return
    _tell(
        seat.user,
        Notification.Kind.CLOCK_WARNING,
        {**_about(seat.game), "deadline": deadline},
        seat.game.get_absolute_url(),
    )
