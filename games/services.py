"""The only writers of game state (DESIGN.md principle 2).

Every move, whether a member's form post, a bot's Celery task or an import, goes through
`play_move` (imports replay through the engine the same way before anything is stored): it
locks the game row, checks the move with the engine, appends it to the log, stores the new
state and, after the commit, broadcasts the change and schedules whatever comes next. The
stored state is a cache of the log (principle 3); `state_at` and `audit_game` rebuild it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.services import notify
from games import broadcast, catalog, engines, ratings
from games.bots import choose_move
from games.engines.base import Engine, IllegalMove
from games.models import Game, Move, Result, Seat
from games.tasks import finish_game as finish_game_task
from games.tasks import play_bot_turn as play_bot_turn_task

logger = logging.getLogger(__name__)

BOT_LEVELS = tuple(Seat.BotLevel.values)
# The level that plays a member's seat after a timeout or a resignation.
TAKE_OVER_LEVEL = Seat.BotLevel.NORMAL
MAX_MOVE_BYTES = 4_000
MAX_IMPORT_MOVES = 10_000
EXPORT_FORMAT = "boardgame-club/game"
EXPORT_VERSION = 1
# A bot turn still waiting this long after it was due is scheduled again (its task was lost:
# a broker outage at commit time). Duplicates are harmless: the version check stops them.
STUCK_BOT_SECONDS = 60.0


class GameError(Exception):
    """Something a member asked for that the game cannot do now.

    Like `IllegalMove`: a stable `code` (translated by `games.messages.describe`), English
    text for logs and tests, and `params` for the numbers a translation needs.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.message!r})"


# --- helpers ----------------------------------------------------------------------------------


def _engine(slug: str) -> Engine:
    try:
        return engines.get(slug)
    except KeyError:
        raise GameError("unknown_game", f"No engine for {slug!r}.") from None


