"""The drawing of the gardens, the card display and the point
tiles from a seat's view, the move log in words and the rulebook section of each step.

Gardens are square grids (games/engines/hanging_gardens/grid.py): x to the right, y down,
one square `CELL` pixels wide. The four motifs have a colour and a symbol each, so the
picture reads without colour too.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import pgettext

from games.boards import unmarked_seat
from games.boards.hanging_gardens.moves import garden_cells
from games.boards.hanging_gardens.names import (
    card_motifs,
    card_words,
    garden_box,
    group_words,
    place_words,
    square_words,
)
from games.boards.hanging_gardens.svg import (
    last_outlines_svg,
    placement_options,
    places_svg,
    squares_svg,
)
from games.boards.hanging_gardens.texts import (
    BUILDING,
    BUILDING_FILL,
    CELL,
    DISCARD_CARD,
    MOTIFS,
    MOVE_TEMPLE,
    PLACE_CARD,
    PLACE_TEMPLE,
    SEAT_COLOURS,
    SKIP_SCORING,
    TAKE_TILE,
    TILE_KINDS,
    compact,
    motif_name,
    printed_values,
)
from games.svg import view_box

# --- drawing ----------------------------------------------------------------------------------


def symbol(kind: str, px: int, py: int) -> str:
    """The motif's symbol as an SVG path in the square at (px, py): steps for a terrace, a
    round tree for a park, an arch for an arcade, waves for a fountain."""
    if kind == "terrace":
        return f"M{px + 7} {py + 9}h14M{px + 7} {py + 14}h14M{px + 7} {py + 19}h14"
    if kind == "park":
        return f"M{px + 8} {py + 14}a6 6 0 1 0 12 0a6 6 0 1 0 -12 0M{px + 14} {py + 20}v4"
    if kind == "arcade":
        return f"M{px + 7} {py + 22}v-8a7 7 0 0 1 14 0v8"
    return f"M{px + 5} {py + 11}q4.5 -4 9 0t9 0M{px + 5} {py + 18}q4.5 -4 9 0t9 0"


def square(x: int, y: int, top: str) -> dict[str, Any]:
    px, py = x * CELL, y * CELL
    drawn: dict[str, Any] = {"x": px, "y": py, "gx": x, "gy": y, "size": CELL}
    if top in MOTIFS:
        kind, _, colour = MOTIFS[top]
        drawn.update(kind=kind, fill=colour, symbol=symbol(kind, px, py), title=motif_name(top))
    else:
        drawn.update(kind="building", fill=BUILDING_FILL, symbol="", title=motif_name(BUILDING))
    return drawn


def temple_points(x: int, y: int) -> str:
    px, py = x * CELL, y * CELL
    corners = [(14, 3), (24, 11), (24, 24), (4, 24), (4, 11)]
    return " ".join(f"{px + dx},{py + dy}" for dx, dy in corners)


def card_picture(rows: list[str]) -> dict[str, Any]:
    """A card (in one rotation) drawn on its own, its top-left square at the origin."""
    squares = [square(dx, dy, s) for dy, row in enumerate(rows) for dx, s in enumerate(row)]
    return {
        "squares": squares,
        "svg": squares_svg(squares),
        "view_box": f"0 0 {len(rows[0]) * CELL} {len(rows) * CELL}",
    }


def last_turn(recent: list[dict[str, Any]], viewer: int | None) -> dict[str, Any] | None:
    """The moves of the last turn played by another seat (for a spectator, by anyone), or of
    the viewer's own turn when it holds the last move (`boards.unmarked_seat`)."""
    viewer = unmarked_seat(recent, viewer)
    index = next((i for i in range(len(recent) - 1, -1, -1) if recent[i]["seat"] != viewer), None)
    if index is None:
        return None
    seat = recent[index]["seat"]
    moves: list[dict[str, Any]] = []
    while index >= 0 and recent[index]["seat"] == seat:
        moves.insert(0, recent[index])
        if recent[index]["type"] in (PLACE_CARD, DISCARD_CARD):
            break
        index -= 1
    marks: dict[str, Any] = {"seat": seat, "cells": set(), "temple": None, "from": None}
    for move in moves:
        summary = move["summary"]
        if move["type"] == PLACE_CARD and "cells" in summary:
            marks["cells"] = {tuple(c) for c in summary["cells"]}
        elif move["type"] in (PLACE_TEMPLE, MOVE_TEMPLE) and "cell" in summary:
            marks["temple"] = tuple(summary["cell"])
            marks["from"] = tuple(summary["from"]) if "from" in summary else None
    marks["texts"] = [m["text"] for m in moves]
    return marks


