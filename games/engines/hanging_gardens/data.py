"""The Hanging Gardens component data and every decision of `games/hanging-gardens.md`.

Everything the spec marks ASSUMPTION, or lists as a decision in its §7, lives here with the
spec's number beside it, so a correction (say, the printed value of a king) is a change to
this module only.

Squares: `.` is a building space; `T` terrace, `P` park, `A` arcade, `F` fountain (spec §1.3).
"""

from __future__ import annotations

from typing import Final

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4

BUILDING: Final = "."
MOTIFS: Final = "TPAF"
SQUARES: Final = BUILDING + MOTIFS
MOTIF_NAMES: Final[dict[str, str]] = {
    "T": "terrace",
    "P": "park",
    "A": "arcade",
    "F": "fountain",
}

# Spec §2.1 step 3 and §7.13: five temples per player, whatever the player count.
TEMPLES_PER_PLAYER: Final = 5

# Spec §3.1: the start card, six building spaces, at anchor (0, 0) in rotation 0 (§2.1 step 2).
START_CARD: Final[tuple[str, str, str]] = ("..", "..", "..")

# Spec §3.2 and §7.1, ASSUMPTION: no list of the printed cards exists, so the engine uses the
# spec's fixed deck. Card id -> its three rows, top first, two squares each (left, right),
# upright (rotation 0: 2 wide, 3 tall).
# fmt: off
CARDS: Final[dict[int, tuple[str, str, str]]] = {
    1: ("T.", "..", ".."), 2: ("..", ".T", ".."), 3: ("..", "..", "T."),
    4: ("..", ".P", ".."), 5: ("..", "..", "P."), 6: (".P", "..", ".."),
    7: ("..", "..", "A."), 8: (".A", "..", ".."), 9: ("A.", "..", ".."),
    10: (".F", "..", ".."), 11: ("F.", "..", ".."), 12: ("..", ".F", ".."),
    13: ("T.", "T.", ".."), 14: ("..", "TT", ".."), 15: ("..", ".P", ".P"),
    16: ("PP", "..", ".."), 17: (".A", ".A", ".."), 18: ("..", "..", "AA"),
    19: ("..", "F.", "F."), 20: ("FF", "..", ".."), 21: ("TP", "..", ".."),
    22: ("..", "T.", "A."), 23: (".T", ".F", ".."), 24: ("P.", ".A", ".."),
    25: ("..", "PF", ".."), 26: ("..", ".A", "F."), 27: ("T.", "P.", ".."),
    28: ("..", ".T", ".A"), 29: ("FT", "..", ".."), 30: ("..", "A.", "P."),
    31: (".F", ".P", ".."), 32: ("F.", ".A", ".."), 33: ("..", "PT", ".."),
    34: ("..", ".F", "A."), 35: ("A.", "T.", ".."), 36: ("..", ".F", ".P"),
    37: ("T.", "TT", ".."), 38: (".P", ".P", ".P"), 39: ("..", "A.", "AA"),
    40: ("FF", ".F", ".."), 41: ("T.", "T.", ".P"), 42: ("..", "TT", "F."),
    43: ("A.", ".P", ".P"), 44: (".T", "..", "PP"), 45: (".A", ".A", "F."),
    46: ("AA", "..", ".P"), 47: (".T", "F.", "F."), 48: ("..", "FF", ".A"),
    49: ("P.", ".A", "F."), 50: (".T", "A.", ".F"), 51: ("TP", "F.", ".."),
    52: ("..", "T.", "AP"), 53: ("T.", "TP", ".P"), 54: ("AA", "..", "FF"),
    55: (".T", "AT", "A."), 56: ("..", "PP", "FF"), 57: ("TT", "FF", ".."),
    58: ("A.", "AP", ".P"), 59: ("TP", "AF", ".."), 60: ("..", "FA", "PT"),
}
# fmt: on
CARD_IDS: Final = tuple(sorted(CARDS))


def card_label(card: int) -> str:
    """The spec's name of a card: H01 ... H60."""
    return f"H{card:02d}"


# Spec §2.2: building cards revealed per round = turns per round (two turns each with two
# players, alternating). 60 cards give 15, 20 and 15 rounds.
CARDS_PER_ROUND: Final[dict[int, int]] = {2: 4, 3: 3, 4: 4}

# Spec §1.2 and §3.4, §3.5: the 49 point tiles.
QUEEN, KING, TIGER, GARDEN, STATUE, CHALICE, GATE = (
    "queen",
    "king",
    "tiger",
    "garden",
    "statue",
    "chalice",
    "gate",
)
ANIMAL_HANDLER, GARDENER, SCULPTOR, PRIEST, GUARD = (
    "animal_handler",
    "gardener",
    "sculptor",
    "priest",
    "guard",
)
SERIES_KINDS: Final = (QUEEN, KING, TIGER, GARDEN, STATUE, CHALICE, GATE)
PERSON_KINDS: Final = (ANIMAL_HANDLER, GARDENER, SCULPTOR, PRIEST, GUARD)
TILE_KINDS: Final = SERIES_KINDS + PERSON_KINDS

TILE_COUNTS: Final[dict[str, int]] = {
    QUEEN: 4,
    KING: 4,
    TIGER: 6,
    GARDEN: 6,
    STATUE: 6,
    CHALICE: 10,
    GATE: 8,
    ANIMAL_HANDLER: 1,
    GARDENER: 1,
    SCULPTOR: 1,
    PRIEST: 1,
    GUARD: 1,
}

