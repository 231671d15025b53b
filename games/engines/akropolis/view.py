"""What one seat (or a spectator) may see of an Akropolis game, and its inverse for bots.

Spec §5: everything is public except the face-down stacks. The view says how many
stacks and face-down tiles remain, never which tiles they hold or in what order (not
even their ids). Covered hexes are public, so cities are shown with their full stacks.

View JSON (`ENGINE.view(state, seat)`; `seat` is null for a spectator)::

    {
      "game": "akropolis",
      "seat": 0,                        # whose view this is, or null
      "players": 2,
      "options": {"variants": [...], "long_game": false,
                  "lake_counts_as_edge": false, "lake_is_enclosed_region": false},
      "phase": "take",                  # "take" | "place" | "over"
      "is_over": false,
      "round": 1, "rounds_total": 12,   # a round starts at each refill of the site
      "turn": 1, "turns_total": 36,     # 1-based turn being played (at the end: turns played)
      "chief": 0,                       # seat holding the Chief Architect marker
      "current": 0,                     # seat to play, null when the game is over
      "to_move": [0],                   # [] when the game is over
      "stones": [1, 2],                 # per seat
      "site": [                         # the construction site, free end first
        {"index": 0, "tile": 12, "hexes": "mhq", "cost": 0}, ...
      ],
      "taken": null,                    # place phase: {"tile": 12, "hexes": "mhq"}
      "stacks_left": 11, "stack_size": 3, "face_down_tiles": 33,
      "cities": [                       # per seat, positions sorted by (q, r)
        [
          {"q": 0, "r": 0, "level": 1, "top": "H",
           "stack": [{"hex": "H", "tile": 0}]},        # bottom first; tile 0 = start
          ...
        ],
        ...
      ],
      "scores": {"totals": [...], "breakdown": [...], "ranking": [...], "winners": [...],
                 "measures": [{"house": {"value": 4, "stars": 3}, ...}, ...]},
      "legal": {                        # what `seat` may do now (empty lists otherwise)
        "take": [0, 1],                 # affordable site indices
        "place": [                      # place phase: every legal placement of "taken"
          {"q": 1, "r": 1, "rotation": 0, "level": 1,
           "hexes": [{"q": 1, "r": 1, "hex": "m"}, {"q": 2, "r": 1, "hex": "h"},
                     {"q": 1, "r": 2, "hex": "q"}]},
          ...
        ]
      },
      "geometry": {                     # spec §4, to draw tiles and previews
        "directions": [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]],
        "rotations": [[[0, 0], [1, 0], [0, 1]], ...],   # offsets of A, B, C for k = 0..5
        "hex_names": {"q": "quarry", "h": "house", ..., "G": "garden_plaza"},
        "plaza_stars": {"H": 1, "M": 2, "B": 2, "T": 2, "G": 3}
      }
    }

Hex codes: `q` quarry; `h m b t g` districts (house, market, barracks, temple, garden);
`H M B T G` plazas. Axial coordinates, flat-topped hexes: the centre of (q, r) is at
x = 1.5 q, y = sqrt(3) (r + q / 2) in hex radii, y pointing down; never mirror the picture.
A placement puts hex A of the tile at (q, r), B and C at the rotated offsets.

The move dicts are `{"type": "take_tile", "index": i}` and
`{"type": "place_tile", "q": q, "r": r, "rotation": k}`; the entries of `legal`
carry the same numbers.
"""

from __future__ import annotations

from typing import Any

from games.engines.akropolis import data, hexes, placement, scoring
from games.engines.akropolis.state import OVER, PLACE, TAKE, City, Options, State
from games.engines.base import Rng


