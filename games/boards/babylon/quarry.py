"""The Babylon quarry drawn by layers: per stack its height as bands of material, the top tile
with its flower and symbols, what a dig there gives the viewer, and its label for screen
readers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import npgettext, pgettext

from games.boards.babylon.drawing import DIG, REMOVE_CLAY, compact, symbol_path
from games.boards.babylon.names import FLOWERS, MATERIALS, tile_name
from games.engines.babylon import data

Q = data.QUARRY_SIZE


STACK = 40  # quarry: one stack


LAYER = 5  # quarry: the visible edge of each layer under the top tile


def quarry(view: dict[str, Any], legal: dict[str, Any], marked: tuple[int, int] | None):
    """The quarry by layers: per stack its height as bands of material, the top tile with
    its flower and symbols, and the pillars a dig there gives the viewer."""
    diggable = {(m["x"], m["y"]) for m in legal["dig"]}
    # Before the first round a stack is only chosen for its clay tile; what a dig would give
    # belongs to the dig step (a yield there would read as a promise).
    digging = view["phase"] != "remove"
    removable = {(m["x"], m["y"]) for m in legal["remove"]}
    stacks = []
    for entry in view["quarry"]:
        x, y, height = entry["x"], entry["y"], entry["height"]
        layers = [
            {
                "y": STACK - LAYER * (layer + 1),
                "fill": MATERIALS[data.LAYER_MATERIAL[layer + 1]][1],
            }
            for layer in range(height)
        ]
        top = entry["top"]
        drawn: dict[str, Any] = {
            "x": x,
            "y": y,
            "height": height,
            "layers": layers,
            "top": None,
            "yield": entry["yield"] if digging else None,
            "last": marked == (x, y),
            "move": None,
        }
        if top is not None:
            lift = LAYER * (height - 1)
            drawn["top"] = {
                "tile": top["tile"],
                "fill": FLOWERS[top["flower"]][1],
                "edge": MATERIALS[top["material"]][1],
                "lift": lift,
                "size": STACK - lift - 2,
                "symbols": [
                    {"path": symbol_path(s, cx, cy, 4)}
                    for s, (cx, cy) in zip(
                        top["fields"],
                        [
                            (10, 10 - lift / 2),
                            (30, 10 - lift / 2),
                            (30, 28 - lift / 2),
                            (10, 28 - lift / 2),
                        ],
                        strict=True,
                    )
                    if s != "-"
                ],
                "name": tile_name(top["tile"]),
            }
        if (x, y) in diggable:
            drawn["move"] = compact({"type": DIG, "x": x, "y": y})
        elif (x, y) in removable:
            drawn["move"] = compact({"type": REMOVE_CLAY, "x": x, "y": y})
        drawn["label"] = stack_label(drawn, removable=(x, y) in removable)
        stacks.append(drawn)
    return stacks


def stack_label(stack: dict[str, Any], *, removable: bool = False) -> str:
    if stack["top"] is None:
        return pgettext("babylon", "Stack %(cell)s: empty") % {"cell": quarry_cell(stack)}
    text = pgettext("babylon", "Stack %(cell)s, %(height)s high: %(tile)s") % {
        "cell": quarry_cell(stack),
        "height": stack["height"],
        "tile": stack["top"]["name"],
    }
    if stack["yield"] is not None:
        text += npgettext(
            "babylon",
            "; digging it gives you %(count)s single pillar",
            "; digging it gives you %(count)s single pillars",
            stack["yield"],
        ) % {"count": stack["yield"]}
    if removable:
        text += pgettext("babylon", "; you may remove this clay tile before the first round")
    return text


def quarry_cell(stack: dict[str, Any]) -> str:
    return f"{'abcd'[stack['x']]}{stack['y'] + 1}"
