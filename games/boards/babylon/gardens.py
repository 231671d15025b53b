"""The Babylon gardens drawn: each garden in 3D levels (isometric) and from above, and the
tiles in hand with their previews (the quarry is drawn in `quarry.py`, the whole board and
the choices of the seat to move in `drawing.py`). Board cells are (x, y), x the column A-H,
y the row 1-8; the isometric picture puts cell (x, y) at level h at screen
(ISO_X (x - y), ISO_Y (x + y) - LEVEL_RISE h)."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext

from games.boards.babylon.names import (
    FLOWERS,
    MATERIALS,
    cell_name,
    tile_name,
)
from games.engines.babylon import data

compact = partial(json.dumps, separators=(",", ":"))
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
    symbols and pieces of the visible fields, the last turn's tiles outlined. Its shapes are
    written here as SVG text (`svg`, for templates/games/babylon/_top.svg): a garden has up
    to a hundred of them, and a template loop took most of a Babylon board's drawing time."""
    surface = board["surface"]
    size = 2 * CELL - 4
    tiles, outlines = [], []
    order = sorted(range(len(board["tiles"])), key=lambda i: board["tiles"][i]["level"])
    for index in order:
        t = board["tiles"][index]
        flower = data.TILES[t["tile"]][0]
        x, y, level = t["x"] * CELL + 2, t["y"] * CELL + 2, t["level"]
        last = (t["x"], t["y"]) in marked
        title = pgettext("babylon", "%(tile)s, level %(level)s") % {
            "tile": tile_name(t["tile"]),
            "level": level,
        }
        tiles.append(
            f'<g class="bab-top-tile level-{level}{" bab-last" if last else ""}">'
            f"<title>{conditional_escape(title)}</title>"
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="3" '
            f'fill="{shade(FLOWERS[flower][1], level)}"/></g>'
        )
        if last:
            outlines.append(
                f'<rect class="bab-last-outline" x="{x}" y="{y}" width="{size}" '
                f'height="{size}" rx="3"/>'
            )
    pieces: dict[tuple[int, int, int], str] = {}
    links = []
    for piece in board["pieces"]:
        for x, y, level in piece["at"]:
            pieces[(x, y, level)] = piece["kind"]
        if len(piece["at"]) == 2 and surface_shows(surface, piece["at"]):
            (x1, y1, _), (x2, y2, _) = piece["at"]
            links.append(
                f'<line class="bab-link bab-{conditional_escape(piece["kind"])}" '
                f'x1="{(x1 + 0.5) * CELL}" y1="{(y1 + 0.5) * CELL}" '
                f'x2="{(x2 + 0.5) * CELL}" y2="{(y2 + 0.5) * CELL}"/>'
            )
    fields = [
        field_svg(t, k, pieces)
        for t in board["tiles"]
        for k, (dx, dy) in enumerate(FOOT)
        if surface[(t["y"] + dy) * SIZE + t["x"] + dx] == t["level"]  # else under a higher tile
    ]
    svg = "\n".join(
        (
            f'<rect class="bab-board" x="0" y="0" width="{SIZE * CELL}" height="{SIZE * CELL}"/>',
            NOTCHES,
            "".join(tiles),
            "".join(links),
            "".join(fields),
            "".join(outlines),
        )
    )
    # `last`: whether the last turn's tiles are outlined here. The SVG holds numbers, colours
    # and escaped texts.
    return {"svg": mark_safe(svg), "size": SIZE * CELL, "last": bool(outlines)}


