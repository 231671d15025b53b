"""Everything a game page draws, built from a seat's view dict and never from the raw state.

DESIGN.md principle 4: the only game data that reaches a template is what
`engine.view(state, seat)` returned for the seat looking at the page (a spectator, or
anyone replaying a running game they do not play in, gets the view of seat None). The
functions here turn a view into plain drawing data (hex outlines, colours, labels) that
the templates under `templates/games/` lay out as SVG.

`board_context()` is the single place that assembles a board; the play page, the HTTP
board partial, the htmx move answer, the replay viewer and the websocket consumer
(through `live_fragments()`) all use it, so they cannot drift apart.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import catalog, engines
from games.models import Game

HEX_RADIUS = 30.0
SQRT3 = math.sqrt(3)

# Spec §3.3 colours of the districts; a plaza uses its district's colour.
HEX_COLOURS = {
    "q": "#a59d93",
    "h": "#3f76c6",
    "m": "#e4b22b",
    "b": "#c7483c",
    "t": "#7e52ab",
    "g": "#4f9a49",
}
CATEGORY_COLOURS = {
    "house": HEX_COLOURS["h"],
    "market": HEX_COLOURS["m"],
    "barracks": HEX_COLOURS["b"],
    "temple": HEX_COLOURS["t"],
    "garden": HEX_COLOURS["g"],
    "stones": "#6d655c",
}
HEX_LABELS = {
    "quarry": gettext_lazy("Quarry"),
    "house": gettext_lazy("House"),
    "market": gettext_lazy("Market"),
    "barracks": gettext_lazy("Barracks"),
    "temple": gettext_lazy("Temple"),
    "garden": gettext_lazy("Garden"),
    "house_plaza": gettext_lazy("House plaza"),
    "market_plaza": gettext_lazy("Market plaza"),
    "barracks_plaza": gettext_lazy("Barracks plaza"),
    "temple_plaza": gettext_lazy("Temple plaza"),
    "garden_plaza": gettext_lazy("Garden plaza"),
}
CATEGORY_LABELS = {
    "house": gettext_lazy("Houses"),
    "market": gettext_lazy("Markets"),
    "barracks": gettext_lazy("Barracks"),
    "temple": gettext_lazy("Temples"),
    "garden": gettext_lazy("Gardens"),
    "stones": gettext_lazy("Stones"),
}
MOVE_LABELS = {
    "take_tile": gettext_lazy("took a tile"),
    "place_tile": gettext_lazy("placed a tile"),
}
BOT_LABELS = {
    "easy": gettext_lazy("Easy bot"),
    "normal": gettext_lazy("Normal bot"),
    "hard": gettext_lazy("Hard bot"),
}


# --- hex geometry (flat-topped, axial; see games/engines/akropolis/view.py) ------------------


def hex_centre(q: int, r: int, radius: float = HEX_RADIUS) -> tuple[float, float]:
    return 1.5 * q * radius, SQRT3 * (r + q / 2) * radius


def hex_points(x: float, y: float, radius: float) -> str:
    corners = []
    for k in range(6):
        angle = math.pi / 3 * k
        corners.append(f"{x + radius * math.cos(angle):.1f},{y + radius * math.sin(angle):.1f}")
    return " ".join(corners)


def _view_box(centres: list[tuple[float, float]], radius: float = HEX_RADIUS) -> str:
    if not centres:
        return f"{-radius} {-radius} {2 * radius} {2 * radius}"
    pad = radius * 1.15
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    left, top = min(xs) - pad, min(ys) - pad
    return f"{left:.1f} {top:.1f} {max(xs) + pad - left:.1f} {max(ys) + pad - top:.1f}"


def hex_shape(
    code: str, q: int, r: int, level: int, names: dict[str, str], stars: dict[str, int]
) -> dict[str, Any]:
    """One drawn hex: its outline, colour, stars for a plaza, level and a readable title."""
    x, y = hex_centre(q, r)
    name = names.get(code, code)
    label = str(HEX_LABELS.get(name, name))
    return {
        "q": q,
        "r": r,
        "x": round(x, 1),
        "y": round(y, 1),
        "points": hex_points(x, y, HEX_RADIUS - 1.5),
        "inner": hex_points(x, y, HEX_RADIUS - 7),
        "code": code,
        "kind": name,
        "fill": HEX_COLOURS.get(code.lower(), "#cccccc"),
        "plaza": code.isupper(),
        "stars": "★" * stars.get(code, 0),
        "level": level,
        "title": _("%(hex)s, level %(level)s") % {"hex": label, "level": level} if level else label,
    }


# --- Akropolis --------------------------------------------------------------------------------


def akropolis_city(view: dict[str, Any], seat: int, *, with_moves: bool) -> dict[str, Any]:
    """Drawing data for one city; with the legal placements when `with_moves`."""
    geometry = view["geometry"]
    names, stars = geometry["hex_names"], geometry["plaza_stars"]
    cells = [
        hex_shape(cell["top"], cell["q"], cell["r"], cell["level"], names, stars)
        for cell in view["cities"][seat]
    ]
    centres = [(c["x"], c["y"]) for c in cells]
    spots: list[dict[str, Any]] = []
    previews: list[dict[str, Any]] = []
    if with_moves:
        seen: set[tuple[int, int]] = set()
        for index, option in enumerate(view["legal"]["place"]):
            anchor = (option["q"], option["r"])
            hexes = [
                hex_shape(h["hex"], h["q"], h["r"], option["level"], names, stars)
                for h in option["hexes"]
            ]
            previews.append({"index": index, "hexes": hexes, **anchor_fields(option)})
            centres.extend((h["x"], h["y"]) for h in hexes)
            if anchor not in seen:
                seen.add(anchor)
                x, y = hex_centre(*anchor)
                spots.append(
                    {
                        "q": anchor[0],
                        "r": anchor[1],
                        "points": hex_points(x, y, HEX_RADIUS - 4),
                        "title": _("Place the tile here (level %(level)s)")
                        % {"level": option["level"]},
                    }
                )
    return {
        "seat": seat,
        "cells": sorted(cells, key=lambda c: (c["level"], c["y"], c["x"])),
        "spots": spots,
        "previews": previews,
        "view_box": _view_box(centres),
    }


def anchor_fields(option: dict[str, Any]) -> dict[str, Any]:
    return {
        "q": option["q"],
        "r": option["r"],
        "rotation": option["rotation"],
        "level": option["level"],
    }


def akropolis_tile(view: dict[str, Any], codes: str) -> dict[str, Any]:
    """A loose tile (site or taken), drawn in its printed orientation (rotation 0)."""
    geometry = view["geometry"]
    offsets = geometry["rotations"][0]
    hexes = [
        hex_shape(code, dq, dr, 0, geometry["hex_names"], geometry["plaza_stars"])
        for code, (dq, dr) in zip(codes, offsets, strict=True)
    ]
    return {
        "hexes": hexes,
        "view_box": _view_box([(h["x"], h["y"]) for h in hexes]),
        "title": ", ".join(h["title"] for h in hexes),
    }


def akropolis_board(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    seat = view["seat"]
    legal_take = set(view["legal"]["take"])
    site = []
    for entry in view["site"]:
        tile = akropolis_tile(view, entry["hexes"])
        site.append(
            {
                **tile,
                "index": entry["index"],
                "cost": entry["cost"],
                "can_take": entry["index"] in legal_take,
            }
        )
    placing = bool(view["legal"]["place"])
    cities = []
    order = list(range(view["players"]))
    if seat is not None:
        # The viewer's own city comes first and largest.
        order.remove(seat)
        order.insert(0, seat)
    for position in order:
        city = akropolis_city(view, position, with_moves=placing and position == seat)
        city["name"] = names[position]
        city["is_mine"] = position == seat
        city["stones"] = view["stones"][position]
        city["is_chief"] = position == view["chief"]
        cities.append(city)
    placements = [
        {
            **anchor_fields(option),
            "index": index,
            "value": _placement_value(option),
            "label": _("Column %(q)s, row %(r)s, rotation %(rotation)s, level %(level)s")
            % anchor_fields(option),
        }
        for index, option in enumerate(view["legal"]["place"])
    ]
    taken = akropolis_tile(view, view["taken"]["hexes"]) if view["taken"] else None
    return {
        "site": site,
        "taken": taken,
        "cities": cities,
        "placements": placements,
        "stacks_left": view["stacks_left"],
        "face_down_tiles": view["face_down_tiles"],
        "round": view["round"],
        "rounds_total": view["rounds_total"],
        "turn": view["turn"],
        "turns_total": view["turns_total"],
        "chief_name": names[view["chief"]],
    }


def _placement_value(option: dict[str, Any]) -> str:
    # The move JSON exactly as the engine expects it (view.py: move dicts).
    return json.dumps(
        {"type": "place_tile", "q": option["q"], "r": option["r"], "rotation": option["rotation"]}
    )


def take_value(index: int) -> str:
    return json.dumps({"type": "take_tile", "index": index})


# --- scores -----------------------------------------------------------------------------------


def category_label(key: str) -> str:
    label = CATEGORY_LABELS.get(key)
    return str(label) if label is not None else key.replace("_", " ").capitalize()


def score_table(
    scores: dict[str, Any], names: list[str], results: list[Any] | None = None
) -> dict[str, Any]:
    """Rows per seat in ranking order, one column per scoring category.

    Once the end-of-game task has stored the results, their ranks decide the order and the
    winners (a seat that resigned ranks last whatever its bot scored), and each row shows the
    rating change; before that, the engine's ranking.
    """
    breakdown = scores.get("breakdown") or []
    keys: list[str] = []
    for parts in breakdown:
        keys.extend(k for k in parts if k not in keys)
    if results:
        by_seat = {r.seat: r for r in results}
        order = [(r.rank, r.seat) for r in sorted(results, key=lambda r: (r.rank, r.seat))]
        winners = {r.seat for r in results if r.rank == 1}
    else:
        by_seat = {}
        ranking = scores.get("ranking") or list(range(len(names)))
        order = list(enumerate(ranking, start=1))
        winners = set(scores.get("winners", []))
    rows = []
    for place, seat in order:
        parts = breakdown[seat] if seat < len(breakdown) else {}
        result = by_seat.get(seat)
        rated = result is not None and result.rating_after is not None
        rows.append(
            {
                "seat": seat,
                "place": place,
                "name": names[seat],
                "values": [parts.get(k, 0) for k in keys],
                "total": scores["totals"][seat],
                "winner": seat in winners,
                "rating": (result.rating_before, result.rating_after) if rated else None,
            }
        )
    return {
        "columns": [category_label(k) for k in keys],
        "keys": keys,
        "rows": rows,
        "rated": any(row["rating"] for row in rows),
    }


def score_chart(table: dict[str, Any]) -> dict[str, Any]:
    """A stacked bar per seat, one segment per category (the end-of-game picture)."""
    bar_height, gap, label_width, width = 26, 12, 110, 320
    biggest = max([sum(max(v, 0) for v in row["values"]) for row in table["rows"]] + [1])
    bars = []
    for i, row in enumerate(table["rows"]):
        y = i * (bar_height + gap)
        x = float(label_width)
        segments = []
        for key, label, value in zip(table["keys"], table["columns"], row["values"], strict=True):
            if value <= 0:
                continue
            w = value / biggest * width
            segments.append(
                {
                    "x": round(x, 1),
                    "width": round(w, 1),
                    "value": value,
                    "label": label,
                    "fill": CATEGORY_COLOURS.get(key, "#999999"),
                }
            )
            x += w
        bars.append(
            {
                "y": y,
                "text_y": y + bar_height * 0.7,
                "name": row["name"],
                "total": row["total"],
                "end": round(x + 6, 1),
                "segments": segments,
            }
        )
    legend = [
        {"label": label, "fill": CATEGORY_COLOURS.get(key, "#999999"), "x": i * 75}
        for i, (key, label) in enumerate(zip(table["keys"], table["columns"], strict=True))
    ]
    height = len(bars) * (bar_height + gap)
    return {
        "bars": bars,
        "bar_height": bar_height,
        "legend": legend,
        "legend_y": height + 8,
        "width": label_width + width + 50,
        "height": height + 30,
    }


# --- the whole board --------------------------------------------------------------------------


def move_label(move_type: str) -> str:
    label = MOVE_LABELS.get(move_type)
    return str(label) if label is not None else move_type.replace("_", " ")


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
    names = [_("Seat %(number)s") % {"number": n + 1} for n in range(game.players)]
    for seat in game.seats.all():
        names[seat.position] = seat_name(seat)
    return names


def game_name(slug: str) -> str:
    info = catalog.get(slug)
    return info.name if info is not None else engines.get(slug).name


def rules_url(slug: str, view: dict[str, Any]) -> str:
    base = reverse("rulebooks:book", args=[slug])
    phase = view.get("phase")
    if slug == "akropolis" and phase == "take":
        return base + "#take-tile"
    if slug == "akropolis" and phase == "place":
        return base + "#place-tile"
    return base


def seat_position(seat: Any) -> int | None:
    """Accept a `Seat`, a position or None, so callers pass whatever they hold."""
    if seat is None:
        return None
    if isinstance(seat, int):
        return seat
    return int(seat.position)


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
    return f"{game.status}.{results}.{seats}"


def board_context(
    *,
    game: Any,
    seat: Any,
    view: dict[str, Any],
    error: str | None = None,
    replay_number: int | None = None,
) -> dict[str, Any]:
    """The context of the board partial for the viewer at `seat` (None: spectator)."""
    position = seat_position(seat)
    names = seat_names(game)
    is_over = bool(view.get("is_over"))
    results = list(game.results.all()) if is_over and getattr(game, "pk", None) else []
    table = score_table(view["scores"], names, results)
    to_move = list(view.get("to_move", []))
    own = next((s for s in game.seats.all() if s.position == position), None)
    # A member whose seat a bot now plays (resigned, or timed out) gets no move forms.
    interactive = replay_number is None and own is not None and position in to_move
    interactive = interactive and not own.is_bot
    # What the member may do with their seat while the game runs (not in a replay).
    playing = replay_number is None and own is not None and own.user_id is not None
    playing = playing and game.status == Game.Status.RUNNING and not own.resigned
    ctx: dict[str, Any] = {
        "game": game,
        "seat": position,
        "view": view,
        "version": game.version if replay_number is None else replay_number,
        "stamp": board_stamp(game),
        "engine_name": game_name(game.engine_slug),
        "names": names,
        "to_move_names": [names[s] for s in to_move],
        "is_my_turn": interactive,
        "can_resign": playing,
        "can_take_back": playing and own.bot_took_over,
        "is_over": is_over,
        "replay_number": replay_number,
        "error": error,
        "rules_url": rules_url(game.engine_slug, view),
        "scores": table,
        "board_template": f"games/{game.engine_slug.replace('-', '_')}/_board.html",
    }
    if game.engine_slug == "akropolis":
        ctx["board"] = akropolis_board(view, names)
        for site_tile in ctx["board"]["site"]:
            site_tile["move"] = take_value(site_tile["index"])
    if is_over:
        ctx["chart"] = score_chart(table)
    return ctx


def live_fragments(*, game: Any, seat: Any, user: Any = None) -> str:
    """The HTML a game socket sends: the board for this socket's own seat, swapped by id.

    Rendered afresh from the database for each socket (principle 4), carrying the move
    number in `data-version` so the browser can tell a gap (principle 6).
    """
    from games import services

    game.refresh_from_db()
    position = seat_position(seat)
    view = services.view_for(game=game, seat=position)
    ctx = board_context(game=game, seat=position, view=view)
    ctx["user"] = user
    return render_to_string("games/play.html#board", ctx)
