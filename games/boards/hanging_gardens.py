"""The Hanging Gardens on the site: the drawing of the gardens, the card display and the point
tiles from a seat's view, the move log in words and the rulebook section of each step.

Gardens are square grids (games/engines/hanging_gardens/grid.py): x to the right, y down,
one square `CELL` pixels wide. The four motifs have a colour and a symbol each, so the
picture reads without colour too.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from typing import Any

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.catalog import GameInfo
from games.engines.hanging_gardens import data
from games.svg import view_box

# Moves go into forms as compact JSON: a board lists hundreds of placements.
compact = partial(json.dumps, separators=(",", ":"))

INFO = GameInfo(
    "hanging-gardens",
    "The Hanging Gardens",
    "Din Li",
    2008,
    2,
    4,
    gettext_lazy(
        "Lay overlapping garden cards, build temples on the largest groups of one motif "
        "and collect point tiles."
    ),
)

CELL = 28
BUILDING = "."
MOTIFS = {
    "T": ("terrace", pgettext_lazy("hanging gardens", "Terrace"), "#c4553b"),
    "P": ("park", pgettext_lazy("hanging gardens", "Park"), "#4f9a49"),
    "A": ("arcade", pgettext_lazy("hanging gardens", "Arcade"), "#d9a62a"),
    "F": ("fountain", pgettext_lazy("hanging gardens", "Fountain"), "#3f7fc1"),
}
BUILDING_FILL = "#efe5cf"
# Temples in each seat's colour, drawn with a light outline so they stand out on any motif.
SEAT_COLOURS = ("#7a1f5c", "#1d3f7a", "#222222", "#f4f4f4")

TILE_KINDS = {
    "queen": (pgettext_lazy("hanging gardens", "Queen"), "#b03a8c"),
    "king": (pgettext_lazy("hanging gardens", "King"), "#6a48a8"),
    "tiger": (pgettext_lazy("hanging gardens", "Tiger"), "#d9731c"),
    "garden": (pgettext_lazy("hanging gardens", "Garden"), "#3c8d3c"),
    "statue": (pgettext_lazy("hanging gardens", "Statue"), "#7d7d7d"),
    "chalice": (pgettext_lazy("hanging gardens", "Chalice"), "#b8921c"),
    "gate": (pgettext_lazy("hanging gardens", "Gate"), "#6b4f2a"),
    "animal_handler": (pgettext_lazy("hanging gardens", "Animal handler"), "#a85a1c"),
    "gardener": (pgettext_lazy("hanging gardens", "Gardener"), "#2e6e2e"),
    "sculptor": (pgettext_lazy("hanging gardens", "Sculptor"), "#5d5d5d"),
    "priest": (pgettext_lazy("hanging gardens", "Priest"), "#8c6d12"),
    "guard": (pgettext_lazy("hanging gardens", "Guard"), "#4d3920"),
}


def printed_values(kind: str) -> str:
    """What a point tile shows (spec §3.4, §3.5): a series' running totals, a person's two
    values. The numbers, assumed ones included, come from the engine's data module."""
    if kind in data.SERIES_VALUES:
        return " · ".join(str(v) for v in data.SERIES_VALUES[kind])
    if kind in data.PERSONS:
        _, alone, complete = data.PERSONS[kind]
        return f"{alone} / {complete}"
    return f"{data.GUARD_PER_GATE} × {TILE_KINDS[data.GATE][0]}"


CATEGORIES = {
    **{kind: (label, colour) for kind, (label, colour) in TILE_KINDS.items()},
    "missing": (pgettext_lazy("hanging gardens", "Missing tiles"), "#9a9a9a"),
}

