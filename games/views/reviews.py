"""The hard bot's review of a finished game (asked for, its progress, its open data;
games/services/reviews.py). The hint is in games/views/hint.py."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.requests import MemberRequest
from games import boards, engines, error_texts, rendering, services
from games.engines.base import IllegalMove
from games.models import Game, Review, Seat
from games.review_chart import value_chart
from games.services import reviews
from games.views.common import get_game, int_param

# Who the alternative is said to come from, in the move's own sentence.
BOT_NAME = gettext_lazy("The hard bot")


def _review_of(game_id: int) -> Review | None:
    return Review.objects.filter(game_id=game_id).first()


@require_POST
@login_required
def request(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    try:
        reviews.request_review(game_id=game.pk, user=request.user)
    except services.GameError as exc:
        messages.error(request, error_texts.describe(exc))
        if getattr(request, "htmx", False):
            return HttpResponseClientRedirect(reverse("games:play", args=[game.pk]))
        return redirect("games:play", game_id=game.pk)
    if request.POST.get("from") == "play":
        # The game page shows the progress live, over the game's socket. The button a live
        # update brought (_end_actions.html) posts with htmx: the page is loaded again.
        if getattr(request, "htmx", False):
            return HttpResponseClientRedirect(reverse("games:play", args=[game.pk]))
        return redirect("games:play", game_id=game.pk)
    number = int_param(request.POST.get("move"))
    target = reverse("games:replay", args=[game.pk])
    return redirect(f"{target}?move={number}" if number is not None else target)


@require_GET
@login_required
def data(request: MemberRequest, game_id: int) -> HttpResponse:
    game = get_game(game_id)
    found = reviews.review_data(_review_of(game.pk))
    return JsonResponse(found, status=200 if found["status"] != "none" else 404)


# --- what the replay shows of a review --------------------------------------------------------


def replay_context(
    request: HttpRequest, game: Game, number: int, seat: int | None, ctx: dict[str, Any]
) -> dict[str, Any]:
    """The review's part of the replay page: progress, marks in the move log, the decision
    that led to this board and the bot's alternative, the summaries and the chart."""
    review = _review_of(game.pk)
    extra: dict[str, Any] = {"review": review, "can_review": game.status == Game.Status.FINISHED}
    if review is None or review.status != Review.Status.DONE:
        return extra
    names = ctx["names"]
    by_number = {d["number"]: d for d in review.decisions}
    for entry in ctx["moves"]:
        found = by_number.get(entry["number"])
        entry["mark"] = found["mark"] if found else "none"
        entry["cost"] = found["cost"] if found else 0
    summaries = reviews.seat_summaries(review, game.players)
    for summary in summaries:
        summary["name"] = names[summary["seat"]]
    extra["summaries"] = summaries
    # "Try this position again" is offered at the reader's own decisions (games/views/practice).
    own = {s.position for s in game.seats.all() if s.user_id and s.user_id == request.user.pk}
    extra["own_seats"] = own
    extra["practice_levels"] = Seat.BotLevel.choices
    costliest = [d for summary in summaries for d in summary["costliest"]]
    extra["review_chart"] = value_chart(
        review.decisions, names, costliest, str(ctx.get("seat_query", ""))
    )
    decision = by_number.get(number)
    if decision is None:
        return extra
    extra["decision"] = decision
    engine = engines.get(game.engine_slug)
    before = services.state_at(game=game, number=number - 1)
    made = game.moves.get(number=number - 1)
    extra["made_text"] = rendering.describe_move(game.engine_slug, names[made.seat], made)
    if decision["cost"] <= 0:
        return extra
    best = decision["best"]
    try:
        after = engine.apply_move(before, decision["seat"], best)
    except IllegalMove:  # a review stored by an older engine: say nothing of its choice
        return extra
    summary = boards.summarize(
        game.engine_slug,
        engine.view(before, None),
        decision["seat"],
        best,
        engine.view(after, None),
    )
    extra["best_text"] = rendering.advise_payload(game.engine_slug, names, best, summary)
    # Advice to the reader for their own seats ("you"); for another seat, advice for its player.
    extra["advice_for"] = None if decision["seat"] in own else names[decision["seat"]]
    extra["show_alternative"] = request.GET.get("alt") == "1"
    if extra["show_alternative"]:
        # The board after the bot's choice instead of the move made (the game is over, so
        # the draw it would have revealed is no secret), with the choice as the last move.
        recent = rendering.recent_moves(game, upto=number - 1)
        recent.append(
            {
                "number": number,
                "seat": decision["seat"],
                "type": str(best.get("type", "")),
                "summary": summary,
                "text": rendering.describe_payload(game.engine_slug, str(BOT_NAME), best, summary),
            }
        )
        board = rendering.board_context(
            game=game,
            seat=seat,
            view=engine.view(after, seat),
            replay_number=number,
            recent=recent,
        )
        extra.update({k: board[k] for k in ("view", "board", "recent", "scores")})
    return extra