def _locked(game_id: int) -> Game:
    """The game row, locked until the transaction ends (PostgreSQL; SQLite serialises all
    writers because settings open every transaction with BEGIN IMMEDIATE)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameError("unknown_game", f"There is no game {game_id}.")
    return game


def _position(seat: Seat | int | None) -> int | None:
    if seat is None or isinstance(seat, int):
        return seat
    return int(seat.position)


def _current_state(game: Game, engine: Engine) -> Any:
    if game.state is None:
        return engine.new_game(game.players, game.seed, game.options)
    return engine.load(game.state)


def _broadcast_on_commit(game: Game) -> None:
    # robust: the move is already stored; a channel layer hiccup must not turn the member's
    # request into an error (browsers recover from a lost message, principle 6).
    transaction.on_commit(
        partial(broadcast.notify_game_changed, game.pk, game.version), robust=True
    )


def _send_task(task: Any, args: tuple[Any, ...], countdown: float = 0) -> None:
    try:
        task.apply_async(args=args, countdown=countdown)
    except Exception:
        # The move is stored; `reschedule_stuck_bot_turns` and `finish_unscored_games` (beat)
        # pick up a bot turn or an end of game whose task never reached the broker.
        logger.exception("Could not send %s%r to the broker", task.name, args)


def _after_commit(task: Any, *args: Any, countdown: float = 0) -> None:
    """Send a Celery task once the transaction commits, so a worker never reads a row that is
    not there yet (the same as DjangoTask.apply_async_on_commit, but a broker error is logged
    instead of failing a request whose move is already stored)."""
    transaction.on_commit(partial(_send_task, task, args, countdown), robust=True)


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


def _schedule_bot_turns(game: Game, to_move: list[int]) -> None:
    bots = {s.position for s in game.seats.all() if s.is_bot}
    for position in to_move:
        if position in bots:
            _after_commit(
                play_bot_turn_task,
                game.pk,
                position,
                game.version,
                countdown=settings.BOT_MOVE_DELAY,
            )


def _check_move_payload(move: Any) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise GameError("bad_move", "A move must be a JSON object with a string 'type'.")
    try:
        size = len(json.dumps(move))
    except (TypeError, ValueError):
        raise GameError("bad_move", "A move must be plain JSON.") from None
    if size > MAX_MOVE_BYTES:
        raise GameError("bad_move", "This move is far too large.")


# --- lobby ------------------------------------------------------------------------------------


@transaction.atomic
def create_game(
    *,
    engine_slug: str,
    players: int,
    options: dict | None,
    seats: list[dict],
    created_by: User | None,
    seed: int | None = None,
    random_first: bool = False,
) -> Game:
    """Create a game with its seats; it starts at once when no seat is open.

    Seats are listed clockwise. With `random_first` a player drawn at random starts and
    the others follow clockwise (the seats are rotated, never shuffled): the printed rule
    lets the table choose the first player, and the site draws one unless the host
    keeps the listed order (games/akropolis.md A13).

    Each seat is `{"kind": "me" | "open" | "bot", "bot_level": ..., "fill_bot_level": ...,
    "fill_after_minutes": int | None}`: "me" is `created_by`, a bot needs `bot_level`, an
    open seat may name a bot to fill it if nobody joins within `fill_after_minutes`.
    """
    engine = _engine(engine_slug)
    if type(players) is not int or not engine.min_players <= players <= engine.max_players:
        raise GameError(
            "bad_players",
            f"{engine.name} is for {engine.min_players}-{engine.max_players} players.",
            min=engine.min_players,
            max=engine.max_players,
        )
    if len(seats) != players:
        raise GameError("bad_seats", f"Expected {players} seats, got {len(seats)}.")
    if seed is None:
        seed = secrets.randbits(62)
    options = dict(options or {})
    try:
        engine.new_game(players, seed, options)
    except ValueError as exc:
        raise GameError("bad_options", str(exc)) from None
    kinds = [seat.get("kind") for seat in seats]
    if any(kind not in ("me", "open", "bot") for kind in kinds):
        raise GameError("bad_seats", "A seat is 'me', 'open' or 'bot'.")
    if kinds.count("me") > 1:
        raise GameError("two_seats_for_me", "A member takes at most one seat.")
    if "me" in kinds and created_by is None:
        raise GameError("bad_seats", "A seat for 'me' needs a member.")
    if random_first:
        first = secrets.randbelow(players)
        seats = seats[first:] + seats[:first]
    game = Game.objects.create(
        engine_slug=engine_slug,
        options=options,
        seed=seed,
        players=players,
        created_by=created_by,
    )
    now = timezone.now()
    for position, spec in enumerate(seats):
        seat = Seat(game=game, position=position)
        if spec["kind"] == "me":
            seat.user = created_by
        elif spec["kind"] == "bot":
            seat.bot_level = _level(spec.get("bot_level"))
        elif spec.get("fill_bot_level"):
            seat.fill_bot_level = _level(spec["fill_bot_level"])
            minutes = _minutes(spec.get("fill_after_minutes"))
            if minutes < 0:
                raise GameError("bad_seats", "A deadline cannot be in the past.")
            seat.fill_deadline = now + timedelta(minutes=minutes)
        seat.save()
    if "open" not in kinds:
        _start(game, engine)
    return game


def _minutes(value: Any) -> int:
    if value in (None, ""):
        return 0
    try:
        return int(value)
    except (TypeError, ValueError):
        raise GameError("bad_seats", f"{value!r} is not a number of minutes.") from None


def _level(level: Any) -> str:
    if level not in BOT_LEVELS:
        raise GameError("bad_bot_level", f"Unknown bot level {level!r}.", level=str(level))
    return str(level)


def _start(game: Game, engine: Engine) -> None:
    state = engine.new_game(game.players, game.seed, game.options)
    now = timezone.now()
    game.state = engine.dump(state)
    game.version = 0
    game.status = Game.Status.RUNNING
    game.started_at = game.turn_started_at = now
    game.save()
    _schedule_bot_turns(game, engine.to_move(state))
    _broadcast_on_commit(game)


@transaction.atomic
def start_game(*, game_id: int) -> Game:
    game = _locked(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError("not_open", "The game has already started.")
    if any(seat.is_open for seat in game.seats.all()):
        raise GameError("not_full", "Every seat must be taken first.")
    _start(game, _engine(game.engine_slug))
    return game


@transaction.atomic
def join_seat(
    *, game_id: int, user: User, token: str | None = None, position: int | None = None
) -> Seat:
    """Seat `user` in an open game: the invited seat, the chosen one or the first open one."""
    game = _locked(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError("not_open", "The game is not waiting for players.")
    seats = list(game.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise GameError("already_seated", "The member already has a seat.")
    if token:
        given = token.encode()  # bytes: compare_digest refuses non-ASCII str
        matching = [s for s in seats if secrets.compare_digest(s.invite_token.encode(), given)]
        if not matching:
            raise GameError("bad_invite", "No seat of this game has that invitation.")
        seat = matching[0]
    elif position is not None:
        seat = next((s for s in seats if s.position == position), None)
        if seat is None:
            raise GameError("no_open_seat", f"There is no seat {position}.")
    else:
        seat = next((s for s in seats if s.is_open), None)
        if seat is None:
            raise GameError("no_open_seat", "Every seat is taken.")
    if not seat.is_open:
        raise GameError("no_open_seat", "That seat is taken.")
    seat.user = user
    seat.fill_deadline = None
    seat.save(update_fields=["user", "fill_deadline"])
    if not any(s.is_open for s in game.seats.all()):
        _start(game, _engine(game.engine_slug))
    else:
        game.save(update_fields=["updated_at"])
        _broadcast_on_commit(game)
    return seat


@transaction.atomic
def leave_seat(*, game_id: int, user: User) -> None:
    """Give a seat back before the game starts; it becomes open again (and gets a new invite)."""
    game = _locked(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError("not_open", "Only a game that has not started can be left.")
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError("not_seated", "The member has no seat here.")
    seat.user = None
    # A new token: the old invitation may have been shared with someone who has now left.
    seat.invite_token = secrets.token_urlsafe(16)
    seat.save(update_fields=["user", "invite_token"])
    if not game.seats.filter(user__isnull=False).exists():
        # Nobody is left to wait for: the game leaves the open list rather than linger there.
        game.status = Game.Status.ABANDONED
    game.save(update_fields=["status", "updated_at"])
    _broadcast_on_commit(game)


def fill_open_seats_with_bots(*, now: datetime | None = None) -> int:
    """Open seats whose deadline has passed get their bot (beat task); returns how many."""
    now = now or timezone.now()
    due = (
        Seat.objects.filter(
            game__status=Game.Status.OPEN,
            user__isnull=True,
            bot_level="",
            fill_deadline__lte=now,
        )
        .exclude(fill_bot_level="")
        .values_list("game_id", flat=True)
        .distinct()
    )
    return sum(_fill_game(game_id, now) for game_id in list(due))


@transaction.atomic
def _fill_game(game_id: int, now: datetime) -> int:
    game = _locked(game_id)
    if game.status != Game.Status.OPEN:
        return 0
    filled = 0
    for seat in game.seats.all():
        due = seat.fill_deadline is not None and seat.fill_deadline <= now
        if seat.is_open and seat.fill_bot_level and due:
            seat.bot_level = seat.fill_bot_level
            seat.save(update_fields=["bot_level"])
            filled += 1
    if not any(seat.is_open for seat in game.seats.all()):
        _start(game, _engine(game.engine_slug))
    elif filled:
        game.save(update_fields=["updated_at"])
        _broadcast_on_commit(game)
    return filled


# --- the one move path ------------------------------------------------------------------------


@transaction.atomic
def play_move(
    *, game_id: int, seat: int, move: dict, expected_version: int, by_bot: bool = False
) -> Game:
    """Play `move` for `seat` if the game is still at `expected_version`.

    Raises GameError or IllegalMove, and then nothing is written and nothing is scheduled.
    """
    _check_move_payload(move)
    game = _locked(game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "The game is not running.")
    if type(seat) is not int or not 0 <= seat < game.players:
        raise GameError("not_seated", f"There is no seat {seat!r} in this game.")
    # Checked before the turn: a double click or a second tab must hear "the game moved on",
    # not "not your turn".
    if expected_version != game.version:
        raise GameError(
            "stale",
            f"Expected move {expected_version}, the game is at {game.version}.",
            version=game.version,
        )
    seat_row = game.seats.get(position=seat)
    if seat_row.is_bot and not by_bot:
        raise GameError("bot_seat", "A bot plays this seat now.")
    if by_bot and not seat_row.is_bot:
        raise GameError("not_bot_seat", "A member plays this seat.")
    engine = _engine(game.engine_slug)
    state = engine.load(game.state)
    if seat not in engine.to_move(state):
        raise GameError("not_your_turn", "It is not this seat's turn.", seat=seat)
    state = engine.apply_move(state, seat, move)
    Move.objects.create(
        game=game, number=game.version, seat=seat, payload=dict(move), by_bot=by_bot
    )
    now = timezone.now()
    game.state = engine.dump(state)
    game.version += 1
    game.turn_started_at = now
    if engine.is_over(state):
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.turn_started_at = None
        _after_commit(finish_game_task, game.pk)
    else:
        _schedule_bot_turns(game, engine.to_move(state))
    game.save(
        update_fields=["state", "version", "turn_started_at", "status", "finished_at", "updated_at"]
    )
    _broadcast_on_commit(game)
    return game


def play_bot_turn(*, game_id: int, seat: int, expected_version: int) -> bool:
    """Let the bot at `seat` move if the game still waits for it at `expected_version`.

    A duplicate, late or retried task finds another version (or another seat to move) and
    returns False without playing. The bot thinks outside the row lock; `play_move` checks
    the version again under the lock, so two copies of a task never both play.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING or game.version != expected_version:
        return False
    seat_row = game.seats.filter(position=seat).first()
    if seat_row is None or not seat_row.is_bot:
        return False
    engine = _engine(game.engine_slug)
    state = engine.load(game.state)
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
            game_id=game_id, seat=seat, move=move, expected_version=expected_version, by_bot=True
        )
    except GameError as exc:
        if exc.code in ("stale", "not_running", "not_bot_seat", "not_your_turn"):
            return False
        raise
    return True


