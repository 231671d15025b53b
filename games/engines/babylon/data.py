"""Babylon component data and every rules decision of `shared/games/babylon.md`.

Each ASSUMPTION of the spec is a named constant here, with the spec section and, where
the spec's decision table (§7) numbers it, that number: `# §3.5, D19 (ASSUMPTION)`.
Nothing outside this module restates one of them.

Tile fields are listed clockwise from the north-west in the tile's unrotated orientation
(§3.2): index 0 = NW, 1 = NE, 2 = SE, 3 = SW. Symbols: `S` stairs, `F` fountain,
`B` bridge, `T` statue, `-` blank.
"""

from __future__ import annotations

from typing import Final

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

# §1.2 and §3.1: flowers (player colours), in the default seat order of §2.1 step 3.
FLOWERS: Final = ("orange", "pink", "blue", "white")

# §2.1 step 3 (ASSUMPTION): players may choose their board; the choice has no rules effect
# beyond the flower, so seats 0..3 get FLOWERS in order unless `options["flowers"]` says.
DEFAULT_FLOWER_ORDER: Final = FLOWERS

STAIRS: Final = "S"
FOUNTAIN: Final = "F"
BRIDGE: Final = "B"
STATUE: Final = "T"
BLANK: Final = "-"
SYMBOLS: Final = (STAIRS, FOUNTAIN, BRIDGE, STATUE)
SYMBOL_NAMES: Final[dict[str, str]] = {
    STAIRS: "stairs",
    FOUNTAIN: "fountain",
    BRIDGE: "bridge",
    STATUE: "statue",
    BLANK: "blank",
}
# Decoration kinds (move field `kind`) -> the symbol each needs.
DECORATIONS: Final[dict[str, str]] = {
    "stairs": STAIRS,
    "fountain": FOUNTAIN,
    "bridge": BRIDGE,
    "statue": STATUE,
}

# §1.2 / §4.5: materials by quarry layer (1 = bottom).
CLAY: Final = "clay"
GRANITE: Final = "granite"
BASALT: Final = "basalt"
LAYER_MATERIAL: Final[dict[int, str]] = {1: BASALT, 2: GRANITE, 3: CLAY}
MATERIAL_LAYER: Final[dict[str, int]] = {m: layer for layer, m in LAYER_MATERIAL.items()}
MATERIAL_OF_PREFIX: Final[dict[str, str]] = {"C": CLAY, "G": GRANITE, "B": BASALT}

# §3.3, D27 (ASSUMPTION): no source gives the tiles' contents, so this generated list is
# used: per material 4 tiles of each flower, every symbol equally often, no tile
# repeating a symbol. Tile id -> (flower, fields 0-1-2-3).
# fmt: off
TERRACE_TILES: Final[dict[str, tuple[str, str]]] = {
    # Clay (quarry layer 3, top): 2 symbols each.
    "C01": ("orange", "SF--"), "C02": ("orange", "BT--"), "C03": ("orange", "S-B-"),
    "C04": ("orange", "F-T-"), "C05": ("pink", "S-F-"), "C06": ("pink", "B-T-"),
    "C07": ("pink", "SB--"), "C08": ("pink", "FT--"), "C09": ("blue", "SF--"),
    "C10": ("blue", "B-T-"), "C11": ("blue", "ST--"), "C12": ("blue", "F-B-"),
    "C13": ("white", "S-B-"), "C14": ("white", "FT--"), "C15": ("white", "S-T-"),
    "C16": ("white", "FB--"),
    # Granite (quarry layer 2): 3 symbols each, field 3 blank.
    "G01": ("orange", "FBT-"), "G02": ("orange", "STB-"), "G03": ("orange", "TSF-"),
    "G04": ("orange", "BFS-"), "G05": ("pink", "BTF-"), "G06": ("pink", "TSB-"),
    "G07": ("pink", "SFT-"), "G08": ("pink", "FBS-"), "G09": ("blue", "BFT-"),
    "G10": ("blue", "TBS-"), "G11": ("blue", "FTS-"), "G12": ("blue", "FSB-"),
    "G13": ("white", "FTB-"), "G14": ("white", "SBT-"), "G15": ("white", "FST-"),
    "G16": ("white", "SFB-"),
    # Basalt (quarry layer 1, bottom): all four symbols.
    "B01": ("orange", "SFBT"), "B02": ("orange", "SBTF"), "B03": ("orange", "STFB"),
    "B04": ("orange", "SFTB"), "B05": ("pink", "SBFT"), "B06": ("pink", "STBF"),
    "B07": ("pink", "SFBT"), "B08": ("pink", "SBTF"), "B09": ("blue", "STFB"),
    "B10": ("blue", "SFTB"), "B11": ("blue", "SBFT"), "B12": ("blue", "STBF"),
    "B13": ("white", "SFBT"), "B14": ("white", "SBFT"), "B15": ("white", "STFB"),
    "B16": ("white", "SFTB"),
}
# fmt: on

