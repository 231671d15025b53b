"""Tower of Babel component data and every rules decision of `games/tower-of-babel.md`.

Every ASSUMPTION of the spec is here, with its number (A1-A25), so that a value can be
corrected without touching the rules code. Building-card types are numbered 0-3 in the
order of `TYPES`; a multiset of cards is a tuple of four counts in that order.
"""

from __future__ import annotations

from typing import Final

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 5

# §2 terminology: the four building-card (and disc) types.
TYPES: Final = ("camel", "crane", "ship", "stonemason")
TYPE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(TYPES)}
CAMEL, CRANE, SHIP, STONEMASON = range(4)

# §3.1: the eight wonders; ids 1-8 (the id is only a label).
WONDERS: Final[dict[int, str]] = {
    1: "Pyramids of Giza",
    2: "Hanging Gardens of Semiramis",
    3: "Temple of Artemis at Ephesus",
    4: "Statue of Zeus at Olympia",
    5: "Mausoleum of Halicarnassus",
    6: "Colossus of Rhodes",
    7: "Lighthouse of Alexandria",
    8: "Tower of Babel",
}
WONDER_IDS: Final = tuple(WONDERS)
DISCS_PER_WONDER: Final = 3

# §3.2 and A14 (ASSUMPTION): six single-type discs per type, valued 3, 4, 4, 5, 5, 6.
SINGLE_DISC_VALUES: Final = (3, 4, 4, 5, 5, 6)


def _single_discs() -> dict[int, tuple[int, int, int, int]]:
    # Ids 1-6 camel, 7-12 crane, 13-18 ship, 19-24 stonemason, in the value order above.
    discs = {}
    for kind in range(4):
        for i, value in enumerate(SINGLE_DISC_VALUES):
            needs = [0, 0, 0, 0]
            needs[kind] = value
            discs[kind * len(SINGLE_DISC_VALUES) + i + 1] = (
                needs[0],
                needs[1],
                needs[2],
                needs[3],
            )
    return discs


# §3.2: D1 (2 camels + 3 stonemasons) is in the rulebook; A15 (ASSUMPTION): D2-D4 cycle
# the types, each type once with 2 and once with 3. Ids 25-28 are D1-D4.
TWO_TYPE_DISCS: Final[dict[int, tuple[int, int, int, int]]] = {
    25: (2, 0, 0, 3),  # D1: 2 camel + 3 stonemason  [RB]
    26: (0, 3, 0, 2),  # D2: 2 stonemason + 3 crane  (A15)
    27: (0, 2, 3, 0),  # D3: 2 crane + 3 ship         (A15)
    28: (3, 0, 2, 0),  # D4: 2 ship + 3 camel         (A15)
}
TWO_TYPE_NAMES: Final[dict[int, str]] = {25: "D1", 26: "D2", 27: "D3", 28: "D4"}

# Disc id -> cards needed per type.
DISCS: Final[dict[int, tuple[int, int, int, int]]] = {**_single_discs(), **TWO_TYPE_DISCS}

# Disc id -> for each type, whether the disc needs it (§2.9: a two-type disc counts for both).
DISC_TYPES: Final[dict[int, tuple[bool, bool, bool, bool]]] = {
    disc: (needs[0] > 0, needs[1] > 0, needs[2] > 0, needs[3] > 0) for disc, needs in DISCS.items()
}

# §2.8: the variant leaves one value-5 disc of each type in the box (here the second one
# of each type: ids 5, 11, 17, 23) and adds the four two-type discs.
VARIANT_REMOVED_DISCS: Final = (5, 11, 17, 23)


def discs_in_play(two_type_discs: bool) -> tuple[int, ...]:
    if not two_type_discs:
        return tuple(sorted(_single_discs()))
    return tuple(d for d in sorted(DISCS) if d not in VARIANT_REMOVED_DISCS)


# §3.5: 25 building cards of each type.
CARDS_PER_TYPE: Final = 25
# §2.1 step 6: each player starts with four building cards.
STARTING_HAND: Final = 4

# §3.3 and A16 (ASSUMPTION for rows 2-7): (first, second) place per completed wonder,
# row 1 for the first completed wonder; every other participant scores OTHERS_POINTS.
WONDER_ROWS: Final = ((8, 4), (10, 5), (12, 6), (14, 7), (16, 8), (18, 9), (20, 10))
# A16 (ASSUMPTION): the light row, for unfinished wonders at the end, equals row 1.
LIGHT_ROW: Final = (8, 4)
# §2.6 [RB+]: everybody else with at least one part scores 3.
OTHERS_POINTS: Final = 3

# §3.3 disc set bonus by number of discs of one type: 1 -> 0, 2 -> 5, 4 -> 20 are in the
# rulebook; A17 (ASSUMPTION): 3 -> 10, 5 -> 30, 6 -> 40, 7 -> 50. No player can hold more
# than 7 discs of one type (the variant's maximum), so the last entry is the ceiling.
SET_BONUS: Final = (0, 0, 5, 10, 20, 30, 40, 50)

