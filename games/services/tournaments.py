"""Tournaments: an organiser's competition in one game, in rounds of tables that bots complete.

An organiser (permission `games.organise_tournament`) creates a tournament: its game, format
(Swiss over a number of rounds, or round robin: table_size + 1 rounds, games/pairing.py),
table size, places (beyond them members join a waiting list), the bot level for empty seats,
the start of the first round, and how rounds are played:
- live: each round at its time (the first round's, then `round_interval` apart), its games on
  the site's turn timeout; its members are reminded TOURNAMENT_REMINDER before it starts;
- async: each round lasts `round_days` from its start and starts as soon as the round before
  is scored; its games run on a clock of `days_per_move` (games/clocks.py; vacations pause it).
  At the round's deadline, every member's seat still playing is handed to a bot of the
  tournament's level, which plays it to the end from the position as it stands (the take-over
  of a timed-out seat, but final: the member cannot take it back), and the member is told.

The beat task (`run_tournaments`, every 30 s) closes the rounds whose games are all scored
and starts each round at its time once the round before it is closed: it pairs the members
registered then (Swiss: by the standings; round robin: the schedule fixed at the first round,
a withdrawn member's seat going to a bot) and creates each table's game through the lobby's
own services, as a game night does, with bots of the tournament's level in the seats left;
each member at a table is notified (and e-mailed, with the game nights' switch).
A tournament with fewer than two members at its first round is cancelled.

A member withdraws at any time: a game they are playing is resigned (a bot plays the seat on,
as after any resignation), they are paired no more, and the first member waiting takes the
place. A Swiss tournament takes late entries until its last round starts; they start at 0.

Its organiser cancels a tournament before it finishes (confirming it when members have
entered): its entrants are told in their language; no round starts or closes any more, and the
games still running go on as ordinary games, rated as any game is, with their links kept on
the tournament page.

Every step locks the tournament's row and moves it on, so two beats at once start a round once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import pairing
from games.clocks import MAX_DAYS_PER_MOVE
from games.models import (
    MAX_ROUND_DAYS,
    Game,
    Result,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from games.services.common import (
    BOT_LEVELS,
    GameError,
    announce_lobby_on_commit,
    announce_tournament_on_commit,
    engine_for,
)
from games.services.lobby import create_game, join_seat
from games.services.seats import resign
from games.services.tournament_events import (  # noqa: F401 (cancel_tournament, entrants)
    cancel_tournament,
    decide_round,
    entrants,
    remind_round,
    tell,
)

logger = logging.getLogger(__name__)

Entry = TournamentEntry
MAX_SWISS_ROUNDS = 12
MAX_PLACES = 200


def may_organise(user: Any) -> bool:
    return bool(user.is_authenticated and user.has_perm("games.organise_tournament"))


def round_count(format: str, table_size: int, rounds: int | None) -> int:
    if format == Tournament.Format.ROUND_ROBIN:
        return table_size + 1
    return rounds or 0


@transaction.atomic
def create_tournament(
    *,
    organiser: User,
    name: str,
    engine_slug: str,
    format: str,
    table_size: int,
    capacity: int,
    bot_level: str,
    first_round_at: datetime,
    round_interval: timedelta,
    rounds: int | None = None,
    round_days: int | None = None,
    days_per_move: int | None = None,
    now: datetime | None = None,
) -> Tournament:
    """Create a tournament with its rounds scheduled: live rounds `round_interval` apart, or,
    with `round_days`, async rounds of that many days on a clock of `days_per_move`. Refused
    (GameError, nothing stored) for a member without the permission, a table size outside
    the game's player counts, a number of rounds, places or days out of bounds, or a first
    round not to come."""
    if not may_organise(organiser):
        raise GameError("not_organiser", "Only an organiser creates tournaments.")
    engine = engine_for(engine_slug)
    now = now or timezone.now()
    if format not in Tournament.Format.values:
        raise GameError("bad_format", f"Unknown format {format!r}.", format=str(format))
    if type(table_size) is not int or not engine.min_players <= table_size <= engine.max_players:
        raise GameError(
            "bad_players",
            f"{engine.name} is for {engine.min_players}-{engine.max_players} players.",
            min=engine.min_players,
            max=engine.max_players,
        )
    if bot_level not in BOT_LEVELS:
        raise GameError("bad_bot_level", f"Unknown bot level {bot_level!r}.", level=str(bot_level))
    count = round_count(format, table_size, rounds)
    if not 1 <= count <= MAX_SWISS_ROUNDS:
        raise GameError(
            "tournament_rounds", f"1 to {MAX_SWISS_ROUNDS} rounds.", max=MAX_SWISS_ROUNDS
        )
    if type(capacity) is not int or not 2 <= capacity <= MAX_PLACES:
        raise GameError("tournament_places", f"2 to {MAX_PLACES} places.", max=MAX_PLACES)
    if timezone.is_naive(first_round_at) or first_round_at <= now:
        raise GameError("tournament_in_past", "The first round is at a time to come.")
    if first_round_at - now > timedelta(days=settings.NIGHT_DAYS_AHEAD):
        raise GameError("tournament_too_far", "The first round is too far ahead.")
    if round_days is None and not timedelta(0) <= round_interval <= timedelta(days=7):
        raise GameError("tournament_interval", "At most a week between rounds.")
    if round_days is not None:
        if type(round_days) is not int or not 1 <= round_days <= MAX_ROUND_DAYS:
            raise GameError(
                "tournament_round_days", f"1 to {MAX_ROUND_DAYS} days.", max=MAX_ROUND_DAYS
            )
        if type(days_per_move) is not int or not 1 <= days_per_move <= MAX_DAYS_PER_MOVE:
            raise GameError("bad_days_per_move", "Days per move: a whole number from 1 to 30.")
        # Each async round starts when the one before is scored: none waits for a time.
        round_interval = timedelta(0)
    else:
        days_per_move = None
    tournament = Tournament.objects.create(
        name=name.strip()[:100] or engine.name,
        organiser=organiser,
        engine_slug=engine_slug,
        format=format,
        table_size=table_size,
        capacity=capacity,
        bot_level=bot_level,
        round_days=round_days,
        days_per_move=days_per_move,
    )
    TournamentRound.objects.bulk_create(
        TournamentRound(
            tournament=tournament, number=n, starts_at=first_round_at + round_interval * (n - 1)
        )
        for n in range(1, count + 1)
    )
    return tournament


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise GameError("no_tournament", "There is no such tournament.")
    return tournament


def _registered(tournament: Tournament) -> Any:
    return tournament.entries.filter(status=Entry.Status.REGISTERED)


def may_enter_late(tournament: Tournament) -> bool:
    """A Swiss tournament takes members until its last round starts."""
    return (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format == Tournament.Format.SWISS
        and tournament.rounds.filter(status=TournamentRound.Status.SCHEDULED).exists()
    )


@transaction.atomic
def register(*, tournament_id: int, user: User) -> TournamentEntry:
    """Enter `user`: registered while places remain, else on the waiting list."""
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.REGISTRATION and not may_enter_late(tournament):
        raise GameError("tournament_closed", "This tournament takes no more entries.")
    entry = tournament.entries.filter(user=user).first()
    if entry is not None and entry.status != Entry.Status.WITHDRAWN:
        raise GameError("tournament_entered", "The member has entered this tournament already.")
    if entry is not None and entry.first_round is not None:
        raise GameError("tournament_withdrawn", "A member who withdrew does not enter again.")
    full = _registered(tournament).count() >= tournament.capacity
    status = Entry.Status.WAITLISTED if full else Entry.Status.REGISTERED
    announce_lobby_on_commit()
    announce_tournament_on_commit(tournament.pk)  # its open pages fetch their entries again
    if entry is None:
        return TournamentEntry.objects.create(tournament=tournament, user=user, status=status)
    # Withdrawn before playing: enters again at the end of the queue.
    entry.delete()
    return TournamentEntry.objects.create(tournament=tournament, user=user, status=status)


@transaction.atomic
def withdraw(*, tournament_id: int, user: User) -> None:
    """The member leaves: a bot plays their running game on, they are paired no more, and the
    first member on the waiting list takes the place."""
    tournament = _locked(tournament_id)
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        raise GameError("tournament_over", "This tournament is over.")
    entry = tournament.entries.filter(user=user).exclude(status=Entry.Status.WITHDRAWN).first()
    if entry is None:
        raise GameError("tournament_not_entered", "The member has not entered this tournament.")
    had_place = entry.status == Entry.Status.REGISTERED
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    announce_lobby_on_commit()
    announce_tournament_on_commit(tournament.pk)
    for table in TournamentTable.objects.filter(
        round__tournament=tournament, game__status=Game.Status.RUNNING
    ).select_related("game"):
        if entry.pk in table.entries and table.game is not None:
            seat = table.game.seats.filter(user=user, resigned=False).first()
            if seat is not None:
                resign(game_id=table.game.pk, user=user)
    if had_place:
        waiting = tournament.entries.filter(status=Entry.Status.WAITLISTED).order_by("pk").first()
        if waiting is not None:
            waiting.status = Entry.Status.REGISTERED
            waiting.save(update_fields=["status"])


# --- the beat task ----------------------------------------------------------------------------


def run_tournaments(*, now: datetime | None = None) -> dict[str, int]:
    """Remind the members of the live rounds soon to start, hand the seats of the async rounds
    past their deadline to bots, close the rounds whose games are scored, start the rounds
    due (beat task)."""
    now = now or timezone.now()
    counts = dict.fromkeys(["reminded", "decided", "closed", "started", "cancelled", "finished"], 0)
    soon = TournamentRound.objects.filter(
        status=TournamentRound.Status.SCHEDULED,
        reminded=False,
        tournament__round_days__isnull=True,
        tournament__status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING],
        starts_at__gt=now,
        starts_at__lte=now + timedelta(seconds=settings.TOURNAMENT_REMINDER),
    )
    for round_id in list(soon.values_list("pk", flat=True)):
        counts["reminded"] += remind_round(round_id=round_id)
    # A cancelled tournament's rounds are left as they are: its games go on as ordinary ones.
    playing = TournamentRound.objects.filter(
        status=TournamentRound.Status.PLAYING, tournament__status=Tournament.Status.RUNNING
    )
    for round_id in list(playing.filter(deadline__lte=now).values_list("pk", flat=True)):
        counts["decided"] += decide_round(round_id=round_id, now=now)
    for round_id in list(playing.values_list("pk", flat=True)):
        counts["closed"] += close_round(round_id=round_id, now=now)
    due = TournamentRound.objects.filter(
        status=TournamentRound.Status.SCHEDULED,
        starts_at__lte=now,
        tournament__status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING],
    ).order_by("number")
    for tournament_id in sorted(set(due.values_list("tournament_id", flat=True))):
        try:
            outcome = start_next_round(tournament_id=tournament_id, now=now)
        except GameError:
            logger.exception("Tournament %s could not start a round", tournament_id)
            with transaction.atomic():
                Tournament.objects.filter(pk=tournament_id).update(
                    status=Tournament.Status.CANCELLED
                )
                announce_lobby_on_commit()
                announce_tournament_on_commit(tournament_id)
            outcome = "cancelled"
        if outcome:
            counts[outcome] += 1
    for tournament_id in list(
        Tournament.objects.filter(status=Tournament.Status.RUNNING).values_list("pk", flat=True)
    ):
        counts["finished"] += finish_tournament(tournament_id=tournament_id)
    return counts


@transaction.atomic
def close_round(*, round_id: int, now: datetime) -> int:
    round_ = TournamentRound.objects.select_for_update().get(pk=round_id)
    if round_.status != TournamentRound.Status.PLAYING:
        return 0
    games = [t.game_id for t in round_.tables.all() if t.game_id]
    open_games = Game.objects.filter(pk__in=games).exclude(
        status__in=[Game.Status.FINISHED, Game.Status.ABANDONED]
    )
    scored = Result.objects.filter(game__in=games).values("game").distinct().count()
    finished = Game.objects.filter(pk__in=games, status=Game.Status.FINISHED).count()
    if open_games.exists() or scored < finished:
        return 0
    round_.status = TournamentRound.Status.FINISHED
    round_.save(update_fields=["status"])
    announce_lobby_on_commit()
    announce_tournament_on_commit(round_.tournament_id)  # its open pages show the round closed
    return 1


@transaction.atomic
def start_next_round(*, tournament_id: int, now: datetime) -> str:
    """ "started", "cancelled" or "" (not due, or the round before still playing)."""
    tournament = _locked(tournament_id)
    round_ = tournament.rounds.filter(status=TournamentRound.Status.SCHEDULED).first()
    if round_ is None or round_.starts_at > now:
        return ""
    if tournament.rounds.filter(status=TournamentRound.Status.PLAYING).exists():
        return ""
    if tournament.is_async:  # the round starts now, and has its days from now
        round_.starts_at = now
        round_.deadline = now + timedelta(days=tournament.round_days or 0)
    entries = list(_registered(tournament).select_related("user").order_by("pk"))
    if tournament.status == Tournament.Status.REGISTRATION:
        if len(entries) < 2:
            tournament.status = Tournament.Status.CANCELLED
            tournament.save(update_fields=["status"])
            announce_lobby_on_commit()
            announce_tournament_on_commit(tournament.pk)
            return "cancelled"
        tournament.status = Tournament.Status.RUNNING
        tournament.order = [e.pk for e in entries]
        tournament.save(update_fields=["status", "order"])
        # The waiting list had no place: it is closed now.
        tournament.entries.filter(status=Entry.Status.WAITLISTED).update(
            status=Entry.Status.WITHDRAWN
        )
    tables = pair_round(tournament, round_.number, entries)
    by_id = {e.pk: e for e in entries}
    for number, seats in enumerate(tables, start=1):
        game = _create_table_game(tournament, [by_id.get(s) if s else None for s in seats])
        TournamentTable.objects.create(round=round_, number=number, entries=seats, game=game)
        params = {
            "tournament": tournament.name,
            "round": round_.number,
            "slug": tournament.engine_slug,
            "game": game.pk,
        }
        if round_.deadline is not None:
            params["deadline"] = round_.deadline.isoformat()
        users = [by_id[s].user_id for s in seats if s]
        transaction.on_commit(partial(tell, users, params, game.get_absolute_url()), robust=True)
    for entry in entries:
        if entry.first_round is None:
            entry.first_round = round_.number
            entry.save(update_fields=["first_round"])
    round_.status = TournamentRound.Status.PLAYING
    round_.save(update_fields=["status", "starts_at", "deadline"])
    announce_lobby_on_commit()
    announce_tournament_on_commit(tournament.pk)  # its open pages show the round's tables
    return "started"


def pair_round(
    tournament: Tournament, number: int, entries: list[TournamentEntry]
) -> list[list[int | None]]:
    """Round `number`'s tables: each a list of entry ids in seat order, None for a bot."""
    active = [e.pk for e in entries]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        schedule = pairing.round_robin(tournament.order, tournament.table_size)
        tables = []
        for table in schedule[number - 1]:
            seats = [m if m in active else pairing.BOT for m in table]
            members = [m for m in seats if m is not pairing.BOT]
            if members:
                tables.append(members + [pairing.BOT] * (len(seats) - len(members)))
        return tables
    order = [row.member for row in standings(tournament) if row.member in active]
    order += [m for m in active if m not in order]
    return pairing.pair_swiss(order, tournament.table_size, pairing.meetings(_schedule(tournament)))