# §3.4, D21 (ASSUMPTION): each starting tile shows all four symbols, SFBT, and the
# owner's flower. D22 (ASSUMPTION): it counts like any terrace tile for visibility and
# flower sets. It never lies in the quarry, so it never earns a flower bonus.
STARTING_TILE_FIELDS: Final = "SFBT"
STARTING_TILES: Final[dict[str, tuple[str, str]]] = {
    f"S-{flower}": (flower, STARTING_TILE_FIELDS) for flower in FLOWERS
}
START_PREFIX: Final = "S-"

TILES: Final[dict[str, tuple[str, str]]] = {**TERRACE_TILES, **STARTING_TILES}


def material(tile: str) -> str | None:
    """The tile's material, or None for a starting tile (it has no material side)."""
    if tile.startswith(START_PREFIX):
        return None
    return MATERIAL_OF_PREFIX[tile[0]]


def tiles_of(material_name: str) -> tuple[str, ...]:
    return tuple(t for t in TERRACE_TILES if material(t) == material_name)


# §1.2, §2.12, D24 (ASSUMPTION): the component counts of the rulebook are hard limits of
# the general supply (the spare plastic parts in the box are not used).
SUPPLY: Final[dict[str, int]] = {
    "singles": 148,
    "doubles": 60,
    "belvederes": 38,
    "stairs": 15,
    "fountains": 15,
    "bridges": 15,
    "statues": 38,
}
# Decoration kind -> its supply key.
SUPPLY_KEY: Final[dict[str, str]] = {
    "stairs": "stairs",
    "fountain": "fountains",
    "bridge": "bridges",
    "statue": "statues",
}

# §3.1 / §2.7: storage area: 6 single pillars, no doubles, one tile slot.
STORAGE_SINGLES: Final = 6

# §4.1: the building area is 8 x 8 notches.
BOARD_SIZE: Final = 8
# §4.5, D1 (ASSUMPTION, strongly supported): the quarry is a 4 x 4 grid of straight
# stacks, basalt at the bottom (layer 1), granite (2), clay on top (3).
QUARRY_SIZE: Final = 4

# §2.1 step 4 / §3.6: round tokens drawn, and rounds = tokens + 1.
TOKENS_BY_PLAYERS: Final[dict[int, int]] = {2: 14, 3: 12, 4: 10}
ROUNDS_BY_PLAYERS: Final[dict[int, int]] = {p: n + 1 for p, n in TOKENS_BY_PLAYERS.items()}

# §2.1 step 6, D28: who removes a clay tile before round 1, in order.
REMOVAL_ORDER: Final[dict[int, tuple[int, ...]]] = {
    2: (0, 1, 0, 1, 0, 1),
    3: (0, 1, 2),
    4: (),
}

# §2.1 step 5: the engine's first player is seat 0 (the site decides who sits there).
FIRST_PLAYER: Final = 0

