"""Drawing data for the Babylon board: each garden in 3D levels (isometric) and from above,
the tiles in hand with their previews, and the choices of the seat to move (the quarry is
drawn in `quarry.py`). Board cells are (x, y), x the column A-H, y the row 1-8; the isometric
picture puts cell (x, y) at level h at screen (ISO_X (x - y), ISO_Y (x + y) - LEVEL_RISE h)."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from django.utils.translation import npgettext, pgettext

from games.boards.babylon.names import (
    CORNERS,
    FLOWERS,
    MATERIALS,
    PIECES,
    SYMBOL_OF,
    SYMBOLS,
    cell_name,
    points,
    tile_name,
)
from games.engines.babylon import data

compact = partial(json.dumps, separators=(",", ":"))
REMOVE_CLAY, DIG, PLACE = "remove_clay", "dig", "place"
DECORATE, SET_SYMBOL, END_TURN = "decorate", "set_symbol", "end_turn"
CELL = 34  # top view: one notch
ISO_X, ISO_Y, LEVEL_RISE = 17, 9, 20  # isometric view


SIZE = data.BOARD_SIZE


def symbol_path(symbol: str, cx: float, cy: float, r: float) -> str:
    """A small glyph for a symbol, centred on (cx, cy): steps, a basin with a jet, an arch,
    a figure on a plinth."""
    if symbol == "S":
        return (
            f"M{cx - r:.1f} {cy + r:.1f}h{r * 0.66:.1f}v{-r * 0.66:.1f}h{r * 0.66:.1f}"
            f"v{-r * 0.66:.1f}h{r * 0.66:.1f}v{-r * 0.66:.1f}"
        )
    if symbol == "F":
        return (
            f"M{cx - r:.1f} {cy + r * 0.2:.1f}q{r:.1f} {r * 1.4:.1f} {2 * r:.1f} 0"
            f"M{cx:.1f} {cy + r * 0.2:.1f}v{-r * 1.1:.1f}"
        )
    if symbol == "B":
        return (
            f"M{cx - r:.1f} {cy + r * 0.6:.1f}v{-r * 0.6:.1f}q{r:.1f} {-r:.1f} {2 * r:.1f} 0"
            f"v{r * 0.6:.1f}"
        )
    return (
        f"M{cx:.1f} {cy - r:.1f}a{r * 0.3:.1f} {r * 0.3:.1f} 0 1 0 0.1 0"
        f"M{cx:.1f} {cy - r * 0.4:.1f}v{r * 0.9:.1f}M{cx - r * 0.6:.1f} {cy + r:.1f}h{r * 1.2:.1f}"
    )


def shade(colour: str, level: int) -> str:
    """The flower colour, darker on higher levels so levels read at a glance."""
    factor = max(0.55, 1.0 - 0.12 * (level - 1))
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(c * factor):02x}" for c in (red, green, blue))


def iso(x: float, y: float, level: float) -> tuple[float, float]:
    return ISO_X * (x - y), ISO_Y * (x + y) - LEVEL_RISE * level


def isopoints(corners: list[tuple[float, float]], level: float) -> str:
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in (iso(x, y, level) for x, y in corners))


def corner_symbols(tile: str, rotation: int) -> str:
    """Spec §4.2: corner k shows printed field (k - rotation) mod 4."""
    fields = data.TILES[tile][1]
    return "".join(fields[(k - rotation) % 4] for k in range(4))


FOOT = ((0, 0), (1, 0), (1, 1), (0, 1))


def top_view(board: dict[str, Any], marked: set[tuple[int, int]]) -> dict[str, Any]:
    """The garden from above: every tile in placement order (the higher ones last), the
    symbols and pieces of the visible fields, the last turn's tiles outlined."""
    surface = board["surface"]
    tiles = []
    order = sorted(range(len(board["tiles"])), key=lambda i: board["tiles"][i]["level"])
    for index in order:
        t = board["tiles"][index]
        flower = data.TILES[t["tile"]][0]
        tiles.append(
            {
                "x": t["x"] * CELL + 2,
                "y": t["y"] * CELL + 2,
                "size": 2 * CELL - 4,
                "fill": shade(FLOWERS[flower][1], t["level"]),
                "level": t["level"],
                "last": (t["x"], t["y"]) in marked,
                "title": pgettext("babylon", "%(tile)s, level %(level)s")
                % {"tile": tile_name(t["tile"]), "level": t["level"]},
            }
        )
    pieces: dict[tuple[int, int, int], str] = {}
    links = []
    for piece in board["pieces"]:
        for x, y, level in piece["at"]:
            pieces[(x, y, level)] = piece["kind"]
        if len(piece["at"]) == 2 and surface_shows(surface, piece["at"]):
            (x1, y1, _), (x2, y2, _) = piece["at"]
            links.append(
                {
                    "kind": piece["kind"],
                    "x1": (x1 + 0.5) * CELL,
                    "y1": (y1 + 0.5) * CELL,
                    "x2": (x2 + 0.5) * CELL,
                    "y2": (y2 + 0.5) * CELL,
                }
            )
    fields = []
    for t_index, t in enumerate(board["tiles"]):
        for k, (dx, dy) in enumerate(FOOT):
            x, y = t["x"] + dx, t["y"] + dy
            if surface[y * SIZE + x] != t["level"]:
                continue  # hidden under a higher tile
            cx, cy = (x + 0.5) * CELL, (y + 0.5) * CELL
            kind = pieces.get((x, y, t["level"]))
            symbol = t["symbols"][k]
            fields.append(
                {
                    "x": x,
                    "y": y,
                    "cx": round(cx, 1),
                    "cy": round(cy, 1),
                    "level": t["level"],
                    "symbol": symbol if symbol != "-" else "",
                    "path": symbol_path(symbol, cx, cy, 7) if symbol != "-" else "",
                    "piece": kind or "",
                    "decorated": kind in ("stairs", "fountain", "bridge", "statue"),
                    "tile": t_index,
                }
            )
    return {"tiles": tiles, "fields": fields, "links": links, "size": SIZE * CELL}


