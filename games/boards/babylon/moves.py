"""What a Babylon move did, in data (the summary stored with it) and in words: the move log
("Anna built C07 (pink clay) on level 2 at B3"), and the move as advice to the player ("Build
a clay tile (pink flower; stairs, bridge) on level 2 at B3, turned twice") for the review's
alternative and the hint: every part of the move is named, so two moves that differ only in
the rotation, the open corner or the quarry stack read differently."""

from __future__ import annotations

from typing import Any

from django.utils.translation import npgettext, pgettext

from games.boards.babylon.gardens import FOOT
from games.boards.babylon.names import (
    DECORATE,
    DIG,
    END_TURN,
    PLACE,
    REMOVE_CLAY,
    SET_SYMBOL,
    SYMBOL_OF,
    SYMBOLS,
    cell_name,
    points,
    stack_name,
    tile_name,
)
from games.boards.babylon.texts import MOVE_LABELS
from games.engines.babylon import data


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


def turned(rotation: int) -> str:
    """Quarter turns clockwise from the printed tile (spec §4.2)."""
    if not rotation:
        return pgettext("babylon", "not turned")
    return npgettext(
        "babylon", "turned %(count)s quarter", "turned %(count)s quarters", rotation
    ) % {"count": rotation}


def advise(names: list[str], move_type: str, move: dict[str, Any], summary: dict[str, Any]) -> str:
    """What to do, addressed to the player: the move's every part in words."""
    if move_type in (REMOVE_CLAY, DIG) and "tile" in summary:
        values = {"tile": tile_name(summary["tile"]), "stack": stack_name(move["x"], move["y"])}
        if move_type == REMOVE_CLAY:
            return pgettext("babylon", "Remove %(tile)s from quarry stack %(stack)s") % values
        return pgettext("babylon", "Dig %(tile)s from quarry stack %(stack)s") % values
    if move_type == PLACE and "tile" in summary:
        values = {
            "tile": tile_name(summary["tile"]),
            "level": summary["level"],
            "cell": cell_name(move["x"], move["y"]),
            "turned": turned(move["rotation"]),
        }
        if move["open_corner"] is None:
            return (
                pgettext("babylon", "Build %(tile)s on level %(level)s at %(cell)s, %(turned)s")
                % values
            )
        dx, dy = FOOT[move["open_corner"]]
        values["corner"] = cell_name(move["x"] + dx, move["y"] + dy)
        return (
            pgettext(
                "babylon",
                "Build %(tile)s on level %(level)s at %(cell)s, %(turned)s, with a "
                "belvedere over %(corner)s",
            )
            % values
        )
    if move_type == DECORATE and "kind" in summary:
        at = summary["at"]
        count = points(summary["kind"], at)
        return npgettext(
            "babylon",
            "Build %(decoration)s on %(cells)s (%(points)s point)",
            "Build %(decoration)s on %(cells)s (%(points)s points)",
            count,
        ) % {
            "decoration": SYMBOLS[SYMBOL_OF[summary["kind"]]],
            "cells": "–".join(cell_name(p[0], p[1]) for p in at),
            "points": count,
        }
    if move_type == SET_SYMBOL:
        return pgettext("babylon", "Change the field at %(cell)s to: %(symbol)s") % {
            "cell": cell_name(move["x"], move["y"]),
            "symbol": SYMBOLS[move["symbol"]],
        }
    if move_type == END_TURN:
        tile = summary.get("tile")
        if move.get("taken") == "store" and tile:
            return pgettext("babylon", "Store %(tile)s and end the turn") % {
                "tile": tile_name(tile)
            }
        if move.get("taken") == "discard" and tile:
            return pgettext("babylon", "Discard %(tile)s and end the turn") % {
                "tile": tile_name(tile)
            }
        return pgettext("babylon", "End the turn")
    return move_type.replace("_", " ")
