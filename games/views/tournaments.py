"""Tournaments: the list, creating one, its page (entry, rounds, standings), the standings as
CSV and JSON, the rounds as a calendar file, and the organiser's cancel."""

from __future__ import annotations

import csv
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.requests import MemberRequest
from games import error_texts, rendering
from games.calendar_forms import TournamentForm
from games.models import Tournament, TournamentEntry
from games.pairing import TIEBREAKS
from games.services import GameError, tournament_events, tournaments
from games.views.common import CalendarEntry, calendar_end, calendar_file
from infra.requests import HtmxRequest

Entry = TournamentEntry.Status


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    rows = Tournament.objects.exclude(status=Tournament.Status.CANCELLED).select_related(
        "organiser"
    )[:100]
    items = [{"t": t, "title": rendering.game_name(t.engine_slug)} for t in rows]
    return render(
        request,
        "games/tournaments.html",
        {"items": items, "may_organise": tournaments.may_organise(request.user)},
    )


@require_http_methods(["GET", "POST"])
@login_required
def new(request: MemberRequest) -> HttpResponse:
    if not tournaments.may_organise(request.user):
        messages.error(request, error_texts.describe(GameError("not_organiser", "")))
        return redirect("games:tournaments")
    form = TournamentForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournaments.create_tournament(
                organiser=request.user,
                name=data["name"],
                engine_slug=data["engine_slug"],
                format=data["format"],
                table_size=data["table_size"],
                capacity=data["capacity"],
                bot_level=data["bot_level"],
                first_round_at=data["first_round_at"],
                round_interval=timedelta(minutes=data["round_minutes"] or 0),
                rounds=data["rounds"],
                **(
                    {"round_days": data["round_days"], "days_per_move": data["days_per_move"]}
                    if data["pace"] == "async"
                    else {}
                ),
            )
        except GameError as exc:
            form.add_error(None, error_texts.describe(exc))
        else:
            messages.success(request, _("The tournament is created."))
            return redirect(tournament)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/tournament_new.html", {"form": form}, status=status)


def standing_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings with each entry's member and whether they withdrew (bots are never
    ranked: they have no entry)."""
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    return [
        {
            "place": row.place,
            "entry": entries[row.member],
            "name": entries[row.member].user.name,
            "withdrawn": entries[row.member].status == Entry.WITHDRAWN,
            "points": row.points,
            "score": row.score,
            "opponents": row.opponents,
            "played": row.played,
        }
        for row in tournaments.standings(tournament)
    ]


def number(value: Any) -> str:
    """Points are whole or halves (a shared place); Buchholz sums may be thirds."""
    return str(int(value)) if value == int(value) else f"{float(value):.2f}".rstrip("0")


@require_GET
def tournament(request: HtmxRequest, tournament_id: int) -> HttpResponse:
    """The tournament's page; over htmx (a hint from the lobby socket, or the socket opening
    again) only its live part: the entries, the standings and the rounds' tables."""
    t = get_object_or_404(Tournament.objects.select_related("organiser"), pk=tournament_id)
    entries = list(t.entries.select_related("user").order_by("pk"))
    mine = next((e for e in entries if e.user_id == request.user.pk), None)
    rounds: list[dict[str, Any]] = []
    for round_ in t.rounds.prefetch_related("tables__game__seats__user"):
        tables = []
        for table in round_.tables.all():
            seats = list(table.game.seats.all()) if table.game else []
            tables.append({"table": table, "seats": seats})
        rounds.append({"round": round_, "tables": tables})
    rows = standing_rows(t)
    for row in rows:
        for key in ("points", "score", "opponents"):
            row[key] = number(row[key])
    open_entry = t.status == Tournament.Status.REGISTRATION or tournaments.may_enter_late(t)
    active = mine is not None and mine.status != Entry.WITHDRAWN
    template = "games/tournament.html#tournament-part" if request.htmx else "games/tournament.html"
    return render(
        request,
        template,
        {
            "t": t,
            "title": rendering.game_name(t.engine_slug),
            "registered": [e for e in entries if e.status == Entry.REGISTERED],
            "waitlisted": [e for e in entries if e.status == Entry.WAITLISTED],
            "mine": mine if active else None,
            "can_register": request.user.is_authenticated and open_entry and not active,
            "can_withdraw": active
            and t.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
            "rounds": rounds,
            "rounds_finished": sum(r["round"].status == r["round"].Status.FINISHED for r in rounds),
            "rows": rows,
            "final": t.status == Tournament.Status.FINISHED,
        },
    )