def surface_shows(surface: list[int], at: list[list[int]]) -> bool:
    return any(surface[y * SIZE + x] <= level for x, y, level in at)


def iso_view(board: dict[str, Any]) -> dict[str, Any]:
    """The garden in 3D: the board, then level by level the pillars and the tiles on them
    (a higher tile is drawn over everything below it), with belvederes and decorations."""
    shapes: list[dict[str, Any]] = []
    base = isopoints([(0, 0), (SIZE, 0), (SIZE, SIZE), (0, SIZE)], 0)
    by_level: dict[int, list[dict[str, Any]]] = {}
    for t in board["tiles"]:
        by_level.setdefault(t["level"], []).append(t)
    pillars: dict[int, list[dict[str, Any]]] = {}
    tops: dict[int, list[dict[str, Any]]] = {}
    heights = {"single": 1, "double": 2, "statue_pillar": 1}
    for piece in board["pieces"]:
        x, y, level = piece["at"][0]
        if piece["kind"] in heights:
            reach = level + heights[piece["kind"]]
            pillars.setdefault(reach, []).append(
                {"x": x, "y": y, "from": level, "to": reach, "kind": piece["kind"]}
            )
        else:
            tops.setdefault(level, []).append(piece)
    for level in sorted(set(by_level) | set(pillars)):
        for p in sorted(pillars.get(level, []), key=lambda p: p["x"] + p["y"]):
            x1, y1 = iso(p["x"] + 0.5, p["y"] + 0.5, p["from"])
            top_x, top_y = iso(p["x"] + 0.5, p["y"] + 0.5, p["to"])
            shapes.append(
                {
                    "shape": "pillar",
                    "kind": p["kind"],
                    "x1": round(x1, 1),
                    "y1": round(y1, 1),
                    "x2": round(top_x, 1),
                    "y2": round(top_y, 1),
                }
            )
        for t in sorted(by_level.get(level, []), key=lambda t: t["x"] + t["y"]):
            corners = [(t["x"] + dx * 2, t["y"] + dy * 2) for dx, dy in FOOT]
            flower = data.TILES[t["tile"]][0]
            shapes.append(
                {
                    "shape": "tile",
                    "top": isopoints(corners, level),
                    "side": isopoints([corners[3], corners[2], corners[1]], level)
                    + " "
                    + isopoints([corners[1], corners[2], corners[3]], level - 0.25),
                    "fill": shade(FLOWERS[flower][1], level),
                    "level": level,
                }
            )
            for k, (dx, dy) in enumerate(FOOT):
                symbol = t["symbols"][k]
                if symbol == "-":
                    continue
                sx, sy = iso(t["x"] + dx + 0.5, t["y"] + dy + 0.5, level)
                shapes.append({"shape": "symbol", "path": symbol_path(symbol, sx, sy, 4)})
        for piece in tops.get(level, []):
            for x, y, at in piece["at"]:
                sx, sy = iso(x + 0.5, y + 0.5, at)
                shapes.append(
                    {
                        "shape": "piece",
                        "kind": piece["kind"],
                        "x": round(sx - 4, 1),
                        "y": round(sy - 10, 1),
                        "w": 8,
                        "h": 10,
                    }
                )
    left, _ = iso(0, SIZE, 0)
    right, _ = iso(SIZE, 0, 0)
    top_level = max([t["level"] for t in board["tiles"]] + [0])
    _, top = iso(0, 0, top_level + 2)
    _, bottom = iso(SIZE, SIZE, 0)
    return {
        "base": base,
        "shapes": shapes,
        "view_box": f"{left - 6:.1f} {top - 6:.1f} {right - left + 12:.1f} {bottom - top + 12:.1f}",
    }


