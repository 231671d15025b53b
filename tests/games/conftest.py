"""Fixtures for game tests: games created through the services, as members create them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.template import Template
from django.template import engines as template_engines
from django.utils import translation

from accounts.models import User
from games import engines, rendering, services
from games.models import Game


def build_game(
    *players: User | str,
    engine: str = "akropolis",
    seed: int = 7,
    options: dict[str, Any] | None = None,
) -> Game:
    """A game whose seats are the given members (in seat order) and bot levels ("normal").

    The first member creates it; the others join their seats, so a game of members only
    starts when the last one sits down, as in the lobby.
    """
    creator = next((p for p in players if isinstance(p, User)), None)
    seats: list[dict[str, Any]] = []
    for player in players:
        if isinstance(player, str):
            seats.append({"kind": "bot", "bot_level": player})
        else:
            seats.append({"kind": "me" if player == creator else "open"})
    game = services.create_game(
        engine_slug=engine,
        players=len(players),
        options=options,
        seats=seats,
        created_by=creator,
        seed=seed,
    )
    for position, player in enumerate(players):
        if isinstance(player, User) and player != creator:
            services.join_seat(game_id=game.pk, user=player, position=position)
    game.refresh_from_db()
    return game


def waiting_game(creator: User, *, players: int = 2, seed: int | None = None) -> Game:
    """A game `creator` opened from the lobby: their seat first, every other seat open."""
    return services.create_game(
        engine_slug="akropolis",
        players=players,
        options={},
        seats=[{"kind": "me"}] + [{"kind": "open"}] * (players - 1),
        created_by=creator,
        seed=seed,
    )


@pytest.fixture
def make_game(db: None) -> Callable[..., Game]:
    return build_game


@pytest.fixture
def quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bot seats play the random bot (still from their own view), for tests about what happens
    around bot moves rather than about how well bots play."""
    from games import bots
    from games.services import bots as bot_turns

    def random_move(engine: Any, view: dict, seat: int, level: str, **kwargs: Any) -> dict:
        return bots.choose_move(engine, view, seat, "random", seed=kwargs["seed"])

    monkeypatch.setattr(bot_turns, "choose_move", random_move)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, tuple]]:
    """The tasks handed to the broker (none is run)."""
    calls: list[tuple[Any, tuple]] = []
    monkeypatch.setattr(
        services.common, "send_task", lambda task, args, countdown=0: calls.append((task, args))
    )
    return calls


# --- helpers --------------------------------------------------------------------------------


def state_of(game: Game) -> Any:
    game.refresh_from_db()
    engine = engines.get(game.engine_slug)
    return engine.load(game.state)


def first_legal_move(game: Game) -> tuple[int, dict]:
    """The seat to move and its first legal move, from the test's side of the table."""
    engine = engines.get(game.engine_slug)
    state = state_of(game)
    seat = engine.to_move(state)[0]
    return seat, engine.legal_moves(state, seat)[0]


def play_random_moves(game: Game, count: int | None = None, seed: int = 1) -> Game:
    """Play `count` moves (all, when None) through the one move path: members play random
    legal moves, bot seats play their bot turns."""
    rng = random.Random(seed)
    engine = engines.get(game.engine_slug)
    played = 0
    while count is None or played < count:
        state = state_of(game)
        if engine.is_over(state):
            break
        seat = engine.to_move(state)[0]
        if game.seats.get(position=seat).is_bot:
            assert services.play_bot_turn(game_id=game.pk, seat=seat, expected_version=game.version)
        else:
            move = rng.choice(engine.legal_moves(state, seat))
            services.play_move(game_id=game.pk, seat=seat, move=move, expected_version=game.version)
        played += 1
    game.refresh_from_db()
    return game


def board_contexts(game: Game) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Every viewer's view and board context of the game as it stands now (a spectator, then
    each seat), in English, Hungarian and Polish: that language is active while each is used."""
    game.refresh_from_db()
    for language in ("en", "hu", "pl"):
        with translation.override(language):
            for seat in (None, *range(game.players)):
                view = services.view_for(game=game, seat=seat)
                yield view, rendering.board_context(game=game, seat=seat, view=view)


def board_frame(board: str) -> Template:
    """The game's board partial named by the context variable `board`, inside `localize off` as
    the page draws it (templates/games/_board_frame.html)."""
    return template_engines["django"].from_string(
        "{% load l10n %}{% localize off %}{% include " + board + " %}{% endlocalize %}"
    )


def follow_against_old(
    game: Game, parts: dict[str, Any], pieces: tuple[str, ...], *, moves: int, seed: int
) -> tuple[int, set[str]]:
    """Follow the game to its end, `moves` random moves at a time: every viewer's board partial
    (`board_contexts`) drawn by the game's template and by `old_board` (with the other old
    templates it includes, all in `parts`) from the same context must be the same text. The
    boards compared, and which of `pieces` any of them held."""
    old, new = board_frame("old_board"), board_frame("board_template")
    seen: set[str] = set()
    compared = 0
    while True:
        for _view, ctx in board_contexts(game):
            drawn = new.render(ctx)
            assert drawn == old.render({**ctx, **parts})
            compared += 1
            seen.update(piece for piece in pieces if piece in drawn)
        if game.status != "running":
            return compared, seen
        play_random_moves(game, count=moves, seed=seed + compared)
