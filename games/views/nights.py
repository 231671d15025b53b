"""Game nights: schedule one, its page (join, leave, cancel), and its calendar file."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import search
from accounts.requests import MemberRequest
from games import error_texts, rendering, services
from games.calendar_forms import GameNightForm
from games.forms import playable_games
from games.models import GameNight
from games.services.nights import may_join
from games.views.common import CalendarEntry, calendar_end, calendar_file, int_param


def get_night(night_id: int, user: Any) -> GameNight:
    """The night, if `user` may see it: a night closed to the club is its host's, its invited
    and its joined members' only (the others get a 404, as for a night that does not exist)."""
    night = get_object_or_404(
        GameNight.objects.select_related("host", "game").prefetch_related(
            "players_joined__user", "invited"
        ),
        pk=night_id,
    )
    members = {night.host_id, *(u.pk for u in night.invited.all())}
    members |= {p.user_id for p in night.players_joined.all()}
    if not night.open_to_club and user.pk not in members:
        raise Http404
    return night


@require_http_methods(["GET", "POST"])
@login_required
def new(request: MemberRequest) -> HttpResponse:
    form = GameNightForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            night = services.schedule_night(
                host=request.user,
                engine_slug=data["engine_slug"],
                players=data["players"],
                starts_at=data["starts_at"],
                bot_level=data["bot_level"],
                invited=list(data["invited"]),
                open_to_club=data["open_to_club"],
            )
        except services.GameError as exc:
            form.add_error(None, error_texts.describe(exc))
        else:
            messages.success(request, _("The game night is scheduled."))
            return redirect(night)
    status = 400 if request.method == "POST" else 200
    chosen = chosen_members(request.POST.getlist("invited"), request.user)
    # Each game's player counts, {slug: [fewest, most]}: the page offers the chosen game's
    # counts only (static/js/site.js); the service checks the count again.
    counts = {info.slug: [info.min_players, info.max_players] for info in playable_games()}
    context = {"form": form, "chosen": chosen, "player_counts": json.dumps(counts)}
    return render(request, "games/night_new.html", context, status=status)


def chosen_members(raw_ids: list[str], user: Any) -> list[Any]:
    """The members already ticked for an invitation (their ids as the form sent them)."""
    from accounts.models import User

    ids = {n for n in (int_param(raw) for raw in raw_ids) if n is not None} - {user.pk}
    return list(User.objects.filter(pk__in=ids, is_active=True).order_by("username"))


@require_GET
@login_required
def invite_search(request: MemberRequest) -> HttpResponse:
    """The night form's member search (htmx): the members ticked so far, still ticked, then
    the members whose name or username matches what was typed."""
    chosen = chosen_members(request.GET.getlist("invited"), request.user)
    query = request.GET.get("q", "")[:100]
    exclude = {request.user.pk, *(m.pk for m in chosen)}
    refused = ""
    matches: list[Any] = []
    if query.strip() and not search.allow_search(request.user):
        refused = error_texts.limit_text("search_limit", settings.SEARCHES_PER_MINUTE)
    else:
        matches = search.find_members(query, exclude=exclude)
    return render(
        request,
        "games/_invite_choices.html",
        {"chosen": chosen, "matches": matches, "query": query.strip(), "refused": refused},
    )


def night_context(night: GameNight, user: Any) -> dict[str, Any]:
    joined = [p.user for p in night.players_joined.all()]
    is_scheduled = night.status == GameNight.Status.SCHEDULED
    mine = any(u.pk == user.pk for u in joined)
    return {
        "night": night,
        "title": rendering.game_name(night.engine_slug),
        "joined": joined,
        "invited": list(night.invited.all()),
        "open_seats": range(max(night.players - len(joined), 0)),
        "is_host": night.host_id == user.pk,
        "mine": mine,
        "can_join": is_scheduled
        and not mine
        and len(joined) < night.players
        and may_join(night, user),
        "can_leave": is_scheduled and mine and night.host_id != user.pk,
        "can_cancel": is_scheduled and night.host_id == user.pk,
        # Once started, the table as it is: the members seated and the bots in the seats
        # nobody took (never "open seat" any more).
        "seats": (
            list(night.game.seats.select_related("user").order_by("position"))
            if night.game is not None
            else []
        ),
    }


@require_GET
@login_required
def night(request: MemberRequest, night_id: int) -> HttpResponse:
    """The night's page; over htmx (a hint from the lobby socket, or the socket opening
    again) only its live part: the status, the seats and what the member can do."""
    context = night_context(get_night(night_id, request.user), request.user)
    template = "games/night.html#night-part" if request.htmx else "games/night.html"
    return render(request, template, context)


def _act(request: HttpRequest, night_id: int, action: Any, done: str) -> HttpResponse:
    night = get_night(night_id, request.user)
    try:
        action(night_id=night.pk, user=request.user)
    except services.GameError as exc:
        messages.error(request, error_texts.describe(exc))
    else:
        messages.success(request, done)
    return redirect(night)


@require_POST
@login_required
def join(request: MemberRequest, night_id: int) -> HttpResponse:
    return _act(request, night_id, services.join_night, _("You have joined the game night."))


@require_POST
@login_required
def leave(request: MemberRequest, night_id: int) -> HttpResponse:
    return _act(request, night_id, services.leave_night, _("You have left the game night."))


@require_POST
@login_required
def cancel(request: MemberRequest, night_id: int) -> HttpResponse:
    """A night other members are part of (joined or invited) is cancelled once the host has
    confirmed it on a second step, which says who will be told."""
    night = get_night(night_id, request.user)
    context = night_context(night, request.user)
    others = [u for u in context["joined"] if u.pk != night.host_id] + context["invited"]
    if others and request.POST.get("confirm") != "yes" and context["can_cancel"]:
        return render(request, "games/night.html", {**context, "confirm_cancel": True})
    return _act(request, night_id, services.cancel_night, _("The game night is cancelled."))


@require_GET
@login_required
def calendar(request: MemberRequest, night_id: int) -> HttpResponse:
    """The night as an iCalendar file (RFC 5545) to add to a calendar; the instant is in UTC,
    so every calendar shows it in its own zone."""
    night = get_night(night_id, request.user)
    title = rendering.game_name(night.engine_slug)
    entry = CalendarEntry(
        uid=f"game-night-{night.pk}",
        starts_at=night.starts_at,
        ends_at=calendar_end(night.starts_at),
        summary=_("Game night: %(game)s") % {"game": title},
        path=night.get_absolute_url(),
        cancelled=night.status == GameNight.Status.CANCELLED,
    )
    return calendar_file(
        request, [entry], filename=f"game-night-{night.pk}.ics", product="Game nights"
    )
