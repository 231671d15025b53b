"""What the service modules share: the error type, row locking, and sending work after commit."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator
from functools import partial
from typing import Any

from celery import current_app
from celery.canvas import Signature
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError

from games import broadcast, engines, live_reads, payloads
from games.engines.base import CodedError, Engine
from games.models import PRACTICE_OPTION, Game, Seat
from games.outbox import outbox
from infra import timing

logger = logging.getLogger("games.services")

BOT_LEVELS = tuple(Seat.BotLevel.values)
# The level that plays a member's seat after a timeout or a resignation.
TAKE_OVER_LEVEL = Seat.BotLevel.NORMAL
MAX_MOVE_BYTES = 4_000
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class GameError(CodedError):
    """Something a member asked for that the game cannot do now. Like `IllegalMove`, its
    `code` is translated by `games.error_texts.describe`."""


def engine_for(slug: str) -> Engine:
    try:
        return engines.get(slug)
    except KeyError:
        raise GameError("unknown_game", f"No engine for {slug!r}.") from None


def locked(game_id: int) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL; SQLite serialises all
    writers because settings open every transaction with BEGIN IMMEDIATE). Traced, the
    lock and the commit each end a hop of the request (infra/timing.py)."""
    timing.mark_on_commit("commit")  # before any other commit hook of the transaction
    with timing.span("lock"):
        # A statement written once (games/live_reads.py): as select_for_update().get(pk=...)
        # gives it, without compiling a queryset for every move.
        game = live_reads.locked_game(game_id)
    if game is None:
        raise GameError("unknown_game", f"There is no game {game_id}.")
    return game


def first_state(engine: Engine, players: int, seed: int, options: dict[str, Any] | None) -> Any:
    """The first state of a game, the one every rebuild from the log starts from (play,
    replay, review, export and import, audit and verify, take-back).

    A practice game starts from the member's view of a reviewed position: what the view
    hides is drawn from the game's own seed (`engine.determinize`), so the deal stays the
    committed seed's, and the real game's hidden draws are never used. Any other game is
    the engine's new game of its options."""
    start = (options or {}).get(PRACTICE_OPTION)
    if start is None:
        return engine.new_game(players, seed, options)
    return engine.determinize(start["view"], int(start["seat"]), seed)


def first_state_of(game: Game, engine: Engine) -> Any:
    return first_state(engine, game.players, game.seed, game.options)


def current_state(game: Game, engine: Engine) -> Any:
    if game.state is None:
        return first_state_of(game, engine)
    return engine.load(game.state)


def broadcast_on_commit(game: Game) -> None:
    # robust: the move is already stored; a channel layer hiccup must not turn the member's
    # request into an error (browsers recover from a lost message, principle 7).
    transaction.on_commit(
        partial(broadcast.notify_game_changed, game.pk, game.revision), robust=True
    )


def announce_lobby_on_commit() -> None:
    """The list of open games changed: open lobby pages fetch theirs again."""
    transaction.on_commit(broadcast.notify_lobby_changed, robust=True)


def announce_tournament_on_commit(tournament_id: int) -> None:
    """The tournament changed: its open pages fetch their live part again."""
    group = broadcast.tournament_group(tournament_id)
    transaction.on_commit(partial(broadcast.notify_page_changed, group), robust=True)


def announce_night_on_commit(night_id: int) -> None:
    """The game night changed: its open pages fetch their live part again."""
    group = broadcast.night_group(night_id)
    transaction.on_commit(partial(broadcast.notify_page_changed, group), robust=True)


def task_named(name: str) -> Signature:
    """The task `games.tasks.<name>`, by its registered name: the tasks call the services, so
    the services name a task rather than import its module (no import cycle)."""
    return current_app.signature(f"games.tasks.{name}")


def send_task(task: Any, args: tuple[Any, ...], countdown: float = 0) -> None:
    """Hand a Celery task to the outbox thread and return at once: with the broker down, the
    outbox keeps trying until it answers, and no member's request waits on that."""
    outbox.submit(publish, task, args, countdown)


def publish(task: Any, args: tuple[Any, ...], countdown: float) -> None:
    try:
        # No one waits for its result (games/tasks.py). Said here too: a web server has not
        # imported the tasks, and a task sent by name knows nothing of their flags.
        task.apply_async(args=args, countdown=countdown, ignore_result=True)
    except OperationalError:
        raise  # the broker is unreachable: the outbox tries again until it answers
    except Exception:
        # The move is stored; `reschedule_stuck_bot_turns` and `finish_unscored_games` (beat)
        # pick up a bot turn or an end of game whose task never reached the broker.
        logger.exception("Could not send %s%r to the broker", task.name, args)


def after_commit(task: Any, *args: Any, countdown: float = 0) -> None:
    """Send a Celery task once the transaction commits, so a worker never reads a row that is
    not there yet (like DjangoTask.apply_async_on_commit, but sent from the outbox thread: a
    broker that is down neither fails nor holds up a request whose move is already stored)."""
    transaction.on_commit(partial(send_task, task, args, countdown), robust=True)


def bot_seed(game_seed: int, number: int) -> int:
    """The seed a bot uses for move `number`: fixed by the game, so a bot game replays the same."""
    digest = hashlib.blake2b(f"{game_seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def bot_budget(level: str) -> dict[str, Any]:
    """Keyword arguments for `choose_move` from `settings.BOT_BUDGETS` (level -> seconds, or
    {"iterations": n} for a search that repeats exactly for a seed)."""
    budget = getattr(settings, "BOT_BUDGETS", {}).get(level)
    if budget is None:
        return {}
    if isinstance(budget, dict):
        return {"iterations": int(budget["iterations"])} if "iterations" in budget else {}
    return {"budget": float(budget)}


def schedule_bot_turns(game: Game, to_move: list[int]) -> None:
    bots = {s.position for s in game.seats.all() if s.is_bot}
    for position in to_move:
        if position in bots:
            after_commit(
                task_named("play_bot_turn"),
                game.pk,
                position,
                game.version,
                countdown=settings.BOT_MOVE_DELAY,
            )


def text_problem(text: str) -> bool:
    """True when `text` cannot be stored: PostgreSQL refuses NUL characters, and lone
    surrogates (which JSON's \\ud800 escapes can produce) are not Unicode text."""
    return UNSTORABLE.search(text) is not None


def _json_texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _json_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_texts(item)


def check_move_payload(move: Any) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise GameError("bad_move", "A move must be a JSON object with a string 'type'.")
    if payloads.too_deep(move):  # before anything below walks it (games/payloads.py)
        raise GameError(
            "too_deep",
            f"A move may nest at most {payloads.MAX_DEPTH} levels deep.",
            max=payloads.MAX_DEPTH,
        )
    if any(text_problem(text) for text in _json_texts(move)):
        raise GameError("bad_move", "A move cannot hold NUL characters or lone surrogates.")
    try:
        size = len(json.dumps(move))
    except (TypeError, ValueError):
        raise GameError("bad_move", "A move must be plain JSON.") from None
    if size > MAX_MOVE_BYTES:
        raise GameError("bad_move", "This move is far too large.")
