"""Drawing data for the Akropolis board: the cities and the construction site from a seat's
view, the placement choices and the last turn's marks.

Hex geometry follows games/engines/akropolis/view.py: axial coordinates, flat-topped hexes,
the centre of (q, r) at x = 1.5 q, y = sqrt(3) (r + q / 2) hex radii, y pointing down.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import sys
import threading
from collections import OrderedDict
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.boards import unmarked_seat
from games.boards.akropolis.moves import anchor_fields, place_value, placement_options
from games.boards.akropolis.names import HEX_COLOURS, HEX_LABELS, PLACE_TILE, TAKE_TILE
from games.boards.akropolis.texts import cost_text, site_meta, stones_text
from games.svg import view_box

HEX_RADIUS = 30.0
SQRT3 = math.sqrt(3)


def hex_centre(q: int, r: int, radius: float = HEX_RADIUS) -> tuple[float, float]:
    return 1.5 * q * radius, SQRT3 * (r + q / 2) * radius


@functools.lru_cache(maxsize=8192)
def hex_points(x: float, y: float, radius: float) -> str:
    """The corners of a hex for SVG's `points`; kept, as a board draws the same hexes often
    (each legal placement's preview redraws its cells)."""
    corners = []
    for k in range(6):
        angle = math.pi / 3 * k
        corners.append(f"{x + radius * math.cos(angle):.1f},{y + radius * math.sin(angle):.1f}")
    return " ".join(corners)


def hex_shape(
    code: str, q: int, r: int, level: int, names: dict[str, str], stars: dict[str, int]
) -> dict[str, Any]:
    """One drawn hex: its outline, colour, stars for a plaza, level and a readable title."""
    x, y = hex_centre(q, r)
    name = names.get(code, code)
    label = str(HEX_LABELS.get(name, name))
    if code.isupper() and stars.get(code):  # a plaza's stars in words too (spec §2.6)
        words = ngettext("%(plaza)s, %(stars)s star", "%(plaza)s, %(stars)s stars", stars[code])
        label = words % {"plaza": label, "stars": stars[code]}
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
        "label": label,
        "title": _("%(hex)s, level %(level)s") % {"hex": label, "level": level} if level else label,
    }


@functools.lru_cache(maxsize=4096)
def preview_hex(code: str, q: int, r: int, stars: int) -> str:
    """A hex of a placement's preview as the preview draws it (no title, no ring). `q` and
    `r` count from the placement's own place (the preview's tile is drawn once, round that
    place, and shown at each place). Kept: the turns of a game draw the same few hexes again
    and again."""
    x, y = hex_centre(q, r)
    points = hex_points(x, y, HEX_RADIUS - 1.5)
    drawn = f'<polygon points="{points}" fill="{HEX_COLOURS.get(code.lower(), "#cccccc")}"/>'
    if stars:
        drawn += f'<text class="stars" x="{round(x, 1)}" y="{round(y, 1)}">{"★" * stars}</text>'
    return drawn


def previews_svg(seat: int, previews: list[dict[str, Any]]) -> SafeString:
    """The hidden preview of each legal placement (static/js shows the one in focus), written
    here rather than in the template: a city offers a hundred placements and more. The tile
    in hand has a few ways to lie (its turns), each drawn once, round the place it is put on
    (`<defs>`); a preview is that drawing moved to its place, with the place's ring and
    level. (Each preview drawn whole made the mover's board two to three times as long.)
    Every value is a number or one of this module's colours, so nothing needs escaping."""
    shapes: dict[tuple[str, ...], str] = {}
    parts = []
    for p in previews:
        shape = shapes.setdefault(p["shape"], f"city-{seat}-tile-{len(shapes)}")
        x, y = hex_centre(p["q"], p["r"])
        ring = hex_points(x, y, HEX_RADIUS - 1.5)
        parts.append(
            f'<g class="preview" data-index="{p["index"]}" data-q="{p["q"]}" '
            f'data-r="{p["r"]}" data-rotation="{p["rotation"]}">'
            f'<use href="#{shape}" x="{x:.1f}" y="{y:.1f}"/>'
            # The chosen place's ring, drawn over the preview that would hide the place's own.
            f'<polygon class="anchor" points="{ring}"/>'
            f'<text class="level" x="{x:.1f}" y="{y:.1f}" dy="-11">{p["level"]}</text></g>\n'
        )
    if not shapes:
        return mark_safe("")
    defs = "".join(
        f'<g id="{name}" class="preview-tile">{"".join(shape)}</g>'
        for shape, name in shapes.items()
    )
    return mark_safe(f"<defs>{defs}</defs>\n{''.join(parts)}")