def _geometry() -> dict[str, Any]:
    # Built afresh for every view, so a caller that edits one view cannot change the next.
    return {
        "directions": [list(d) for d in hexes.DIRECTIONS],
        "rotations": [[list(offset) for offset in shape] for shape in hexes.ROTATED_SHAPES],
        "hex_names": dict(data.HEX_NAMES),
        "plaza_stars": dict(data.PLAZA_STARS),
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    size = state.players + 1
    rounds_total = state.round + len(state.stacks)
    over = state.phase == OVER
    return {
        "game": "akropolis",
        "seat": seat,
        "players": state.players,
        "options": state.options.to_dict(),
        "phase": state.phase,
        "is_over": over,
        "round": state.round,
        "rounds_total": rounds_total,
        "turn": state.turns_played if over else state.turns_played + 1,
        "turns_total": state.turns_played + _turns_left(state),
        "chief": state.chief,
        "current": None if over else state.current,
        "to_move": [] if over else [state.current],
        "stones": list(state.stones),
        "site": [
            {"index": i, "tile": tile, "hexes": data.TILES[tile][1], "cost": i}
            for i, tile in enumerate(state.site)
        ],
        "taken": (
            None
            if state.taken is None
            else {"tile": state.taken, "hexes": data.TILES[state.taken][1]}
        ),
        "stacks_left": len(state.stacks),
        "stack_size": size,
        "face_down_tiles": sum(len(stack) for stack in state.stacks),
        "cities": [_city(city) for city in state.cities],
        "scores": scoring.scores(state),
        "legal": _legal(state, seat),
        "geometry": _geometry(),
    }


def _turns_left(state: State) -> int:
    # §2.5: a round is N+1 turns; the current round ends when one site tile remains.
    if state.phase == OVER:
        return 0
    in_round = len(state.site) - 1 + (1 if state.phase == PLACE else 0)
    return in_round + len(state.stacks) * (state.players + 1)


def _city(city: City) -> list[dict[str, Any]]:
    cells = []
    for cell in city.to_json():
        stack = [{"hex": code, "tile": tile} for code, tile in cell["stack"]]
        cells.append(
            {
                "q": cell["q"],
                "r": cell["r"],
                "level": len(stack),
                "top": stack[-1]["hex"],
                "stack": stack,
            }
        )
    return cells


def _legal(state: State, seat: int | None) -> dict[str, Any]:
    if seat is None or state.phase == OVER or seat != state.current:
        return {"take": [], "place": []}
    if state.phase == TAKE:
        affordable = min(len(state.site), state.stones[seat] + 1)
        return {"take": list(range(affordable)), "place": []}
    assert state.taken is not None
    codes = data.TILES[state.taken][1]
    city = state.cities[seat]
    place = []
    for code in placement.legal_placements(city):
        q, r, k = placement.decode(code)
        anchor = hexes.pack(q, r)
        targets = hexes.targets(anchor, k)
        cells = []
        for pos, hex_code in zip(targets, codes, strict=True):
            cell_q, cell_r = hexes.unpack(pos)
            cells.append({"q": cell_q, "r": cell_r, "hex": hex_code})
        place.append(
            {"q": q, "r": r, "rotation": k, "level": city.height(anchor) + 1, "hexes": cells}
        )
    return {"take": [], "place": place}


def determinize(seen: dict[str, Any], seed: int) -> State:
    """Spec §5: a full state matching a view, with the face-down stacks sampled from `seed`.

    The unseen tiles are the tiles in play that appear nowhere in the view (site, taken
    tile, cities); they are shuffled and dealt into stacks of the view's sizes.
    """
    players = int(seen["players"])
    options = Options.from_dict(seen["options"])
    cities = tuple(
        City.from_json(
            [
                {"q": c["q"], "r": c["r"], "stack": [[h["hex"], h["tile"]] for h in c["stack"]]}
                for c in cells
            ]
        )
        for cells in seen["cities"]
    )
    site = tuple(int(entry["tile"]) for entry in seen["site"])
    taken = None if seen["taken"] is None else int(seen["taken"]["tile"])
    visible = set(site) | {
        tile for city in cities for stack in city.stacks.values() for _, tile in stack
    }
    if taken is not None:
        visible.add(taken)
    unseen = [t for t in data.tiles_in_play(players, options.long_game) if t not in visible]
    size = int(seen["stack_size"])
    count = int(seen["stacks_left"])
    if len(unseen) != size * count:
        raise ValueError(
            f"The view shows {count} stacks of {size} but {len(unseen)} tiles are unseen."
        )
    shuffled, _ = Rng.from_seed(seed).shuffle(unseen)
    over = seen["phase"] == OVER
    return State(
        players=players,
        options=options,
        stones=tuple(int(s) for s in seen["stones"]),
        cities=cities,
        site=site,
        stacks=tuple(shuffled[i * size : (i + 1) * size] for i in range(count)),
        chief=int(seen["chief"]),
        current=int(seen["current"]) if not over else _last_player(seen),
        phase=seen["phase"],
        taken=taken,
        round=int(seen["round"]),
        turns_played=int(seen["turn"]) if over else int(seen["turn"]) - 1,
    )


def _last_player(seen: dict[str, Any]) -> int:
    # When the game is over the view shows no current seat; the state keeps the seat
    # that played the last turn, which is the last Chief Architect (§2.5).
    return int(seen["chief"])