# --- leaving a running game -------------------------------------------------------------------


def _hand_to_bot(game: Game, seat: Seat, engine: Engine) -> None:
    seat.bot_took_over = True
    seat.bot_level = seat.bot_level or TAKE_OVER_LEVEL
    seat.save(update_fields=["bot_took_over", "bot_level", "resigned"])
    if seat.position in engine.to_move(engine.load(game.state)):
        _after_commit(
            play_bot_turn_task,
            game.pk,
            seat.position,
            game.version,
            countdown=settings.BOT_MOVE_DELAY,
        )


@transaction.atomic
def resign(*, game_id: int, user: User) -> Game:
    """The member gives up: a bot finishes the game for the seat, which ranks last."""
    game = _locked(game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "Only a running game can be resigned.")
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError("not_seated", "The member has no seat here.")
    if seat.resigned:
        raise GameError("already_resigned", "The member has already resigned.")
    seat.resigned = True
    _hand_to_bot(game, seat, _engine(game.engine_slug))
    game.save(update_fields=["updated_at"])
    _broadcast_on_commit(game)
    return game


@transaction.atomic
def take_back_seat(*, game_id: int, user: User) -> Game:
    """The member plays their seat again after a bot took it over for a timeout.

    A bot task already on its way finds a member's seat and plays nothing (`play_move`
    refuses a bot move for it under the row lock). A resignation is final.
    """
    game = _locked(game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "The game is not running.")
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise GameError("not_seated", "The member has no seat here.")
    if seat.resigned:
        raise GameError("already_resigned", "The member has resigned.")
    if not seat.bot_took_over:
        raise GameError("not_taken_over", "The member already plays this seat.")
    seat.bot_took_over = False
    seat.bot_level = ""
    seat.save(update_fields=["bot_took_over", "bot_level"])
    engine = _engine(game.engine_slug)
    if seat.position in engine.to_move(engine.load(game.state)):
        game.turn_started_at = timezone.now()  # the member gets a whole turn's time again
    game.save(update_fields=["turn_started_at", "updated_at"])
    _broadcast_on_commit(game)
    return game


