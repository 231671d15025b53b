"""Babylon on the site: the lobby's option, the drawing of the gardens and the quarry from a
seat's view (`drawing.py`), the move log in words and the rulebook section of each step
(docs/adding-a-game.md lists what a board module provides)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.boards import unmarked_seat
from games.boards.babylon import drawing, quarry
from games.boards.babylon.advice import advise as advise
from games.boards.babylon.drawing import DECORATE, DIG, END_TURN, PLACE, REMOVE_CLAY, SET_SYMBOL
from games.boards.babylon.names import (
    EFFECTS,
    FLOWERS,
    SYMBOL_OF,
    SYMBOLS,
    cell_name,
    points,
    tile_name,
)
from games.catalog import GameInfo, GameOption
from games.engines.babylon import data

INFO = GameInfo(
    "babylon",
    "Babylon",
    "Olivier Grégoire",
    2024,
    2,
    4,
    gettext_lazy(
        "Raise the hanging gardens of Babylon in three dimensions: quarry stone, set "
        "pillars and lay terrace tiles on top of them."
    ),
    options=(
        GameOption(
            "flowers",
            pgettext_lazy("babylon", "Flower of seat 1's board"),
            one=True,
            default=pgettext_lazy("babylon", "Orange (then pink, blue, white: the usual order)"),
            choices=(
                ("orange", pgettext_lazy("babylon", "Orange flower")),
                ("pink", pgettext_lazy("babylon", "Pink flower")),
                ("blue", pgettext_lazy("babylon", "Blue flower")),
                ("white", pgettext_lazy("babylon", "White flower")),
            ),
        ),
    ),
)


CATEGORIES = {
    "height": (pgettext_lazy("babylon", "Highest level"), "#7b5b3a"),
    "statues": (pgettext_lazy("babylon", "Statues"), "#8a8a8a"),
    "fountains": (pgettext_lazy("babylon", "Fountains"), "#3f7fc1"),
    "bridges": (pgettext_lazy("babylon", "Bridges"), "#a0522d"),
    "stairs": (pgettext_lazy("babylon", "Stairs"), "#d9a62a"),
    "decoration_sets": (pgettext_lazy("babylon", "Decoration sets"), "#6a48a8"),
    "flower_sets": (pgettext_lazy("babylon", "Flower sets"), "#e06aa3"),
    "belvederes": (pgettext_lazy("babylon", "Belvederes"), "#4f9a49"),
}


MOVE_LABELS = {
    REMOVE_CLAY: pgettext_lazy("babylon", "removed a clay tile"),
    DIG: pgettext_lazy("babylon", "dug a tile"),
    PLACE: pgettext_lazy("babylon", "built a terrace"),
    DECORATE: pgettext_lazy("babylon", "built a decoration"),
    SET_SYMBOL: pgettext_lazy("babylon", "changed a symbol"),
    END_TURN: pgettext_lazy("babylon", "ended the turn"),
}
# Rulebook sections (rulebooks/content/babylon/book.json) of each step.


RULES_SECTIONS = {"remove": "setup", "dig": "dig", "over": "scoring"}


MESSAGES = {
    "empty_stack": pgettext_lazy("babylon", "That quarry stack is empty."),
    "not_clay": pgettext_lazy("babylon", "Only clay tiles may be removed before the game."),
    "tile_unavailable": pgettext_lazy("babylon", "That tile cannot be built this turn."),
    "cannot_place": pgettext_lazy(
        "babylon",
        "The tile cannot stand there: it needs 3 or 4 pillars on empty visible fields, one "
        "level at a time, and may not lie exactly on another tile.",
    ),
    "no_belvedere": pgettext_lazy("babylon", "No belvedere is left for a tile on 3 pillars."),
    "not_enough_pillars": pgettext_lazy("babylon", "You do not have the pillars for this."),
    "cannot_decorate": pgettext_lazy("babylon", "That decoration cannot be built there."),
    "no_symbol_effect": pgettext_lazy("babylon", "This round's token changes no symbol."),
    "symbol_used": pgettext_lazy("babylon", "You have already changed a symbol this turn."),
    "cannot_set_symbol": pgettext_lazy(
        "babylon", "Only a visible, empty field of a tile built this turn can change."
    ),
    "store_or_discard": pgettext_lazy("babylon", "Store or discard the tile you dug first."),
    "nothing_to_store": pgettext_lazy("babylon", "The tile you dug is already built."),
}


def error_message(code: str, params: dict[str, Any]) -> str | None:
    message = MESSAGES.get(code)
    return str(message) if message is not None else None


def rules_section(view: dict[str, Any]) -> str | None:
    phase = view.get("phase", "")
    if phase == "build":
        return "build-decorations" if view["turn"]["placed"] else "build-terraces"
    return RULES_SECTIONS.get(phase)


def measure_text(key: str, measure: dict[str, int]) -> str | None:
    """What a category's points counted (the engine's scores["measures"]): "level 3"."""
    if key == "height":
        return pgettext("babylon", "level %(level)s") % {"level": measure["level"]}
    if key in ("decoration_sets", "flower_sets"):
        sets = measure["sets"]
        return npgettext("babylon", "%(count)s set", "%(count)s sets", sets) % {"count": sets}
    return None


def end_reason(view: dict[str, Any], names: list[str]) -> str | None:
    """§2.9: the game ends after its last round."""
    if not view.get("is_over"):
        return None
    return pgettext("babylon", "The game ended because all %(rounds)s rounds were played.") % {
        "rounds": view["rounds_total"]
    }


def summarize(
    before: dict[str, Any], seat: int, move: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """The public facts of a move, from the table's views before and after it."""
    kind = move["type"]
    if kind in (REMOVE_CLAY, DIG):
        stack = before["quarry"][move["y"] * data.QUARRY_SIZE + move["x"]]
        summary = {"tile": stack["top"]["tile"], "x": move["x"], "y": move["y"]}
        if kind == DIG:
            summary["singles"] = (
                after["boards"][seat]["singles"] - before["boards"][seat]["singles"]
            )
            summary["doubles"] = after["turn"]["doubles"]
        return summary
    if kind == PLACE:
        board = after["boards"][seat]
        placed = board["tiles"][-1]
        return {
            "tile": placed["tile"],
            "x": placed["x"],
            "y": placed["y"],
            "level": placed["level"],
            "open_corner": move["open_corner"],
        }
    if kind == DECORATE:
        piece = after["boards"][seat]["pieces"][-1]
        return {"kind": piece["kind"], "at": piece["at"]}
    if kind == SET_SYMBOL:
        return {"x": move["x"], "y": move["y"], "symbol": move["symbol"]}
    if kind == END_TURN:
        return {"taken": move["taken"], "tile": before["turn"]["taken"]}
    return {}


