"""Decorations (spec §2.5) and the symbol effects of §2.8.

A field is usable for symbol X when it is the visible field of its cell (the top tile
there), nothing stands on it, and it shows X. Every decoration lies at least partly on
a tile placed this turn; a statue lies wholly on one.
"""

from __future__ import annotations

from dataclasses import replace

from games.engines.babylon import data, geometry
from games.engines.babylon.state import (
    BRIDGE,
    FOUNTAIN,
    STAIRS,
    STATUE,
    Board,
    Piece,
    Supply,
    field_key,
)

# A decoration: (kind, cells), cells in increasing order.
Decoration = tuple[str, tuple[int, ...]]


def _usable(board: Board, c: int, symbol: str) -> bool:
    level = board.surface[c]
    if level == 0 or field_key(c, level) in board.occupied:
        return False
    return board.symbol_at(c) == symbol


def statues_on(board: Board) -> list[int]:
    """Cells of the statues on the board (not used as pillars), visible or not (D17)."""
    return [geometry.cell(p.at[0][0], p.at[0][1]) for p in board.pieces if p.kind == STATUE]


def in_line(c: int, statues: list[int]) -> bool:
    """D18: same row or same column as at least one statue; no statue yet: anywhere."""
    if not statues:
        return True
    x, y = geometry.xy(c)
    return any(s % geometry.SIZE == x or s // geometry.SIZE == y for s in statues)


def legal(board: Board, placed: tuple[int, ...], supply: Supply) -> list[Decoration]:
    """Every decoration the board allows now, in a fixed order."""
    if not placed:
        return []
    new = set(placed)
    surface, top = board.surface, board.top
    found: list[Decoration] = []
    stairs = supply.stairs > 0
    fountains = supply.fountains > 0
    if stairs or fountains:
        for c1, c2 in geometry.ADJACENT_PAIRS:
            s1, s2 = surface[c1], surface[c2]
            if not s1 or not s2:
                continue
            t1, t2 = top[c1], top[c2]
            if t1 == t2 or (t1 not in new and t2 not in new):
                continue
            if abs(s1 - s2) == 1:
                kind, symbol = (STAIRS, data.STAIRS) if stairs else (None, "")
            elif s1 == s2:
                kind, symbol = (FOUNTAIN, data.FOUNTAIN) if fountains else (None, "")
            else:
                continue
            if kind and _usable(board, c1, symbol) and _usable(board, c2, symbol):
                found.append((kind, (c1, c2)))
    if supply.bridges > 0:
        for c1, c2, middle in geometry.BRIDGE_PAIRS:
            level = surface[c1]
            if not level or surface[c2] != level or surface[middle] >= level:
                continue
            if top[c1] not in new and top[c2] not in new:
                continue
            if middle in board.spans:
                continue  # D16: one bridge per middle cell
            if _usable(board, c1, data.BRIDGE) and _usable(board, c2, data.BRIDGE):
                found.append((BRIDGE, (c1, c2)))
    if supply.statues > 0:
        statues = statues_on(board)
        for index in placed:
            for c in board.tiles[index].cells:
                if top[c] != index or not _usable(board, c, data.STATUE):
                    continue
                if in_line(c, statues):
                    found.append((STATUE, (c,)))
    return found


def apply(board: Board, supply: Supply, decoration: Decoration) -> tuple[Board, Supply]:
    kind, cells = decoration
    at = tuple((*geometry.xy(c), board.surface[c]) for c in cells)
    key = data.SUPPLY_KEY[kind]
    new_board = replace(board, pieces=(*board.pieces, Piece(kind, at)))
    return new_board, replace(supply, **{key: getattr(supply, key) - 1})


def symbol_targets(board: Board, placed: tuple[int, ...], effect: str) -> list[tuple[int, str]]:
    """§2.8, D20: (cell, new symbol) for `change_symbol` / `add_symbol` this turn."""
    found: list[tuple[int, str]] = []
    for index in placed:
        tile = board.tiles[index]
        for k, c in enumerate(tile.cells):
            if board.top[c] != index or field_key(c, tile.level) in board.occupied:
                continue
            current = tile.symbols[k]
            if effect == data.ADD_SYMBOL and current == data.BLANK:
                found.extend((c, s) for s in data.SYMBOLS)
            elif effect == data.CHANGE_SYMBOL and current != data.BLANK:
                found.extend((c, s) for s in data.SYMBOLS if s != current)
    return found


def set_symbol(board: Board, c: int, symbol: str) -> Board:
    index = board.top[c]
    tile = board.tiles[index]
    k = tile.cells.index(c)
    symbols = tile.symbols[:k] + symbol + tile.symbols[k + 1 :]
    tiles = list(board.tiles)
    tiles[index] = replace(tile, symbols=symbols)
    return replace(board, tiles=tuple(tiles))
