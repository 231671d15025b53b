"""Bot turns: a bot chooses from its seat's view and plays through `play_move`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games import live_reads
from games.bots import choose_move
from games.models import Game
from games.services import common
from games.services.common import GameError, bot_budget, bot_seed, current_state, engine_for
from games.services.moves import play_move

# A bot turn still waiting this long after it was due is scheduled again (its task was lost:
# a broker outage at commit time). Duplicates are harmless: the version check stops them.
STUCK_BOT_SECONDS = 60.0


def play_bot_turn(*, game_id: int, seat: int, expected_version: int) -> bool:
    """Let the bot at `seat` move if the game still waits for it at `expected_version`.

    A duplicate, late or retried task finds another version (or another seat to move) and
    returns False without playing. The bot thinks outside the row lock; `play_move` checks
    the version again under the lock, so two copies of a task never both play.
    """
    # The game with its seats, in one statement written once (games/live_reads.py).
    game = live_reads.game_with_seats(game_id)
    if game is None:
        return False
    seat_row = next((s for s in game.seats.all() if s.position == seat), None)
    if seat_row is None or not seat_row.is_bot:
        return False
    if game.status != Game.Status.RUNNING or game.version != expected_version:
        return False
    engine = engine_for(game.engine_slug)
    state = current_state(game, engine)
    if seat not in engine.to_move(state):
        return False
    # Principle 4 holds for bots too: they see the seat's view, never the state.
    move = choose_move(
        engine,
        engine.view(state, seat),
        seat,
        seat_row.bot_level,
        seed=bot_seed(game.seed, expected_version),
        **bot_budget(seat_row.bot_level),
    )
    try:
        play_move(
            game_id=game_id,
            seat=seat,
            move=move,
            expected_version=expected_version,
            by_bot=True,
            # The lock reads the game again: the same state, unless it changed meanwhile.
            read=None if game.state is None else (game.state, state),
        )
    except GameError as exc:
        if exc.code in ("stale", "not_running", "not_bot_seat", "not_your_turn"):
            return False
        raise
    return True


def reschedule_stuck_bot_turns(
    *, now: datetime | None = None, late_by: float = STUCK_BOT_SECONDS
) -> int:
    """Send the bot turns again that should have been played `late_by` seconds ago or more
    (the beat task)."""
    limit = (now or timezone.now()) - timedelta(seconds=late_by + settings.BOT_MOVE_DELAY)
    games = Game.objects.filter(status=Game.Status.RUNNING, turn_started_at__lte=limit)
    return _send_bot_turns(games)


def resend_bot_turns(*, now: datetime | None = None) -> int:
    """Send again every bot turn a running game waits for, each to be played when it is due
    (a worker that starts: config/celery.py). A worker that was killed took with it the turns
    it held: the one it was playing, and those it was keeping until their delay had passed."""
    games = Game.objects.filter(status=Game.Status.RUNNING, turn_started_at__isnull=False)
    return _send_bot_turns(games, now=now or timezone.now())


def _send_bot_turns(games: Iterable[Game], *, now: datetime | None = None) -> int:
    """Send the turn of each bot seat to move in `games`: at once, or, given `now`, when the
    bot's delay after the turn began has passed. A copy of a turn that is played already, or
    is still held by a worker, finds the version moved on and does nothing."""
    sent = 0
    for game in games:
        engine = engine_for(game.engine_slug)
        to_move = engine.to_move(current_state(game, engine))
        countdown = 0.0
        if now is not None and game.turn_started_at is not None:
            due = game.turn_started_at + timedelta(seconds=settings.BOT_MOVE_DELAY)
            countdown = max(0.0, (due - now).total_seconds())
        for seat in game.seats.filter(position__in=to_move):
            if seat.is_bot:
                common.send_task(
                    common.task_named("play_bot_turn"),
                    (game.pk, seat.position, game.version),
                    countdown,
                )
                sent += 1
    return sent
