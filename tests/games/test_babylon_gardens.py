"""The Babylon gardens and quarry stacks the board module writes as SVG text
(games/boards/babylon/gardens.py, quarry.py) and the mover's choices of where a tile stands
(`drawing.stands_html`, each text translated once per board) are the ones their templates
wrote: the whole board partial, for every viewer through seeded games, in English, Hungarian
and Polish (whose decimal commas must not reach the SVG), against the templates of ad86e9c fed
with the drawing data they read, built here as that commit's board module built it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.template import engines
from django.utils.translation import pgettext

from games.boards.babylon import drawing
from games.boards.babylon.gardens import (
    CELL,
    FOOT,
    SIZE,
    iso,
    isopoints,
    shade,
    surface_shows,
    symbol_path,
)
from games.boards.babylon.names import FLOWERS, tile_name
from games.engines.babylon import data
from tests.games.conftest import board_contexts, board_frame, build_game, play_random_moves

REFERENCE = Path(__file__).parent / "reference"


def old_template(name: str, includes: dict[str, str]) -> str:
    text = REFERENCE / f"babylon_{name}_ad86e9c.{'html' if name in ('board', 'garden') else 'svg'}"
    found = text.read_text()
    for include, variable in includes.items():
        found = found.replace(
            f'{{% include "games/babylon/{include}" %}}', f"{{% include {variable} %}}"
        )
    return found


def old_board() -> Any:
    """The board partial as of ad86e9c, inside the board frame's `localize off`."""
    django = engines["django"]

    def compiled(name: str, includes: dict[str, str] | None = None) -> Any:
        return django.from_string(old_template(name, includes or {}))

    board = compiled("board", {"_garden.html": "old_garden", "_stack.svg": "old_stack"})
    parts = {
        "old_garden": compiled("garden", {"_iso.svg": "old_iso", "_top.svg": "old_top"}),
        "old_stack": compiled("stack"),
        "old_iso": compiled("iso"),
        "old_top": compiled("top"),
    }
    return board, parts


def test_the_reference_templates_are_the_ones_replaced() -> None:
    """The reference board includes each replaced part where the new one writes it."""
    board = (REFERENCE / "babylon_board_ad86e9c.html").read_text()
    assert board.count('{% include "games/babylon/_stack.svg" %}') == 2
    assert "garden.iso.shapes" in (REFERENCE / "babylon_iso_ad86e9c.svg").read_text()
    assert "garden.top.fields" in (REFERENCE / "babylon_top_ad86e9c.svg").read_text()


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 9)])
def test_boards_are_drawn_as_their_templates_drew_them(alice, bob, players, seed) -> None:
    bob.display_name = "Bob & <Co>"
    bob.save()
    game = build_game(alice, bob, *["normal"] * (players - 2), engine="babylon", seed=seed)
    board, parts = old_board()
    old, new = board_frame("old_board"), board_frame("board_template")
    compared = placing = 0
    while True:
        for view, ctx in board_contexts(game):
            drawn = new.render(ctx)
            with_old_data(ctx, view)
            assert drawn == old.render({**ctx, **parts, "old_board": board})
            compared += 1
            placing += "bab-iso-preview" in drawn
        if game.status != "running" or compared > 150:
            break
        play_random_moves(game, count=7)
    assert compared > 100 and placing > 0


def with_old_data(ctx: dict[str, Any], view: dict[str, Any]) -> None:
    """The gardens' drawing data as the templates of ad86e9c read it."""
    marks = drawing.last_turn(ctx["recent"], view["seat"])
    for garden in ctx["board"]["gardens"]:
        position = garden["seat"]
        marked = marks["tiles"] if marks is not None and marks["seat"] == position else set()
        garden["top"] = old_top_view(view["boards"][position], marked)
        garden["iso"] = old_iso_view(view["boards"][position])


# --- the drawing data of ad86e9c (games/boards/babylon/gardens.py) ----------------------------


def old_top_view(board: dict[str, Any], marked: set[tuple[int, int]]) -> dict[str, Any]:
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
    for t in board["tiles"]:
        for k, (dx, dy) in enumerate(FOOT):
            x, y = t["x"] + dx, t["y"] + dy
            if surface[y * SIZE + x] != t["level"]:
                continue
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
                    "path": symbol_path(symbol, cx, cy, 7) if symbol != "-" else "",
                    "piece": kind or "",
                    "decorated": kind in ("stairs", "fountain", "bridge", "statue"),
                }
            )
    return {"tiles": tiles, "fields": fields, "links": links, "size": SIZE * CELL}


def old_iso_view(board: dict[str, Any]) -> dict[str, Any]:
    shapes: list[dict[str, Any]] = []
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
        "base": isopoints([(0, 0), (SIZE, 0), (SIZE, SIZE), (0, SIZE)], 0),
        "shapes": shapes,
        "view_box": f"{left - 6:.1f} {top - 6:.1f} {right - left + 12:.1f} {bottom - top + 12:.1f}",
    }
