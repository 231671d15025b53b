"""Everything a game page draws, built from a seat's view dict and never from the raw state.

DESIGN.md principle 4: the only game data that reaches a template is what
`engine.view(state, seat)` returned for the seat looking at the page (a spectator, or
anyone replaying a running game they do not play in, gets the view of seat None). Each
game's board module (`games/boards/<pkg>.py`) turns that view into drawing data for its
templates (`templates/games/<pkg>/`); this module does what every game shares: names, the
move log, the score table and chart (games/score_tables.py), and the context of the board
partial.

`board_context()` is the single place that assembles a board; the play page, the HTTP
board partial, the htmx move answer, the replay viewer and the websocket consumer
(through `board_html()`) all use it, so they cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import boards, catalog, clocks, deals, engines, live_reads, practice
from games.models import Game, Move, Review, position_of
from games.score_tables import score_chart, score_table
from infra.links import reverse

BOT_LABELS = {
    "easy": gettext_lazy("Easy bot"),
    "normal": gettext_lazy("Normal bot"),
    "hard": gettext_lazy("Hard bot"),
}
# How many moves the game page lists under "What just happened".
RECENT_MOVES = 8


# --- names ------------------------------------------------------------------------------------


def seat_name(seat: Any) -> str:
    """How a seat is called on the pages: its member, its bot, or "open"."""
    if getattr(seat, "label", ""):
        # An imported game keeps the names recorded in its file.
        return str(seat.label)
    if seat.user_id is not None:
        if seat.bot_took_over:
            return _("%(name)s (played by a bot)") % {"name": seat.user.name}
        return str(seat.user.name)
    if seat.bot_level:
        return str(BOT_LABELS.get(seat.bot_level, seat.bot_level))
    return _("Open seat")


def seat_names(game: Any) -> list[str]:
    """Each seat's name, by position. Bots of the same level are numbered in seat order
    ("Easy bot 1", "Easy bot 2"), so that the log and the table tell them apart."""
    names = [_("Seat %(number)s") % {"number": n + 1} for n in range(game.players)]
    levels: dict[int, str] = {}
    for seat in game.seats.all():
        names[seat.position] = seat_name(seat)
        if seat.user_id is None and seat.bot_level and not getattr(seat, "label", ""):
            levels[seat.position] = seat.bot_level
    for level in set(levels.values()):
        same = sorted(p for p, found in levels.items() if found == level)
        if len(same) > 1:
            for number, position in enumerate(same, start=1):
                names[position] = _("%(bot)s %(number)s") % {
                    "bot": names[position],
                    "number": number,
                }
    return names


def game_name(slug: str) -> str:
    info = catalog.get(slug)
    return info.title if info is not None else engines.get(slug).name


# --- what happened: the move log in words -----------------------------------------------------


def move_label(slug: str, move_type: str) -> str:
    """The short label of a move type ("took a tile"), from the game's board module."""
    board = boards.get(slug)
    return board.move_label(move_type) if board is not None else move_type.replace("_", " ")


def describe_move(slug: str, name: str, move: Move) -> str:
    """One line of the move log, in the reader's language: "Hard bot took the 2-stone tile"."""
    return describe_payload(slug, name, move.payload, move.summary or {})


def describe_payload(slug: str, name: str, payload: dict[str, Any], summary: dict) -> str:
    """A move in words from its payload and public summary (also a move not played: the
    review's alternative, a hint)."""
    board = boards.get(slug)
    move_type = str(payload.get("type", ""))
    if board is not None:
        return str(board.describe(name, move_type, summary))
    return f"{name} {move_label(slug, move_type)}"


def advise_payload(slug: str, names: list[str], payload: dict[str, Any], summary: dict) -> str:
    """A move as advice to the one who would play it ("Take the 2-stone tile"), naming every
    part of it (which tile, offer or card, where, turned how), from the board module's
    `advise`; without one, the move's label."""
    board = boards.get(slug)
    move_type = str(payload.get("type", ""))
    if board is not None:
        return str(board.advise(names, move_type, payload, summary))
    return move_label(slug, move_type)


