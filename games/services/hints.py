"""The hard bot's hint in a game against bots: asked for in a request, computed in a worker.

A hint is the hard bot's choice for the asking member's seat, from that seat's view only
(DESIGN.md principle 9), in a game where no other member holds a seat; the game then records
that hints were used, and it is not rated. It is computed once per position (`Hint`: the
game's revision and the seat) by the `heavy` worker (games.tasks.compute_hint), never inside
the request, and kept: the words, the board and every later request at that position show the
same move. It stops being shown when the position changes or the game ends.

Limits (settings, with environment overrides): a member gets at most `HINTS_PER_TURN` new hints
in one turn of theirs (a position's stored hint is shown again freely) and `HINTS_PER_HOUR` in
any hour, over all games. A refused request changes nothing.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games import boards
from games.bots import HARD_SECONDS, advice, turn_mcts
from games.models import Game, Hint
from games.services.common import (
    GameError,
    after_commit,
    bot_budget,
    current_state,
    engine_for,
    locked,
    task_named,
)

# A hint still thinking after this long lost its worker: the next request sends it again.
STALE_AFTER = datetime.timedelta(seconds=60)


def request_hint(*, game_id: int, user: Any) -> Hint:
    """The hint for the member's seat at the current position: the stored one, or a new one
    handed to the heavy worker (status `pending` until it is computed)."""
    with transaction.atomic():
        game = locked(game_id)  # one hint row per position, even for two posts at once
        seat = _hint_seat(game, user)
        hint = Hint.objects.filter(game=game, seat=seat, revision=game.revision).first()
        if hint is not None:
            lost = timezone.now() - STALE_AFTER
            if hint.status == Hint.Status.PENDING and hint.created_at < lost:
                after_commit(task_named("compute_hint"), hint.pk)
            return hint
        _check_limits(game, seat, user)
        hint = Hint.objects.create(
            game=game, seat=seat, version=game.version, revision=game.revision, user=user
        )
        if not game.hints_used:
            game.hints_used = True
            game.save(update_fields=["hints_used", "updated_at"])
        after_commit(task_named("compute_hint"), hint.pk)
    return hint


def resend_lost_hints() -> int:
    """Send again the hints of current positions still thinking long after they were asked
    for (their worker died with the task); run by beat with the other rescues. A copy of a
    task that is only waiting its turn finds the hint stored and does nothing."""
    lost = Hint.objects.filter(
        status=Hint.Status.PENDING,
        created_at__lt=timezone.now() - STALE_AFTER,
        game__status=Game.Status.RUNNING,
    ).select_related("game")
    ids = [hint.pk for hint in lost if hint.game.revision == hint.revision]
    for hint_id in ids:
        after_commit(task_named("compute_hint"), hint_id)
    return len(ids)


def _hint_seat(game: Game, user: Any) -> int:
    """The member's seat, if a hint may be given there now."""
    seats = list(game.seats.all())
    own = next((s for s in seats if s.user_id == user.pk), None)
    if own is None:
        raise GameError("not_seated", "You do not have a seat in this game.")
    if any(s.user_id is not None and s.user_id != user.pk for s in seats):
        raise GameError("hint_members", "Hints are only for games against bots.")
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "This game is not running.")
    if own.is_bot:
        raise GameError("bot_seat", "A bot plays this seat now.")
    engine = engine_for(game.engine_slug)
    if own.position not in engine.to_move(current_state(game, engine)):
        raise GameError("not_your_turn", "It is not this seat's turn.")
    return int(own.position)


def _check_limits(game: Game, seat: int, user: Any) -> None:
    per_turn = int(settings.HINTS_PER_TURN)
    # The member's turn began after the last move of another seat.
    last_other = game.moves.exclude(seat=seat).aggregate(last=Max("number"))["last"]
    turn_start = 0 if last_other is None else last_other + 1
    this_turn = Hint.objects.filter(game=game, seat=seat, version__gte=turn_start)
    if this_turn.count() >= per_turn:
        raise GameError("hint_turn_limit", "No more hints this turn.", max=per_turn)
    per_hour = int(settings.HINTS_PER_HOUR)
    since = timezone.now() - datetime.timedelta(hours=1)
    if Hint.objects.filter(user=user, created_at__gte=since).count() >= per_hour:
        raise GameError("hint_hour_limit", "No more hints this hour.", max=per_hour)


def compute_hint(*, hint_id: int) -> bool:
    """Search the hinted move from the seat's view and store it (the heavy worker's task).
    True when this call stored it; a hint whose position is gone is left as it is."""
    hint = Hint.objects.select_related("game").filter(pk=hint_id).first()
    if hint is None or hint.status == Hint.Status.READY:
        return False
    game = hint.game
    if game.status != Game.Status.RUNNING or game.revision != hint.revision:
        return False  # the position changed: nobody is shown this hint any more
    engine = engine_for(game.engine_slug)
    state = current_state(game, engine)
    view = engine.view(state, hint.seat)
    seed = advice.view_seed(view, hint.seat)
    budget = bot_budget("hard")
    found = turn_mcts.search(
        engine,
        view,
        hint.seat,
        seed=seed,
        iterations=budget.get("iterations"),
        seconds=budget.get("budget", HARD_SECONDS),
    )
    move = dict(found.best_turn()[0])
    # The words and the board come from a determinization of the member's view: what the move
    # would show the table, without the real hidden draw behind it.
    sample = engine.determinize(view, hint.seat, seed)
    after = engine.apply_move(sample, hint.seat, move)
    summary = boards.summarize(
        game.engine_slug, engine.view(sample, None), hint.seat, move, engine.view(after, None)
    )
    with transaction.atomic():
        row = Hint.objects.select_for_update().get(pk=hint.pk)
        if row.status == Hint.Status.READY:
            return False  # a second delivery of the task stored it first
        row.move, row.summary, row.view = move, summary, engine.view(after, hint.seat)
        row.status, row.finished_at = Hint.Status.READY, timezone.now()
        row.save(update_fields=["move", "summary", "view", "status", "finished_at"])
    return True


def current_hint(game: Game, seat: int | None) -> Hint | None:
    """The hint shown to `seat` now: the one of the current position of a running game."""
    if seat is None or game.status != Game.Status.RUNNING:
        return None
    return Hint.objects.filter(game=game, seat=seat, revision=game.revision).first()
