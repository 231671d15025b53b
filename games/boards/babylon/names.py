"""Names of Babylon's things on the site: flowers, materials, symbols, pillars, corners and
round effects in the reader's language, and how a cell or a tile is called."""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language, npgettext, pgettext, pgettext_lazy

from games.engines.babylon import data

# The move types of games/engines/babylon.
REMOVE_CLAY, DIG, PLACE = "remove_clay", "dig", "place"
DECORATE, SET_SYMBOL, END_TURN = "decorate", "set_symbol", "end_turn"

FLOWERS = {
    "orange": (pgettext_lazy("babylon", "orange flower"), "#e8833a"),
    "pink": (pgettext_lazy("babylon", "pink flower"), "#e06aa3"),
    "blue": (pgettext_lazy("babylon", "blue flower"), "#3f7fc1"),
    "white": (pgettext_lazy("babylon", "white flower"), "#f3efe4"),
}


MATERIALS = {
    "clay": (pgettext_lazy("babylon", "clay"), "#b0703c"),
    "granite": (pgettext_lazy("babylon", "granite"), "#9b9b98"),
    "basalt": (pgettext_lazy("babylon", "basalt"), "#3b3a38"),
    None: (pgettext_lazy("babylon", "starting tile"), "#d8c9a3"),
}


SYMBOLS = {
    "S": pgettext_lazy("babylon", "stairs"),
    "F": pgettext_lazy("babylon", "fountain"),
    "B": pgettext_lazy("babylon", "bridge"),
    "T": pgettext_lazy("babylon", "statue"),
}


SYMBOL_OF = {"stairs": "S", "fountain": "F", "bridge": "B", "statue": "T"}


# A tile by its material, as the quarry's layers are made of them.
TILE_KINDS = {
    "clay": pgettext_lazy("babylon", "a clay tile"),
    "granite": pgettext_lazy("babylon", "a granite tile"),
    "basalt": pgettext_lazy("babylon", "a basalt tile"),
}


def scoring(symbol: str) -> str:
    """What a decoration on this symbol scores (spec §6, `data`'s points per level)."""
    if symbol == data.STAIRS:
        return pgettext("babylon", "the levels of the two tiles it joins, added")
    per_level = {
        data.FOUNTAIN: data.FOUNTAIN_POINTS_PER_LEVEL,
        data.BRIDGE: data.BRIDGE_POINTS_PER_LEVEL,
        data.STATUE: data.STATUE_POINTS_PER_LEVEL,
    }[symbol]
    return npgettext(
        "babylon", "%(count)s point per level", "%(count)s points per level", per_level
    ) % {"count": per_level}


PIECES = {
    "single": pgettext_lazy("babylon", "single pillar"),
    "double": pgettext_lazy("babylon", "double pillar"),
    "statue": pgettext_lazy("babylon", "statue used as a pillar"),
    None: pgettext_lazy("babylon", "open (belvedere)"),
}


CORNERS = (
    pgettext_lazy("babylon", "north-west"),
    pgettext_lazy("babylon", "north-east"),
    pgettext_lazy("babylon", "south-east"),
    pgettext_lazy("babylon", "south-west"),
)


EFFECTS = {
    "none": pgettext_lazy("babylon", "No effect this round."),
    "gain_single": pgettext_lazy("babylon", "Take 1 single pillar from the supply when you dig."),
    "gain_double": pgettext_lazy(
        "babylon", "Take 1 double pillar from the supply when you dig (it cannot be stored)."
    ),
    "change_symbol": pgettext_lazy(
        "babylon", "Once this turn, change a symbol of a tile you built this turn."
    ),
    "add_symbol": pgettext_lazy(
        "babylon", "Once this turn, give a blank field of a tile you built this turn a symbol."
    ),
    "flower_double": pgettext_lazy(
        "babylon", "A tile of your flower gives 2 single pillars instead of 1."
    ),
    "dig_minus_one": pgettext_lazy("babylon", "Digging gives 1 single pillar fewer."),
}


def cell_name(x: int, y: int) -> str:
    return f"{'ABCDEFGH'[x]}{y + 1}"


def stack_name(x: int, y: int) -> str:
    """A quarry stack, in small letters so it never reads as a cell of a garden: "b3"."""
    return f"{'abcd'[x]}{y + 1}"


def decorations_of(tile: str) -> str:
    """The tile's symbols by name, clockwise from the north-west field as printed:
    "stairs, bridge"."""
    _, fields = data.TILES[tile]
    return ", ".join(str(SYMBOLS[s]) for s in fields if s != data.BLANK)


def tile_name(tile: str) -> str:
    """A tile in words, never by its code: "a clay tile (pink flower; stairs, bridge)", or
    "the starting tile (white flower; stairs, fountain, bridge, statue)". Kept per process by
    tile and language: a board names each tile of its quarry and gardens, five or six
    translations each."""
    return _tile_name(tile, get_language())


@lru_cache(maxsize=1024)
def _tile_name(tile: str, language: str | None) -> str:
    flower, _ = data.TILES[tile]
    material = data.material(tile)
    values = {"flower": FLOWERS[flower][0], "decorations": decorations_of(tile)}
    if material is None:
        return pgettext("babylon", "the starting tile (%(flower)s; %(decorations)s)") % values
    values["tile"] = TILE_KINDS[material]
    return pgettext("babylon", "%(tile)s (%(flower)s; %(decorations)s)") % values


def points(kind: str, at: list[list[int]]) -> int:
    levels = [part[2] for part in at]
    if kind == "stairs":
        return sum(levels)
    per_level = {
        "fountain": data.FOUNTAIN_POINTS_PER_LEVEL,
        "bridge": data.BRIDGE_POINTS_PER_LEVEL,
        "statue": data.STATUE_POINTS_PER_LEVEL,
    }
    return per_level.get(kind, 0) * levels[0]