@functools.lru_cache(maxsize=8192)
def city_cell(
    language: str, code: str, q: int, r: int, level: int, name: str, stars: int, last: bool
) -> tuple[tuple[int, float, float], float, float, str]:
    """One hex of a city as its picture writes it: where it sorts (lower levels first, then
    top to bottom and left to right), its centre and its markup, in `language`, the active
    one. Kept: a move changes three hexes of one city, and each hex of a city is written for
    every viewpoint's board after every move (a kept city is of no use once it changed)."""
    c = hex_shape(code, q, r, level, {code: name}, {code: stars})
    points = c["points"]
    classes = f"hex level-{level}{' plaza' if c['plaza'] else ''}{' last-move' if last else ''}"
    parts = [
        f'<g class="{classes}" data-q="{q}" data-r="{r}" '
        f'data-hex="{conditional_escape(c["kind"])}" data-level="{level}">'
        f'<title>{conditional_escape(c["title"])}</title><polygon points="{points}" '
        f'fill="{c["fill"]}"/><polygon class="shade" points="{points}"/>'
    ]
    if c["plaza"]:
        parts.append(
            f'<polygon class="plaza-ring" points="{c["inner"]}"/>'
            f'<text class="stars" x="{c["x"]}" y="{c["y"]}">{c["stars"]}</text>'
        )
    if level > 1:
        parts.append(f'<text class="level" x="{c["x"]}" y="{c["y"]}" dy="-11">{level}</text>')
    parts.append("</g>\n")
    return (level, c["y"], c["x"]), c["x"], c["y"], "".join(parts)


def city(
    view: dict[str, Any], seat: int, *, with_moves: bool, marked: set[tuple[int, int]]
) -> dict[str, Any]:
    """Drawing data for one city; with the legal placements when `with_moves`."""
    geometry = view["geometry"]
    names, stars = geometry["hex_names"], geometry["plaza_stars"]
    language = get_language()
    cells = []
    for cell in view["cities"][seat]:
        code, q, r = cell["top"], cell["q"], cell["r"]
        last = (q, r) in marked
        order, x, y, markup = city_cell(
            language, code, q, r, cell["level"], names.get(code, code), stars.get(code, 0), last
        )
        cells.append(
            {"order": order, "x": x, "y": y, "markup": markup, "last": last, "q": q, "r": r}
        )
    centres = [(c["x"], c["y"]) for c in cells]
    spots: list[dict[str, Any]] = []
    previews: list[dict[str, Any]] = []
    if with_moves:
        beneath = {(c["q"], c["r"]): c for c in view["cities"][seat]}
        # The placements of one rotation cover the same hexes round their own place
        # (engines/akropolis/view.py: the rotation's shape moved to the place), so each
        # rotation's preview and the centres it adds are worked out once.
        shapes: dict[int, tuple[tuple[str, ...], list[tuple[int, int]]]] = {}
        covered: set[tuple[int, int]] = set()
        seen: set[tuple[int, int]] = set()
        for index, option in enumerate(view["legal"]["place"]):
            anchor = (option["q"], option["r"])
            shape = shapes.get(option["rotation"])
            if shape is None:
                offsets = [(h["q"] - anchor[0], h["r"] - anchor[1]) for h in option["hexes"]]
                drawing = tuple(
                    preview_hex(h["hex"], dq, dr, stars.get(h["hex"], 0) * h["hex"].isupper())
                    for h, (dq, dr) in zip(option["hexes"], offsets, strict=True)
                )
                shape = shapes[option["rotation"]] = (drawing, offsets)
            previews.append({"index": index, "shape": shape[0], **anchor_fields(option)})
            covered.update((anchor[0] + dq, anchor[1] + dr) for dq, dr in shape[1])
            if anchor not in seen:
                seen.add(anchor)
                x, y = hex_centre(*anchor)
                title = _("Place the tile here (level %(level)s)") % {"level": option["level"]}
                below = beneath.get(anchor)
                if below is not None:
                    label = hex_shape(below["top"], 0, 0, 0, names, stars)["label"]
                    words = _("Place the tile here (level %(level)s); beneath it: %(hex)s")
                    title = words % {"level": option["level"], "hex": label}
                spots.append(
                    {
                        "q": anchor[0],
                        "r": anchor[1],
                        "x": round(x, 1),
                        "y": round(y, 1),
                        # On a hex, the dot sits below its stars and level (drawn at and above y).
                        "dot_y": round(y + (15 if below is not None else 0), 1),
                        "points": hex_points(x, y, HEX_RADIUS - 4),
                        "title": title,
                    }
                )
        for q, r in covered:
            x, y = hex_centre(q, r)
            centres.append((round(x, 1), round(y, 1)))
    return {
        "seat": seat,
        "cells": sorted(cells, key=lambda c: c["order"]),
        "spots": spots,
        "previews_svg": previews_svg(seat, previews),
        "view_box": view_box(centres, HEX_RADIUS * 1.15),
        "marked": bool(marked),
    }