def take_over_timed_out_seats(*, now: datetime | None = None) -> int:
    """Seats that let their turn wait longer than TURN_TIMEOUT are played by a bot from now on,
    and their members are told (beat task). Returns how many seats were taken over."""
    limit = (now or timezone.now()) - timedelta(seconds=settings.TURN_TIMEOUT)
    due = Game.objects.filter(status=Game.Status.RUNNING, turn_started_at__lte=limit)
    return sum(_take_over(game_id, limit) for game_id in list(due.values_list("pk", flat=True)))


@transaction.atomic
def _take_over(game_id: int, limit: datetime) -> int:
    game = _locked(game_id)
    if game.status != Game.Status.RUNNING or not game.turn_started_at:
        return 0
    if game.turn_started_at > limit:
        return 0
    engine = _engine(game.engine_slug)
    to_move = engine.to_move(engine.load(game.state))
    taken = 0
    for seat in game.seats.filter(position__in=to_move).select_related("user"):
        if seat.is_bot or seat.user is None:
            continue
        _hand_to_bot(game, seat, engine)
        info = catalog.get(game.engine_slug)
        with translation.override(seat.user.language or settings.LANGUAGE_CODE):
            message = _(
                "You did not move in time in %(game)s, so a bot now plays your seat. "
                "You can take it back on the game page."
            ) % {"game": info.name if info else game.engine_slug}
        notify(user=seat.user, message=message, link=game.get_absolute_url())
        taken += 1
    if taken:
        game.save(update_fields=["updated_at"])
        _broadcast_on_commit(game)
    return taken