def tile_preview(tile: str, rotation: int) -> dict[str, Any]:
    """A tile in one rotation at anchor (0, 0), level 0, for the placing preview: the top
    view's 2 x 2 cells and the isometric face, moved into place by the page's script."""
    symbols = corner_symbols(tile, rotation)
    colour = FLOWERS[data.TILES[tile][0]][1]
    fields = []
    for k, (dx, dy) in enumerate(FOOT):
        cx, cy = (dx + 0.5) * CELL, (dy + 0.5) * CELL
        sx, sy = iso(dx + 0.5, dy + 0.5, 0)
        fields.append(
            {
                "path": symbol_path(symbols[k], cx, cy, 7) if symbols[k] != "-" else "",
                "iso_path": symbol_path(symbols[k], sx, sy, 4) if symbols[k] != "-" else "",
            }
        )
    return {
        "rotation": rotation,
        "fill": colour,
        "size": 2 * CELL - 4,
        "iso": isopoints([(dx * 2, dy * 2) for dx, dy in FOOT], 0),
        "fields": fields,
    }


def blocked_note(legal: dict[str, Any], singles: int) -> str | None:
    """Why no tile can be built in this build step, and what is left to do (None when a
    tile can be built or none is left to build)."""
    blocked = legal.get("blocked")
    if blocked is None:
        return None
    if blocked == "room":
        why = pgettext(
            "babylon", "No tile can be built: your garden has no place left where a tile can stand."
        )
    else:
        why = npgettext(
            "babylon",
            "No tile can be built: you have %(count)s single pillar, and every place where a "
            "tile can stand needs more (3 or 4 pillars; 2 single pillars buy a missing double).",
            "No tile can be built: you have %(count)s single pillars, and every place where a "
            "tile can stand needs more (3 or 4 pillars; 2 single pillars buy a missing double).",
            singles,
        ) % {"count": singles}
    if any(end["taken"] == "store" for end in legal["end_turn"]):
        then = pgettext(
            "babylon",
            "Store the tile you dug for a later turn, or discard it, and your turn ends.",
        )
    else:
        then = pgettext("babylon", "End your turn.")
    return f"{why} {then}"