# Drawn cities of this process (the picture and what the board's template shows beside it), by
# all they show. A move changes one city at most, and the cities are most of a board's drawing
# time, so the live hub's next board (and the other viewpoints' boards of the same move) take
# the unchanged ones from here. A server watching 200 games holds 400 cities or more at once
# (each game's cities, for the seat and for spectators), and kept by count alone (256) the
# oldest went before their game's next move came: nothing was found again. Each entry is its
# picture and a few fields (about 30 kB in a late game: its ★ makes Python keep the text at two
# bytes a character; the drawing data behind it, 55 kB, is not kept), within a count and a size.
KEEP_DRAWN_CITIES = 2048
KEEP_DRAWN_CITIES_BYTES = 16 * 2**20
_drawn_cities: OrderedDict[bytes, dict[str, Any]] = OrderedDict()
_drawn_cities_bytes = 0
_drawn_cities_lock = threading.Lock()


def drawn_city(
    view: dict[str, Any],
    seat: int,
    name: str,
    *,
    is_mine: bool,
    with_moves: bool,
    marked: set[tuple[int, int]],
) -> dict[str, Any]:
    """A city as the board's template shows it: its seat, name, owner flag, whether it holds
    the last move's marks, and its picture (`svg`, from `city`), in the active language. A
    city offering placements is drawn each time; the others are drawn once per look."""
    global _drawn_cities_bytes
    key = None
    if not with_moves:
        look = (get_language(), seat, name, is_mine, sorted(marked), view["cities"][seat])
        key = hashlib.blake2b(repr(look).encode(), digest_size=16).digest()
        with _drawn_cities_lock:
            found = _drawn_cities.get(key)
            if found is not None:
                _drawn_cities.move_to_end(key)
                return dict(found)
    data = city(view, seat, with_moves=with_moves, marked=marked)
    data["name"], data["is_mine"] = name, is_mine
    drawn = {
        "seat": seat,
        "name": name,
        "is_mine": is_mine,
        "marked": data["marked"],
        "svg": city_svg(data),
    }
    if key is not None:
        with _drawn_cities_lock:
            if key not in _drawn_cities:
                _drawn_cities[key] = drawn
                _drawn_cities_bytes += sys.getsizeof(drawn["svg"])
            while _drawn_cities and (
                len(_drawn_cities) > KEEP_DRAWN_CITIES
                or _drawn_cities_bytes > KEEP_DRAWN_CITIES_BYTES
            ):
                _drawn_cities_bytes -= sys.getsizeof(_drawn_cities.popitem(last=False)[1]["svg"])
    return dict(drawn)