def reschedule_stuck_bot_turns(*, now: datetime | None = None) -> int:
    """Send the bot turns again that should have been played long ago (beat task)."""
    limit = (now or timezone.now()) - timedelta(seconds=STUCK_BOT_SECONDS + settings.BOT_MOVE_DELAY)
    sent = 0
    for game in Game.objects.filter(status=Game.Status.RUNNING, turn_started_at__lte=limit):
        engine = _engine(game.engine_slug)
        to_move = engine.to_move(engine.load(game.state))
        for seat in game.seats.filter(position__in=to_move):
            if seat.is_bot:
                _send_task(play_bot_turn_task, (game.pk, seat.position, game.version))
                sent += 1
    return sent


# --- the end ----------------------------------------------------------------------------------


def final_ranks(scores: dict, resigned: set[int]) -> dict[int, int]:
    """Seat -> rank (1 = winner). Shared victories share rank 1; a seat that resigned ranks
    after every seat that played on, whatever its bot scored for it."""
    ranking = list(scores["ranking"])
    order = [s for s in ranking if s not in resigned] + [s for s in ranking if s in resigned]
    winners = set(scores.get("winners") or ranking[:1]) - resigned
    ranks: dict[int, int] = {}
    for index, seat in enumerate(order):
        ranks[seat] = 1 if seat in winners else index + 1
    return ranks


@transaction.atomic
def finish_game(*, game_id: int) -> list[Result]:
    """Store the final scores, breakdown and ranks, and update ratings. Idempotent."""
    game = _locked(game_id)
    existing = list(game.results.all())
    if existing:
        return existing
    engine = _engine(game.engine_slug)
    state = _current_state(game, engine)
    if not engine.is_over(state):
        raise GameError("not_finished", "The game is not over.")
    if game.status != Game.Status.FINISHED:
        game.status = Game.Status.FINISHED
        game.finished_at = game.finished_at or timezone.now()
        game.save(update_fields=["status", "finished_at", "updated_at"])
    scores = engine.scores(state)
    seats = {seat.position: seat for seat in game.seats.select_related("user")}
    ranks = final_ranks(scores, {p for p, seat in seats.items() if seat.resigned})
    results = [
        Result(
            game=game,
            seat=position,
            user=seat.user,
            bot_level="" if seat.user_id else seat.bot_level,
            score=int(scores["totals"][position]),
            breakdown=dict(scores["breakdown"][position]),
            rank=ranks[position],
        )
        for position, seat in sorted(seats.items())
    ]
    Result.objects.bulk_create(results)
    if not game.imported:
        ratings.update_ratings(engine_slug=game.engine_slug, results=results)
    # Pages re-render with the final table once results exist.
    _broadcast_on_commit(game)
    return sorted(results, key=lambda r: (r.rank, r.seat))


