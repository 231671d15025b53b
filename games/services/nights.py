"""Game nights: a game scheduled for a date and time, that bots fill when it starts.

A member schedules a night (the game, the number of seats, the instant, the bot level for
empty seats, whom to invite, whether any member may join) and sits in it. Members join
before the time. The beat task (`run_game_nights`, every 30 s) reminds the invited and the
joined members 15 minutes before, and at the time starts the game through the lobby's own
services: the joined members in the order they joined, bots of the night's level in the
seats still empty. A night that no member besides its host joined is cancelled instead.

Each step locks the night's row and moves it on (reminded, started, cancelled), so a beat
task that runs twice, or two beats that overlap, remind and start once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import Notification, User
from accounts.services import notify
from games.models import GameNight, GameNightPlayer
from games.services.common import (
    BOT_LEVELS,
    GameError,
    announce_lobby_on_commit,
    announce_night_on_commit,
    engine_for,
)
from games.services.lobby import create_game, join_seat

logger = logging.getLogger(__name__)

REMINDER_BEFORE = timedelta(minutes=15)
Kind = Notification.Kind


@transaction.atomic
def schedule_night(
    *,
    host: User,
    engine_slug: str,
    players: int,
    starts_at: datetime,
    bot_level: str,
    invited: list[User] | None = None,
    open_to_club: bool = True,
    now: datetime | None = None,
) -> GameNight:
    """Schedule a game night with `host` in the first seat; the invited hear of it.

    Refused (GameError, nothing stored) for a time past or more than NIGHT_DAYS_AHEAD days
    ahead, more than NIGHT_INVITATIONS invited, or a host with NIGHTS_PER_HOST nights to come.
    """
    engine = engine_for(engine_slug)
    now = now or timezone.now()
    if type(players) is not int or not engine.min_players <= players <= engine.max_players:
        raise GameError(
            "bad_players",
            f"{engine.name} is for {engine.min_players}-{engine.max_players} players.",
            min=engine.min_players,
            max=engine.max_players,
        )
    if bot_level not in BOT_LEVELS:
        raise GameError("bad_bot_level", f"Unknown bot level {bot_level!r}.", level=str(bot_level))
    if timezone.is_naive(starts_at) or starts_at <= now:
        raise GameError("night_in_past", "A game night is scheduled for a time to come.")
    days = settings.NIGHT_DAYS_AHEAD
    if starts_at - now > timedelta(days=days):
        raise GameError("night_too_far", f"At most {days} days ahead.", days=days)
    guests = sorted({u.pk: u for u in invited or [] if u.pk != host.pk}.values(), key=_by_pk)
    if len(guests) > settings.NIGHT_INVITATIONS:
        raise GameError(
            "night_invitations",
            f"At most {settings.NIGHT_INVITATIONS} invitations a night.",
            max=settings.NIGHT_INVITATIONS,
        )
    # The host's row is locked while their nights are counted, so two requests at once
    # cannot both take the last place.
    list(User.objects.select_for_update().filter(pk=host.pk).values_list("pk"))
    upcoming = GameNight.objects.filter(
        host=host, status=GameNight.Status.SCHEDULED, starts_at__gt=now
    )
    if upcoming.count() >= settings.NIGHTS_PER_HOST:
        raise GameError(
            "night_limit",
            f"At most {settings.NIGHTS_PER_HOST} upcoming nights a host.",
            max=settings.NIGHTS_PER_HOST,
        )
    night = GameNight.objects.create(
        host=host,
        engine_slug=engine_slug,
        players=players,
        starts_at=starts_at,
        time_zone=host.time_zone,
        bot_level=bot_level,
        open_to_club=open_to_club,
    )
    night.invited.set(guests)
    GameNightPlayer.objects.create(night=night, user=host)
    _tell_after_commit([u.pk for u in guests], Kind.NIGHT_INVITED, night)
    announce_lobby_on_commit()
    return night


def _by_pk(user: User) -> int:
    return int(user.pk)


def _locked(night_id: int) -> GameNight:
    night = GameNight.objects.select_for_update().filter(pk=night_id).first()
    if night is None:
        raise GameError("no_night", "There is no such game night.")
    return night


def may_join(night: GameNight, user: User) -> bool:
    return night.open_to_club or night.invited.filter(pk=user.pk).exists()


@transaction.atomic
def join_night(*, night_id: int, user: User) -> None:
    night = _locked(night_id)
    if night.status != GameNight.Status.SCHEDULED:
        raise GameError("night_not_scheduled", "This game night is not waiting for players.")
    joined = night.players_joined.all()
    if joined.filter(user=user).exists():
        raise GameError("night_joined", "The member has joined this game night already.")
    if not may_join(night, user):
        raise GameError("night_invited_only", "Only invited members join this game night.")
    if joined.count() >= night.players:
        raise GameError("night_full", "Every seat of this game night is taken.")
    GameNightPlayer.objects.create(night=night, user=user)
    if user.pk != night.host_id:
        _tell_host_after_commit(night, user, Kind.NIGHT_JOINED)
    announce_lobby_on_commit()
    announce_night_on_commit(night.pk)


@transaction.atomic
def leave_night(*, night_id: int, user: User) -> None:
    """A member gives their seat back; the host cancels the night instead."""
    night = _locked(night_id)
    if night.status != GameNight.Status.SCHEDULED:
        raise GameError("night_not_scheduled", "This game night is not waiting for players.")
    if night.host_id == user.pk:
        raise GameError("host_leaves", "The host cancels the game night rather than leave it.")
    if not night.players_joined.filter(user=user).delete()[0]:
        raise GameError("night_not_joined", "The member has not joined this game night.")
    _tell_host_after_commit(night, user, Kind.NIGHT_LEFT)
    announce_lobby_on_commit()
    announce_night_on_commit(night.pk)


@transaction.atomic
def cancel_night(*, night_id: int, user: User) -> None:
    night = _locked(night_id)
    if night.host_id != user.pk:
        raise GameError("not_host", "Only the host cancels a game night.")
    if night.status != GameNight.Status.SCHEDULED:
        raise GameError("night_not_scheduled", "This game night is not waiting for players.")
    night.status = GameNight.Status.CANCELLED
    night.save(update_fields=["status"])
    # Each is told what the cancel means to them: the members who joined lose a seat, the
    # invited who had not joined an invitation (never "nobody joined": that is the beat's).
    joined = [p.user_id for p in night.players_joined.exclude(user=user)]
    invited = [
        pk for pk in night.invited.values_list("pk", flat=True) if pk not in {*joined, user.pk}
    ]
    host = {"host": user.name}
    _tell_after_commit(joined, Kind.NIGHT_CANCELLED, night, reason="joined", **host)
    _tell_after_commit(invited, Kind.NIGHT_CANCELLED, night, reason="invited", **host)
    announce_lobby_on_commit()
    announce_night_on_commit(night.pk)


# --- the beat task ----------------------------------------------------------------------------


def run_game_nights(*, now: datetime | None = None) -> dict[str, int]:
    """Remind the nights starting within 15 minutes, start (or cancel) the nights due."""
    now = now or timezone.now()
    scheduled = GameNight.objects.filter(status=GameNight.Status.SCHEDULED)
    to_remind = scheduled.filter(
        reminded_at__isnull=True, starts_at__gt=now, starts_at__lte=now + REMINDER_BEFORE
    ).values_list("pk", flat=True)
    due = scheduled.filter(starts_at__lte=now).values_list("pk", flat=True)
    counts = {"reminded": 0, "started": 0, "cancelled": 0}
    for night_id in list(to_remind):
        counts["reminded"] += remind_night(night_id=night_id, now=now)
    for night_id in list(due):
        try:
            outcome = start_night(night_id=night_id, now=now)
        except GameError:
            # The game could not be created (its engine was withdrawn since): give the night
            # up rather than try again every beat.
            logger.exception("Game night %s could not start", night_id)
            GameNight.objects.filter(pk=night_id, status=GameNight.Status.SCHEDULED).update(
                status=GameNight.Status.CANCELLED
            )
            outcome = "cancelled"
        if outcome:
            counts[outcome] += 1
    return counts


@transaction.atomic
def remind_night(*, night_id: int, now: datetime) -> int:
    night = _locked(night_id)
    if night.status != GameNight.Status.SCHEDULED or night.reminded_at is not None:
        return 0
    night.reminded_at = now
    night.save(update_fields=["reminded_at"])
    joined = [p.user_id for p in night.players_joined.all()]
    invited = list(night.invited.values_list("pk", flat=True))
    _tell_after_commit(sorted(set(joined) | set(invited)), Kind.NIGHT_REMINDER, night)
    return 1


@transaction.atomic
def start_night(*, night_id: int, now: datetime) -> str:
    """ "started", "cancelled", or "" when the night is not due or was dealt with already."""
    night = _locked(night_id)
    if night.status != GameNight.Status.SCHEDULED or night.starts_at > now:
        return ""
    joined = list(night.players_joined.select_related("user").order_by("pk"))
    if len(joined) < 2:
        night.status = GameNight.Status.CANCELLED
        night.save(update_fields=["status"])
        _tell_after_commit([p.user_id for p in joined], Kind.NIGHT_CANCELLED, night)
        announce_lobby_on_commit()
        announce_night_on_commit(night.pk)
        return "cancelled"
    host = next((p.user for p in joined if p.user_id == night.host_id), joined[0].user)
    guests = [p.user for p in joined if p.user_id != host.pk]
    seats: list[dict[str, Any]] = [{"kind": "me"}]
    seats += [{"kind": "invite"} for _ in guests]
    seats += [{"kind": "bot", "bot_level": night.bot_level}] * (night.players - len(joined))
    game = create_game(
        engine_slug=night.engine_slug,
        players=night.players,
        options={},
        seats=seats,
        created_by=host,
    )
    invites = list(game.seats.filter(invited=True).order_by("position"))
    for guest, seat in zip(guests, invites, strict=True):
        join_seat(game_id=game.pk, user=guest, token=seat.invite_token, tell=False)
    night.status = GameNight.Status.STARTED
    night.game = game
    night.save(update_fields=["status", "game"])
    _tell_after_commit([p.user_id for p in joined], Kind.NIGHT_STARTED, night)
    announce_lobby_on_commit()
    announce_night_on_commit(night.pk)  # its open pages fetch their live part: the game's link
    return "started"


# --- telling members --------------------------------------------------------------------------


def _params(night: GameNight, kind: str) -> dict[str, Any]:
    params: dict[str, Any] = {"night": night.pk, "slug": night.engine_slug}
    if kind == Kind.NIGHT_STARTED and night.game_id:
        params["game"] = night.game_id
    else:
        params["starts_at"] = night.starts_at.isoformat()
    if kind == Kind.NIGHT_INVITED:
        params["host"] = night.host.name
    return params


def _tell_after_commit(user_ids: list[int], kind: str, night: GameNight, **extra: Any) -> None:
    """Each member is told in a transaction of their own after the night's commits (as games
    tell their members: numbering a member's notifications locks the member's row). `extra`
    joins the notice's parameters (who joined or left, why the night was cancelled)."""
    if not user_ids:
        return
    params = {**_params(night, kind), **extra}
    link = (
        night.game.get_absolute_url()
        if kind == Kind.NIGHT_STARTED and night.game is not None
        else night.get_absolute_url()
    )
    transaction.on_commit(partial(_deliver, list(user_ids), kind, params, link), robust=True)


