"""History, the replay viewer, and exporting and importing games as JSON."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from accounts.requests import MemberRequest
from games import error_texts, rendering, selectors, services, stats
from games.engines.base import IllegalMove
from games.forms import ImportGameForm
from games.models import Game
from games.views import reviews
from games.views.common import get_game, int_param


@require_GET
@login_required
def history(request: MemberRequest) -> HttpResponse:
    """My running games, and my finished games with their results, filtered and paginated."""
    chosen = {
        "game": request.GET.get("game", ""),
        "result": request.GET.get("result", ""),
        "opponent": request.GET.get("opponent", ""),
    }
    opponents = stats.opponents_of(request.user)
    # An opponent the member never finished a game against (a member or level that does not
    # exist, or one never met) is said, and the list is everyone's, as the select shows.
    unknown_opponent = bool(chosen["opponent"]) and chosen["opponent"] not in {
        p.key for p in opponents
    }
    if unknown_opponent:
        chosen["opponent"] = ""
    games = stats.finished_games(
        request.user,
        engine_slug=chosen["game"],
        outcome=chosen["result"],
        opponent=chosen["opponent"],
    )
    # A malformed page number or one below 1 shows the first page, one past the end the last
    # page, never an error.
    number = int_param(request.GET.get("page"))
    page = Paginator(games, stats.HISTORY_PAGE_SIZE).get_page(max(number or 1, 1))
    query = urlencode({k: v for k, v in chosen.items() if v})
    return render(
        request,
        "games/history.html",
        {
            "running": selectors.games_for_user(request.user, active_only=True),
            "page": page,
            "rows": stats.history_rows(request.user, list(page.object_list)),
            "chosen": chosen,
            "query": f"&{query}" if query else "",
            "filtered": any(chosen.values()),
            "game_choices": list(stats.game_titles().items()),
            "opponents": opponents,
            "unknown_opponent": unknown_opponent,
            "imported": Game.objects.filter(imported=True, created_by=request.user).order_by(
                "-created_at", "-pk"
            )[: stats.HISTORY_PAGE_SIZE],
            "import_form": ImportGameForm(),
        },
    )


def replay_seat(request: HttpRequest, game: Game) -> int | None:
    """Whose eyes the replay uses: a player of a running game sees only what their seat
    saw; once the game is over anyone may pick any seat, or the table's view (None)."""
    allowed = selectors.replay_seats(game, request.user)
    wanted = int_param(request.GET.get("seat"))
    return wanted if wanted is not None and wanted in allowed else allowed[0]


@require_GET
@login_required
def replay(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    if game.state is None:
        return redirect("games:join", game_id=game.pk)
    number = int_param(request.GET.get("move"))
    number = game.version if number is None else min(number, game.version)
    seat = replay_seat(request, game)
    finished = game.status == Game.Status.FINISHED
    view = services.view_for(game=game, seat=seat, number=number)
    ctx = rendering.board_context(game=game, seat=seat, view=view, replay_number=number)
    names = ctx["names"]
    log = list(game.moves.order_by("number")[: game.version])
    ctx.update(
        {
            "number": number,
            "last": game.version,
            # The export is the whole game's, whatever move or seat the replay shows.
            "finished": finished,
            "previous": max(number - 1, 0),
            "next": min(number + 1, game.version),
            "moves": [
                {
                    "number": m.number + 1,
                    "label": rendering.describe_move(game.engine_slug, names[m.seat], m),
                }
                for m in log
            ],
            # The log's last line: why the game ended (public, so from the table's view).
            "log_end_reason": (
                rendering.end_reason(
                    game.engine_slug, services.view_for(game=game, seat=None), names
                )
                if finished
                else None
            ),
            "seat_query": f"&seat={seat}" if seat is not None and finished else "",
            "seat_choices": list(enumerate(names)) if finished else [],
        }
    )
    ctx.update(reviews.replay_context(request, game, number, seat, ctx))
    if request.htmx:
        return render(request, "games/replay.html#replay-board", ctx)
    return render(request, "games/replay.html", ctx)


@require_GET
@login_required
def export(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    try:
        data = services.export_game(game=game)
    except services.GameError as exc:
        messages.error(request, error_texts.describe(exc))
        return redirect("games:play", game_id=game.pk)
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{game.engine_slug}-{game.pk}.json"'
    return response


@require_http_methods(["GET", "POST"])
@login_required
def import_game(request: MemberRequest) -> HttpResponse:
    form = ImportGameForm()
    status = 200
    if request.method == "POST":
        form = ImportGameForm(request.POST, request.FILES)
        status = 400
        if form.is_valid():
            try:
                game = services.import_game(data=form.cleaned_data["file"], user=request.user)
            except (services.GameError, IllegalMove) as exc:
                form.add_error("file", error_texts.describe(exc))
            else:
                return redirect("games:replay", game_id=game.pk)
    return render(request, "games/import.html", {"form": form}, status=status)