def recent_rows(game: Any, *, upto: int | None = None) -> list[Move]:
    """The log's rows of the last few moves before move number `upto` (default: all played),
    oldest first: one statement, made once by a caller that draws several viewpoints
    (games/live), and written once per process (games/live_reads)."""
    if not getattr(game, "pk", None):
        return []
    return live_reads.last_moves(game, RECENT_MOVES, upto)


def recent_moves(
    game: Any, *, upto: int | None = None, rows: list[Move] | None = None
) -> list[dict[str, Any]]:
    """The last few moves before move number `upto` (default: all played), oldest first, as
    the reader's language tells them; `rows`: those `recent_rows` read, if the caller has them."""
    if rows is None:
        rows = recent_rows(game, upto=upto)
    names = seat_names(game)
    return [
        {
            "number": m.number + 1,
            "seat": m.seat,
            "type": str(m.payload.get("type", "")),
            "summary": m.summary or {},
            "text": describe_move(game.engine_slug, names[m.seat], m),
            "by_bot": m.by_bot,
            "can_take_back": m.can_take_back,
        }
        for m in rows
    ]


# --- the whole board --------------------------------------------------------------------------


_BOT_BADGES: dict[str | None, str] = {}


def bot_badge() -> str:
    """The site's bot badge (games/_bot_badge.html), rendered once per language: every board
    says who the game waits for, and the badge is the same text each time."""
    language = translation.get_language()
    if language not in _BOT_BADGES:
        _BOT_BADGES[language] = render_to_string("games/_bot_badge.html")
    return _BOT_BADGES[language]


def waiting_for(names: list[str], to_move: list[int], bots: set[int]) -> str:
    """Who the game waits for, each bot seat with the site's bot badge (games/_bot_badge.html:
    no member can name themselves into looking like a bot)."""
    badge = mark_safe(bot_badge())  # our own template
    return format_html_join(", ", "{}{}", ((names[s], badge if s in bots else "") for s in to_move))


def end_reason(slug: str, view: dict[str, Any], names: list[str]) -> str | None:
    """Why a finished game ended, in words (the game's board module knows its rules); the
    last line of the move log."""
    board = boards.get(slug)
    if not view.get("is_over") or board is None:
        return None
    reason = board.end_reason(view, names)
    return str(reason) if reason else None


def rules_url(slug: str, view: dict[str, Any]) -> str:
    base = reverse("rulebooks:book", args=[slug])
    board = boards.get(slug)
    section = board.rules_section(view) if board is not None else None
    return f"{base}#{section}" if section else base


def board_stamp(game: Any) -> str:
    """What can change without a move (results stored, a resignation, a bot taking over a
    seat): the browser swaps in a live board of the same version only when this differs."""
    seats = "".join(
        f"{s.position}{'b' if s.is_bot else ''}{'r' if s.resigned else ''}"
        for s in game.seats.all()
    )
    # Results exist only once a game is finished: no query for the boards of running games,
    # which are rendered once per connected socket after every move.
    results = game.results.count() if game.status == Game.Status.FINISHED else 0
    return f"{game.status}.{results}.{seats}{review_stamp(game)}"


def review_stamp(game: Any) -> str:
    """A finished game's review progress: each stored decision re-sends the board, which
    shows it (games/services/reviews.py announces it on the game's socket)."""
    if game.status != Game.Status.FINISHED or not getattr(game, "pk", None):
        return ""
    found = Review.objects.filter(game=game).values_list("progress", "status").first()
    return f".r{found[0]}{found[1][0]}" if found else ""


def _own_last_step(game: Any, position: int | None, recent: list[dict[str, Any]]) -> bool:
    """Whether the last move is the viewer's own step, played by them (not a bot), that the
    engine said may be taken back (principle 8; `services.take_back_step` checks again).
    It is the last of `recent` (the last moves, oldest first, as `recent_moves` reads them)."""
    last = recent[-1] if recent else None
    return (
        last is not None
        and last["number"] == game.version
        and last["seat"] == position
        and not last["by_bot"]
        and last["can_take_back"]
    )