# §3.4 action cards. A18 (ASSUMPTION): card exchange is the kind with three copies.
CARD_EXCHANGE = "card_exchange"
JOKER = "joker"
DISC_BONUS = "disc_bonus"
OFFER_BONUS = "offer_bonus"
DRAW_THREE = "draw_three"
DOUBLE_TURN = "double_turn"
FIVE_POINTS = "five_points"
ACTION_KINDS: Final = (
    CARD_EXCHANGE,
    JOKER,
    DISC_BONUS,
    OFFER_BONUS,
    DRAW_THREE,
    DOUBLE_TURN,
    FIVE_POINTS,
)
ACTION_CARD_COUNTS: Final[dict[str, int]] = {
    CARD_EXCHANGE: 3,
    JOKER: 2,
    DISC_BONUS: 2,
    OFFER_BONUS: 2,
    DRAW_THREE: 2,
    DOUBLE_TURN: 2,
    FIVE_POINTS: 2,
}
# §3.4 [RB]: card exchange trades one to five cards.
CARD_EXCHANGE_MAX: Final = 5
# §3.4 [RB]: draw three building cards.
DRAW_THREE_CARDS: Final = 3
# §3.4 [RB]: the 5 points card.
FIVE_POINTS_VALUE: Final = 5
# A9 (ASSUMPTION): the disc bonus card gives 1 VP per building disc its owner holds.
DISC_BONUS_PER_DISC: Final = 1
# A7 (ASSUMPTION on timing; the 3 VP are [RB]): a rejected offer with the offer bonus card
# scores 3 per card instead of 1; the card is attached secretly, revealed with the offer,
# discarded after the turn whether it paid or not, and it also pays in a failed build.
REJECTED_OFFER_POINTS: Final = 1
OFFER_BONUS_POINTS: Final = 3
# A8 (ASSUMPTION): a joker stands for exactly 2 of the active player's own cards and he
# places 2 building parts for it. It must fit the remaining requirement (never 1 missing).
JOKER_CARDS: Final = 2
# §3.4 (ASSUMPTION): several jokers may be used together; for a two-type disc the active
# player chooses which of the two types each joker stands for.
SEVERAL_JOKERS_ALLOWED: Final = True

# Seats are numbered from the start player (DESIGN.md), so the website chooses who
# starts (§2.1 step 7: at random); seat 0's column stands on the lowest space.
FIRST_PLAYER_SEAT: Final = 0

# A1: no special rule for the first round (the asterisk belongs to the Double turn card).
FIRST_ROUND_SPECIAL_RULE: Final = False
# A2 (ASSUMPTION, sourced): a pass gives the active player one card before the rotation;
# then every player, the active player first, draws END_OF_TURN_CARDS.
PASS_CARDS: Final = 1
END_OF_TURN_CARDS: Final = 1
# A3: the turn-order track always yields clockwise order, so it is modelled as the seat
# of the active player; columns are listed from the lowest space upward.
COLUMN_TRACK_IS_A_QUEUE: Final = True
# A4: a player may offer nothing (0 cards).
EMPTY_OFFER_ALLOWED: Final = True
# A5 (ASSUMPTION): wrong-type cards are refused when the offer is made (the physical rule
# returns them at once with no effect); the trading card needs at least one correct card.
# The engine applies the same to the offer bonus card, which could never pay without one.
WRONG_TYPE_CARDS_REFUSED: Final = True
# A6 (ASSUMPTION): after a failed build the columns move as after any turn.
ROTATE_AFTER_FAILED_BUILD: Final = True
# A10 (ASSUMPTION): the game-ending build that completes a wonder still draws an action card.
ACTION_CARD_ON_GAME_END: Final = True
# A11 (ASSUMPTION): an empty building deck is refilled by shuffling the discard pile; if
# both are empty the draw is skipped. Draws go one player at a time, active player first,
# then clockwise.
RESHUFFLE_DISCARD_PILE: Final = True
# A12 (ASSUMPTION): each two-type disc is assigned to the type that maximises its owner's
# set bonus.
TWO_TYPE_ASSIGNMENT_MAXIMISES_BONUS: Final = True
# A13 (ASSUMPTION): building parts are unlimited (29 units per colour physically).
PARTS_ARE_UNLIMITED: Final = True
# A19 (ASSUMPTION, the engine's reading): card exchange and draw three are played by
# their holder at any point where the game waits for that holder's input: his own turn,
# his offer (before submitting it), his choice of offers and the Double turn window. The
# engine protocol has no moves by seats it is not waiting for, so a holder cannot play
# them during a step in which only other players act. Never during final scoring.
ANYTIME_CARDS_ONLY_WHEN_TO_MOVE: Final = True
# A20 (ASSUMPTION): no Double turn during the extra turn; none after a game-ending turn.
# The engine offers the card in one window at the end of the active player's turn
# (before the rotation and the draws), which is the latest moment the rules allow and
# dominates playing it earlier in the turn.
DOUBLE_TURN_CHAINING: Final = False
# A21 (ASSUMPTION): the action card for completing a wonder is drawn automatically.
ACTION_CARD_DRAW_IS_AUTOMATIC: Final = True
# A22 (ASSUMPTION): players tied on points share the victory (`winners` lists them all).
TIES_ARE_SHARED_VICTORIES: Final = True
# A23 (ASSUMPTION): a completed wonder scores right after step 4, before step 5.
WONDER_SCORED_BEFORE_STEP_5: Final = True
# A24 (ASSUMPTION): no hand limit for action cards (nor, [SRC], for building cards).
ACTION_CARD_HAND_LIMIT: Final = None
# A25 (ASSUMPTION): an offer for a two-type disc holds at most the disc's number of each
# type (a single-type disc: at most its number).
OFFER_CAP_PER_TYPE: Final = True
# §4 (ASSUMPTION "a player may change his submission"): the issue asks that each offer be
# one move after which the seat no longer has to move, so a submitted offer is final.
OFFERS_CAN_BE_CHANGED: Final = False
# §5 (ASSUMPTION): collected discs are shown to everyone.
COLLECTED_DISCS_ARE_PUBLIC: Final = True

# §2.1 step 1 and §2.11: host options and their defaults. The spec's `use_action_cards`
# (default true) is offered the other way round, as `no_action_cards` (default false), so
# that every option is a yes/no the host ticks to leave the basic game.
DEFAULT_OPTIONS: Final[dict[str, bool]] = {"two_type_discs": False, "no_action_cards": False}