def garden_drawing(
    view: dict[str, Any], seat: int, marks: dict[str, Any] | None, legal: dict[str, Any]
) -> dict[str, Any]:
    """One garden: its squares, temples and last-turn marks; for the seat to act, the
    places a card may go, the squares a temple may go on and the temples that may move."""
    garden = view["gardens"][seat]
    cells = garden_cells(garden)
    box = garden_box(cells)
    marked = marks if marks is not None and marks["seat"] == seat else None
    targets = {tuple(c): group["size"] for group in legal["groups"] for c in group["cells"]}
    sources = {tuple(c) for c in legal["move_from"]}
    squares = []
    for (x, y), top in sorted(cells.items(), key=lambda item: (item[0][1], item[0][0])):
        drawn = square(x, y, top)
        drawn["last"] = marked is not None and (x, y) in marked["cells"]
        drawn["target"] = (x, y) in targets
        if drawn["target"]:
            drawn["target_label"] = pgettext(
                "hanging gardens", "Temple on %(group)s, %(square)s"
            ) % {"group": group_words(top, targets[(x, y)]), "square": square_words(box, x, y)}
        squares.append(drawn)
    temples = []
    for x, y in garden["temples"]:
        temples.append(
            {
                "gx": x,
                "gy": y,
                "points": temple_points(x, y),
                "fill": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                "last": marked is not None and marked["temple"] == (x, y),
                "source": (x, y) in sources,
                "square": square_words(box, x, y),
                "title": pgettext("hanging gardens", "Temple: %(square)s")
                % {"square": square_words(box, x, y)},
            }
        )
    corners = [(x * CELL, y * CELL) for x, y in cells] + [
        ((x + 1) * CELL, (y + 1) * CELL) for x, y in cells
    ]
    spots = []
    for entry in legal["place"]:
        card = next(d for d in view["display"] if d["card"] == entry["card"])
        for rotation, rows in enumerate(card["rotations"]):
            places = [(x, y) for k, x, y in entry["placements"] if k == rotation]
            if not places:
                continue
            drawn_places = [
                {
                    "x": x * CELL,
                    "y": y * CELL,
                    "gx": x,
                    "gy": y,
                    "label": place_words(box, x, y, len(rows[0]), len(rows)),
                }
                for x, y in places
            ]
            spots.append(
                {
                    "card": entry["card"],
                    "name": card_words(card_motifs(card["rotations"][0])),
                    "rotation": rotation,
                    "preview": card_picture(rows),
                    "places": drawn_places,
                    "places_svg": places_svg(drawn_places),
                }
            )
            for x, y in places:
                corners.append((x * CELL, y * CELL))
                corners.append(((x + len(rows[0])) * CELL, (y + len(rows)) * CELL))
    return {
        "seat": seat,
        "squares": squares,
        "squares_svg": squares_svg(squares),
        "outlines_svg": last_outlines_svg(squares),
        "temples": temples,
        "spots": spots,
        "has_targets": bool(targets),
        "view_box": view_box(corners, CELL / 2),
        "marked": marked is not None,
    }


def tile_entry(kind: str | None) -> dict[str, Any]:
    if kind is None:
        return {
            "kind": None,
            "label": pgettext("hanging gardens", "empty"),
            "colour": "",
            "values": "",
        }
    label, colour = TILE_KINDS[kind]
    return {"kind": kind, "label": str(label), "colour": colour, "values": printed_values(kind)}


