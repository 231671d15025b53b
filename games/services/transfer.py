"""Export and import: a finished game as JSON, and such a file replayed into a new game."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any, TypeGuard

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation

from accounts.models import User
from accounts.names import name_problem
from games import engines, payloads
from games.engines.base import IllegalMove
from games.models import Game, Seat
from games.services.common import (
    BOT_LEVELS,
    GameError,
    check_move_payload,
    current_state,
    engine_for,
    first_state,
    text_problem,
)
from games.services.moves import record_move
from games.services.results import finish_game

MAX_IMPORT_MOVES = 10_000
EXPORT_FORMAT = "boardgame-club/game"
EXPORT_VERSION = 1


def seat_name(seat: Seat) -> str:
    """A seat's name in an export: its member's, the one an imported file gave it, or for a
    bot of the site the bot's name in English ("Hard bot")."""
    if seat.user is not None:
        return seat.user.name
    if seat.label:
        return seat.label
    if seat.bot_level:
        with translation.override("en"):
            return str(Seat.BotLevel(seat.bot_level).label)
    return ""


def export_game(*, game: Game) -> dict[str, Any]:
    """A finished game as JSON: options, seed, the move log, names and final scores, and
    the deal's salt and commitment (games/deals.py; null for a game that had none).

    Only finished games: the seed of a running game would reveal its hidden information.
    """
    if game.status != Game.Status.FINISHED:
        raise GameError("not_finished", "Only a finished game can be exported.")
    engine = engine_for(game.engine_slug)
    state = current_state(game, engine)
    scores = engine.scores(state)
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "game": game.engine_slug,
        "players": game.players,
        "options": game.options,
        "seed": game.seed,
        "salt": game.salt or None,
        "commitment": game.commitment or None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "seats": [
            {
                "seat": seat.position,
                "name": seat_name(seat),
                "bot_level": seat.bot_level,
                # A bot of the site played the seat from the start (not a member's seat that
                # a bot took over): an import names it as the site names its bots.
                "bot": seat.user_id is None and bool(seat.bot_level),
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


def _too_deep() -> GameError:
    return GameError(
        "file_too_deep",
        f"A game file may nest at most {payloads.MAX_DEPTH} levels deep.",
        max=payloads.MAX_DEPTH,
    )


def _bad(field: str, problem: str, **params: Any) -> GameError:
    """One field of the file is wrong: `field` names it as the file spells it
    (`seats[1].name`), `problem` says how (games.error_texts turns both into a sentence)."""
    return GameError("bad_field", f"{field}: {problem}", field=field, problem=problem, **params)


def _is_int(value: Any) -> TypeGuard[int]:
    return type(value) is int  # bool is an int to Python, never to a file's reader


def _check_text(value: Any, field: str, *, limit: int | None = None) -> str:
    if not isinstance(value, str):
        raise _bad(field, "not_text")
    if text_problem(value):
        raise _bad(field, "bad_character")
    if limit is not None and len(value) > limit:
        raise _bad(field, "too_long", max=limit)
    return value


def _check_json(value: Any, field: str) -> None:
    """Every key and string inside `value` can be stored (PostgreSQL refuses NUL characters
    and lone surrogates in JSON as in text)."""
    if isinstance(value, str):
        _check_text(value, field)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, field)
            _check_json(item, field)
    elif isinstance(value, list):
        for item in value:
            _check_json(item, field)


def _check_flag(entry: dict[str, Any], key: str, field: str) -> bool:
    value = entry.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _bad(field, "not_boolean")
    return value


def _checked_seats(seats: Any, players: int, account: str) -> dict[int, dict[str, Any]]:
    """Seat number -> {"name", "bot_level", "resigned"}, every field checked. A bot of the
    site gets no name of its own: the pages call it by its level in the reader's language,
    with the bot badge. Any other name follows the rules of members' names (accounts.names):
    one that renders blank or as a bot, an empty seat or the demo account refuses the file,
    naming the seat, rather than being renamed behind the importer's back. `account`: the
    importing member's username (the demo account may import its own games)."""
    if not isinstance(seats, list):
        raise _bad("seats", "not_list")
    if len(seats) > players:
        raise _bad("seats", "too_many", max=players)
    checked: dict[int, dict[str, Any]] = {}
    for index, entry in enumerate(seats):
        field = f"seats[{index}]"
        if not isinstance(entry, dict):
            raise _bad(field, "not_object")
        position = entry.get("seat")
        if not _is_int(position):
            raise _bad(f"{field}.seat", "not_integer")
        if not 0 <= position < players:
            raise _bad(f"{field}.seat", "out_of_range")
        if position in checked:
            raise _bad(f"{field}.seat", "duplicate")
        name = entry.get("name")
        name = "" if name is None else _check_text(name, f"{field}.name", limit=150)
        level = entry.get("bot_level") or ""
        if level not in ("", *BOT_LEVELS):
            raise _bad(f"{field}.bot_level", "unknown_value")
        # Files from before the "bot" field named a bot seat by its level ("hard").
        bot = _check_flag(entry, "bot", f"{field}.bot") or (bool(level) and name == level)
        if not (bot and level):
            problem = name_problem(name, account=account)
            if problem is not None:
                raise _bad(f"{field}.name", problem)
        checked[position] = {
            "name": "" if bot and level else name,
            "bot_level": level,
            "resigned": _check_flag(entry, "resigned", f"{field}.resigned"),
        }
    return checked


def _checked_moves(moves: Any) -> list[tuple[int, dict[str, Any], bool]]:
    """(seat, move, by_bot) per entry, in order; the engine judges the moves themselves."""
    if not isinstance(moves, list):
        raise _bad("moves", "not_list")
    if len(moves) > MAX_IMPORT_MOVES:
        raise _bad("moves", "too_many", max=MAX_IMPORT_MOVES)
    checked: list[tuple[int, dict[str, Any], bool]] = []
    for index, entry in enumerate(moves):
        field = f"moves[{index}]"
        if not isinstance(entry, dict):
            raise _bad(field, "not_object")
        if entry.get("number", index) != index or not _is_int(entry.get("number", index)):
            raise _bad(f"{field}.number", "out_of_order")
        seat = entry.get("seat")
        if not _is_int(seat):
            raise _bad(f"{field}.seat", "not_integer")
        move = entry.get("move")
        if not isinstance(move, dict):
            raise _bad(f"{field}.move", "not_object")
        _check_json(move, f"{field}.move")
        checked.append((seat, move, _check_flag(entry, "by_bot", f"{field}.by_bot")))
    return checked


def _same_json(claimed: Any, real: Any) -> bool:
    """Equal as JSON, types included: Python holds `true == 1` and `1.0 == 1`, a file does not."""
    return json.dumps(claimed, sort_keys=True) == json.dumps(real, sort_keys=True)


def _checked_scores(claimed: Any) -> dict[str, Any] | None:
    if claimed is None:
        return None
    if not isinstance(claimed, dict):
        raise _bad("scores", "not_object")
    if not isinstance(claimed.get("totals"), list):
        raise _bad("scores.totals", "not_list")
    if "breakdown" in claimed and not isinstance(claimed["breakdown"], list):
        raise _bad("scores.breakdown", "not_list")
    return claimed


def check_import_allowance(user: User) -> None:
    """Raise GameError when `user` has imported IMPORTS_PER_DAY games in the last 24 hours."""
    most = settings.IMPORTS_PER_DAY
    since = timezone.now() - timedelta(hours=24)
    if Game.objects.filter(created_by=user, imported=True, created_at__gte=since).count() >= most:
        raise GameError("import_limit", f"At most {most} imports in 24 hours.", max=most)


def import_game(*, data: Any, user: User | None) -> Game:
    """Replay an exported game through its engine and store it as a finished, imported game.

    Every field of the file is checked before anything is stored, and every move by the
    engine; a wrong or changed file gives a message that names the field. A member imports
    at most IMPORTS_PER_DAY games in 24 hours: past that the file is not even read.
    The game gets no salt and no commitment (a file's own are not kept): the site showed
    none before the game, so only the replay of its seed and moves can be verified.
    """
    if user is not None:
        check_import_allowance(user)
    if isinstance(data, bytes | str):
        try:
            data = json.loads(data)
        except RecursionError:  # the parser's own limit, far beyond MAX_DEPTH
            raise _too_deep() from None
        except ValueError:
            raise _bad_file("The file is not JSON.") from None
    if payloads.too_deep(data):  # before any check below walks it (games/payloads.py)
        raise _too_deep()
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise _bad_file("The file is not a game export.")
    if not _is_int(data.get("format_version")):  # `true` is not 1
        raise _bad("format_version", "not_integer")
    if data["format_version"] != EXPORT_VERSION:
        raise _bad_file("Unknown export format version.")
    slug, players, seed = data.get("game"), data.get("players"), data.get("seed")
    options = data.get("options", {})
    slug = _check_text(slug, "game", limit=40)
    try:
        engine = engines.get(slug)
    except KeyError:
        raise _bad("game", "unknown_value") from None
    if not _is_int(players):
        raise _bad("players", "not_integer")
    if not engine.min_players <= players <= engine.max_players:
        raise GameError(
            "bad_players",
            "Wrong number of players.",
            min=engine.min_players,
            max=engine.max_players,
        )
    if not _is_int(seed):
        raise _bad("seed", "not_integer")
    if not 0 <= seed < 2**63:  # the seed column is a signed 64-bit integer
        raise _bad("seed", "out_of_range")
    if not isinstance(options, dict):
        raise _bad("options", "not_object")
    _check_json(options, "options")
    finished_at = data.get("finished_at")
    if finished_at is not None:
        _check_text(finished_at, "finished_at", limit=40)
    names = _checked_seats(data.get("seats", []), players, user.username if user else "")
    moves = _checked_moves(data.get("moves"))
    claimed = _checked_scores(data.get("scores"))
    if data.get("results") is not None and not isinstance(data["results"], list):
        raise _bad("results", "not_list")
    try:
        state = first_state(engine, players, seed, options)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        # A practice game's start is drawn from the view in its options, which the file
        # may have changed as it likes.
        raise GameError("bad_options", "The options do not fit the game.") from None
    with transaction.atomic():
        # Everything below is one transaction: a move that does not replay stores nothing.
        if user is not None:
            # Again under the member's lock: two imports at once are counted one by one.
            list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk"))
            check_import_allowance(user)
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
            Seat.objects.create(
                game=game,
                position=position,
                label=info.get("name", ""),
                bot_level=info.get("bot_level", ""),
                resigned=info.get("resigned", False),
            )
        for index, (seat, move, by_bot) in enumerate(moves):
            try:
                check_move_payload(move)
                state = record_move(game, engine, state, seat, move, by_bot=by_bot)
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
        if claimed is not None and (
            not _same_json(claimed["totals"], scores["totals"])
            or not _same_json(claimed.get("breakdown", scores["breakdown"]), scores["breakdown"])
        ):
            raise GameError("scores_differ", "The file's scores do not match its moves.")
        finish_game(game_id=game.pk)
    return game
