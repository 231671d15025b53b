"""Export and import: a finished game as JSON, and such a file replayed into a new game."""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engines.base import IllegalMove
from games.models import Game, Seat
from games.services.common import BOT_LEVELS, GameError, check_move_payload, engine_for
from games.services.moves import record_move
from games.services.results import finish_game

MAX_IMPORT_MOVES = 10_000
EXPORT_FORMAT = "boardgame-club/game"
EXPORT_VERSION = 1


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
    engine = engine_for(game.engine_slug)
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
    engine = engine_for(slug)
    if not engine.min_players <= players <= engine.max_players:
        raise GameError("bad_players", "Wrong number of players.")
    try:
        state = engine.new_game(players, seed, options)
    except ValueError as exc:
        raise GameError("bad_options", str(exc)) from None
    for index, entry in enumerate(moves):
        if not isinstance(entry, dict) or entry.get("number", index) != index:
            raise _bad_file(f"Move {index} is missing or out of order.")
    names = {s["seat"]: s for s in seats if isinstance(s, dict) and type(s.get("seat")) is int}
    with transaction.atomic():
        # Everything below is one transaction: a move that does not replay stores nothing.
        now = timezone.now()
        game = Game.objects.create(
            engine_slug=slug,
            options=options,
            seed=seed,
            players=players,
            status=Game.Status.RUNNING,
            created_by=user,
            started_at=now,
            state=engine.dump(state),
            version=0,
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
        for index, entry in enumerate(moves):
            seat, move = entry.get("seat"), entry.get("move")
            try:
                check_move_payload(move)
                if type(seat) is not int:
                    raise GameError("not_your_turn", f"Seat {seat!r} is not to move.")
                state = record_move(
                    game, engine, state, seat, move, by_bot=bool(entry.get("by_bot"))
                )
            except (GameError, IllegalMove) as exc:
                raise GameError(
                    "bad_move_number",
                    f"Move {index} cannot be played: {exc}",
                    number=index,
                    cause=exc,
                    game=slug,
                ) from None
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
        finish_game(game_id=game.pk)
    return game