def board_context(
    *,
    game: Any,
    seat: Any,
    view: dict[str, Any],
    error: str | None = None,
    replay_number: int | None = None,
    recent: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The context of the board partial for the viewer at `seat` (None: spectator)."""
    position = position_of(seat)
    names = seat_names(game)
    is_over = bool(view.get("is_over"))
    results = list(game.results.all()) if is_over and getattr(game, "pk", None) else []
    seats = list(game.seats.all()) if getattr(game, "pk", None) else []
    table = score_table(view["scores"], names, results, slug=game.engine_slug, seats=seats)
    to_move = list(view.get("to_move", []))
    own = next((s for s in seats if s.position == position), None)
    # A member whose seat a bot now plays (resigned, or timed out) gets no move forms.
    interactive = (
        replay_number is None and own is not None and position in to_move and not own.is_bot
    )
    # What the member may do with their seat while the game runs (not in a replay).
    playing = (
        replay_number is None
        and own is not None
        and own.user_id is not None
        and game.status == Game.Status.RUNNING
        and not own.resigned
    )
    if recent is None:
        recent = recent_moves(game, upto=replay_number)
    board = boards.get(game.engine_slug)
    # The seat's own last step of a turn still going on: on its turn, or while the others
    # answer that step (the engine said so when it stored the move's `can_take_back`).
    own_step = (
        playing
        and own is not None
        and not own.is_bot
        and game.version > 0
        and _own_last_step(game, position, recent)
    )
    # A seat handed to a bot at a tournament round's deadline is not taken back.
    round_over = bool(
        playing
        and own is not None
        and own.bot_took_over
        and clocks.past_round_deadline(game, timezone.now())
    )
    ctx: dict[str, Any] = {
        "game": game,
        "seat": position,
        "view": view,
        "version": game.version if replay_number is None else replay_number,
        # What live boards are ordered by (Game.revision): moves and steps taken back.
        "revision": game.revision if replay_number is None else replay_number,
        "stamp": board_stamp(game),
        "engine_name": game_name(game.engine_slug),
        "names": names,
        "to_move_names": [names[s] for s in to_move],
        "waiting_for": waiting_for(names, to_move, {s.position for s in seats if s.is_bot}),
        "is_my_turn": interactive,
        "can_resign": playing,
        "can_reclaim_seat": playing and own is not None and own.bot_took_over and not round_over,
        "round_over": round_over,
        "can_take_back_step": own_step,
        "is_over": is_over,
        # Over, but the final table's ranks and ratings not stored yet (the end-of-game task
        # runs after the last move): the page fetches its board again (static/js/game.js).
        "results_pending": is_over and replay_number is None and not results,
        "replay_number": replay_number,
        "error": error,
        "rules_url": rules_url(game.engine_slug, view),
        "scores": table,
        "recent": recent,
        "end_reason": end_reason(game.engine_slug, view, names),
        "board_template": f"games/{boards.package_name(game.engine_slug)}/_board.html",
        "board": board.board(view, names, recent) if board is not None else {},
    }
    if getattr(game, "pk", None):
        # The commitment to the seed; the seed and salt once the game is finished.
        ctx["deal"] = deals.shown(game)
        if replay_number is None:  # the time left of the members it waits for
            ctx["clocks"] = clocks.clock_rows(game, names, timezone.now())
    if is_over:
        ctx["chart"] = score_chart(table)
        if getattr(game, "pk", None):
            ctx["review"] = Review.objects.filter(game=game).first()
            if replay_number is None and not game.imported:
                ctx["practice"] = practice.outcome(game, view["scores"], position)
    return ctx


def board_html(*, game: Any, seat: Any, recent: list[Move] | None = None) -> str:
    """The board partial a game socket sends for one viewpoint (None: a spectator), rendered
    from that seat's view only (principle 4) and carrying the move number in `data-version`
    so the browser can tell a gap (principle 7). `games.live` renders it once per game, move,
    viewpoint and language and shares it among the sockets that need exactly that; `recent`:
    the log's last rows (`recent_rows`), read once for all the viewpoints it draws."""
    from games import services

    position = position_of(seat)
    view = services.view_for(game=game, seat=position)
    moves = None if recent is None else recent_moves(game, rows=recent)
    ctx = board_context(game=game, seat=position, view=view, recent=moves)
    ctx["oob_actions"] = True  # at the end, the header's actions follow (_end_actions.html)
    return render_to_string("games/play.html#board", ctx)
