"""The end of a game: results, ranks and ratings; the audit of a stored game, and the
verification of its deal (DESIGN.md principle 11, games/deals.py)."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import deals, engines, ratings, season_standings
from games.engines.base import IllegalMove
from games.models import Game, Result, TournamentTable
from games.services import notices
from games.services.common import (
    GameError,
    announce_lobby_on_commit,
    announce_tournament_on_commit,
    broadcast_on_commit,
    current_state,
    engine_for,
    first_state_of,
    locked,
)

# Games that never started (waiting for players, or abandoned in the waiting room).
NEVER_STARTED = (Game.Status.OPEN, Game.Status.ABANDONED)


def final_ranks(scores: dict[str, Any], resigned: set[int]) -> dict[int, int]:
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
    game = locked(game_id)
    existing = list(game.results.all())
    if existing:
        return existing
    engine = engine_for(game.engine_slug)
    state = current_state(game, engine)
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
    # An unrated game (marked so by its creator), an imported one, or one where a member took
    # the hard bot's hints moves no rating.
    if game.rated and not game.imported and not game.hints_used:
        ratings.update_ratings(engine_slug=game.engine_slug, results=results)
        # The season's kept standings take the game in with its results, however late.
        season_standings.count_finished_game(game, results)
    notices.tell_finished(game)
    # Pages re-render with the final table once results exist; the club page's lists too.
    broadcast_on_commit(game)
    announce_lobby_on_commit()
    at_table = TournamentTable.objects.filter(game=game).values_list("round__tournament_id")
    for (tournament_id,) in at_table:  # its open pages show the table's result
        announce_tournament_on_commit(tournament_id)
    return sorted(results, key=lambda r: (r.rank, r.seat))


def finish_unscored_games() -> int:
    """Store results for finished games that have none (their end-of-game task was lost)."""
    missing = Game.objects.filter(status=Game.Status.FINISHED, results__isnull=True)
    ids = list(missing.values_list("pk", flat=True))
    for game_id in ids:
        finish_game(game_id=game_id)
    return len(ids)


def audit_game(*, game: Game) -> list[str]:
    """Problems found when the game's log is replayed and compared with the stored cache."""
    if game.status in NEVER_STARTED:
        # Still waiting for players, or abandoned in its waiting room: no state to replay,
        # and its log must hold nothing.
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
    state = first_state_of(game, engine)
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


@dataclass
class DealCheck:
    """The outcome of verifying one game's deal."""

    committed: bool  # a commitment was shown from the start
    commitment_holds: bool | None  # the seed and salt give it; None without one
    moves: int  # moves replayed through the engine
    problems: list[str] = field(default_factory=list)  # the replay's, from audit_game

    @property
    def replays(self) -> bool:
        return not self.problems

    @property
    def ok(self) -> bool:
        return self.commitment_holds is not False and self.replays


def verify_deal(*, game: Game) -> DealCheck:
    """Recompute the commitment from the seed and the salt, and replay the deal from the seed
    through the engine (games/deals.py says what each proves)."""
    holds = None
    if game.commitment:
        holds = secrets.compare_digest(deals.commitment(game.seed, game.salt), game.commitment)
    return DealCheck(
        committed=bool(game.commitment),
        commitment_holds=holds,
        moves=game.moves.count(),
        problems=audit_game(game=game),
    )