# Spec §3.4: the running totals printed on each series tile, for owning 1, 2, ... L tiles;
# owning L tiles is a complete series, and more tiles start a second series (§2.11).
# Queen, garden and statue are printed values ([R], [S7]). §7.2, ASSUMPTION: the king, the
# tiger and the chalice, and the gate's third and fourth values (10, 15), are not known; the
# series lengths follow the rule that a series is half the tiles of its kind.
SERIES_VALUES: Final[dict[str, tuple[int, ...]]] = {
    QUEEN: (1, 15),
    KING: (2, 12),  # ASSUMPTION §7.2
    TIGER: (1, 5, 18),  # ASSUMPTION §7.2
    GARDEN: (2, 8, 16),
    STATUE: (1, 3, 20),
    CHALICE: (1, 3, 6, 10, 20),  # ASSUMPTION §7.2
    GATE: (0, 5, 10, 15),  # 0 and 5 from [S8]; 10 and 15 ASSUMPTION §7.2
}

# Spec §3.5: person -> (related series, points without a complete related series, points
# with at least one). §7.2, ASSUMPTION: the sculptor's 10 and the priest's 14. §7.12: the
# higher value counts once even with two complete series.
PERSONS: Final[dict[str, tuple[str, int, int]]] = {
    ANIMAL_HANDLER: (TIGER, 3, 10),
    GARDENER: (GARDEN, 3, 11),
    SCULPTOR: (STATUE, 3, 10),  # 10 is ASSUMPTION §7.2
    PRIEST: (CHALICE, 3, 14),  # 14 is ASSUMPTION §7.2
}
# Spec §3.5, §7.12: the guard scores this much per gate owned, first and second series alike.
GUARD_PER_GATE: Final = 3

# Spec §2.7 and §7.9: each tile a player was entitled to but could not get is worth 5 points.
# ASSUMPTION §7.9: this includes every slot of the allowed columns being empty, not only an
# empty face-down supply. Compensations are not tiles for the tie-break (§2.12).
MISSING_TILE_POINTS: Final = 5

# Spec §2.7, §3.3: the face-up display has three columns of two slots. A group of size s may
# take from columns 1 .. s - 2 (3 -> column 1, 4 -> 1-2, 5 or more -> all three).
COLUMNS: Final = 3
SLOTS_PER_COLUMN: Final = 2
MIN_GROUP: Final = 3
# Spec §2.7 step 1 and §7.7: a group of this size or more first draws one face-down tile.
# The printed rule says "may"; Yucata's (and the engine's) draw is compulsory.
BONUS_GROUP: Final = 6


def allowed_columns(group_size: int) -> range:
    """Spec §2.7: the display columns (1-based) a group of this size may take from."""
    return range(1, max(0, min(COLUMNS, group_size - MIN_GROUP + 1)) + 1)


# Spec §2.1 step 5 and §7.8, ASSUMPTION: the physical game splits the face-down tiles into two
# stacks; which stack a player draws from makes no difference, so the engine keeps one supply.
ONE_FACE_DOWN_SUPPLY: Final = True

# Spec §2.1 step 6 and §7.14: the start player is drawn at random (Yucata), not the youngest
# player. DESIGN numbers seats from the first player, so the site draws who sits in seat 0
# and the engine's seat 0 always holds the start player flower in round 1.
FIRST_START_PLAYER: Final = 0

# Spec §2.4 rule 4 and §7.3: cards turn in quarter turns clockwise and are never mirrored.
ROTATIONS: Final = 4

# Spec §2.6 and §7.4: a motif laid on the same motif is still a square of the card just
# placed, so it can make an older unscored group eligible.
SAME_MOTIF_OVERLAY_COUNTS_AS_NEW: Final = True

# Spec §7.5: the group size for the tile columns and for relocation is measured after the
# current placement. §7.6: only temples on a smallest group may move (a temple whose group
# shrank, even to one square, counts with its current size); a group that loses its last
# temple may be scored again. §7.15: the temple may go on any square of the scored group.
# §7.16: at most one group is scored per turn. The engine implements these in `garden.py`
# and `engine.py`.
SIZE_MEASURED_AFTER_PLACEMENT: Final = True

# Spec §2.10 and §7.10: when the face-down supply runs out, the round is finished and the
# game ends, even with building cards left. §7.11: a discarded card counts as played.
END_WHEN_SUPPLY_EMPTY: Final = True

# Spec §2.12: highest total wins; a tie goes to the most point tiles held (hidden ones
# included, compensations not); a tie on both is a shared victory.
TIES_ARE_SHARED_VICTORIES: Final = True

# Spec §5 and §7.17: taken face-up tiles are public (Yucata), tiles drawn face down are seen
# by their owner only; during play each viewer's scores count only the tiles it can see.
FACE_UP_TILES_ARE_PUBLIC: Final = True

# Not a rule: gardens are unbounded (spec §4), but a card reaches at most two squares past the
# garden, so 30 cards (a two-player game) stay within 62 squares of the start card. The
# engine keeps coordinates within this bound so that cells pack into one int.
MAX_COORDINATE: Final = 100
