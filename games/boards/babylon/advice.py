"""A Babylon move as advice to the player ("Build a clay tile (pink flower; stairs, bridge) on
level 2 at B3, turned twice"), for the review's alternative and the hint: every part of the
move is named, so two moves that differ only in the rotation, the open corner or the quarry
stack read differently."""

from __future__ import annotations

from typing import Any

from django.utils.translation import npgettext, pgettext

from games.boards.babylon.drawing import (
    DECORATE,
    DIG,
    END_TURN,
    FOOT,
    PLACE,
    REMOVE_CLAY,
    SET_SYMBOL,
)
from games.boards.babylon.names import (
    SYMBOL_OF,
    SYMBOLS,
    cell_name,
    points,
    stack_name,
    tile_name,
)


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