PLACE_CARD, DISCARD_CARD = "place_card", "discard_card"
PLACE_TEMPLE, MOVE_TEMPLE, SKIP_SCORING = "place_temple", "move_temple", "skip_scoring"
TAKE_TILE = "take_tile"
MOVE_LABELS = {
    PLACE_CARD: pgettext_lazy("hanging gardens", "placed a building card"),
    DISCARD_CARD: pgettext_lazy("hanging gardens", "discarded a building card"),
    PLACE_TEMPLE: pgettext_lazy("hanging gardens", "built a temple"),
    MOVE_TEMPLE: pgettext_lazy("hanging gardens", "moved a temple"),
    SKIP_SCORING: pgettext_lazy("hanging gardens", "did not score"),
    TAKE_TILE: pgettext_lazy("hanging gardens", "took a point tile"),
}
# Rulebook sections (rulebooks/content/hanging-gardens/book.json) of each step.
RULES_SECTIONS = {
    "place": "building",
    "temple": "groups",
    "tile": "groups",
    "over": "series-scoring",
}

MESSAGES = {
    "too_far": pgettext_lazy("hanging gardens", "That is too far from your garden for any card."),
    "motif_on_table": pgettext_lazy(
        "hanging gardens",
        "A motif must lie on a building space or another motif, never on the table.",
    ),
    "covers_temple": pgettext_lazy("hanging gardens", "A card may not cover a temple."),
    "no_such_card": pgettext_lazy("hanging gardens", "That card is not in the display."),
    "must_place": pgettext_lazy(
        "hanging gardens", "A card of the display fits your garden, so you must place one."
    ),
    "no_temple_left": pgettext_lazy(
        "hanging gardens", "All five of your temples are out: move one from a smallest group."
    ),
    "temples_left": pgettext_lazy(
        "hanging gardens",
        "You still have a temple in your supply; temples move only when all five are out.",
    ),
    "not_eligible": pgettext_lazy(
        "hanging gardens",
        "A temple goes on a group of 3 or more squares without a temple that touches the card "
        "you just placed.",
    ),
    "no_temple_there": pgettext_lazy("hanging gardens", "You have no temple on that square."),
    "not_smallest": pgettext_lazy("hanging gardens", "Only a temple on a smallest group may move."),
    "column_not_allowed": pgettext_lazy(
        "hanging gardens", "Your group is too small for that column of point tiles."
    ),
    "empty_slot": pgettext_lazy("hanging gardens", "There is no point tile there."),
}


def error_message(code: str, params: dict[str, Any]) -> str | None:
    """The member-facing text of one of the engine's IllegalMove codes, or None."""
    message = MESSAGES.get(code)
    return str(message) if message is not None else None


def rules_section(view: dict[str, Any]) -> str | None:
    phase = view.get("phase", "")
    current = view.get("current")
    # §2.8: with all five temples out, scoring moves one.
    if phase == "temple" and current is not None and not view["gardens"][current]["temples_left"]:
        return "moving-temples"
    return RULES_SECTIONS.get(phase)


def card_label(card: int) -> str:
    return f"H{card:02d}"


def motif_name(square: str) -> str:
    return (
        str(MOTIFS[square][1])
        if square in MOTIFS
        else pgettext("hanging gardens", "Building space")
    )


def tile_name(kind: str) -> str:
    return str(TILE_KINDS[kind][0]) if kind in TILE_KINDS else kind


# --- what a move did, in data and in words ----------------------------------------------------


def garden_cells(garden: dict[str, Any]) -> dict[tuple[int, int], str]:
    """{(x, y): top square} of a garden in the engine's row notation."""
    x0, y0 = garden["x"], garden["y"]
    return {
        (x0 + dx, y0 + dy): square
        for dy, row in enumerate(garden["rows"])
        for dx, square in enumerate(row)
        if square != " "
    }


def group_size(cells: dict[tuple[int, int], str], start: tuple[int, int]) -> int:
    """Squares connected to `start` with its motif (spec §2.5)."""
    motif = cells.get(start)
    if motif is None or motif == BUILDING:
        return 0
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in seen and cells.get(n) == motif:
                seen.add(n)
                todo.append(n)
    return len(seen)


