"""How good a Babylon position is for one seat, for the bots (`games/bots/`).

`evaluate(state, seat)` is the seat's estimated final score minus the best estimate
among the other seats, in points. The estimate is the running score of spec §2.10 plus,
while turns remain, credit for what is likely to pay later, shrinking to nothing as the
game ends:

* stored single pillars and the tile in the storage slot (the material of later turns);
* visible, empty stairs, fountain and bridge fields, which a later tile can join into a
  decoration worth more on a higher level;
* progress towards the next decoration set and flower set;
* room to build the next level: empty visible fields on the highest level.

Final results always come from `ENGINE.scores`; this is a heuristic for the search.

`information_key` is what a seat can see, the key of the planner's cache.

This module stands below the planner (`estimates.py`, `planner.py`) and the bots' entry
point `evaluate.py`, which uses both; it imports neither.
"""

from __future__ import annotations

from collections.abc import Hashable

from games.bots.babylon import gardens
from games.engines.babylon import data, geometry, scoring
from games.engines.babylon.state import BRIDGE, FOUNTAIN, OVER, STAIRS, STATUE, Board, State

# Points that make a clear lead; MCTS squashes evaluations with it.
SCALE = 10.0

# Future credit at the start of the game, in points (scaled down as turns run out).
SINGLE_PILLAR = 0.9  # a stored single pillar
STORED_TILE = 2.0  # a tile waiting in the storage slot
OPEN_FIELD = {data.STAIRS: 0.45, data.FOUNTAIN: 0.55, data.BRIDGE: 0.45}  # x level
DECORATION_SET_STEP = 1.2  # per decoration kind above the current set count
FLOWER_SET_STEP = 1.0  # per flower above the current set count
ROOM_TO_CLIMB = 1.5  # x level, with 3+ empty visible fields on the highest level


def progress_left(state: State) -> float:
    """Share of the game's turns still to be played: 1 at the start, 0 at the end."""
    if state.phase == OVER:
        return 0.0
    total = data.ROUNDS_BY_PLAYERS[state.players] * state.players
    played = (state.round - 1) * state.players + state.current
    if state.phase == "build":
        played += 1  # the turn in progress is as good as played
    return max(0.0, 1.0 - played / total)


def board_parts(board: Board) -> tuple[float, float]:
    """(running score, future credit at full weight) of one board. The score and the
    credit for its fields depend on the garden alone, so they are kept in the cache its
    boards share (`gardens.shared`); the storage's credit is added each time."""
    cache = gardens.shared(board).cache
    garden: tuple[float, float] | None = cache.get("parts")
    if garden is None:
        parts = scoring.board_breakdown(board)
        garden = cache["parts"] = (float(sum(parts.values())), _field_credit(board))
    score, field_credit = garden
    credit = SINGLE_PILLAR * min(board.singles, data.STORAGE_SINGLES)
    if board.stored is not None:
        credit += STORED_TILE
    credit += field_credit
    return score, credit


def _field_credit(board: Board) -> float:
    credit = 0.0
    top_level = max(board.levels, default=0)
    empty_on_top = 0
    surface = board.surface
    for c in range(geometry.CELLS):
        level = surface[c]
        if not level or not board.is_empty_top(c):
            continue
        symbol = board.symbol_at(c)
        weight = OPEN_FIELD.get(symbol or "")
        if weight:
            credit += weight * level
        if level == top_level:
            empty_on_top += 1
    if empty_on_top >= 3:
        credit += ROOM_TO_CLIMB * (top_level + 1)
    kinds = {STAIRS: 0, FOUNTAIN: 0, BRIDGE: 0, STATUE: 0}
    for piece in board.pieces:
        if piece.kind in kinds and any(scoring.visible_part(board, *part) for part in piece.at):
            kinds[piece.kind] += 1
    low = min(kinds.values())
    credit += DECORATION_SET_STEP * sum(1 for n in kinds.values() if n > low)
    flowers = dict.fromkeys(data.FLOWERS, 0)
    for index in scoring.visible_tiles(board):
        flowers[data.TILES[board.tiles[index].id][0]] += 1
    low = min(flowers.values())
    credit += FLOWER_SET_STEP * sum(1 for n in flowers.values() if n > low)
    return credit


def evaluate(state: State, seat: int) -> float:
    left = progress_left(state)
    estimates = []
    for board in state.boards:
        score, credit = board_parts(board)
        estimates.append(score + left * credit)
    others = [e for s, e in enumerate(estimates) if s != seat]
    return estimates[seat] - (max(others) if others else 0.0)


def information_key(state: State, seat: int) -> Hashable:
    """Equal for states that differ only in what nobody sees (spec §5): the covered
    quarry tiles and the face-down or never-drawn tokens."""
    return (
        state.phase,
        state.current,
        state.round,
        state.removals_done,
        tuple(stack[-1:] + (str(len(stack)),) for stack in state.quarry),
        state.revealed,
        len(state.tokens),
        state.discarded,
        state.supply,
        state.boards,
        state.turn,
    )
