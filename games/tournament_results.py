"""Tournaments on the club page and on profiles: the running ones, the last finished with their
winners, and a member's tournaments with their final place.

The final places are kept on the entries when a tournament finishes
(games/services/tournaments.finish_tournament), so each list is one or two queries whatever
the number of games and tournaments. Bots have no entry: they are never ranked here either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, Subquery

from games.models import Tournament, TournamentEntry

# How many of each list the club page shows.
CLUB_LIST = 5


def club_tournaments() -> dict[str, Sequence[Tournament]]:
    """The running tournaments, and the last finished ones each with `winners`: the entries
    placed first (members sharing the first place are all winners)."""
    running = list(
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .annotate(
            rounds_played=Count("rounds", filter=Q(rounds__status="finished")),
            rounds_total=Count("rounds"),
        )
        .order_by("-created_at", "-pk")[:CLUB_LIST]
    )
    winners = TournamentEntry.objects.filter(final_place=1).select_related("user").order_by("pk")
    finished = list(
        Tournament.objects.filter(status=Tournament.Status.FINISHED)
        .prefetch_related(Prefetch("entries", queryset=winners, to_attr="winners"))
        .order_by("-created_at", "-pk")[:CLUB_LIST]
    )
    return {"running": running, "finished": finished}


def member_tournaments(user: Any) -> list[dict[str, Any]]:
    """The tournaments a member played (was paired in at least once), newest first: the final
    place and how many were ranked, or None for one still running."""
    ranked = (
        TournamentEntry.objects.filter(tournament=OuterRef("tournament"), final_place__isnull=False)
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    entries = (
        TournamentEntry.objects.filter(
            user=user,
            first_round__isnull=False,
            tournament__status__in=[Tournament.Status.RUNNING, Tournament.Status.FINISHED],
        )
        .select_related("tournament")
        .annotate(of=Subquery(ranked, output_field=IntegerField()))
        .order_by("-tournament__created_at", "-tournament__pk")
    )
    return [
        {
            "tournament": entry.tournament,
            "running": entry.tournament.status == Tournament.Status.RUNNING,
            "place": entry.final_place,
            "of": entry.of,
            "withdrawn": entry.status == TournamentEntry.Status.WITHDRAWN,
        }
        for entry in entries
    ]
