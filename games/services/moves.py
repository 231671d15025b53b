"""The one move path (DESIGN.md principle 2) and reading the log back (principle 3).

`log_entry` is the only function that makes a move's row of the log, and `settle` puts on
the game where the moves of its log have left it; `record_move` stores both: `play_move`
(members and bots) and `import_game` (a file's log, replayed) call it, and tools/seeding.py
writes the same rows and games in bulk. `take_back_step` runs the path backwards (principle 8):
it removes the last move, under the same lock and version check.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import boards, live_reads
from games.engines.base import Engine, can_take_back_step, take_back_refusal
from games.models import Game, Move, Seat, position_of
from games.services import notices, writes
from games.services.clocks import run_clocks
from games.services.common import (
    GameError,
    after_commit,
    broadcast_on_commit,
    check_move_payload,
    current_state,
    engine_for,
    first_state_of,
    locked,
    schedule_bot_turns,
    task_named,
)
from infra import timing


@dataclass(frozen=True, slots=True)
class Entry:
    """A move the engine accepted, as the log keeps it (`row`), and where it led."""

    row: Move  # not saved, and its game not set: the caller stores it
    after: Any  # the engine state after the move
    seen_after: dict[str, Any]  # the spectator's view of `after`


def log_entry(
    slug: str,
    engine: Engine,
    state: Any,
    seat: int,
    move: dict[str, Any],
    *,
    number: int,
    by_bot: bool,
    seen_before: dict[str, Any] | None = None,
) -> Entry:
    """Check `move` with the engine and make the log's row of it, move `number` of a game of
    `slug`: the one place a `Move` row's content is decided. `record_move` stores it on the
    site; tools/seeding.py writes the same rows in bulk. `seen_before` is the spectator's
    view of `state` when the caller has it (the previous entry's `seen_after`).

    Raises GameError or IllegalMove when the move may not be played, and nothing is made.
    """
    if seat not in engine.to_move(state):
        raise GameError("not_your_turn", "It is not this seat's turn.", seat=seat)
    after = engine.apply_move(state, seat, move)
    if seen_before is None:
        seen_before = engine.view(state, None)
    seen_after = engine.view(after, None)
    row = Move(
        number=number,
        seat=seat,
        payload=dict(move),
        # What the table saw happen, from the public views only (games/boards: summarize).
        summary=boards.summarize(slug, seen_before, seat, move, seen_after),
        by_bot=by_bot,
        can_take_back=can_take_back_step(engine, state, seat, move, after),
    )
    return Entry(row=row, after=after, seen_after=seen_after)


def settle(game: Game, engine: Engine, state: Any, *, version: int, now: datetime) -> None:
    """Put on `game` (the caller saves it) where the first `version` moves of its log, the
    last one played at `now`, have left it: the state, the move count, and the turn's start,
    or the game's end when the engine says it is over."""
    game.state = engine.dump(state)
    game.version = version
    game.turn_started_at = now
    if engine.is_over(state):
        game.status = Game.Status.FINISHED
        game.finished_at = game.finished_at or now
        game.turn_started_at = None


@timing.span("move")
def record_move(
    game: Game, engine: Engine, state: Any, seat: int, move: dict[str, Any], *, by_bot: bool
) -> Any:
    """Check `move` with the engine, append it to the log and store the new state on `game`.

    The caller holds the game row (locked, or created in the same transaction) and has
    checked who may move; an illegal move raises and nothing is written. Returns the new state.
    """
    entry = log_entry(
        game.engine_slug, engine, state, seat, move, number=game.version, by_bot=by_bot
    )
    entry.row.game = game
    # Both writes by statements written once (services/writes.py), as save() would write them.
    writes.insert(entry.row)
    settle(game, engine, entry.after, version=game.version + 1, now=timezone.now())
    fields = ["state", "version", "turn_started_at", "updated_at"]
    if game.status == Game.Status.FINISHED:  # the move ended the game (settle)
        fields += ["status", "finished_at"]
    writes.update(game, fields)
    return entry.after


def _only_others_moved(game: Game, seat: int, expected_version: Any) -> bool:
    """True when the page at `expected_version` asked `seat` to choose together with other
    seats (simultaneous choices), and every move since was another seat's while that choice
    stayed open; the engine still decides whether `seat` may move now. Anywhere else a move
    from an older page is stale. Only this rare path replays the log, up to the page's move."""
    if type(expected_version) is not int or not 0 <= expected_version < game.version:
        return False
    since = list(game.moves.filter(number__gte=expected_version).order_by("number"))
    if any(move.seat == seat for move in since):
        return False
    engine = engine_for(game.engine_slug)
    state = state_at(game=game, number=expected_version)
    choosing = engine.to_move(state)
    if seat not in choosing or len(choosing) < 2:
        return False
    for move in since:
        state = engine.apply_move(state, move.seat, move.payload)
        if seat not in engine.to_move(state):
            return False
    return True


@transaction.atomic
def play_move(
    *,
    game_id: int,
    seat: int,
    move: dict[str, Any],
    expected_version: int,
    by_bot: bool = False,
    read: tuple[dict[str, Any], Any] | None = None,
) -> Game:
    """Play `move` for `seat` if the game is still at `expected_version`.

    `read` is the game's stored state as the caller read it before taking the lock, and
    that state loaded (a bot's turn: games/services/bots.py); where the locked row holds
    the same state it is used as it is, not loaded again, with what the engine already
    worked out on it (the bot's view scored Akropolis's cities, docs/benchmarks.md, "Seventh
    round"). Equal JSON is the same state (`load(dump(s))` behaves exactly like `s`).

    Raises GameError or IllegalMove, and then nothing is written and nothing is scheduled.
    Returns the game as it stands after the move, its seats and their members loaded.
    """
    check_move_payload(move)
    game = locked(game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "The game is not running.")
    if type(seat) is not int or not 0 <= seat < game.players:
        raise GameError("not_seated", f"There is no seat {seat!r} in this game.")
    # Checked before the turn: a double click or a second tab must hear "the game moved on",
    # not "not your turn". While several seats choose at once (secret offers), the moves of
    # the others since the page was drawn do not make this seat's choice stale.
    if expected_version != game.version and not _only_others_moved(game, seat, expected_version):
        raise GameError(
            "stale",
            f"Expected move {expected_version}, the game is at {game.version}.",
            version=game.version,
        )
    # The seats with their members, once: the bot turns, the notices and the mover's answer
    # (games/views/play.py draws the board from the game returned) all use these. Read by a
    # statement written once (games/live_reads.py), as the prefetch of the seats by position
    # with their members would read them.
    seats = live_reads.load_seats(game)
    seat_row = next(s for s in seats if s.position == seat)
    if seat_row.is_bot and not by_bot:
        raise GameError("bot_seat", "A bot plays this seat now.")
    if by_bot and not seat_row.is_bot:
        raise GameError("not_bot_seat", "A member plays this seat.")
    engine = engine_for(game.engine_slug)
    if read is not None and game.state is not None and game.state == read[0]:
        before = read[1]
    else:
        before = current_state(game, engine)
    state = record_move(game, engine, before, seat, move, by_bot=by_bot)
    if seat_row.told_turn:  # the member has moved: the next wait may be told again
        seat_row.told_turn = False
        seat_row.save(update_fields=["told_turn"])
    over = engine.is_over(state)
    to_move = [] if over else engine.to_move(state)
    run_clocks(game, to_move, game.turn_started_at or timezone.now())
    if over:
        after_commit(task_named("finish_game"), game.pk)
    else:
        schedule_bot_turns(game, to_move)
        notices.tell_turn_if_away(game, seats, to_move, mover=seat)
    broadcast_on_commit(game)
    return game


def state_at(*, game: Game, number: int | None = None) -> Any:
    """The engine state after the first `number` moves of the log, rebuilt by replaying it
    (the whole log when `number` is None)."""
    engine = engine_for(game.engine_slug)
    if number is None:
        number = game.version
    if type(number) is not int or not 0 <= number <= game.version:
        raise GameError("bad_number", f"Move {number!r} is not in 0..{game.version}.")
    state = first_state_of(game, engine)
    for move in game.moves.order_by("number")[:number]:
        state = engine.apply_move(state, move.seat, move.payload)
    return state


def view_for(*, game: Game, seat: Seat | int | None, number: int | None = None) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees, now or after move `number` of the log.

    The caller chooses the seat: while a game runs a player may ask only for their own
    seat (selectors.replay_seats); the view itself never holds what that seat may not see.
    """
    position = position_of(seat)
    if position is not None and not 0 <= position < game.players:
        raise GameError("not_seated", f"There is no seat {position}.")
    engine = engine_for(game.engine_slug)
    if number is None or (number == game.version and game.state is not None):
        state = current_state(game, engine)
    else:
        state = state_at(game=game, number=number)
    return engine.view(state, position)


# --- taking back a step (DESIGN.md principle 8) -------------------------------------------------


@transaction.atomic
def take_back_step(*, game_id: int, seat: int, expected_version: int | None) -> Game:
    """Take back the last move of the log for the member at `seat`, if the game is still at
    `expected_version` (None, from a form that sent no number, never is): it must be that
    seat's own step (no other seat has moved since, and no bot played it), of the turn still
    going on, and the engine must say it showed nothing hidden
    (`engines.base.can_take_back_step`). The move leaves the log, so replays, exports and
    audits see only the moves that stood; the state is rebuilt by replaying the log.

    Raises GameError, and then nothing is written and nothing is scheduled.
    """
    game = locked(game_id)
    if game.status != Game.Status.RUNNING:
        raise GameError("not_running", "The game is not running.")
    if type(seat) is not int or not 0 <= seat < game.players:
        raise GameError("not_seated", f"There is no seat {seat!r} in this game.")
    if expected_version != game.version:
        raise GameError(
            "stale",
            f"Expected move {expected_version}, the game is at {game.version}.",
            version=game.version,
        )
    if game.seats.get(position=seat).is_bot:
        raise GameError("bot_seat", "A bot plays this seat now.")
    last = game.moves.order_by("-number").first()
    if last is None or last.seat != seat or last.by_bot:
        raise GameError("nothing_to_take_back", "The last move is not this seat's own step.")
    engine = engine_for(game.engine_slug)
    before = state_at(game=game, number=game.version - 1)
    refusal = take_back_refusal(engine, before, seat, last.payload, current_state(game, engine))
    if refusal is not None:
        raise GameError(
            f"cannot_take_back_{refusal}", f"This step cannot be taken back: {refusal}."
        )
    last.delete()
    now = timezone.now()
    settle(game, engine, before, version=game.version - 1, now=now)
    game.steps_taken_back += 1
    game.save(
        update_fields=["state", "version", "steps_taken_back", "turn_started_at", "updated_at"]
    )
    # The seat's turn goes on, on the clock it had (a take-back gives no time).
    run_clocks(game, engine.to_move(before), now)
    # Tasks sent for the version just taken back find another one and do nothing: any bot that
    # is to move again (while several seats choose at once) is sent for this one.
    schedule_bot_turns(game, engine.to_move(before))
    broadcast_on_commit(game)
    return game