def describe(name: str, move_type: str, summary: dict[str, Any]) -> str:
    """One line of the move log: "Anna built C07 (pink clay) on level 2 at B3"."""
    values: dict[str, Any] = {"name": name}
    if move_type == REMOVE_CLAY and "tile" in summary:
        values["tile"] = tile_name(summary["tile"])
        return pgettext("babylon", "%(name)s removed %(tile)s from the quarry") % values
    if move_type == DIG and "tile" in summary:
        values.update(tile=tile_name(summary["tile"]), count=summary["singles"])
        text = (
            npgettext(
                "babylon",
                "%(name)s dug %(tile)s and got %(count)s single pillar",
                "%(name)s dug %(tile)s and got %(count)s single pillars",
                summary["singles"],
            )
            % values
        )
        if summary.get("doubles"):
            text += pgettext("babylon", " and a double pillar")
        return text
    if move_type == PLACE and "tile" in summary:
        values.update(
            tile=tile_name(summary["tile"]),
            level=summary["level"],
            cell=cell_name(summary["x"], summary["y"]),
        )
        if summary["open_corner"] is None:
            text = pgettext("babylon", "%(name)s built %(tile)s on level %(level)s at %(cell)s")
        else:
            text = pgettext(
                "babylon",
                "%(name)s built %(tile)s on level %(level)s at %(cell)s, with a belvedere",
            )
        return text % values
    if move_type == DECORATE and "kind" in summary:
        at = summary["at"]
        values.update(
            decoration=SYMBOLS[SYMBOL_OF[summary["kind"]]],
            cells="–".join(cell_name(p[0], p[1]) for p in at),
            points=points(summary["kind"], at),
        )
        return (
            npgettext(
                "babylon",
                "%(name)s built: %(decoration)s on %(cells)s (%(points)s point)",
                "%(name)s built: %(decoration)s on %(cells)s (%(points)s points)",
                values["points"],
            )
            % values
        )
    if move_type == SET_SYMBOL and "symbol" in summary:
        values.update(cell=cell_name(summary["x"], summary["y"]), symbol=SYMBOLS[summary["symbol"]])
        return pgettext("babylon", "%(name)s changed the field at %(cell)s to: %(symbol)s") % values
    if move_type == END_TURN and "taken" in summary:
        if summary["taken"] == "store" and summary.get("tile"):
            values["tile"] = tile_name(summary["tile"])
            return pgettext("babylon", "%(name)s stored %(tile)s and ended the turn") % values
        if summary["taken"] == "discard" and summary.get("tile"):
            values["tile"] = tile_name(summary["tile"])
            return pgettext("babylon", "%(name)s discarded %(tile)s and ended the turn") % values
        return pgettext("babylon", "%(name)s ended the turn") % values
    label = MOVE_LABELS.get(move_type)
    return f"{name} {label}" if label is not None else name


