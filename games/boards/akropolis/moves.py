"""What an Akropolis move did, in data (the summary stored with it) and in words (the move
log, and advice addressed to the player); and the placement moves a board offers (their JSON
values and the picker's options)."""

from __future__ import annotations

from html import escape as escape_text
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.boards.akropolis.names import PLACE_TILE, TAKE_TILE
from games.boards.akropolis.texts import MOVE_LABELS


def summarize(
    before: dict[str, Any], seat: int, move: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """The public facts of a move, from the table's views before and after it."""
    if move["type"] == TAKE_TILE:
        entry = next(e for e in before["site"] if e["index"] == move["index"])
        return {"cost": entry["cost"], "hexes": entry["hexes"]}
    offsets = after["geometry"]["rotations"][move["rotation"]]
    cells = [[move["q"] + dq, move["r"] + dr] for dq, dr in offsets]
    levels = {(c["q"], c["r"]): c["level"] for c in after["cities"][seat]}
    return {"cells": cells, "level": levels.get((move["q"], move["r"]), 1)}


def describe(name: str, move_type: str, summary: dict[str, Any]) -> str:
    """One line of the move log: "Hard bot took the 2-stone tile"."""
    if move_type == TAKE_TILE and "cost" in summary:
        if summary["cost"] == 0:
            return _("%(name)s took the free tile") % {"name": name}
        return ngettext(
            "%(name)s took the %(cost)s-stone tile",
            "%(name)s took the %(cost)s-stone tile",
            summary["cost"],
        ) % {"name": name, "cost": summary["cost"]}
    if move_type == PLACE_TILE and "level" in summary:
        return _("%(name)s placed it on level %(level)s") % {
            "name": name,
            "level": summary["level"],
        }
    label = MOVE_LABELS.get(move_type, move_type)
    return f"{name} {label}"


def advise(names: list[str], move_type: str, move: dict[str, Any], summary: dict[str, Any]) -> str:
    """What to do, addressed to the player, naming the tile and the placement's column, row,
    rotation and level as the board's placement buttons do."""
    if move_type == TAKE_TILE and "cost" in summary:
        if summary["cost"] == 0:
            return _("Take the free tile")
        return ngettext(
            "Take the %(cost)s-stone tile", "Take the %(cost)s-stone tile", summary["cost"]
        ) % {"cost": summary["cost"]}
    if move_type == PLACE_TILE and "level" in summary:
        return _(
            "Place it at column %(q)s, row %(r)s, rotation %(rotation)s, on level %(level)s"
        ) % {
            "q": move["q"],
            "r": move["r"],
            "rotation": move["rotation"],
            "level": summary["level"],
        }
    return str(MOVE_LABELS.get(move_type, move_type))


def anchor_fields(option: dict[str, Any]) -> dict[str, Any]:
    return {
        "q": option["q"],
        "r": option["r"],
        "rotation": option["rotation"],
        "level": option["level"],
    }


def place_value(option: dict[str, Any]) -> str:
    """A placement's move as `json.dumps` writes it (its coordinates and rotation are the
    engine's integers), written directly: the mover's board has a few hundred of them."""
    q, r, rotation = int(option["q"]), int(option["r"]), int(option["rotation"])
    return f'{{"type": "{PLACE_TILE}", "q": {q}, "r": {r}, "rotation": {rotation}}}'


def placement_options(placements: list[dict[str, Any]]) -> SafeString:
    """The placement picker's options, one per legal placement (often more than a hundred),
    written here for the reason the city's picture is (`city_svg`). The values and labels are
    plain text (the move's JSON, a translated label with numbers), escaped as Django's
    `escape` does, without its check for lazy text, which cost more than the escaping."""
    return mark_safe(
        "".join(
            f'<option value="{escape_text(p["value"])}" data-index="{p["index"]}" '
            f'data-q="{p["q"]}" data-r="{p["r"]}">{escape_text(p["label"])}</option>'
            for p in placements
        )
    )