def finish_unscored_games() -> int:
    """Store results for finished games that have none (their end-of-game task was lost)."""
    missing = Game.objects.filter(status=Game.Status.FINISHED, results__isnull=True)
    ids = list(missing.values_list("pk", flat=True))
    for game_id in ids:
        finish_game(game_id=game_id)
    return len(ids)


# --- reading the log --------------------------------------------------------------------------


def state_at(*, game: Game, number: int | None = None) -> Any:
    """The engine state after the first `number` moves of the log, rebuilt by replaying it
    (the whole log when `number` is None)."""
    engine = _engine(game.engine_slug)
    if number is None:
        number = game.version
    if type(number) is not int or not 0 <= number <= game.version:
        raise GameError("bad_number", f"Move {number!r} is not in 0..{game.version}.")
    state = engine.new_game(game.players, game.seed, game.options)
    for move in game.moves.order_by("number")[:number]:
        state = engine.apply_move(state, move.seat, move.payload)
    return state


def view_for(*, game: Game, seat: Seat | int | None, number: int | None = None) -> dict:
    """What `seat` (None: a spectator) sees, now or after move `number` of the log.

    The caller chooses the seat: while a game runs a player may ask only for their own
    seat (selectors.replay_seats); the view itself never holds what that seat may not see.
    """
    position = _position(seat)
    if position is not None and not 0 <= position < game.players:
        raise GameError("not_seated", f"There is no seat {position}.")
    engine = _engine(game.engine_slug)
    if number is None or (number == game.version and game.state is not None):
        state = _current_state(game, engine)
    else:
        state = state_at(game=game, number=number)
    return engine.view(state, position)


def audit_game(*, game: Game) -> list[str]:
    """Problems found when the game's log is replayed and compared with the stored cache."""
    if game.status == Game.Status.OPEN:
        return [] if game.version == 0 and not game.moves.exists() else ["moves before the start"]
    try:
        engine = engines.get(game.engine_slug)
    except KeyError:
        return [f"no engine for {game.engine_slug!r}"]
    moves = list(game.moves.order_by("number"))
    problems = []
    if [m.number for m in moves] != list(range(len(moves))):
        problems.append("the move numbers have gaps")
    if len(moves) != game.version:
        problems.append(f"{len(moves)} moves in the log, but the game says {game.version}")
    state = engine.new_game(game.players, game.seed, game.options)
    for move in moves:
        try:
            state = engine.apply_move(state, move.seat, move.payload)
        except IllegalMove as exc:
            return [*problems, f"move {move.number} does not replay: {exc.message}"]
    if _canonical(engine.dump(state)) != _canonical(game.state):
        problems.append("the stored state differs from the replayed log")
    if engine.is_over(state) != (game.status == Game.Status.FINISHED):
        problems.append(f"status {game.status!r} does not match the replayed game")
    results = {r.seat: r.score for r in game.results.all()}
    if results and engine.is_over(state):
        totals = engine.scores(state)["totals"]
        if results != dict(enumerate(totals)):
            problems.append("the stored results differ from the replayed scores")
    return problems


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


# --- export and import ------------------------------------------------------------------------


def seat_name(seat: Seat) -> str:
    if seat.user_id is not None:
        return seat.user.name
    return seat.label or seat.bot_level


def export_game(*, game: Game) -> dict:
    """A finished game as JSON: options, seed, the move log, names and final scores.

    Only finished games: the seed of a running game would reveal its hidden information.
    """
    if game.status != Game.Status.FINISHED:
        raise GameError("not_finished", "Only a finished game can be exported.")
    engine = _engine(game.engine_slug)
    state = engine.load(game.state)
    scores = engine.scores(state)
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "game": game.engine_slug,
        "players": game.players,
        "options": game.options,
        "seed": game.seed,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "seats": [
            {
                "seat": seat.position,
                "name": seat_name(seat),
                "bot_level": seat.bot_level,
                "resigned": seat.resigned,
            }
            for seat in game.seats.select_related("user")
        ],
        "moves": [
            {"number": m.number, "seat": m.seat, "move": m.payload, "by_bot": m.by_bot}
            for m in game.moves.order_by("number")
        ],
        "scores": {
            "totals": scores["totals"],
            "breakdown": scores["breakdown"],
            "ranking": scores["ranking"],
        },
        "results": [{"seat": r.seat, "score": r.score, "rank": r.rank} for r in game.results.all()],
    }