# §2.8: round-token effects.
NONE: Final = "none"
GAIN_SINGLE: Final = "gain_single"
GAIN_DOUBLE: Final = "gain_double"
CHANGE_SYMBOL: Final = "change_symbol"
ADD_SYMBOL: Final = "add_symbol"
FLOWER_DOUBLE: Final = "flower_double"
DIG_MINUS_ONE: Final = "dig_minus_one"
EFFECTS: Final = (
    NONE,
    GAIN_SINGLE,
    GAIN_DOUBLE,
    CHANGE_SYMBOL,
    ADD_SYMBOL,
    FLOWER_DOUBLE,
    DIG_MINUS_ONE,
)
# §3.5, D19 (ASSUMPTION): the 14 tokens are 2 of each of the 7 kinds.
ROUND_TOKENS: Final = tuple(effect for effect in EFFECTS for _ in range(2))

# §2.8, D20 (ASSUMPTION): a changed or added symbol is permanent for that field; once per
# turn; the field must be on a tile placed this turn, visible and empty.
SYMBOL_CHANGE_IS_PERMANENT: Final = True

# §2.3: flower bonus when digging (doubled by `flower_double`); `dig_minus_one` takes one
# from edges + flower together and never goes below 0 (D4).
FLOWER_BONUS: Final = 1
FLOWER_BONUS_DOUBLED: Final = 2

# §2.4 and D10 (ASSUMPTION): a statue is as tall as a single pillar, so it supports a
# corner whose gap is exactly 1 level. Pillar heights in levels:
SINGLE_HEIGHT: Final = 1
DOUBLE_HEIGHT: Final = 2
STATUE_HEIGHT: Final = 1

# §2.4 rule 1, D26: all four orientations are allowed (270 degrees too).
ROTATIONS: Final = (0, 1, 2, 3)

# §2.5 and D13 (ASSUMPTION, supported by reviews): decorations are optional.
DECORATIONS_ARE_OPTIONAL: Final = True
# §2.5 and D14 (ASSUMPTION): a fountain joins two different tiles (the Polish wording),
# which also governs the Hungarian one.
FOUNTAIN_NEEDS_TWO_TILES: Final = True
# §2.7 step 3 and D23 (ASSUMPTION): the stored tile is discarded only when the taken tile
# replaces it; discarding it alone is not offered.
STORED_TILE_DISCARD_ONLY_BY_REPLACING: Final = True
# §2.12, D24 (ASSUMPTION): a player owed more single pillars than the supply holds gets
# what remains.
SHORT_SUPPLY_GIVES_WHAT_REMAINS: Final = True
# D9 (ASSUMPTION): anything lower than the new tile may lie under its open corner, even
# a belvedere, a statue or a decoration end; a piece covered that way scores nothing.
OPEN_CORNER_MAY_COVER_PIECES: Final = True
# §4.7 (ASSUMPTION): bridges never hide notches or fields; the tie-break counts tile
# footprints only (D29).
BRIDGES_HIDE_NOTHING: Final = True
# D15: a bridge's middle cell needs only level L and above free (surface < L).
# D16: no two bridges span the same middle cell.
# D17: statues anchoring the line rule are all statues on the board not used as pillars,
# visible or hidden, including those placed earlier this turn.
# D30: the highest-level score is 0 with no tile on the board.
# D31: only visible decorations count for decoration sets.
# D32: a tile stored this turn can be built from the next turn on.
# D33: no maximum level; the pillar gap (at most 2) and the level rule limit growth.
# D34: stability is not modelled; every legal placement stands.

# §2.10 / §3.6: scoring constants.
HEIGHT_POINTS_PER_LEVEL: Final = 2
STATUE_POINTS_PER_LEVEL: Final = 1
FOUNTAIN_POINTS_PER_LEVEL: Final = 3
BRIDGE_POINTS_PER_LEVEL: Final = 3
DECORATION_SET_POINTS: Final = 4
FLOWER_SET_POINTS: Final = 4
BELVEDERE_POINTS: Final = 1

# Breakdown keys, in the order of §2.10.
CATEGORIES: Final = (
    "height",
    "statues",
    "fountains",
    "bridges",
    "stairs",
    "decoration_sets",
    "flower_sets",
    "belvederes",
)

# Option defaults. The only option, `flowers`, gives the first seats their boards in seat
# order; the other seats take the remaining flowers in DEFAULT_FLOWER_ORDER.
DEFAULT_OPTIONS: Final[dict[str, object]] = {"flowers": []}
