"""The Babylon quarry drawn by layers: per stack its height as bands of material, the top tile
with its flower and symbols, what a dig there gives the viewer, and its label for screen
readers."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import npgettext, pgettext

from games.boards.babylon.gardens import compact, symbol_path
from games.boards.babylon.names import (
    DIG,
    FLOWERS,
    MATERIALS,
    REMOVE_CLAY,
    SYMBOLS,
    scoring,
    stack_name,
    tile_name,
)
from games.engines.babylon import data

Q = data.QUARRY_SIZE


# One stack is drawn in a 48 x 58 box: its top tile as a 44-unit square with one symbol in
# each quarter (room for a glyph of radius 7 on a light disc), and under the tile one stripe
# per layer of the stack, in that layer's material. The "+N" of a dig is printed under the
# picture (the template), so nothing covers a symbol.
TILE = 44
STRIPE, STRIPE_GAP = 3, 0.5
GLYPH = 7
QUARTERS = ((13, 13), (35, 13), (35, 35), (13, 35))  # NW, NE, SE, SW as printed (§3.2)


def quarry(
    view: dict[str, Any], legal: dict[str, Any], marked: tuple[int, int] | None
) -> list[dict[str, Any]]:
    """The quarry by layers: per stack its top tile with its flower and symbols, a stripe of
    material per layer under it, and the pillars a dig there gives the viewer."""
    diggable = {(m["x"], m["y"]) for m in legal["dig"]}
    # Before the first round a stack is only chosen for its clay tile; what a dig would give
    # belongs to the dig step (a yield there would read as a promise).
    digging = view["phase"] != "remove"
    removable = {(m["x"], m["y"]) for m in legal["remove"]}
    stacks: list[dict[str, Any]] = []
    for entry in view["quarry"]:
        x, y, height = entry["x"], entry["y"], entry["height"]
        # One stripe per layer, the top tile's own first (layer 1 is the bottom).
        layers = [
            {
                "y": TILE + 3 + (STRIPE + STRIPE_GAP) * below,
                "fill": MATERIALS[data.LAYER_MATERIAL[height - below]][1],
            }
            for below in range(height)
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
            drawn["top"] = {
                "fill": FLOWERS[top["flower"]][1],
                "edge": MATERIALS[top["material"]][1],
                "size": TILE,
                "symbols": [
                    {"cx": cx, "cy": cy, "r": GLYPH + 2.5, "path": symbol_path(s, cx, cy, GLYPH)}
                    for s, (cx, cy) in zip(top["fields"], QUARTERS, strict=True)
                    if s != data.BLANK
                ],
                "name": tile_name(top["tile"]),
            }
        if (x, y) in diggable:
            drawn["move"] = compact({"type": DIG, "x": x, "y": y})
        elif (x, y) in removable:
            drawn["move"] = compact({"type": REMOVE_CLAY, "x": x, "y": y})
        drawn["label"] = stack_label(drawn, removable=(x, y) in removable)
        drawn["svg"] = stack_svg(drawn)
        stacks.append(drawn)
    return stacks


def stack_svg(stack: dict[str, Any]) -> SafeString:
    """A stack's picture, written here rather than by a template included for each of the
    quarry's stacks: numbers and this module's colours and glyphs only."""
    parts = [
        '<svg class="bab-stack-svg" viewBox="0 0 48 58" xmlns="http://www.w3.org/2000/svg" '
        'aria-hidden="true">'
    ]
    parts += [
        f'<rect x="2" y="{layer["y"]}" width="44" height="3" fill="{layer["fill"]}"/>'
        for layer in stack["layers"]
    ]
    top = stack["top"]
    if top:
        parts.append(
            f'<rect class="bab-stack-top" x="2" y="2" width="{top["size"]}" '
            f'height="{top["size"]}" fill="{top["fill"]}" stroke="{top["edge"]}"/>'
        )
        parts += [
            f'<circle class="bab-glyph-disc" cx="{s["cx"]}" cy="{s["cy"]}" r="{s["r"]}"/>'
            f'<path class="bab-glyph" d="{s["path"]}"/>'
            for s in top["symbols"]
        ]
    else:
        parts.append('<rect class="bab-empty-stack" x="2" y="2" width="44" height="44"/>')
    parts.append("</svg>\n")
    return mark_safe("".join(parts))


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
    return stack_name(stack["x"], stack["y"])


def legend() -> dict[str, Any]:
    """The quarry's symbols, each drawn as on the tiles, with its name and what a decoration
    built on it scores (the engine's points per level), and what a set of all four scores."""
    return {
        "symbols": [
            {
                "symbol": symbol,
                "name": str(SYMBOLS[symbol]),
                "scores": scoring(symbol),
                "r": GLYPH + 2.5,
                "path": symbol_path(symbol, 10, 10, GLYPH),
            }
            for symbol in data.SYMBOLS
        ],
        "set": npgettext(
            "babylon",
            "One of each of the four decorations: a set, %(count)s point",
            "One of each of the four decorations: a set, %(count)s points",
            data.DECORATION_SET_POINTS,
        )
        % {"count": data.DECORATION_SET_POINTS},
    }
