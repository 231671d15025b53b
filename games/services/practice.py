"""Practice from one's own mistakes: an unrated game from a reviewed position.

From a finished game's review a member starts a practice game at one of their own decisions:
the position just before it, as their seat saw it, against bots of a level they choose.
DESIGN.md principles 3, 9 and 11 hold for it:

* The game is its options, its seed and its moves. Its options hold the member's view of
  the position (`PRACTICE_OPTION`), and its first state is that view with what it hides drawn from
  the practice game's own seed (`common.first_state`, the one start of every rebuild), so
  the real game's hidden draws never reach it.
* Its seed is committed like any game's (games/deals.py) and revealed when it ends; the
  commitment then proves the redrawn hidden parts too.
* It is never rated (`rated=False`), and a member has at most PRACTICE_GAMES_AT_ONCE of them
  running at once.

The options also keep what the review estimated at that decision (the value of the move
made and of the best move), so the finished practice game can show how the member did.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from games import deals
from games.models import PRACTICE_OPTION, Game, Review, Seat
from games.services.common import (
    BOT_LEVELS,
    GameError,
    engine_for,
)
from games.services.lobby import start_created
from games.services.moves import view_for


def practice_limit() -> int:
    return int(settings.PRACTICE_GAMES_AT_ONCE)


@transaction.atomic
def start_practice(*, game_id: int, number: int, user: User, level: str) -> Game:
    """Start a practice game from the position before decision `number` (1-based, as the
    review numbers them) of finished game `game_id`, for `user`'s own seat there, the other
    seats played by bots of `level`. Raises GameError, and then nothing is created."""
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameError("unknown_game", f"There is no game {game_id}.")
    review = Review.objects.filter(game=game, status=Review.Status.DONE).first()
    if review is None:
        raise GameError("practice_no_review", "The game has no finished review.")
    decision = next((d for d in review.decisions if d["number"] == number), None)
    if decision is None:
        raise GameError("bad_number", f"The review has no decision {number!r}.")
    seat = decision["seat"]
    if not game.seats.filter(position=seat, user=user).exists():
        raise GameError("practice_not_yours", "Only the member's own decisions can be practised.")
    if level not in BOT_LEVELS:
        raise GameError("bad_bot_level", f"Unknown bot level {level!r}.", level=str(level))
    check_practice_allowance(user)
    engine = engine_for(game.engine_slug)
    view = view_for(game=game, seat=seat, number=number - 1)
    seed = secrets.randbits(62)
    options = practice_options(view, seat, game_id=game.pk, decision=decision)
    practice = Game.objects.create(
        engine_slug=game.engine_slug,
        options=options,
        seed=seed,
        **deals.committed(seed),
        players=game.players,
        created_by=user,
        rated=False,
    )
    for position in range(game.players):
        if position == seat:
            Seat.objects.create(game=practice, position=position, user=user)
        else:
            Seat.objects.create(game=practice, position=position, bot_level=level)
    start_created(practice, engine)
    return practice


def practice_options(
    view: dict[str, Any], seat: int, *, game_id: int, decision: dict[str, Any]
) -> dict[str, Any]:
    """The options of a practice game from `view`, `seat`'s view before `decision` of the
    review of game `game_id`: nothing of them depends on what the view hides."""
    return {
        PRACTICE_OPTION: {
            "game": game_id,
            "number": decision["number"],
            "seat": seat,
            "view": view,
            "value": decision["value"],
            "best_value": decision["best_value"],
        }
    }


def check_practice_allowance(user: User) -> None:
    most = practice_limit()
    running = (
        Game.objects.filter(
            created_by=user,
            status=Game.Status.RUNNING,
            options__has_key=PRACTICE_OPTION,
        )
        # A practice game the member resigned is finished by the bots: it no longer counts.
        .exclude(seats__user=user, seats__resigned=True)
        .count()
    )
    if running >= most:
        raise GameError("practice_limit", f"At most {most} practice games at once.", max=most)