def forget_drawn_cities() -> None:
    """Drop every kept city (tests draw a board from nothing)."""
    global _drawn_cities_bytes
    with _drawn_cities_lock:
        _drawn_cities.clear()
        _drawn_cities_bytes = 0


def tile(view: dict[str, Any], codes: str) -> dict[str, Any]:
    """A loose tile (site or taken), drawn in its printed orientation (rotation 0)."""
    geometry = view["geometry"]
    names, stars = geometry["hex_names"], geometry["plaza_stars"]
    drawn = drawn_tile(
        get_language(),
        codes,
        tuple(names.get(code, code) for code in codes),
        tuple(stars.get(code, 0) for code in codes),
        tuple((dq, dr) for dq, dr in geometry["rotations"][0]),
    )
    return dict(drawn)


@functools.lru_cache(maxsize=512)
def drawn_tile(
    language: str,
    codes: str,
    names: tuple[str, ...],
    stars: tuple[int, ...],
    offsets: tuple[tuple[int, int], ...],
) -> dict[str, Any]:
    """A tile drawn in `language` (the active one) from its hexes' codes, names, plaza stars and
    printed offsets. Kept: each board shows the same site tiles move after move, in each
    viewpoint; the caller gets a copy of the dict, whose parts are only read."""
    hexes = [
        hex_shape(code, dq, dr, 0, {code: name}, {code: count})
        for code, name, count, (dq, dr) in zip(codes, names, stars, offsets, strict=True)
    ]
    drawn = {
        "hexes": hexes,
        "view_box": view_box([(h["x"], h["y"]) for h in hexes], HEX_RADIUS),
        "title": "; ".join(h["title"] for h in hexes),
    }
    drawn["svg"] = tile_svg(drawn)
    return drawn