def _create_table_game(tournament: Tournament, seats: list[TournamentEntry | None]) -> Game:
    members = [e.user for e in seats if e is not None]
    spec: list[dict[str, Any]] = [
        {"kind": "bot", "bot_level": tournament.bot_level} if e is None else {"kind": "invite"}
        for e in seats
    ]
    spec[0] = {"kind": "me"}
    game = create_game(
        engine_slug=tournament.engine_slug,
        players=len(seats),
        options={},
        seats=spec,
        created_by=members[0],
        days_per_move=tournament.days_per_move,
    )
    invites = list(game.seats.filter(invited=True).order_by("position"))
    for user, seat in zip(members[1:], invites, strict=True):
        join_seat(game_id=game.pk, user=user, token=seat.invite_token, tell=False)
    return game


@transaction.atomic
def finish_tournament(*, tournament_id: int) -> int:
    tournament = _locked(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        return 0
    if tournament.rounds.exclude(status=TournamentRound.Status.FINISHED).exists():
        return 0
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    # The final ranking is kept on the entries: profiles and the club page read a row each.
    places = {row.member: row.place for row in standings(tournament)}
    for entry in tournament.entries.filter(pk__in=places):
        entry.final_place = places[entry.pk]
        entry.save(update_fields=["final_place"])
    announce_lobby_on_commit()
    announce_tournament_on_commit(tournament.pk)  # its open pages show the final ranking
    return 1


# --- standings --------------------------------------------------------------------------------


def _schedule(tournament: Tournament) -> list[list[list[int | None]]]:
    rounds: dict[int, list[list[int | None]]] = {}
    for table in TournamentTable.objects.filter(round__tournament=tournament).select_related(
        "round"
    ):
        rounds.setdefault(table.round.number, []).append(table.entries)
    return [rounds[n] for n in sorted(rounds)]


def played_tables(tournament: Tournament) -> list[list[pairing.Seat[int]]]:
    """The scored tables of the tournament: each seat's entry (None for a bot), rank and score."""
    tables = TournamentTable.objects.filter(
        round__tournament=tournament, game__status=Game.Status.FINISHED
    ).order_by("round__number", "number")
    results: dict[int, dict[int, Result]] = {}
    for result in Result.objects.filter(game__tournament_table__round__tournament=tournament):
        results.setdefault(result.game_id, {})[result.seat] = result
    played = []
    for table in tables:
        scored = results.get(table.game_id or 0, {})
        if len(scored) != len(table.entries):
            continue
        played.append(
            [
                pairing.Seat(entry, scored[pos].rank, scored[pos].score)
                for pos, entry in enumerate(table.entries)
            ]
        )
    return played


def standings(tournament: Tournament) -> list[pairing.Standing[int]]:
    """Every member who entered and played or is registered, best first (pairing.TIEBREAKS)."""
    entries = list(
        tournament.entries.filter(
            status__in=[Entry.Status.REGISTERED, Entry.Status.WITHDRAWN],
            first_round__isnull=False,
        ).order_by("pk")
    )
    if tournament.status == Tournament.Status.REGISTRATION:
        entries = list(_registered(tournament).order_by("pk"))
    return pairing.standings([e.pk for e in entries], played_tables(tournament))