def _bad_file(reason: str) -> GameError:
    return GameError("bad_file", reason)


def import_game(*, data: Any, user: User | None) -> Game:
    """Replay an exported game through its engine and store it as a finished, imported game.

    Every move of the file is checked by the engine; a changed file gives a clear error.
    """
    if isinstance(data, bytes | str):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            raise _bad_file("The file is not JSON.") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise _bad_file("The file is not a game export.")
    if data.get("format_version") != EXPORT_VERSION:
        raise _bad_file("Unknown export format version.")
    slug, players, seed = data.get("game"), data.get("players"), data.get("seed")
    options, moves, seats = data.get("options", {}), data.get("moves"), data.get("seats", [])
    if not isinstance(slug, str) or type(players) is not int or type(seed) is not int:
        raise _bad_file("The file lacks the game, players or seed.")
    if not 0 <= seed < 2**63:  # the seed column is a signed 64-bit integer
        raise _bad_file("The seed is out of range.")
    if not isinstance(options, dict) or not isinstance(moves, list) or not isinstance(seats, list):
        raise _bad_file("Options, moves or seats have the wrong shape.")
    if len(moves) > MAX_IMPORT_MOVES:
        raise _bad_file("Too many moves.")
    engine = _engine(slug)
    if not engine.min_players <= players <= engine.max_players:
        raise GameError("bad_players", "Wrong number of players.")
    try:
        state = engine.new_game(players, seed, options)
    except ValueError as exc:
        raise GameError("bad_options", str(exc)) from None
    log = []
    for index, entry in enumerate(moves):
        if not isinstance(entry, dict) or entry.get("number", index) != index:
            raise _bad_file(f"Move {index} is missing or out of order.")
        seat, move = entry.get("seat"), entry.get("move")
        try:
            _check_move_payload(move)
            if seat not in engine.to_move(state):
                raise GameError("not_your_turn", f"Seat {seat!r} is not to move.")
            state = engine.apply_move(state, seat, move)
        except (GameError, IllegalMove) as exc:
            raise GameError(
                "bad_move_number", f"Move {index} cannot be played: {exc}", number=index, cause=exc
            ) from None
        log.append(Move(number=index, seat=seat, payload=move, by_bot=bool(entry.get("by_bot"))))
    if not engine.is_over(state):
        raise _bad_file("The game in the file is not finished.")
    scores = engine.scores(state)
    claimed = data.get("scores")
    if claimed is not None and (
        not isinstance(claimed, dict)
        or claimed.get("totals") != scores["totals"]
        or claimed.get("breakdown", scores["breakdown"]) != scores["breakdown"]
    ):
        raise GameError("scores_differ", "The file's scores do not match its moves.")
    names = {s["seat"]: s for s in seats if isinstance(s, dict) and type(s.get("seat")) is int}
    with transaction.atomic():
        now = timezone.now()
        game = Game.objects.create(
            engine_slug=slug,
            options=options,
            seed=seed,
            players=players,
            status=Game.Status.FINISHED,
            created_by=user,
            started_at=now,
            finished_at=now,
            state=engine.dump(state),
            version=len(log),
            imported=True,
        )
        for position in range(players):
            info = names.get(position, {})
            level = info.get("bot_level")
            Seat.objects.create(
                game=game,
                position=position,
                label=str(info.get("name") or "")[:150],
                bot_level=level if level in BOT_LEVELS else "",
                resigned=bool(info.get("resigned")),
            )
        for move in log:
            move.game = game
        Move.objects.bulk_create(log)
        finish_game(game_id=game.pk)
    return game