def tile_columns(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Spec §3.3: three columns of two face-up tiles, marked with 3, 4 and 5 squares."""
    takeable = {tuple(t) for t in view["legal"]["tiles"]}
    columns = []
    for column, kinds in enumerate(view["tile_display"], start=1):
        slots = []
        for slot, kind in enumerate(kinds, start=1):
            entry = tile_entry(kind)
            entry.update(
                slot=slot,
                takeable=(column, slot) in takeable,
                move=compact({"type": TAKE_TILE, "column": column, "slot": slot}),
            )
            slots.append(entry)
        marks = column + 2
        columns.append(
            {
                "column": column,
                "marks": [{"x": 2 + 9 * i} for i in range(marks)],
                "marks_width": 9 * marks + 2,
                "group": marks,
                "slots": slots,
            }
        )
    return columns


def player_panel(view: dict[str, Any], seat: int, names: list[str]) -> dict[str, Any]:
    tiles = view["tiles"][seat]
    counts = Counter(tiles["open"])
    hidden = tiles["hidden"]
    return {
        "seat": seat,
        "name": names[seat],
        "is_start": seat == view["start"],
        "is_current": seat == view["current"],
        "temples_left": view["gardens"][seat]["temples_left"],
        "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
        "open": [
            {**tile_entry(kind), "count": counts[kind]} for kind in TILE_KINDS if counts[kind]
        ],
        "hidden": None if hidden is None else [tile_entry(k) for k in hidden],
        "hidden_count": tiles["hidden_count"],
        "missing": tiles["missing"],
        "points": view["scores"]["totals"][seat],
        "complete": view["scores"].get("complete", True),
    }


def placing_form(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every legal placement as a form choice, grouped by card (the list beside the picture)."""
    groups = []
    seat = view["seat"]
    box = garden_box(garden_cells(view["gardens"][seat])) if seat is not None else (0, 0, 0, 0)
    for entry in view["legal"]["place"]:
        card = next(d for d in view["display"] if d["card"] == entry["card"])
        shapes = card["rotations"]
        options = [
            {
                "value": compact(
                    {"type": PLACE_CARD, "card": entry["card"], "rotation": k, "x": x, "y": y}
                ),
                "key": f"{entry['card']}:{k}:{x}:{y}",
                "label": pgettext("hanging gardens", "turned %(degrees)s°, %(where)s")
                % {
                    "degrees": 90 * k,
                    "where": place_words(box, x, y, len(shapes[k][0]), len(shapes[k])),
                },
            }
            for k, x, y in entry["placements"]
        ]
        label = card_name(card)
        groups.append(
            {
                "card": entry["card"],
                "label": label,
                "options": options,
                "options_html": placement_options(label, options),
            }
        )
    return groups


def card_name(entry: dict[str, Any]) -> str:
    """A display card in words, for its button and its group of choices."""
    return capfirst(card_words(card_motifs(entry["rotations"][0])))


def temple_form(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every temple move: a square of an eligible group, and which temple moves there when
    all five are out (spec §2.6, §2.8)."""
    legal = view["legal"]
    options = []
    seat = view["seat"]
    cells = garden_cells(view["gardens"][seat]) if seat is not None else {}
    box = garden_box(cells) if cells else (0, 0, 0, 0)
    for group in legal["groups"]:
        for x, y in group["cells"]:
            values = {
                "group": group_words(cells.get((x, y), ""), group["size"]),
                "square": square_words(box, x, y),
            }
            if not legal["move_from"]:
                move = {"type": PLACE_TEMPLE, "x": x, "y": y}
                label = capfirst(pgettext("hanging gardens", "%(group)s, %(square)s") % values)
                options.append({"value": compact(move), "key": f"{x}:{y}", "label": label})
                continue
            for fx, fy in legal["move_from"]:
                move = {"type": MOVE_TEMPLE, "x": x, "y": y, "from_x": fx, "from_y": fy}
                label = capfirst(
                    pgettext("hanging gardens", "%(group)s, %(square)s, moved from %(source)s")
                    % {**values, "source": square_words(box, fx, fy)}
                )
                options.append(
                    {"value": compact(move), "key": f"{x}:{y}:{fx}:{fy}", "label": label}
                )
    return options


def board(view: dict[str, Any], names: list[str], recent: list[dict[str, Any]]) -> dict[str, Any]:
    seat = view["seat"]
    legal = view["legal"]
    no_moves: dict[str, list[Any]] = {
        "place": [],
        "discard": [],
        "groups": [],
        "move_from": [],
        "tiles": [],
    }
    marks = last_turn(recent, seat)
    order = list(range(view["players"]))
    if seat is not None:
        order.remove(seat)
        order.insert(0, seat)
    gardens = []
    for position in order:
        drawn = garden_drawing(view, position, marks, legal if position == seat else no_moves)
        drawn.update(player_panel(view, position, names), is_mine=position == seat)
        gardens.append(drawn)
    # Per display card, the rotations in which it has a legal place.
    turns = {e["card"]: sorted({k for k, _, _ in e["placements"]}) for e in legal["place"]}
    display = [
        {
            "card": entry["card"],
            "label": card_name(entry),
            "pictures": [card_picture(rows) for rows in entry["rotations"]],
            "placeable": bool(turns.get(entry["card"])),
            "rotations": turns.get(entry["card"], []),
            "discard": compact({"type": DISCARD_CARD, "card": entry["card"]})
            if entry["card"] in legal["discard"]
            else None,
        }
        for entry in view["display"]
    ]
    return {
        "phase": view["phase"],
        "round": view["round"],
        "rounds_total": view["rounds_total"],
        "start_name": names[view["start"]],
        "deck_count": view["deck_count"],
        "supply_count": view["supply_count"],
        "display": display,
        "columns": tile_columns(view),
        "gardens": gardens,
        "placements": placing_form(view),
        "temple_options": temple_form(view),
        "relocating": bool(legal["move_from"]),
        "skip": compact({"type": SKIP_SCORING}),
        "group_size": view["group_size"],
        "last_turn": None
        if marks is None
        else {"name": names[marks["seat"]], "texts": marks["texts"]},
    }