def _act(request: HttpRequest, tournament_id: int, action: Any, done: str) -> HttpResponse:
    t = get_object_or_404(Tournament, pk=tournament_id)
    try:
        action(tournament_id=t.pk, user=request.user)
    except GameError as exc:
        messages.error(request, error_texts.describe(exc))
    else:
        messages.success(request, done)
    return redirect(t)


@require_POST
@login_required
def register(request: MemberRequest, tournament_id: int) -> HttpResponse:
    return _act(request, tournament_id, tournaments.register, _("You have entered the tournament."))


@require_POST
@login_required
def withdraw(request: MemberRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        tournaments.withdraw,
        _("You have withdrawn; a bot plays your seat in a game still running."),
    )


EXPORT_FIELDS = ["place", "member", "withdrawn", "points", "score", "opponents", "played"]


def _export_rows(tournament_id: int) -> tuple[Tournament, list[dict[str, Any]]]:
    t = get_object_or_404(Tournament, pk=tournament_id)
    rows = [
        {
            "place": r["place"],
            "member": r["entry"].user.username,
            "withdrawn": r["withdrawn"],
            "points": number(r["points"]),
            "score": r["score"],
            "opponents": number(r["opponents"]),
            "played": r["played"],
        }
        for r in standing_rows(t)
    ]
    return t, rows


@require_GET
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t, rows = _export_rows(tournament_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{t.pk}-standings.csv"'
    writer = csv.DictWriter(response, fieldnames=EXPORT_FIELDS)
    writer.writeheader()
    writer.writerows(rows)
    return response


@require_GET
def standings_json(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t, rows = _export_rows(tournament_id)
    return JsonResponse(
        {
            "tournament": t.pk,
            "name": t.name,
            "game": t.engine_slug,
            "format": t.format,
            "status": t.status,
            "tiebreaks": list(TIEBREAKS),
            "standings": rows,
        }
    )


@require_GET
def calendar(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The rounds as an iCalendar file: a live round at its time, an async round from its
    start to its deadline (known once it started; the first round's from the start)."""
    t = get_object_or_404(Tournament, pk=tournament_id)
    entries = []
    for round_ in t.rounds.all():
        ends = round_.deadline
        if ends is None and t.is_async:
            if round_.number > 1:
                continue  # starts when the round before is scored: no date yet
            ends = round_.starts_at + timedelta(days=t.round_days or 0)
        entries.append(
            CalendarEntry(
                uid=f"tournament-{t.pk}-round-{round_.number}",
                starts_at=round_.starts_at,
                ends_at=ends or calendar_end(round_.starts_at),
                summary=_("%(tournament)s: round %(round)s")
                % {"tournament": t.name, "round": round_.number},
                path=t.get_absolute_url(),
                cancelled=t.status == Tournament.Status.CANCELLED,
            )
        )
    return calendar_file(request, entries, filename=f"tournament-{t.pk}.ics", product="Tournaments")


@require_http_methods(["GET", "POST"])
@login_required
def cancel(request: MemberRequest, tournament_id: int) -> HttpResponse:
    """The organiser's cancel. When members have entered, a second step asks to confirm and
    says who will be told; the service refuses an unconfirmed cancel too."""
    t = get_object_or_404(Tournament, pk=tournament_id)
    told = tournament_events.entrants(t)
    confirmed = request.POST.get("confirm") == "yes"
    if request.method == "GET" or (told and not confirmed and t.organiser_id == request.user.pk):
        if t.organiser_id != request.user.pk:
            return redirect(t)
        return render(request, "games/tournament_cancel.html", {"t": t, "told": len(told)})
    try:
        tournament_events.cancel_tournament(
            tournament_id=t.pk, user=request.user, confirmed=confirmed
        )
    except GameError as exc:
        messages.error(request, error_texts.describe(exc))
    else:
        messages.success(request, _("The tournament is cancelled."))
    return redirect(t)
