"""Akropolis component data and every rules decision of `games/akropolis.md`, in one place.

Hex codes (spec §3.3): `q` quarry; lower case is a district, upper case a plaza of that
colour: `h`/`H` house (blue), `m`/`M` market (yellow), `b`/`B` barracks (red), `t`/`T`
temple (purple), `g`/`G` garden (green).
"""

from __future__ import annotations

from typing import Final

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

# Spec §3.1/§3.3: tile id -> (minimum player count printed on the back, hexes "ABC").
# Ids 1-37 are marked 2+, 38-49 are 3+, 50-61 are 4. Identical tiles are separate
# physical tiles with their own ids.
# fmt: off
TILES: Final[dict[int, tuple[int, str]]] = {
    1: (2, "bth"), 2: (2, "bqM"), 3: (2, "hbq"), 4: (2, "hqB"), 5: (2, "qqB"), 6: (2, "htB"),
    7: (2, "qqg"), 8: (2, "bmq"), 9: (2, "tmq"), 10: (2, "mbq"), 11: (2, "qhG"), 12: (2, "mhq"),
    13: (2, "hqG"), 14: (2, "tbq"), 15: (2, "gmh"), 16: (2, "mhB"), 17: (2, "hgM"), 18: (2, "mbH"),
    19: (2, "hhq"), 20: (2, "gbh"), 21: (2, "thM"), 22: (2, "qqM"), 23: (2, "qqT"), 24: (2, "qqG"),
    25: (2, "mgq"), 26: (2, "qqm"), 27: (2, "bmq"), 28: (2, "qqH"), 29: (2, "hqT"), 30: (2, "qqt"),
    31: (2, "qhT"), 32: (2, "gqH"), 33: (2, "qqH"), 34: (2, "hbT"), 35: (2, "tmh"), 36: (2, "mtq"),
    37: (2, "qqH"), 38: (3, "mbh"), 39: (3, "thq"), 40: (3, "bgq"), 41: (3, "hhq"), 42: (3, "hmq"),
    43: (3, "qqT"), 44: (3, "qqh"), 45: (3, "mhq"), 46: (3, "tmH"), 47: (3, "hbG"), 48: (3, "qhB"),
    49: (3, "qqM"), 50: (4, "qqb"), 51: (4, "qqB"), 52: (4, "qmH"), 53: (4, "mhG"), 54: (4, "qtM"),
    55: (4, "htq"), 56: (4, "hmT"), 57: (4, "ghq"), 58: (4, "hhq"), 59: (4, "bhq"), 60: (4, "hbq"),
    61: (4, "hmq"),
}
# fmt: on

# Spec §3.2: every city starts with this "propeller" at the origin: (q, r, hex).
START_TILE_ID: Final = 0
START_TILE: Final[tuple[tuple[int, int, str], ...]] = (
    (0, 0, "H"),
    (0, -1, "q"),
    (1, 0, "q"),
    (-1, 1, "q"),
)

QUARRY: Final = "q"
DISTRICTS: Final = "hmbtg"
PLAZAS: Final = "HMBTG"
HEX_CODES: Final = QUARRY + DISTRICTS + PLAZAS
HEX_NAMES: Final[dict[str, str]] = {
    "q": "quarry",
    "h": "house",
    "m": "market",
    "b": "barracks",
    "t": "temple",
    "g": "garden",
    "H": "house_plaza",
    "M": "market_plaza",
    "B": "barracks_plaza",
    "T": "temple_plaza",
    "G": "garden_plaza",
}

# Spec §1: stars per plaza.
PLAZA_STARS: Final[dict[str, int]] = {"H": 1, "M": 2, "B": 2, "T": 2, "G": 3}

# Scoring categories, in breakdown order: district code -> breakdown key.
COLOURS: Final[dict[str, str]] = {
    "h": "house",
    "m": "market",
    "b": "barracks",
    "t": "temple",
    "g": "garden",
}

# Spec §2.7: variant name -> the district code it doubles.
VARIANTS: Final[dict[str, str]] = {
    "houses": "h",
    "markets": "m",
    "barracks": "b",
    "temples": "t",
    "gardens": "g",
}

# Spec §2.2 step 1: (players, long game) -> number of face-down stacks. A stack holds
# players + 1 tiles and the starting site players + 2. A2: 14 stacks for a 3-player
# long game, the only count that fits the 61 tiles.
STACKS: Final[dict[tuple[int, bool], int]] = {
    (2, False): 11,
    (3, False): 11,
    (4, False): 11,
    (2, True): 19,
    (3, True): 14,
}

# Spec §2.2 step 5 and A1: seat s (0-based, clockwise from the first Chief Architect)
# starts with s + 1 stones.
STARTING_STONES_BY_SEAT: Final = (1, 2, 3, 4)

# A13 (ASSUMPTION): the first Chief Architect is chosen at random or by the host. Seats are
# numbered from the first player, so the site chooses who sits where and the engine's
# seat 0 is always the first Chief Architect.
FIRST_CHIEF_SEAT: Final = 0

# A9 (ASSUMPTION): the stone supply is unlimited; the 40 cubes are not a game limit.
STONE_SUPPLY_IS_UNLIMITED: Final = True

# §2.7 houses variant and A18: doubled when the group's value before stars reaches this.
HOUSES_VARIANT_MIN_VALUE: Final = 10

# §2.7 barracks variant and A6: doubled with this many (outside) empty neighbours or more.
BARRACKS_VARIANT_MIN_EMPTY: Final = 3

# A14 (ASSUMPTION): a tie on points and stones is a shared victory (`winners` lists all).
TIES_ARE_SHARED_VICTORIES: Final = True

# Option defaults. A4 (ASSUMPTION): a lake does not put a barracks on the edge of the
# city, and A6 follows it for the barracks variant. A5 (ASSUMPTION): a lake is a single
# empty position with six occupied neighbours, not any enclosed hole.
DEFAULT_OPTIONS: Final[dict[str, object]] = {
    "variants": [],
    "long_game": False,
    "lake_counts_as_edge": False,
    "lake_is_enclosed_region": False,
}

# §2.2: the long game exists only for these player counts.
LONG_GAME_PLAYER_COUNTS: Final = (2, 3)


def tiles_in_play(players: int, long_game: bool) -> tuple[int, ...]:
    """Spec §2.2 step 1: the tiles whose mark allows this player count (all in a long game)."""
    return tuple(
        tile_id
        for tile_id, (min_players, _) in TILES.items()
        if long_game or min_players <= players
    )
