"""Babylon state: immutable values, and their JSON form (`dump` / `load`).

State JSON (what `ENGINE.dump` returns and `ENGINE.load` accepts)::

    {
      "players": 2,                       # 2..4; seats 0..N-1 in turn order, seat 0 first
      "flowers": ["orange", "pink"],      # each seat's flower (= its player board)
      "quarry": [                         # quarry[y][x]: stack of tile ids, bottom first;
        [["B07", "G03", "C11"], ...],     #   layer 1 basalt, 2 granite, 3 clay (spec 4.5)
        ...                               #   4 rows of 4 stacks
      ],
      "removed": ["C04", ...],            # clay tiles removed at setup (face up, public)
      "discarded": ["G10", ...],          # tiles discarded at the end of turns (public)
      "tokens": ["gain_double", ...],     # face-down round tokens, top first (hidden)
      "unused_tokens": ["none", ...],     # tokens never drawn (hidden forever)
      "revealed": ["add_symbol", ...],    # revealed tokens, oldest first; the last one
                                          #   is the effect of the current round
      "supply": {"singles": 148, "doubles": 60, "belvederes": 38, "stairs": 15,
                 "fountains": 15, "bridges": 15, "statues": 38},
      "boards": [                         # per seat
        {
          "tiles": [                      # terrace tiles in the order they were placed
            {"tile": "C01", "x": 0, "y": 0, "rotation": 0, "level": 1,
             "symbols": "SF--"},          # by corner 0 NW, 1 NE, 2 SE, 3 SW of the board,
          ],                              #   after rotation and symbol changes; optional
                                          #   in `load` (derived from tile and rotation)
          "pieces": [                     # everything standing on a field or a notch
            {"kind": "single", "at": [[0, 0, 0]]},     # [x, y, level stood on]; 0 = notch
            {"kind": "double", "at": [[2, 1, 0]]},
            {"kind": "statue_pillar", "at": [[1, 1, 1]]},  # a statue used as a pillar
            {"kind": "belvedere", "at": [[2, 2, 2]]},  # on the tile's own field
            {"kind": "statue", "at": [[1, 2, 2]]},
            {"kind": "stairs", "at": [[2, 1, 2], [3, 1, 1]]},   # two fields
            {"kind": "fountain", "at": [[0, 1, 1], [0, 2, 1]]},
            {"kind": "bridge", "at": [[1, 0, 1], [3, 0, 1]]}    # two ends; spans (2, 0)
          ],
          "stored": "S-white",            # the tile in the storage slot, or null
          "singles": 0                    # single pillars held: stored between turns,
        },                                #   the pool (stored + dug) during a turn
        ...
      ],
      "phase": "dig",                     # "remove" (setup removals), "dig", "build", "over"
      "current": 0,                       # seat to move
      "round": 1,                         # 1-based
      "removals_done": 6,                 # clay removals made so far (spec 2.1 step 6)
      "turn": {                           # the turn in progress
        "taken": "C07",                   # the tile dug this turn, or null
        "taken_placed": false,            # whether it has been built
        "placed": [3],                    # indices into the board's tiles placed this turn
        "doubles": 0,                     # double pillars in the pool
        "symbol_used": false              # the change/add-symbol effect was used
      }
    }

Pieces on fields: a field is identified by its cell and its level (different tiles
over one cell always have different levels), a notch by level 0. A pillar stands on
the field (or notch) at `at` and reaches the level of the tile it supports.

To score a hand-written position only `players` and `boards` are required:
`ENGINE.scores(ENGINE.load({"players": 2, "boards": [...]}))`. Missing keys default to:
the default flowers, an empty quarry, no removed, discarded or face-down tokens, the
full supply, phase "over", current 0, round 1, and an empty turn. A board may leave out
`pieces`, `stored` (null) and `singles` (0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engines.babylon import data, geometry

REMOVE = "remove"
DIG = "dig"
BUILD = "build"
OVER = "over"
PHASES = (REMOVE, DIG, BUILD, OVER)

# Piece kinds (§4.4).
SINGLE = "single"
DOUBLE = "double"
STATUE_PILLAR = "statue_pillar"
BELVEDERE = "belvedere"
STATUE = "statue"
STAIRS = "stairs"
FOUNTAIN = "fountain"
BRIDGE = "bridge"
PILLARS = (SINGLE, DOUBLE, STATUE_PILLAR)
PIECE_KINDS = (SINGLE, DOUBLE, STATUE_PILLAR, BELVEDERE, STATUE, STAIRS, FOUNTAIN, BRIDGE)
PARTS = dict.fromkeys((*PILLARS, BELVEDERE, STATUE), 1) | {STAIRS: 2, FOUNTAIN: 2, BRIDGE: 2}

Part = tuple[int, int, int]  # (x, y, level)


def field_key(c: int, level: int) -> int:
    """One int per field or notch: cell and level."""
    return level * geometry.CELLS + c


@dataclass(frozen=True, slots=True)
class Tile:
    """A terrace tile on a board (§4.2/§4.3); `symbols` by board corner, as changed."""

    id: str
    x: int
    y: int
    rotation: int
    level: int
    symbols: str

    @property
    def cells(self) -> tuple[int, int, int, int]:
        return geometry.FOOTPRINTS[self.y * geometry.SIZE + self.x]


@dataclass(frozen=True, slots=True)
class Piece:
    kind: str
    at: tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """One player's garden and storage. The fields after `singles` are derived from the
    tiles and pieces when the board is built (and never compared)."""

    tiles: tuple[Tile, ...] = ()
    pieces: tuple[Piece, ...] = ()
    stored: str | None = None
    singles: int = 0
    # Derived: per cell the highest tile level (0 = notch) and that tile's index (-1).
    surface: tuple[int, ...] = field(default=(), compare=False, repr=False)
    top: tuple[int, ...] = field(default=(), compare=False, repr=False)
    # field_key -> index of the piece standing there.
    occupied: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    # Bridge middle cells -> the bridge's level.
    spans: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    levels: frozenset[int] = field(default=frozenset(), compare=False, repr=False)
    anchors: frozenset[int] = field(default=frozenset(), compare=False, repr=False)
    # Placement options of this board, computed on first use (see `placement.options`).
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        surface = [0] * geometry.CELLS
        top = [-1] * geometry.CELLS
        for index, tile in enumerate(self.tiles):
            for c in tile.cells:
                if tile.level > surface[c]:
                    surface[c] = tile.level
                    top[c] = index
        occupied: dict[int, int] = {}
        spans: dict[int, int] = {}
        for index, piece in enumerate(self.pieces):
            for x, y, level in piece.at:
                occupied[field_key(y * geometry.SIZE + x, level)] = index
            if piece.kind == BRIDGE:
                (x1, y1, level), (x2, y2, _) = piece.at
                middle = geometry.cell((x1 + x2) // 2, (y1 + y2) // 2)
                spans[middle] = max(level, spans.get(middle, 0))
        set_ = object.__setattr__
        set_(self, "surface", tuple(surface))
        set_(self, "top", tuple(top))
        set_(self, "occupied", occupied)
        set_(self, "spans", spans)
        set_(self, "levels", frozenset(t.level for t in self.tiles))
        set_(self, "anchors", frozenset(t.y * geometry.SIZE + t.x for t in self.tiles))
        set_(self, "cache", {})

    def with_storage(self, singles: int, stored: str | None) -> Board:
        """The same garden with other storage; shares the derived data and its cache."""
        board = object.__new__(Board)
        set_ = object.__setattr__
        for name in Board.__slots__:
            set_(board, name, getattr(self, name))
        set_(board, "singles", singles)
        set_(board, "stored", stored)
        return board

    def symbol_at(self, c: int) -> str | None:
        """The symbol of the visible field at cell `c`, or None for a bare notch."""
        index = self.top[c]
        if index < 0:
            return None
        tile = self.tiles[index]
        return tile.symbols[tile.cells.index(c)]

    def piece_at(self, c: int, level: int) -> Piece | None:
        index = self.occupied.get(field_key(c, level))
        return None if index is None else self.pieces[index]

    def is_empty_top(self, c: int) -> bool:
        return field_key(c, self.surface[c]) not in self.occupied


@dataclass(frozen=True, slots=True)
class Supply:
    singles: int = data.SUPPLY["singles"]
    doubles: int = data.SUPPLY["doubles"]
    belvederes: int = data.SUPPLY["belvederes"]
    stairs: int = data.SUPPLY["stairs"]
    fountains: int = data.SUPPLY["fountains"]
    bridges: int = data.SUPPLY["bridges"]
    statues: int = data.SUPPLY["statues"]

    def to_dict(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in data.SUPPLY}


@dataclass(frozen=True, slots=True)
class Turn:
    taken: str | None = None
    taken_placed: bool = False
    placed: tuple[int, ...] = ()
    doubles: int = 0
    symbol_used: bool = False


@dataclass(frozen=True, slots=True)
class State:
    players: int
    flowers: tuple[str, ...]
    quarry: tuple[tuple[str, ...], ...]  # 16 stacks, index y * 4 + x, bottom first
    removed: tuple[str, ...]
    discarded: tuple[str, ...]
    tokens: tuple[str, ...]
    unused_tokens: tuple[str, ...]
    revealed: tuple[str, ...]
    supply: Supply
    boards: tuple[Board, ...]
    phase: str
    current: int
    round: int
    removals_done: int
    turn: Turn

    @property
    def effect(self) -> str:
        """§2.8: the last revealed token governs the current round; round 1 has none."""
        return self.revealed[-1] if self.revealed else data.NONE

    @property
    def heights(self) -> tuple[int, ...]:
        return tuple(len(stack) for stack in self.quarry)


def dump(state: State) -> dict[str, Any]:
    q = geometry.Q
    return {
        "players": state.players,
        "flowers": list(state.flowers),
        "quarry": [[list(state.quarry[y * q + x]) for x in range(q)] for y in range(q)],
        "removed": list(state.removed),
        "discarded": list(state.discarded),
        "tokens": list(state.tokens),
        "unused_tokens": list(state.unused_tokens),
        "revealed": list(state.revealed),
        "supply": state.supply.to_dict(),
        "boards": [board_to_json(b) for b in state.boards],
        "phase": state.phase,
        "current": state.current,
        "round": state.round,
        "removals_done": state.removals_done,
        "turn": {
            "taken": state.turn.taken,
            "taken_placed": state.turn.taken_placed,
            "placed": list(state.turn.placed),
            "doubles": state.turn.doubles,
            "symbol_used": state.turn.symbol_used,
        },
    }


def board_to_json(board: Board) -> dict[str, Any]:
    return {
        "tiles": [
            {
                "tile": t.id,
                "x": t.x,
                "y": t.y,
                "rotation": t.rotation,
                "level": t.level,
                "symbols": t.symbols,
            }
            for t in board.tiles
        ],
        "pieces": [{"kind": p.kind, "at": [list(part) for part in p.at]} for p in board.pieces],
        "stored": board.stored,
        "singles": board.singles,
    }


def _tile_id(value: Any) -> str:
    if not isinstance(value, str) or value not in data.TILES:
        raise ValueError(f"Unknown tile {value!r}.")
    return value


def _int(value: Any, name: str) -> int:
    if type(value) is not int:
        raise ValueError(f"{name} must be an integer, not {value!r}.")
    return value


def tile_from_json(raw: dict[str, Any]) -> Tile:
    tile_id = _tile_id(raw["tile"])
    x, y = _int(raw["x"], "x"), _int(raw["y"], "y")
    if x not in geometry.ANCHOR_RANGE or y not in geometry.ANCHOR_RANGE:
        raise ValueError(f"Tile {tile_id} at ({x}, {y}) is off the board.")
    rotation = _int(raw.get("rotation", 0), "rotation")
    if rotation not in data.ROTATIONS:
        raise ValueError(f"Rotation {rotation} is not 0..3.")
    level = _int(raw["level"], "level")
    if level < 1:
        raise ValueError("A tile's level is at least 1.")
    symbols = raw.get("symbols")
    if symbols is None:
        symbols = geometry.rotate(data.TILES[tile_id][1], rotation)
    if (
        not isinstance(symbols, str)
        or len(symbols) != 4
        or any(s not in (*data.SYMBOLS, data.BLANK) for s in symbols)
    ):
        raise ValueError(f"Bad symbols {symbols!r} for tile {tile_id}.")
    return Tile(tile_id, x, y, rotation, level, symbols)


def piece_from_json(raw: dict[str, Any]) -> Piece:
    kind = raw["kind"]
    if kind not in PIECE_KINDS:
        raise ValueError(f"Unknown piece kind {kind!r}.")
    at = tuple((_int(p[0], "x"), _int(p[1], "y"), _int(p[2], "level")) for p in raw["at"])
    if len(at) != PARTS[kind]:
        raise ValueError(f"A {kind} stands on {PARTS[kind]} field(s).")
    for x, y, level in at:
        if not (0 <= x < geometry.SIZE and 0 <= y < geometry.SIZE) or level < 0:
            raise ValueError(f"Piece position ({x}, {y}, {level}) is off the board.")
    return Piece(kind, at)


def board_from_json(raw: dict[str, Any]) -> Board:
    stored = raw.get("stored")
    return Board(
        tiles=tuple(tile_from_json(t) for t in raw.get("tiles", ())),
        pieces=tuple(piece_from_json(p) for p in raw.get("pieces", ())),
        stored=None if stored is None else _tile_id(stored),
        singles=_int(raw.get("singles", 0), "singles"),
    )


def load(payload: dict[str, Any]) -> State:
    players = _int(payload["players"], "players")
    if not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
        raise ValueError(f"Babylon is for 2 to 4 players, not {players}.")
    flowers = tuple(payload.get("flowers", data.DEFAULT_FLOWER_ORDER[:players]))
    boards = tuple(board_from_json(b) for b in payload["boards"])
    if len(flowers) != players or len(boards) != players:
        raise ValueError("'flowers' and 'boards' need one entry per player.")
    if any(f not in data.FLOWERS for f in flowers) or len(set(flowers)) != players:
        raise ValueError(f"Bad flowers {list(flowers)!r}.")
    rows = payload.get("quarry")
    if rows is None:
        quarry: tuple[tuple[str, ...], ...] = ((),) * (geometry.Q * geometry.Q)
    else:
        if len(rows) != geometry.Q or any(len(row) != geometry.Q for row in rows):
            raise ValueError("The quarry is 4 rows of 4 stacks.")
        quarry = tuple(tuple(_tile_id(t) for t in stack) for row in rows for stack in row)
    supply_raw = payload.get("supply", {})
    unknown = set(supply_raw) - set(data.SUPPLY)
    if unknown:
        raise ValueError(f"Unknown supply keys {sorted(unknown)}.")
    supply = Supply(**{k: _int(v, k) for k, v in supply_raw.items()})
    phase = payload.get("phase", OVER)
    if phase not in PHASES:
        raise ValueError(f"Unknown phase {phase!r}.")
    raw_turn = payload.get("turn", {})
    taken = raw_turn.get("taken")
    turn = Turn(
        taken=None if taken is None else _tile_id(taken),
        taken_placed=bool(raw_turn.get("taken_placed", False)),
        placed=tuple(_int(i, "placed") for i in raw_turn.get("placed", ())),
        doubles=_int(raw_turn.get("doubles", 0), "doubles"),
        symbol_used=bool(raw_turn.get("symbol_used", False)),
    )
    for name in ("tokens", "unused_tokens", "revealed"):
        if any(t not in data.EFFECTS for t in payload.get(name, ())):
            raise ValueError(f"Unknown round token in {name!r}.")
    return State(
        players=players,
        flowers=flowers,
        quarry=quarry,
        removed=tuple(_tile_id(t) for t in payload.get("removed", ())),
        discarded=tuple(_tile_id(t) for t in payload.get("discarded", ())),
        tokens=tuple(payload.get("tokens", ())),
        unused_tokens=tuple(payload.get("unused_tokens", ())),
        revealed=tuple(payload.get("revealed", ())),
        supply=supply,
        boards=boards,
        phase=phase,
        current=_int(payload.get("current", 0), "current"),
        round=_int(payload.get("round", 1), "round"),
        removals_done=_int(payload.get("removals_done", 0), "removals_done"),
        turn=turn,
    )
