"""The Hanging Gardens state: immutable values, and their JSON form (`dump` / `load`).

State JSON (what `ENGINE.dump` returns and `ENGINE.load` accepts)::

    {
      "players": 2,                     # N, 2..4; seats 0..N-1 clockwise, seat 0 starts
      "deck": [12, 40, 7, ...],         # face-down building cards (ids 1..60), top first
      "display": [3, 27, 41, 9],        # face-up building cards of this round, reveal order
      "gardens": [                      # per seat, in the spec's fixture notation (§6):
        {"x": -1, "y": 0,               #   the cell of the first character of the first row
         "rows": [" ..", "TP.", "..A"], #   rows from the top; " " is the table, "." a
                                        #   building space, T P A F the four motifs
         "temples": [[1, 1]]},          #   cells holding this seat's temples (at most 5)
        ...
      ],
      "supply": ["queen", "gate", ...], # face-down point tiles, top first
      "tile_display": [                 # the six face-up point tiles: columns 1..3 (marked
        ["king", "tiger"],              #   with 3, 4 and 5 squares), each [top, bottom];
        ["gate", null],                 #   null is an empty slot
        ["chalice", "queen"]
      ],
      "tiles": [                        # per seat
        {"open": ["queen", "gate"],     #   taken from the face-up display (public), in order
         "hidden": ["tiger"],           #   drawn face down for a group of 6+ (owner only)
         "missing": 0},                 #   5-point credits for tiles that were not there
        ...
      ],
      "start": 0,                       # seat holding the start player flower
      "round": 1,                       # 1-based
      "turn": 0,                        # turns already finished in this round; the seat to
                                        #   play is (start + turn) % players
      "phase": "place",                 # "place" a card, choose a "temple", take a "tile",
                                        #   or "over"
      "group_size": 0,                  # "tile" phase: size of the group just scored
      "last": null,                     # the turn being played, or the last one finished:
                                        #   {"seat": 0, "card": 27, "discarded": false,
                                        #    "rotation": 0, "x": 2, "y": 0,
                                        #    "temple": [3, 1] | null,
                                        #    "temple_from": [0, 0] | null,
                                        #    "tile": {"column": 1, "slot": 2,
                                        #             "kind": "queen"} | null,
                                        #    "drew_hidden": false, "missing": 0}
      "turns_played": 0                 # finished turns in the whole game
    }

Cards are the spec's H01..H60 as ints 1..60 (`data.CARDS`); tile kinds are the names in
`data.TILE_KINDS`. A discarded card (§2.9) leaves the game, so it appears nowhere.

To score a hand-written position only `players` and `tiles` are needed:
`ENGINE.scores(ENGINE.load({"players": 2, "tiles": [{"open": [...]}, {"open": [...]}]}))`.
Missing keys default to: an empty deck, display and supply, every garden the start card,
an empty tile display, no tiles, start 0, round 1, turn 0, group_size 0, no last turn,
turns_played 0, and phase "over" when the deck and the display are empty, else "place".
Inside a tiles entry, "open", "hidden" and "missing" default to empty and 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engines.hanging_gardens import data
from games.engines.hanging_gardens.garden import Garden
from games.engines.hanging_gardens.grid import in_bounds, pack, unpack
from games.engines.records import replacer

PLACE = "place"
TEMPLE = "temple"
TILE = "tile"
OVER = "over"
PHASES = (PLACE, TEMPLE, TILE, OVER)

SLOTS = data.COLUMNS * data.SLOTS_PER_COLUMN


def slot_index(column: int, slot: int) -> int:
    """Index into `tile_display` of a 1-based column and slot (1 top, 2 bottom)."""
    return (column - 1) * data.SLOTS_PER_COLUMN + (slot - 1)


@dataclass(frozen=True, slots=True)
class Turn:
    """What one turn did, for the turn flow (the placed card) and for marking it."""

    seat: int
    card: int
    discarded: bool = False
    rotation: int = 0
    x: int = 0
    y: int = 0
    temple: int | None = None
    temple_from: int | None = None
    tile: tuple[int, int, str] | None = None
    drew_hidden: bool = False
    missing: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "card": self.card,
            "discarded": self.discarded,
            "rotation": None if self.discarded else self.rotation,
            "x": None if self.discarded else self.x,
            "y": None if self.discarded else self.y,
            "temple": None if self.temple is None else list(unpack(self.temple)),
            "temple_from": None if self.temple_from is None else list(unpack(self.temple_from)),
            "tile": (
                None
                if self.tile is None
                else {"column": self.tile[0], "slot": self.tile[1], "kind": self.tile[2]}
            ),
            "drew_hidden": self.drew_hidden,
            "missing": self.missing,
        }

    @classmethod
    def from_json(cls, payload: dict[str, Any]) -> Turn:
        discarded = bool(payload.get("discarded", False))
        tile = payload.get("tile")
        card = int(payload["card"])
        if card not in data.CARDS:
            raise ValueError(f"Unknown card {card!r}.")
        return cls(
            seat=int(payload["seat"]),
            card=card,
            discarded=discarded,
            rotation=0 if discarded else int(payload["rotation"]) % data.ROTATIONS,
            x=0 if discarded else int(payload["x"]),
            y=0 if discarded else int(payload["y"]),
            temple=_cell(payload.get("temple")),
            temple_from=_cell(payload.get("temple_from")),
            tile=(
                None
                if tile is None
                else (int(tile["column"]), int(tile["slot"]), _kind(tile["kind"]))
            ),
            drew_hidden=bool(payload.get("drew_hidden", False)),
            missing=int(payload.get("missing", 0)),
        )


def _cell(value: Any) -> int | None:
    if value is None:
        return None
    x, y = int(value[0]), int(value[1])
    if not in_bounds(x, y):
        raise ValueError(f"Cell ({x}, {y}) is too far out.")
    return pack(x, y)


def _kind(value: Any) -> str:
    if value not in data.TILE_KINDS:
        raise ValueError(f"Unknown point tile {value!r}.")
    return str(value)


@dataclass(frozen=True, slots=True)
class State:
    players: int
    deck: tuple[int, ...]
    display: tuple[int, ...]
    gardens: tuple[Garden, ...]
    supply: tuple[str, ...]
    tile_display: tuple[str | None, ...]
    open_tiles: tuple[tuple[str, ...], ...]
    hidden_tiles: tuple[tuple[str, ...], ...]
    missing: tuple[int, ...]
    start: int
    round: int
    turn: int
    phase: str
    group_size: int
    last: Turn | None
    turns_played: int

    @property
    def current(self) -> int:
        return (self.start + self.turn) % self.players

    @property
    def cards_per_round(self) -> int:
        return data.CARDS_PER_ROUND.get(self.players, self.players)


# `dataclasses.replace` of a state or a turn, without its checks and `__init__`: bots build
# hundreds of thousands of states a search.
evolve = replacer(State)
evolve_turn = replacer(Turn)


def dump(state: State) -> dict[str, Any]:
    per_column = data.SLOTS_PER_COLUMN
    return {
        "players": state.players,
        "deck": list(state.deck),
        "display": list(state.display),
        "gardens": [garden.to_json() for garden in state.gardens],
        "supply": list(state.supply),
        "tile_display": [
            list(state.tile_display[c * per_column : (c + 1) * per_column])
            for c in range(data.COLUMNS)
        ],
        "tiles": [
            {"open": list(open_), "hidden": list(hidden), "missing": missing}
            for open_, hidden, missing in zip(
                state.open_tiles, state.hidden_tiles, state.missing, strict=True
            )
        ],
        "start": state.start,
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "group_size": state.group_size,
        "last": None if state.last is None else state.last.to_json(),
        "turns_played": state.turns_played,
    }


def load(payload: dict[str, Any]) -> State:
    players = int(payload["players"])
    if players < 1:
        raise ValueError("A game needs at least one player.")
    deck = tuple(_card(c) for c in payload.get("deck", ()))
    display = tuple(_card(c) for c in payload.get("display", ()))
    if "gardens" in payload:
        gardens = tuple(Garden.from_json(g) for g in payload["gardens"])
    else:
        gardens = tuple(Garden.starting() for _ in range(players))
    tiles = payload.get("tiles", [{} for _ in range(players)])
    if len(gardens) != players or len(tiles) != players:
        raise ValueError("'gardens' and 'tiles' need one entry per player.")
    tile_display = _tile_display(payload.get("tile_display"))
    default_phase = OVER if not deck and not display else PLACE
    phase = payload.get("phase", default_phase)
    if phase not in PHASES:
        raise ValueError(f"Unknown phase {phase!r}.")
    last = payload.get("last")
    group_size = int(payload.get("group_size", 0))
    if (phase == TILE) != (group_size >= data.MIN_GROUP):
        raise ValueError("'group_size' is the scored group's size exactly in the tile phase.")
    if phase in (TEMPLE, TILE) and (last is None or last.get("discarded")):
        raise ValueError("The temple and tile phases follow a card placed this turn.")
    start = int(payload.get("start", data.FIRST_START_PLAYER))
    if not 0 <= start < players:
        raise ValueError(f"No seat {start} to start.")
    return State(
        players=players,
        deck=deck,
        display=display,
        gardens=gardens,
        supply=tuple(_kind(k) for k in payload.get("supply", ())),
        tile_display=tile_display,
        open_tiles=tuple(tuple(_kind(k) for k in t.get("open", ())) for t in tiles),
        hidden_tiles=tuple(tuple(_kind(k) for k in t.get("hidden", ())) for t in tiles),
        missing=tuple(int(t.get("missing", 0)) for t in tiles),
        start=start,
        round=int(payload.get("round", 1)),
        turn=int(payload.get("turn", 0)),
        phase=phase,
        group_size=group_size,
        last=None if last is None else Turn.from_json(last),
        turns_played=int(payload.get("turns_played", 0)),
    )


def _card(value: Any) -> int:
    if type(value) is not int or value not in data.CARDS:
        raise ValueError(f"Unknown building card {value!r}.")
    return value


def _tile_display(columns: Any) -> tuple[str | None, ...]:
    if columns is None:
        return (None,) * SLOTS
    if len(columns) != data.COLUMNS or any(len(c) != data.SLOTS_PER_COLUMN for c in columns):
        raise ValueError("'tile_display' is three columns of two slots.")
    return tuple(None if kind is None else _kind(kind) for column in columns for kind in column)
