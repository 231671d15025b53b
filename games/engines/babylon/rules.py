"""The rules engine and the view share: which stacks, tiles and placements are open now,
what a dig yields, and the full list of build-step moves."""

from __future__ import annotations

from typing import Any

from games.engines.babylon import data, decorations, geometry, placement
from games.engines.babylon.moves import (
    DISCARD,
    END_TURN,
    PLACE,
    SET_SYMBOL,
    STORE,
    STORED,
    TAKEN,
    decorate_move,
)
from games.engines.babylon.state import State


def clay_stacks(s: State) -> list[tuple[int, int]]:
    """§2.1 step 6: stacks whose top tile is clay, in (y, x) order."""
    return [
        (i % geometry.Q, i // geometry.Q)
        for i, stack in enumerate(s.quarry)
        if stack and data.material(stack[-1]) == data.CLAY
    ]


def dig_stacks(s: State) -> list[tuple[int, int]]:
    return [(i % geometry.Q, i // geometry.Q) for i, stack in enumerate(s.quarry) if stack]


def dig_yield(s: State, seat: int, index: int) -> tuple[int, int, int]:
    """§2.3: (single pillars from edges and flower, extra single, extra double) owed to
    `seat` for the top tile of stack `index`, before the supply limit."""
    effect = s.effect
    earned = geometry.quarry_edges(s.heights, index)
    if data.TILES[s.quarry[index][-1]][0] == s.flowers[seat]:
        doubled = effect == data.FLOWER_DOUBLE
        earned += data.FLOWER_BONUS_DOUBLED if doubled else data.FLOWER_BONUS
    if effect == data.DIG_MINUS_ONE:
        earned = max(0, earned - 1)  # D4
    extra_single = 1 if effect == data.GAIN_SINGLE else 0
    extra_double = 1 if effect == data.GAIN_DOUBLE else 0
    return earned, extra_single, extra_double


def placeable_tiles(s: State) -> list[str]:
    """The tiles that may still be built this turn: "taken" and/or "stored"."""
    found = []
    if s.turn.taken is not None and not s.turn.taken_placed:
        found.append(TAKEN)
    if s.boards[s.current].stored is not None:
        found.append(STORED)
    return found


def affordable_options(s: State) -> list[placement.Option]:
    """The placements the seat to move can pay for now (§2.4 rules 7-8): enough singles,
    doubles in the supply for the exchanges, and a belvedere for an open corner."""
    board = s.boards[s.current]
    singles, doubles = board.singles, s.turn.doubles
    supply_doubles, belvedere = s.supply.doubles, s.supply.belvederes > 0
    found = []
    for option in placement.options(board):
        swap = option.doubles - doubles
        if swap > 0:
            if swap > supply_doubles or singles < option.singles + 2 * swap:
                continue
        elif singles < option.singles:
            continue
        if option.open_corner is not None and not belvedere:
            continue
        found.append(option)
    return found


def build_moves(s: State) -> list[dict[str, Any]]:
    """Every legal move of the build step: placements, decorations, symbol changes, and
    the ways to end the turn."""
    moves: list[dict[str, Any]] = []
    tiles = placeable_tiles(s)
    if tiles:
        for option in affordable_options(s):
            x, y, level, corner = option.x, option.y, option.level, option.open_corner
            for tile in tiles:
                moves += [
                    {
                        "type": PLACE,
                        "tile": tile,
                        "x": x,
                        "y": y,
                        "rotation": rotation,
                        "level": level,
                        "open_corner": corner,
                    }
                    for rotation in data.ROTATIONS
                ]
    board = s.boards[s.current]
    for kind, cells in decorations.legal(board, s.turn.placed, s.supply):
        moves.append(decorate_move(kind, tuple(geometry.xy(c) for c in cells)))
    if s.effect in (data.CHANGE_SYMBOL, data.ADD_SYMBOL) and not s.turn.symbol_used:
        for c, symbol in decorations.symbol_targets(board, s.turn.placed, s.effect):
            x, y = geometry.xy(c)
            moves.append({"type": SET_SYMBOL, "x": x, "y": y, "symbol": symbol})
    if s.turn.taken_placed:
        moves.append({"type": END_TURN, "taken": None})
    else:
        moves.append({"type": END_TURN, "taken": STORE})
        moves.append({"type": END_TURN, "taken": DISCARD})
    return moves