def field_svg(tile: dict[str, Any], corner: int, pieces: dict[tuple[int, int, int], str]) -> str:
    """One visible field of the top view: its symbol, its piece, its level."""
    dx, dy = FOOT[corner]
    x, y, level = tile["x"] + dx, tile["y"] + dy, tile["level"]
    cx, cy = (x + 0.5) * CELL, (y + 0.5) * CELL
    kind = pieces.get((x, y, level)) or ""
    symbol = tile["symbols"][corner]
    drawn = f'<g class="bab-field{" bab-piece-" + conditional_escape(kind) if kind else ""}" '
    drawn += f'data-x="{x}" data-y="{y}">'
    if symbol != "-":
        built = " bab-built" if kind in ("stairs", "fountain", "bridge", "statue") else ""
        drawn += f'<path class="bab-glyph{built}" d="{symbol_path(symbol, cx, cy, 7)}"/>'
    centre = f'cx="{round(cx, 1)}" cy="{round(cy, 1)}"'
    if kind == "belvedere":
        drawn += f'<circle class="bab-belvedere" {centre} r="6"/>'
    text = f'x="{round(cx, 1)}" y="{round(cy, 1)}"'
    return drawn + f'<text class="bab-level" {text} dx="10" dy="13">{level}</text></g>'


def surface_shows(surface: list[int], at: list[list[int]]) -> bool:
    return any(surface[y * SIZE + x] <= level for x, y, level in at)


def iso_view(board: dict[str, Any]) -> dict[str, Any]:
    """The garden in 3D: the board, then level by level the pillars and the tiles on them
    (a higher tile is drawn over everything below it), with belvederes and decorations;
    written here as SVG text (`svg`, for templates/games/babylon/_iso.svg), as the top view."""
    shapes: list[str] = []
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
                f'<line class="bab-pillar bab-{conditional_escape(p["kind"])}" '
                f'x1="{round(x1, 1)}" y1="{round(y1, 1)}" '
                f'x2="{round(top_x, 1)}" y2="{round(top_y, 1)}"/>'
            )
        for t in sorted(by_level.get(level, []), key=lambda t: t["x"] + t["y"]):
            shapes.append(iso_tile(t, level))
        for piece in tops.get(level, []):
            for x, y, at in piece["at"]:
                sx, sy = iso(x + 0.5, y + 0.5, at)
                shapes.append(
                    f'<rect class="bab-iso-piece bab-{conditional_escape(piece["kind"])}" '
                    f'x="{round(sx - 4, 1)}" y="{round(sy - 10, 1)}" width="8" height="10" '
                    'rx="2"/>'
                )
    left, _ = iso(0, SIZE, 0)
    right, _ = iso(SIZE, 0, 0)
    top_level = max([t["level"] for t in board["tiles"]] + [0])
    _, top = iso(0, 0, top_level + 2)
    _, bottom = iso(SIZE, SIZE, 0)
    svg = f'<polygon class="bab-iso-base" points="{base}"/>\n' + "".join(shapes)
    return {
        "svg": mark_safe(svg),  # numbers, colours and escaped kinds
        "view_box": f"{left - 6:.1f} {top - 6:.1f} {right - left + 12:.1f} {bottom - top + 12:.1f}",
    }


def iso_tile(tile: dict[str, Any], level: int) -> str:
    """A tile of the 3D view with its sides and the symbols of its four fields."""
    corners = [(tile["x"] + dx * 2, tile["y"] + dy * 2) for dx, dy in FOOT]
    flower = data.TILES[tile["tile"]][0]
    side = (
        isopoints([corners[3], corners[2], corners[1]], level)
        + " "
        + isopoints([corners[1], corners[2], corners[3]], level - 0.25)
    )
    drawn = [
        f'<g class="bab-iso-tile level-{level}"><polygon class="bab-iso-side" points="{side}"/>'
        f'<polygon points="{isopoints(corners, level)}" fill="{shade(FLOWERS[flower][1], level)}"/>'
        "</g>"
    ]
    for k, (dx, dy) in enumerate(FOOT):
        symbol = tile["symbols"][k]
        if symbol != "-":
            sx, sy = iso(tile["x"] + dx + 0.5, tile["y"] + dy + 0.5, level)
            drawn.append(
                f'<path class="bab-glyph bab-iso-glyph" d="{symbol_path(symbol, sx, sy, 4)}"/>'
            )
    return "".join(drawn)


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
# The top view's notches: the same in every garden.
NOTCHES = (
    '<g class="bab-notches">'
    + "".join(f'<circle cx="{c["cx"]}" cy="{c["cy"]}" r="1.6"/>' for c in GRID)
    + "</g>"
)
