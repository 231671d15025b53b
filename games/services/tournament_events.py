"""What happens to a tournament besides its pairing (games/services/tournaments.py): the
reminder before a live round, an async round's deadline, the organiser's cancel, and telling
the members about each.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.urls import reverse

from accounts.models import Notification, User
from accounts.services import notify
from games.models import Game, Tournament, TournamentEntry, TournamentRound
from games.services.common import GameError, announce_tournament_on_commit
from games.services.seats import hand_over_for_good

Entry = TournamentEntry


def tell(
    user_ids: list[int],
    params: dict[str, Any],
    link: str,
    kind: str = Notification.Kind.TOURNAMENT_ROUND,
) -> None:
    """Each member hears the news (a round began, starts soon, the tournament is cancelled),
    in a transaction of their own after the commit (as game nights tell theirs)."""
    for user in User.objects.filter(pk__in=user_ids).order_by("pk"):
        notify(user=user, kind=kind, params=params, link=link)


def _round(round_id: int) -> TournamentRound | None:
    return (
        TournamentRound.objects.select_for_update()
        .select_related("tournament")
        .filter(pk=round_id)
        .first()
    )


@transaction.atomic
def remind_round(*, round_id: int) -> int:
    """Tell the members of a live round that it starts soon, once."""
    round_ = _round(round_id)
    if round_ is None or round_.reminded or round_.status != TournamentRound.Status.SCHEDULED:
        return 0
    round_.reminded = True
    round_.save(update_fields=["reminded"])
    t = round_.tournament
    params = {
        "tournament": t.name,
        "round": round_.number,
        "slug": t.engine_slug,
        "starts_at": round_.starts_at.isoformat(),
    }
    registered = t.entries.filter(status=Entry.Status.REGISTERED)  # paired at the start
    users = list(registered.values_list("user_id", flat=True))
    transaction.on_commit(
        partial(tell, users, params, t.get_absolute_url(), Notification.Kind.TOURNAMENT_REMINDER),
        robust=True,
    )
    return 1


@transaction.atomic
def decide_round(*, round_id: int, now: datetime) -> int:
    """At an async round's deadline each member's seat still playing goes to a bot of the
    tournament's level for good (the member is told); returns the seats handed over."""
    round_ = _round(round_id)
    if round_ is None or round_.status != TournamentRound.Status.PLAYING:
        return 0
    if round_.deadline is None or round_.deadline > now:
        return 0
    t = round_.tournament
    handed = 0
    for table in round_.tables.filter(game__status=Game.Status.RUNNING):
        assert table.game_id is not None  # the query's: a table with a running game
        users = hand_over_for_good(game_id=table.game_id, level=t.bot_level)
        params = {
            "tournament": t.name,
            "round": round_.number,
            "slug": t.engine_slug,
            "game": table.game_id,
        }
        link = reverse("games:play", args=[table.game_id])
        kind = Notification.Kind.TOURNAMENT_DEADLINE
        transaction.on_commit(partial(tell, users, params, link, kind), robust=True)
        handed += len(users)
    return handed


def entrants(tournament: Tournament) -> list[int]:
    """The members who entered and did not withdraw, other than the organiser."""
    return list(
        tournament.entries.exclude(status=Entry.Status.WITHDRAWN)
        .exclude(user=tournament.organiser_id)
        .values_list("user_id", flat=True)
    )


@transaction.atomic
def cancel_tournament(*, tournament_id: int, user: User, confirmed: bool = False) -> Tournament:
    """The organiser calls the tournament off. When members have entered, only `confirmed`
    (the organiser was asked, on a second step); each of them is told."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise GameError("no_tournament", "There is no such tournament.")
    if tournament.organiser_id != user.pk:
        raise GameError("not_tournament_organiser", "Only its organiser cancels a tournament.")
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        raise GameError("tournament_over", "This tournament is over.")
    told = entrants(tournament)
    if told and not confirmed:
        raise GameError("tournament_confirm_cancel", "Members have entered: confirm the cancel.")
    tournament.status = Tournament.Status.CANCELLED
    tournament.save(update_fields=["status"])
    params = {"tournament": tournament.name, "organiser": user.name}
    kind = Notification.Kind.TOURNAMENT_CANCELLED
    link = tournament.get_absolute_url()
    transaction.on_commit(partial(tell, told, params, link, kind), robust=True)
    announce_tournament_on_commit(tournament.pk)  # its open pages show the cancel
    return tournament