def tile_svg(tile: dict[str, Any]) -> SafeString:
    """A loose tile's picture, written here for the reason a city's is (`city_svg`): a board
    shows five tiles or more, and the template engine took a third of the board partial's
    time to write their hexes. Every text is escaped; the rest are numbers and this module's
    colours."""
    parts = [
        f'<svg class="tile-svg" viewBox="{conditional_escape(tile["view_box"])}" '
        f'xmlns="http://www.w3.org/2000/svg" role="img" '
        f'aria-label="{conditional_escape(tile["title"])}">'
    ]
    for c in tile["hexes"]:
        parts.append(
            f'<g class="hex{" plaza" if c["plaza"] else ""}" '
            f'data-hex="{conditional_escape(c["kind"])}"><polygon points="{c["points"]}" '
            f'fill="{c["fill"]}"/>'
        )
        if c["plaza"]:
            parts.append(
                f'<polygon class="plaza-ring" points="{c["inner"]}"/>'
                f'<text class="stars" x="{c["x"]}" y="{c["y"]}">{c["stars"]}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>\n")
    return mark_safe("".join(parts))


def _last_marks(recent: list[dict[str, Any]], viewer: int | None) -> dict[str, Any]:
    """What the last turn of another player (or the viewer's own, when it holds the last move:
    `boards.unmarked_seat`) did: the tile taken and the hexes it now covers."""
    viewer = unmarked_seat(recent, viewer)
    turn = [m for m in recent if m["seat"] != viewer]
    marks: dict[str, Any] = {"seat": None, "cells": set(), "taken": None}
    if not turn:
        return marks
    seat = turn[-1]["seat"]
    for move in turn[-2:]:
        if move["seat"] != seat:
            continue
        summary = move["summary"]
        if move["type"] == TAKE_TILE and "hexes" in summary:
            marks["taken"] = summary
        elif move["type"] == PLACE_TILE and "cells" in summary:
            marks["cells"] = {tuple(c) for c in summary["cells"]}
    marks["seat"] = seat
    return marks


def board(view: dict[str, Any], names: list[str], recent: list[dict[str, Any]]) -> dict[str, Any]:
    seat = view["seat"]
    legal_take = set(view["legal"]["take"])
    site = []
    for entry in view["site"]:
        drawn = tile(view, entry["hexes"])
        site.append(
            {
                **drawn,
                "index": entry["index"],
                "cost": entry["cost"],
                "cost_text": cost_text(entry["cost"]),
                "can_take": entry["index"] in legal_take,
                "move": json.dumps({"type": TAKE_TILE, "index": entry["index"]}),
            }
        )
    placing = bool(view["legal"]["place"])
    marks = _last_marks(recent, seat)
    order = list(range(view["players"]))
    if seat is not None:
        # The viewer's own city comes first and largest.
        order.remove(seat)
        order.insert(0, seat)
    cities = []
    for position in order:
        drawn = drawn_city(
            view,
            position,
            names[position],
            is_mine=position == seat,
            with_moves=placing and position == seat,
            marked=marks["cells"] if position == marks["seat"] else set(),
        )
        drawn["stones"] = view["stones"][position]
        drawn["stones_text"] = stones_text(view["stones"][position])
        drawn["is_chief"] = position == view["chief"]
        cities.append(drawn)
    label = _("Column %(q)s, row %(r)s, rotation %(rotation)s, level %(level)s")
    placements = [
        {**fields, "index": index, "value": place_value(fields), "label": label % fields}
        for index, fields in enumerate(map(anchor_fields, view["legal"]["place"]))
    ]
    last_taken = None
    if marks["taken"] is not None:
        last_taken = {
            **tile(view, marks["taken"]["hexes"]),
            "name": names[marks["seat"]],
            "cost": marks["taken"]["cost"],
        }
    return {
        "site": site,
        "taken": tile(view, view["taken"]["hexes"]) if view["taken"] else None,
        "last_taken": last_taken,
        "cities": cities,
        "placements": placements,
        "placement_options": placement_options(placements),
        "stacks_left": view["stacks_left"],
        "face_down_tiles": view["face_down_tiles"],
        "round": view["round"],
        "rounds_total": view["rounds_total"],
        "turn": view["turn"],
        "turns_total": view["turns_total"],
        "chief_name": names[view["chief"]],
        "site_meta": site_meta(view, names[view["chief"]]),
    }


def city_svg(city: dict[str, Any]) -> SafeString:
    """A city's picture (`drawn_city`): its hexes, the last move's outlines, the places it
    offers and their previews. Written here rather than in a template, as the previews are:
    a city has dozens of hexes, and the template engine took most of a board's drawing time
    to write them. Every text is escaped; the rest are numbers and this module's colours."""
    spots = city["spots"]
    label = _("City of %(name)s") % {"name": conditional_escape(city["name"])}
    parts = [
        f'<svg class="city-svg{" mine" if city["is_mine"] else ""}" '
        f'viewBox="{conditional_escape(city["view_box"])}" xmlns="http://www.w3.org/2000/svg" '
        f'role="{"group" if spots else "img"}" aria-label="{label}" data-seat="{city["seat"]}"'
        f"{' data-roving' if spots else ''}>\n"
    ]
    parts.extend(c["markup"] for c in city["cells"])
    for c in city["cells"]:
        if c["last"]:
            points = hex_points(*hex_centre(c["q"], c["r"]), HEX_RADIUS - 1.5)
            parts.append(f'<polygon class="last-move-outline" points="{points}"/>')
    for n, s in enumerate(spots):
        title = conditional_escape(s["title"])
        parts.append(
            f'<g class="spot" data-q="{s["q"]}" data-r="{s["r"]}" data-x="{s["x"]}" '
            f'data-y="{s["y"]}" data-roving-item tabindex="{0 if n == 0 else -1}" role="button" '
            f'aria-label="{title}"><title>{title}</title><polygon points="{s["points"]}"/>'
            f'<circle cx="{s["x"]}" cy="{s["dot_y"]}" r="4"/></g>\n'
        )
    parts.append(f"{city['previews_svg']}</svg>\n")
    return mark_safe("".join(parts))
