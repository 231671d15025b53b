"""What one seat (or a spectator) may see of a Hanging Gardens game, and its inverse for bots.

Spec §5: the order of the building deck and of the face-down point tiles is secret (their
contents and sizes are not: the remaining cards are a public list, and the unseen tiles are
all tiles not in sight); a tile drawn face down for a group of 6+ is seen by its owner only,
the others see how many such tiles a player has. Tiles taken from the face-up display are
public (Yucata). During play each viewer's scores count only the tiles it can see; when the
game is over every tile is revealed.

View JSON (`ENGINE.view(state, seat)`; `seat` is null for a spectator)::

    {
      "game": "hanging-gardens",
      "seat": 0, "players": 2,
      "phase": "place",                 # "place" | "temple" | "tile" | "over"
      "is_over": false,
      "round": 1, "rounds_total": 15,
      "turn_in_round": 0,               # finished turns of this round
      "turns_played": 0, "turns_total": 60,
      "start": 0,                       # seat holding the start player flower
      "current": 0, "to_move": [0],     # null and [] when the game is over
      "display": [{"card": 27, "label": "H27",
                   "rotations": [["T.", "P.", ".."], ["..T"...], ...]}],   # k = 0..3
      "deck_count": 56, "deck_cards": [1, 2, 4, ...],   # the remaining cards, sorted
      "supply_count": 43,               # face-down point tiles
      "tile_display": [["king", "tiger"], ["gate", null], ["chalice", "queen"]],
      "gardens": [{"x": 0, "y": 0, "rows": ["..", "..", ".."], "temples": [[x, y], ...],
                   "temples_left": 5}, ...],         # as in the state JSON
      "tiles": [{"open": ["queen"], "hidden": ["tiger"] | null, "hidden_count": 1,
                 "missing": 0}, ...],   # "hidden" is null for tiles this viewer cannot see
      "unseen_tiles": {"queen": 3, ...},   # per kind: supply plus hidden tiles not in sight
      "group_size": 0,                  # tile phase: the scored group's size
      "last": null,                     # the current or last turn, as in the state JSON
      "scores": {"totals", "breakdown", "ranking", "winners", "tiles",
                 "measures": [{"garden": {"tiles": 5}, "guard": {"gates": 2}, ...}, ...],
                 "complete": bool},     # false while some hidden tile is not counted
      "legal": {                        # what `seat` may do now (empty lists otherwise)
        "place": [{"card": 27, "placements": [[rotation, x, y], ...]}, ...],
        "discard": [27, ...],
        "groups": [{"size": 4, "cells": [[x, y], ...]}, ...],  # eligible groups
        "move_from": [[x, y], ...],     # temples that may move (all five in use)
        "tiles": [[column, slot], ...]
      }
    }

Move dicts: `{"type": "place_card", "card", "rotation", "x", "y"}`,
`{"type": "discard_card", "card"}`, `{"type": "place_temple", "x", "y"}`,
`{"type": "move_temple", "x", "y", "from_x", "from_y"}`, `{"type": "skip_scoring"}`,
`{"type": "take_tile", "column", "slot"}`; the entries of `legal` carry the same numbers.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engines.base import Rng
from games.engines.hanging_gardens import data, garden, scoring
from games.engines.hanging_gardens.garden import Garden
from games.engines.hanging_gardens.grid import SHAPES, unpack
from games.engines.hanging_gardens.state import OVER, PLACE, TEMPLE, TILE, State, Turn, dump
from games.engines.hanging_gardens.steps import eligible, takeable_slots

ALL_TILES: Counter[str] = Counter(data.TILE_COUNTS)


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state.phase == OVER
    payload = dump(state)
    per_round = state.cards_per_round
    turns_left = 0 if over else per_round - state.turn + len(state.deck)
    return {
        "game": "hanging-gardens",
        "seat": seat,
        "players": state.players,
        "phase": state.phase,
        "is_over": over,
        "round": state.round,
        "rounds_total": state.round + (0 if over else len(state.deck) // per_round),
        "turn_in_round": state.turn,
        "turns_played": state.turns_played,
        "turns_total": state.turns_played + turns_left,
        "start": state.start,
        "current": None if over else state.current,
        "to_move": [] if over else [state.current],
        "display": [
            {
                "card": card,
                "label": data.card_label(card),
                "rotations": [list(shape.rows) for shape in SHAPES[card]],
            }
            for card in state.display
        ],
        "deck_count": len(state.deck),
        "deck_cards": sorted(state.deck),
        "supply_count": len(state.supply),
        "tile_display": payload["tile_display"],
        "gardens": [
            {**g, "temples_left": own.temples_left}
            for g, own in zip(payload["gardens"], state.gardens, strict=True)
        ],
        "tiles": [_tiles(state, s, seat) for s in range(state.players)],
        "unseen_tiles": _unseen(state, seat),
        "group_size": state.group_size,
        "last": payload["last"],
        "scores": _scores(state, seat),
        "legal": _legal(state, seat),
    }


def _sees_hidden(state: State, owner: int, seat: int | None) -> bool:
    return state.phase == OVER or owner == seat


def _tiles(state: State, owner: int, seat: int | None) -> dict[str, Any]:
    hidden = state.hidden_tiles[owner]
    return {
        "open": list(state.open_tiles[owner]),
        "hidden": list(hidden) if _sees_hidden(state, owner, seat) else None,
        "hidden_count": len(hidden),
        "missing": state.missing[owner],
    }


def _unseen(state: State, seat: int | None) -> dict[str, int]:
    """Spec §5 "possible remaining tiles": all tiles minus those this viewer can see."""
    seen: Counter[str] = Counter(k for k in state.tile_display if k is not None)
    for owner in range(state.players):
        seen.update(state.open_tiles[owner])
        if _sees_hidden(state, owner, seat):
            seen.update(state.hidden_tiles[owner])
    return {kind: ALL_TILES[kind] - seen[kind] for kind in data.TILE_KINDS}


def _scores(state: State, seat: int | None) -> dict[str, Any]:
    if state.phase == OVER:
        return {**scoring.scores(state), "complete": True}
    held = [
        state.open_tiles[s] + (state.hidden_tiles[s] if s == seat else ())
        for s in range(state.players)
    ]
    parts = [scoring.breakdown(t, m) for t, m in zip(held, state.missing, strict=True)]
    totals = [sum(p.values()) for p in parts]
    # Hidden tiles count for the tie-break even when their kinds are unknown.
    counts = [len(state.open_tiles[s]) + len(state.hidden_tiles[s]) for s in range(state.players)]
    ranking, winners = scoring.rank(totals, counts)
    complete = all(not state.hidden_tiles[s] for s in range(state.players) if s != seat)
    return {
        "totals": totals,
        "breakdown": parts,
        "ranking": ranking,
        "winners": winners,
        "tiles": counts,
        "measures": [scoring.measures(t, m) for t, m in zip(held, state.missing, strict=True)],
        "complete": complete,
    }


def _legal(state: State, seat: int | None) -> dict[str, Any]:
    legal: dict[str, Any] = {"place": [], "discard": [], "groups": [], "move_from": [], "tiles": []}
    if seat is None or state.phase == OVER or seat != state.current:
        return legal
    own = state.gardens[seat]
    if state.phase == PLACE:
        for card in state.display:
            placements = [
                [shape.rotation, *unpack(anchor)]
                for shape in SHAPES[card]
                for anchor in garden.anchors(own, shape)
            ]
            legal["place"].append({"card": card, "placements": placements})
        if not any(entry["placements"] for entry in legal["place"]):
            legal["place"] = []
            legal["discard"] = list(state.display)
    elif state.phase == TEMPLE:
        legal["groups"] = [
            {"size": len(g), "cells": [list(unpack(c)) for c in sorted(g)]} for g in eligible(state)
        ]
        if not own.temples_left:
            legal["move_from"] = [list(unpack(t)) for t in garden.relocatable(own)]
    elif state.phase == TILE:
        legal["tiles"] = [list(slot) for slot in takeable_slots(state)]
    return legal


def determinize(seen: dict[str, Any], seat: int | None, seed: int) -> State:
    """A full state matching `seen` (the view of `seat`), the hidden parts drawn from `seed`.

    The deck order is a shuffle of the public list of remaining cards. The unseen tiles are
    shuffled; the other players' face-down tiles are dealt from them first (as many as
    each holds), the rest make the face-down supply.
    """
    rng = Rng.from_seed(seed)
    deck, rng = rng.shuffle([int(c) for c in seen["deck_cards"]])
    pool = [kind for kind in data.TILE_KINDS for _ in range(int(seen["unseen_tiles"][kind]))]
    shuffled, _ = rng.shuffle(pool)
    rest = list(shuffled)
    hidden: list[tuple[str, ...]] = []
    for entry in seen["tiles"]:
        if entry["hidden"] is not None:
            hidden.append(tuple(entry["hidden"]))
        else:
            count = int(entry["hidden_count"])
            hidden.append(tuple(rest[:count]))
            rest = rest[count:]
    if len(rest) != int(seen["supply_count"]):
        raise ValueError(
            f"The view shows {seen['supply_count']} face-down tiles but {len(rest)} are unseen."
        )
    columns = seen["tile_display"]
    return State(
        players=int(seen["players"]),
        deck=deck,
        display=tuple(int(entry["card"]) for entry in seen["display"]),
        gardens=tuple(Garden.from_json(g) for g in seen["gardens"]),
        supply=tuple(rest),
        tile_display=tuple(kind for column in columns for kind in column),
        open_tiles=tuple(tuple(entry["open"]) for entry in seen["tiles"]),
        hidden_tiles=tuple(hidden),
        missing=tuple(int(entry["missing"]) for entry in seen["tiles"]),
        start=int(seen["start"]),
        round=int(seen["round"]),
        turn=int(seen["turn_in_round"]),
        phase=str(seen["phase"]),
        group_size=int(seen["group_size"]),
        last=None if seen["last"] is None else Turn.from_json(seen["last"]),
        turns_played=int(seen["turns_played"]),
    )
