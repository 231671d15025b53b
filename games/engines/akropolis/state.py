"""Akropolis state: immutable values, and their JSON form (`dump` / `load`).

State JSON (what `ENGINE.dump` returns and `ENGINE.load` accepts)::

    {
      "players": 2,                       # N, 2..4; seats are 0..N-1 clockwise
      "options": {                        # see `Options`; every key optional in `load`
        "variants": ["markets"],          # subset of houses, markets, barracks, temples, gardens
        "long_game": false,               # 2 or 3 players only
        "lake_counts_as_edge": false,     # spec A4/A6
        "lake_is_enclosed_region": false  # spec A5
      },
      "stones": [1, 2],                   # stones held, per seat
      "cities": [                         # per seat: every occupied position
        [
          {"q": 0, "r": 0, "stack": [["H", 0]]},           # [hex code, tile id], bottom first
          {"q": 1, "r": 0, "stack": [["q", 0], ["h", 19]]}, # level = stack length
          ...
        ],
        ...
      ],
      "site": [12, 5, 33, 7],             # face-up tile ids; index 0 is the free end
      "stacks": [[3, 17, 29], ...],       # face-down stacks, next stack first, top tile first
      "chief": 0,                         # seat holding the Chief Architect marker
      "current": 0,                       # seat whose turn it is
      "phase": "take",                    # "take" (choose a site tile), "place", or "over"
      "taken": null,                      # in the place phase: the id of the tile to place
      "round": 1,                         # 1-based; a round starts at every refill
      "turns_played": 0                   # completed turns in the whole game
    }

Hex codes are those of `data.py` (`q`, `h m b t g`, `H M B T G`). Tile ids are the
spec's 1..61; every hex of a city's starting tile carries tile id 0. Each hex of a
city tile records the tile it belongs to, which the two-tiles support rule needs.

`dump` lists positions sorted by (q, r), so equal states dump to equal JSON.

To score a hand-written position, only `players`, `stones` and `cities` are required:
`ENGINE.scores(ENGINE.load({"players": 1, "stones": [4], "cities": [[...]]}))`
(any player count from 1 works for scoring). Missing keys default to: default options,
an empty site, no stacks, chief and current 0, round 1, turns_played 0, `taken` null,
and `phase` "over" when the site holds at most one tile and no stacks remain, else
"take".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engines.akropolis import data, hexes

# Phases of a turn: choose a tile from the site, then place it (spec §2.3).
TAKE = "take"
PLACE = "place"
OVER = "over"
PHASES = (TAKE, PLACE, OVER)

Stack = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Options:
    variants: tuple[str, ...] = ()
    long_game: bool = False
    lake_counts_as_edge: bool = False
    lake_is_enclosed_region: bool = False

    @classmethod
    def from_dict(cls, options: dict[str, Any] | None) -> Options:
        """Validate host options; raise ValueError with a readable message when they are bad."""
        if options is None:
            return cls()
        if not isinstance(options, dict):
            raise ValueError("Options must be a JSON object.")
        unknown = sorted(set(options) - set(data.DEFAULT_OPTIONS))
        if unknown:
            raise ValueError(
                f"Unknown option(s) {unknown}; allowed: {sorted(data.DEFAULT_OPTIONS)}."
            )
        variants = options.get("variants", [])
        if not isinstance(variants, (list, tuple)) or not all(isinstance(v, str) for v in variants):
            raise ValueError("Option 'variants' must be a list of variant names.")
        bad = [v for v in variants if v not in data.VARIANTS]
        if bad:
            raise ValueError(f"Unknown variant(s) {bad}; allowed: {list(data.VARIANTS)}.")
        if len(set(variants)) != len(variants):
            raise ValueError("Option 'variants' lists a variant more than once.")
        flags = {}
        for name in ("long_game", "lake_counts_as_edge", "lake_is_enclosed_region"):
            value = options.get(name, False)
            if not isinstance(value, bool):
                raise ValueError(f"Option {name!r} must be true or false.")
            flags[name] = value
        ordered = tuple(v for v in data.VARIANTS if v in variants)
        return cls(variants=ordered, **flags)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variants": list(self.variants),
            "long_game": self.long_game,
            "lake_counts_as_edge": self.lake_counts_as_edge,
            "lake_is_enclosed_region": self.lake_is_enclosed_region,
        }


@dataclass(frozen=True, slots=True)
class City:
    """One player's city: packed position -> stack of (hex code, tile id), bottom first.

    The dict is never mutated after construction; placing a tile builds a new City.
    `placements` caches the legal placements (encoded as `placement.legal_placements`
    says). They depend only on the city, never on the tile being placed, so they are
    computed once per city. `scoring` caches the city's district values and plaza stars
    with the options they were counted under (`scoring.city_scoring`): a move's views
    (the bot's, and the spectator's before and after) score the same cities again, and a
    move changes at most one city.
    """

    stacks: dict[int, Stack]
    placements: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    scoring: tuple[Options, dict[str, int], dict[str, int]] | None = field(
        default=None, compare=False, repr=False
    )

    @classmethod
    def starting(cls) -> City:
        """Spec §3.2: the starting tile at the origin, one shared tile id."""
        return cls(
            {hexes.pack(q, r): ((code, data.START_TILE_ID),) for q, r, code in data.START_TILE}
        )

    def height(self, pos: int) -> int:
        return len(self.stacks.get(pos, ()))

    def top(self) -> dict[int, tuple[str, int]]:
        """Visible hexes: packed position -> (hex code, level)."""
        return {pos: (stack[-1][0], len(stack)) for pos, stack in self.stacks.items()}

    def to_json(self) -> list[dict[str, Any]]:
        cells = []
        for pos, stack in self.stacks.items():
            q, r = hexes.unpack(pos)
            cells.append({"q": q, "r": r, "stack": [[code, tile] for code, tile in stack]})
        cells.sort(key=lambda c: (c["q"], c["r"]))
        return cells

    @classmethod
    def from_json(cls, cells: list[dict[str, Any]]) -> City:
        stacks: dict[int, Stack] = {}
        for cell in cells:
            q, r = int(cell["q"]), int(cell["r"])
            if not hexes.in_range(q, r):
                raise ValueError(f"Position ({q}, {r}) is too far from the origin.")
            stack = tuple((str(code), int(tile)) for code, tile in cell["stack"])
            for code, _ in stack:
                if code not in data.HEX_CODES:
                    raise ValueError(f"Unknown hex code {code!r} at ({q}, {r}).")
            if stack:
                stacks[hexes.pack(q, r)] = stack
        return cls(stacks)


@dataclass(frozen=True, slots=True)
class State:
    players: int
    options: Options
    stones: tuple[int, ...]
    cities: tuple[City, ...]
    site: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    chief: int
    current: int
    phase: str
    taken: int | None
    round: int
    turns_played: int


def dump(state: State) -> dict[str, Any]:
    return {
        "players": state.players,
        "options": state.options.to_dict(),
        "stones": list(state.stones),
        "cities": [city.to_json() for city in state.cities],
        "site": list(state.site),
        "stacks": [list(stack) for stack in state.stacks],
        "chief": state.chief,
        "current": state.current,
        "phase": state.phase,
        "taken": state.taken,
        "round": state.round,
        "turns_played": state.turns_played,
    }


def load(payload: dict[str, Any]) -> State:
    players = int(payload["players"])
    site = tuple(int(t) for t in payload.get("site", ()))
    stacks = tuple(tuple(int(t) for t in stack) for stack in payload.get("stacks", ()))
    default_phase = OVER if len(site) <= 1 and not stacks else TAKE
    phase = payload.get("phase", default_phase)
    if phase not in PHASES:
        raise ValueError(f"Unknown phase {phase!r}.")
    stones = tuple(int(s) for s in payload["stones"])
    cities = tuple(City.from_json(cells) for cells in payload["cities"])
    if len(stones) != players or len(cities) != players:
        raise ValueError("'stones' and 'cities' need one entry per player.")
    taken = payload.get("taken")
    if (phase == PLACE) != (taken is not None):
        raise ValueError("'taken' names a tile exactly when the phase is 'place'.")
    return State(
        players=players,
        options=Options.from_dict(payload.get("options")),
        stones=stones,
        cities=cities,
        site=site,
        stacks=stacks,
        chief=int(payload.get("chief", 0)),
        current=int(payload.get("current", 0)),
        phase=phase,
        taken=None if taken is None else int(taken),
        round=int(payload.get("round", 1)),
        turns_played=int(payload.get("turns_played", 0)),
    )