def last_turn(recent: list[dict[str, Any]], viewer: int | None) -> dict[str, Any] | None:
    """The moves of the last turn played by another seat (for a spectator, by anyone), or of
    the viewer's own turn when it holds the last move (`boards.unmarked_seat`)."""
    viewer = unmarked_seat(recent, viewer)
    index = next((i for i in range(len(recent) - 1, -1, -1) if recent[i]["seat"] != viewer), None)
    if index is None:
        return None
    seat = recent[index]["seat"]
    moves = []
    while index >= 0 and recent[index]["seat"] == seat:
        moves.insert(0, recent[index])
        if recent[index]["type"] in (DIG, REMOVE_CLAY):
            break
        index -= 1
    marks: dict[str, Any] = {"seat": seat, "tiles": set(), "stack": None}
    for move in moves:
        summary = move["summary"]
        if move["type"] == PLACE and "x" in summary:
            marks["tiles"].add((summary["x"], summary["y"]))
        elif move["type"] in (DIG, REMOVE_CLAY) and "x" in summary:
            marks["stack"] = (summary["x"], summary["y"])
    marks["texts"] = [m["text"] for m in moves]
    return marks


def board(view: dict[str, Any], names: list[str], recent: list[dict[str, Any]]) -> dict[str, Any]:
    seat = view["seat"]
    legal = view["legal"]
    marks = last_turn(recent, seat)
    order = list(range(view["players"]))
    if seat is not None:
        order.remove(seat)
        order.insert(0, seat)
    gardens = []
    for position in order:
        garden = view["boards"][position]
        marked = marks["tiles"] if marks is not None and marks["seat"] == position else set()
        tiles = garden["tiles"]
        gardens.append(
            {
                "seat": position,
                "name": names[position],
                "is_mine": position == seat,
                "is_current": position == view["current"],
                "flower": str(FLOWERS[view["flowers"][position]][0]),
                "colour": FLOWERS[view["flowers"][position]][1],
                "top": drawing.top_view(garden, marked),
                "iso": drawing.iso_view(garden),
                "marked": bool(marked),
                "stored": drawing.tile_card(garden["stored"]),
                "singles": garden["singles"],
                "tiles": len(tiles),
                "highest": max([t["level"] for t in tiles] + [0]),
                "points": view["scores"]["totals"][position],
                "notches": garden["visible_notches"],
            }
        )
    turn = view["turn"]
    mine = seat is not None and seat == view["current"] and view["phase"] == "build"
    hand = []
    if mine:
        if "taken" in legal["tiles"]:
            hand.append(drawing.tile_card(turn["taken"], "taken"))
        if "stored" in legal["tiles"]:
            hand.append(drawing.tile_card(view["boards"][seat]["stored"], "stored"))
    effect = view["effect"]
    return {
        "phase": view["phase"],
        "round": view["round"],
        "rounds_total": view["rounds_total"],
        "tokens_left": view["tokens_left"],
        "effect": str(EFFECTS[effect]),
        "effect_key": effect,
        "revealed": len(view["revealed"]),
        "supply": view["supply"],
        "quarry": quarry.quarry(view, legal, marks["stack"] if marks else None),
        "legend": quarry.legend(),
        "removed": [tile_name(t) for t in view["removed"]],
        "discarded": len(view["discarded"]),
        "gardens": gardens,
        "taken": drawing.tile_card(turn["taken"]) if view["phase"] == "build" else None,
        "taken_placed": turn["taken_placed"],
        "pool_doubles": turn["doubles"],
        "hand": [t for t in hand if t is not None],
        "placements": drawing.placements(view, legal) if mine else [],
        "decorations": drawing.decorations(legal, view["boards"][seat]) if mine else [],
        "symbols": drawing.symbol_choices(legal) if mine else [],
        "ends": drawing.end_choices(legal, view, seat) if mine else [],
        "blocked": drawing.blocked_note(legal, view["boards"][seat]["singles"]) if mine else None,
        "grid": drawing.GRID,
        "cell": drawing.CELL,
        # The newest step first, as the turn bar's "Last move" reads, then the rest of that
        # turn in the order played.
        "last_turn": None
        if marks is None
        else {
            "name": names[marks["seat"]],
            "latest": marks["texts"][-1],
            "earlier": marks["texts"][:-1],
        },
    }