def summarize(
    before: dict[str, Any], seat: int, move: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """The public facts of a move, from the table's views before and after it."""
    kind = move["type"]
    if kind in (PLACE_CARD, DISCARD_CARD):
        summary: dict[str, Any] = {"card": move["card"]}
        if kind == PLACE_CARD:
            entry = next(e for e in before["display"] if e["card"] == move["card"])
            rows = entry["rotations"][move["rotation"]]
            summary["cells"] = [
                [move["x"] + dx, move["y"] + dy]
                for dy, row in enumerate(rows)
                for dx in range(len(row))
            ]
            summary["rotation"] = move["rotation"]
        return summary
    if kind in (PLACE_TEMPLE, MOVE_TEMPLE):
        cells = garden_cells(after["gardens"][seat])
        where = (move["x"], move["y"])
        summary = {
            "cell": list(where),
            "motif": cells.get(where, BUILDING),
            "size": group_size(cells, where),
            # §2.7: a face-down tile for 6+, and 5-point credits for tiles that were not there.
            "drew_hidden": after["tiles"][seat]["hidden_count"]
            - before["tiles"][seat]["hidden_count"],
            "missing": after["tiles"][seat]["missing"] - before["tiles"][seat]["missing"],
        }
        if kind == MOVE_TEMPLE:
            summary["from"] = [move["from_x"], move["from_y"]]
        return summary
    if kind == TAKE_TILE:
        taken = before["tile_display"][move["column"] - 1][move["slot"] - 1]
        return {"kind": taken, "column": move["column"], "slot": move["slot"]}
    return {}


def describe(name: str, move_type: str, summary: dict[str, Any]) -> str:
    """One line of the move log: "Anna placed building card H27"."""
    values = {"name": name}
    if move_type == PLACE_CARD and "card" in summary:
        return pgettext("hanging gardens", "%(name)s placed building card %(card)s") % {
            **values,
            "card": card_label(summary["card"]),
        }
    if move_type == DISCARD_CARD and "card" in summary:
        return pgettext(
            "hanging gardens", "%(name)s could place no card and discarded %(card)s"
        ) % {
            **values,
            "card": card_label(summary["card"]),
        }
    if move_type in (PLACE_TEMPLE, MOVE_TEMPLE) and "size" in summary:
        values.update(motif=motif_name(summary["motif"]), size=summary["size"])
        if move_type == MOVE_TEMPLE:
            text = npgettext(
                "hanging gardens",
                "%(name)s moved a temple to a group of %(size)s square (%(motif)s)",
                "%(name)s moved a temple to a group of %(size)s squares (%(motif)s)",
                summary["size"],
            )
        else:
            text = npgettext(
                "hanging gardens",
                "%(name)s built a temple on a group of %(size)s square (%(motif)s)",
                "%(name)s built a temple on a group of %(size)s squares (%(motif)s)",
                summary["size"],
            )
        text %= values
        if summary.get("drew_hidden"):
            text += pgettext("hanging gardens", ", drew a face-down tile")
        if summary.get("missing"):
            text += npgettext(
                "hanging gardens",
                ", %(count)s tile missing: 5 points instead",
                ", %(count)s tiles missing: 5 points each instead",
                summary["missing"],
            ) % {"count": summary["missing"]}
        return text
    if move_type == SKIP_SCORING:
        return pgettext("hanging gardens", "%(name)s did not score a group") % values
    if move_type == TAKE_TILE and summary.get("kind"):
        return pgettext("hanging gardens", "%(name)s took the point tile %(tile)s") % {
            **values,
            "tile": tile_name(summary["kind"]),
        }
    label = MOVE_LABELS.get(move_type)
    return f"{name} {label}" if label is not None else name


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
        kind, label, colour = MOTIFS[top]
        drawn.update(kind=kind, fill=colour, symbol=symbol(kind, px, py), title=str(label))
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
    return {"squares": squares, "view_box": f"0 0 {len(rows[0]) * CELL} {len(rows) * CELL}"}


def last_turn(recent: list[dict[str, Any]], viewer: int | None) -> dict[str, Any] | None:
    """The moves of the last turn played by another seat (for a spectator, by anyone)."""
    index = next((i for i in range(len(recent) - 1, -1, -1) if recent[i]["seat"] != viewer), None)
    if index is None:
        return None
    seat = recent[index]["seat"]
    moves = []
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
    marked = marks if marks is not None and marks["seat"] == seat else None
    targets = {tuple(c) for group in legal["groups"] for c in group["cells"]}
    sources = {tuple(c) for c in legal["move_from"]}
    squares = []
    for (x, y), top in sorted(cells.items(), key=lambda item: (item[0][1], item[0][0])):
        drawn = square(x, y, top)
        drawn["last"] = marked is not None and (x, y) in marked["cells"]
        drawn["target"] = (x, y) in targets
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
                "title": pgettext("hanging gardens", "Temple at %(x)s, %(y)s") % {"x": x, "y": y},
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
            spots.append(
                {
                    "card": entry["card"],
                    "rotation": rotation,
                    "preview": card_picture(rows),
                    "places": [
                        {
                            "x": x * CELL,
                            "y": y * CELL,
                            "gx": x,
                            "gy": y,
                            "label": pgettext("hanging gardens", "Top left corner at %(x)s, %(y)s")
                            % {"x": x, "y": y},
                        }
                        for x, y in places
                    ],
                }
            )
            for x, y in places:
                corners.append((x * CELL, y * CELL))
                corners.append(((x + len(rows[0])) * CELL, (y + len(rows)) * CELL))
    return {
        "seat": seat,
        "squares": squares,
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
    for entry in view["legal"]["place"]:
        options = [
            {
                "value": compact(
                    {"type": PLACE_CARD, "card": entry["card"], "rotation": k, "x": x, "y": y}
                ),
                "key": f"{entry['card']}:{k}:{x}:{y}",
                "label": pgettext(
                    "hanging gardens", "turned %(degrees)s°, top left corner at %(x)s, %(y)s"
                )
                % {"degrees": 90 * k, "x": x, "y": y},
            }
            for k, x, y in entry["placements"]
        ]
        groups.append(
            {"card": entry["card"], "label": card_label(entry["card"]), "options": options}
        )
    return groups


def temple_form(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every temple move: a square of an eligible group, and which temple moves there when
    all five are out (spec §2.6, §2.8)."""
    legal = view["legal"]
    options = []
    for group in legal["groups"]:
        for x, y in group["cells"]:
            values = {"x": x, "y": y, "size": group["size"]}
            if not legal["move_from"]:
                move = {"type": PLACE_TEMPLE, "x": x, "y": y}
                label = pgettext("hanging gardens", "at %(x)s, %(y)s (group of %(size)s)") % values
                options.append({"value": compact(move), "key": f"{x}:{y}", "label": label})
                continue
            for fx, fy in legal["move_from"]:
                move = {"type": MOVE_TEMPLE, "x": x, "y": y, "from_x": fx, "from_y": fy}
                label = pgettext(
                    "hanging gardens",
                    "at %(x)s, %(y)s (group of %(size)s), moved from %(fx)s, %(fy)s",
                ) % {**values, "fx": fx, "fy": fy}
                options.append(
                    {"value": compact(move), "key": f"{x}:{y}:{fx}:{fy}", "label": label}
                )
    return options


def board(view: dict[str, Any], names: list[str], recent: list[dict[str, Any]]) -> dict[str, Any]:
    seat = view["seat"]
    legal = view["legal"]
    no_moves = {"place": [], "discard": [], "groups": [], "move_from": [], "tiles": []}
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
            "label": card_label(entry["card"]),
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