def placements(view: dict[str, Any], legal: dict[str, Any]) -> list[dict[str, Any]]:
    """Every way a tile may stand (any tile of `legal["tiles"]`, any rotation): where, on
    which level, and what stands under each corner, with the pillars it uses."""
    tiles = legal["tiles"]
    if not tiles:
        return []
    options = []
    for index, option in enumerate(legal["place"]):
        x, y = option["x"], option["y"]
        corners = [
            pgettext("babylon", "%(corner)s: %(support)s")
            % {"corner": CORNERS[k], "support": PIECES[support]}
            for k, support in enumerate(option["supports"])
        ]
        cost = [
            npgettext("babylon", "%(count)s single", "%(count)s singles", option["singles"])
            % {"count": option["singles"]}
        ]
        if option["doubles"]:
            cost.append(
                npgettext("babylon", "%(count)s double", "%(count)s doubles", option["doubles"])
                % {"count": option["doubles"]}
            )
        text = pgettext("babylon", "Level %(level)s at %(cell)s — %(corners)s — uses %(cost)s") % {
            "level": option["level"],
            "cell": cell_name(x, y),
            "corners": ", ".join(str(c) for c in corners),
            "cost": " + ".join(cost),
        }
        if option["exchanges"]:
            text += npgettext(
                "babylon",
                " (%(count)s double bought with 2 singles)",
                " (%(count)s doubles bought with 2 singles each)",
                option["exchanges"],
            ) % {"count": option["exchanges"]}
        if option["open_corner"] is None:
            held = pgettext("babylon", "on 4 pillars")
        else:
            held = pgettext("babylon", "belvedere: %(corner)s") % {
                "corner": CORNERS[option["open_corner"]]
            }
        short = pgettext("babylon", "Level %(level)s · %(held)s · %(cost)s") % {
            "level": option["level"],
            "held": held,
            "cost": " + ".join(cost),
        }
        move = {
            "type": PLACE,
            "tile": tiles[0],
            "x": x,
            "y": y,
            "rotation": 0,
            "level": option["level"],
            "open_corner": option["open_corner"],
        }
        ix, iy = iso(x, y, option["level"])
        options.append(
            {
                "index": index,
                "x": x,
                "y": y,
                "level": option["level"],
                "open": "" if option["open_corner"] is None else option["open_corner"],
                "label": text,
                "short": short,
                "move": compact(move),
                "top_x": x * CELL + 2,
                "top_y": y * CELL + 2,
                "iso_x": round(ix, 1),
                "iso_y": round(iy, 1),
            }
        )
    # The short words stand for the long ones on a phone: where two choices of one place
    # would read alike, both keep every corner.
    seen: dict[tuple[int, int, str], int] = {}
    for option in options:
        key = (option["x"], option["y"], option["short"])
        seen[key] = seen.get(key, 0) + 1
    for option in options:
        if seen[(option["x"], option["y"], option["short"])] > 1:
            option["short"] = option["label"]
    return options


def decorations(legal: dict[str, Any], board: dict[str, Any]) -> list[dict[str, Any]]:
    surface = board["surface"]
    found = []
    for option in legal["decorate"]:
        cells = option["cells"]
        at = [[x, y, surface[y * SIZE + x]] for x, y in cells]
        kind = option["kind"]
        values = {
            "decoration": SYMBOLS[SYMBOL_OF[kind]],
            "cells": "–".join(cell_name(x, y) for x, y in cells),
            "points": points(kind, at),
        }
        move = {"type": DECORATE, **{k: option[k] for k in ("kind", "x", "y", "toward")}}
        found.append(
            {
                "kind": kind,
                "cells": " ".join(f"{x},{y}" for x, y in cells),
                "move": compact(move),
                "label": npgettext(
                    "babylon",
                    "%(decoration)s on %(cells)s (%(points)s point)",
                    "%(decoration)s on %(cells)s (%(points)s points)",
                    values["points"],
                )
                % values,
            }
        )
    return found


def symbol_choices(legal: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "move": compact({"type": SET_SYMBOL, "x": o["x"], "y": o["y"], "symbol": o["symbol"]}),
            "label": pgettext("babylon", "%(cell)s: %(symbol)s")
            % {"cell": cell_name(o["x"], o["y"]), "symbol": SYMBOLS[o["symbol"]]},
        }
        for o in legal["set_symbol"]
    ]


def end_choices(legal: dict[str, Any], view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    stored = view["boards"][seat]["stored"]
    labels = {
        None: pgettext("babylon", "End the turn"),
        "discard": pgettext("babylon", "Discard the dug tile and end the turn"),
        "store": pgettext("babylon", "Store the dug tile and end the turn")
        if stored is None
        else pgettext("babylon", "Store the dug tile (discarding %(tile)s) and end the turn")
        % {"tile": tile_name(stored)},
    }
    return [
        {
            "move": compact({"type": END_TURN, "taken": o["taken"]}),
            "label": labels[o["taken"]],
            "taken": o["taken"] or "",
        }
        for o in legal["end_turn"]
    ]


def tile_card(tile: str | None, which: str = "") -> dict[str, Any] | None:
    if tile is None:
        return None
    flower, fields = data.TILES[tile]
    return {
        "tile": tile,
        "which": which,
        "name": tile_name(tile),
        "fill": FLOWERS[flower][1],
        "edge": MATERIALS[data.material(tile)][1],
        "rotations": [tile_preview(tile, r) for r in data.ROTATIONS],
    }


GRID = [
    {
        "x": x,
        "y": y,
        "px": x * CELL,
        "py": y * CELL,
        "cx": round((x + 0.5) * CELL, 1),
        "cy": round((y + 0.5) * CELL, 1),
        "name": cell_name(x, y),
    }
    for y in range(SIZE)
    for x in range(SIZE)
]
