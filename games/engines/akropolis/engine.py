"""Akropolis turn flow (spec §2.2-§2.5): setup, taking and placing tiles, refills, end."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engines.akropolis import data, hexes, placement, scoring, state, view
from games.engines.akropolis.state import OVER, PLACE, TAKE, City, Options, State
from games.engines.base import EngineDefaults, IllegalMove, Rng, move_type, require_integers

# Move types (DESIGN: a turn with several steps is several moves).
TAKE_TILE = "take_tile"
PLACE_TILE = "place_tile"
MOVE_TYPES = (TAKE_TILE, PLACE_TILE)
_MOVE_KEYS = {TAKE_TILE: ("index",), PLACE_TILE: ("q", "r", "rotation")}
_PHASE_OF_MOVE = {TAKE_TILE: TAKE, PLACE_TILE: PLACE}


class Akropolis(EngineDefaults):
    slug = "akropolis"
    name = "Akropolis"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    move_types = MOVE_TYPES

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        if type(players) is not int or not data.MIN_PLAYERS <= players <= data.MAX_PLAYERS:
            raise ValueError(
                f"Akropolis is for {data.MIN_PLAYERS} to {data.MAX_PLAYERS} players, "
                f"not {players!r}."
            )
        opts = Options.from_dict(options)
        if opts.long_game and players not in data.LONG_GAME_PLAYER_COUNTS:
            raise ValueError("The long game is only for 2 or 3 players.")
        # §2.2: shuffle the tiles in play, deal stacks of N+1, lay the last N+2 face up.
        tiles, _ = Rng.from_seed(seed).shuffle(data.tiles_in_play(players, opts.long_game))
        size = players + 1
        count = data.STACKS[(players, opts.long_game)]
        stacks = tuple(tiles[i * size : (i + 1) * size] for i in range(count))
        site = tiles[count * size :]
        return State(
            players=players,
            options=opts,
            stones=data.STARTING_STONES_BY_SEAT[:players],
            cities=tuple(City.starting() for _ in range(players)),
            site=site,
            stacks=stacks,
            chief=data.FIRST_CHIEF_SEAT,
            current=data.FIRST_CHIEF_SEAT,
            phase=TAKE,
            taken=None,
            round=1,
            turns_played=0,
        )

    def to_move(self, s: State) -> list[int]:
        return [] if s.phase == OVER else [s.current]

    def is_over(self, s: State) -> bool:
        return s.phase == OVER

    def legal_moves(self, s: State, seat: int) -> list[dict[str, Any]]:
        if s.phase == OVER or seat != s.current:
            return []
        if s.phase == TAKE:
            return [{"type": TAKE_TILE, "index": i} for i in affordable_indices(s)]
        # Placements are ints `anchor * 8 + k` with anchors packed as in `hexes.pack`;
        # WIDTH is a power of two, so shifts and masks decode them.
        off, shift, mask = hexes.OFFSET, hexes.WIDTH_BITS + 3, hexes.WIDTH - 1
        return [
            {
                "type": PLACE_TILE,
                "q": (c >> shift) - off,
                "r": ((c >> 3) & mask) - off,
                "rotation": c & 7,
            }
            for c in placement.legal_placements(s.cities[seat])
        ]

    def apply_move(self, s: State, seat: int, move: dict[str, Any]) -> State:
        kind = _check_shape(move)
        if s.phase == OVER:
            raise IllegalMove("game_over", "The game is over.")
        if seat != s.current:
            raise IllegalMove("not_your_turn", "It is not this seat's turn.", seat=seat)
        if _PHASE_OF_MOVE[kind] != s.phase:
            raise IllegalMove(
                "wrong_phase",
                f"Now is the time to {'take a tile' if s.phase == TAKE else 'place a tile'}.",
                phase=s.phase,
            )
        if kind == TAKE_TILE:
            return _take(s, move["index"])
        return _place(s, move["q"], move["r"], move["rotation"])

    def scores(self, s: State) -> dict[str, Any]:
        return scoring.scores(s)

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        return view.view(s, seat)

    def dump(self, s: State) -> dict[str, Any]:
        return state.dump(s)

    def load(self, payload: dict[str, Any]) -> State:
        return state.load(payload)

    def determinize(self, seen: dict[str, Any], seat: int | None, seed: int) -> State:
        return view.determinize(seen, seed)


def affordable_indices(s: State) -> range:
    # §2.3 step 1: the tile at index i costs i stones.
    return range(min(len(s.site), s.stones[s.current] + 1))


def _check_shape(move: Any) -> str:
    kind = move_type(move, _MOVE_KEYS)
    require_integers(move, _MOVE_KEYS[kind])
    return str(kind)


def _take(s: State, index: int) -> State:
    if not 0 <= index < len(s.site):
        raise IllegalMove(
            "no_such_tile",
            f"The construction site has no tile at index {index}.",
            index=index,
            size=len(s.site),
        )
    if index > s.stones[s.current]:
        raise IllegalMove(
            "not_enough_stones",
            f"That tile costs {index} stones; you have {s.stones[s.current]}.",
            cost=index,
            stones=s.stones[s.current],
        )
    # §2.3 steps 1-2: pay one stone per tile before it; later tiles close the gap (A11).
    stones = list(s.stones)
    stones[s.current] -= index
    return replace(
        s,
        stones=tuple(stones),
        site=s.site[:index] + s.site[index + 1 :],
        phase=PLACE,
        taken=s.site[index],
    )


def _place(s: State, q: int, r: int, rotation: int) -> State:
    if not 0 <= rotation < 6:
        raise IllegalMove("bad_move", "'rotation' must be 0 to 5.", rotation=rotation)
    if not hexes.in_range(q, r):
        raise IllegalMove(
            "not_touching", "A tile laid on the table must share an edge with the city."
        )
    if s.taken is None:
        raise IllegalMove("wrong_phase", "There is no tile to place.")
    anchor = hexes.pack(q, r)
    city = s.cities[s.current]
    placement.check_placement(city, anchor, rotation)
    new_city, quarries = placement.place(city, s.taken, anchor, rotation)
    # §2.3 step 4: one stone per quarry covered, after the payment (A10).
    stones = list(s.stones)
    stones[s.current] += quarries
    cities = list(s.cities)
    cities[s.current] = new_city
    s = replace(
        s,
        stones=tuple(stones),
        cities=tuple(cities),
        taken=None,
        turns_played=s.turns_played + 1,
    )
    return _end_turn(s)


def _end_turn(s: State) -> State:
    # §2.5: next seat clockwise; with one tile left, refill and pass the marker; with one
    # tile left and no stacks, the game ends and that tile is never used.
    if len(s.site) >= 2:
        return replace(s, phase=TAKE, current=(s.current + 1) % s.players)
    if s.stacks:
        chief = (s.chief + 1) % s.players
        return replace(
            s,
            phase=TAKE,
            site=s.site + s.stacks[0],
            stacks=s.stacks[1:],
            chief=chief,
            current=chief,
            round=s.round + 1,
        )
    return replace(s, phase=OVER)