def _tell_host_after_commit(night: GameNight, member: User, kind: str) -> None:
    """The host hears that `member` joined or left, in at most one unread notice per member and
    night: a member who joins and leaves again and again replaces their unread notice (the
    host reads where they stand now) rather than add one each time. Once the host has read
    it, the next change is a new notice. (These notices are never e-mailed.)"""
    params = {**_params(night, kind), "name": member.name, "member": member.pk}
    transaction.on_commit(
        partial(_deliver_change, night.host_id, kind, params, night.get_absolute_url()),
        robust=True,
    )


def _deliver_change(host_id: int, kind: str, params: dict[str, Any], link: str) -> None:
    host = User.objects.filter(pk=host_id).first()
    if host is None:
        return
    with transaction.atomic():
        unread = Notification.objects.filter(
            user=host,
            read_at__isnull=True,
            kind__in=[Kind.NIGHT_JOINED, Kind.NIGHT_LEFT],
            params__night=params["night"],
            params__member=params["member"],
        )
        unread.delete()
    notify(user=host, kind=kind, params=params, link=link)


def _deliver(user_ids: list[int], kind: str, params: dict[str, Any], link: str) -> None:
    for user in User.objects.filter(pk__in=user_ids).order_by("pk"):
        notify(user=user, kind=kind, params=params, link=link)
