"""What one seat (or a spectator) may see of a Babylon game, and its inverse for bots.

Spec §5: the face-down round tokens (their order and which they are) and the tokens
never drawn are hidden from everyone; so are the quarry tiles still covered by another
tile (everyone knows each stack's height, and the layer fixes the material). Everything
else is public, and the view is the same for every seat except `seat`, the pillar yields
(`quarry[].yield`, for the viewing seat) and `legal` (for the seat to move).

View JSON (`ENGINE.view(state, seat)`; `seat` is null for a spectator)::

    {
      "game": "babylon", "seat": 0, "players": 2,
      "flowers": ["orange", "pink"],
      "phase": "build",                  # "remove" | "dig" | "build" | "over"
      "is_over": false,
      "round": 3, "rounds_total": 15,
      "current": 0, "to_move": [0],      # null and [] once the game is over
      "removals": {"done": 6, "order": [0, 1, 0, 1, 0, 1]},
      "quarry": [                        # 16 stacks, row by row (y, then x)
        {"x": 0, "y": 0, "height": 2,
         "top": {"tile": "G05", "material": "granite", "flower": "pink",
                 "fields": "BTF-"} | null,
         "yield": 4 | null},             # single pillars a dig there gives `seat` now
        ...
      ],
      "removed": ["C04", ...], "discarded": [...],
      "tokens_left": 12, "revealed": ["gain_single", "none"], "effect": "none",
      "supply": {"singles": 140, ...},
      "boards": [                        # per seat; tiles and pieces as in the state JSON
        {"flower": "orange", "tiles": [...], "pieces": [...],
         "stored": "S-orange" | null, "singles": 3,
         "surface": [0, 1, ...],         # 64 levels, row by row (0 = bare notch)
         "visible_notches": 60},
        ...
      ],
      "turn": {"taken": "C07" | null, "taken_placed": false, "placed": [3],
               "doubles": 0, "symbol_used": false},
      "scores": {"totals": [...], "breakdown": [...], "ranking": [...],
                 "winners": [...], "visible_notches": [...],
                 "measures": [{"height": {"level": 3}, "flower_sets": {"sets": 1}, ...}]},
      "legal": {                         # what `seat` may do now (empty otherwise)
        "remove": [{"x": x, "y": y}, ...], "dig": [{"x": x, "y": y}, ...],
        "tiles": ["taken", "stored"],    # tiles that may be built now
        "place": [                       # every placement; any tile of "tiles", any rotation
          {"x": 4, "y": 1, "level": 2, "open_corner": 3,
           "supports": ["single", "double", "statue", null],   # by corner
           "singles": 1, "doubles": 1, "exchanges": 1}, ...
        ],
        "decorate": [{"kind": "stairs", "x": 2, "y": 1, "toward": "east",
                      "cells": [[2, 1], [3, 1]]}, ...],
        "set_symbol": [{"x": 3, "y": 1, "symbol": "T"}, ...],
        "end_turn": [{"taken": "store"}, {"taken": "discard"}],
        "blocked": "pillars" | "room" | null  # why no tile of "tiles" can be built:
      }                                   # it is unaffordable everywhere, or has no place
    }
"""

from __future__ import annotations

from typing import Any

from games.engines.babylon import data, decorations, geometry, placement, rules, scoring, state
from games.engines.babylon.moves import decorate_move
from games.engines.babylon.state import DIG, OVER, REMOVE, State, Turn
from games.engines.base import Rng


def view(s: State, seat: int | None) -> dict[str, Any]:
    over = s.phase == OVER
    dumped = state.dump(s)
    return {
        "game": "babylon",
        "seat": seat,
        "players": s.players,
        "flowers": list(s.flowers),
        "phase": s.phase,
        "is_over": over,
        "round": s.round,
        "rounds_total": data.ROUNDS_BY_PLAYERS[s.players],
        "current": None if over else s.current,
        "to_move": [] if over else [s.current],
        "removals": {
            "done": s.removals_done,
            "order": list(data.REMOVAL_ORDER[s.players]),
        },
        "quarry": _quarry(s, seat),
        "removed": list(s.removed),
        "discarded": list(s.discarded),
        "tokens_left": len(s.tokens),
        "revealed": list(s.revealed),
        "effect": s.effect,
        "supply": s.supply.to_dict(),
        "boards": [
            {
                "flower": flower,
                **raw,
                "surface": list(board.surface),
                "visible_notches": scoring.visible_notches(board),
            }
            for flower, raw, board in zip(s.flowers, dumped["boards"], s.boards, strict=True)
        ],
        "turn": dumped["turn"],
        "scores": scoring.scores(s),
        "legal": _legal(s, seat),
    }


def _quarry(s: State, seat: int | None) -> list[dict[str, Any]]:
    heights = s.heights
    entries = []
    for index, stack in enumerate(s.quarry):
        top = None
        dig = None
        if stack:
            tile = stack[-1]
            flower, fields = data.TILES[tile]
            top = {
                "tile": tile,
                "material": data.material(tile),
                "flower": flower,
                "fields": fields,
            }
            if seat is not None:
                earned, extra, _ = rules.dig_yield(s, seat, index)
                dig = earned + extra
        entries.append(
            {
                "x": index % geometry.Q,
                "y": index // geometry.Q,
                "height": heights[index],
                "top": top,
                "yield": dig,
            }
        )
    return entries


def _legal(s: State, seat: int | None) -> dict[str, Any]:
    legal: dict[str, Any] = {
        "remove": [],
        "dig": [],
        "tiles": [],
        "place": [],
        "decorate": [],
        "set_symbol": [],
        "end_turn": [],
        "blocked": None,
    }
    if seat is None or s.phase == OVER or seat != s.current:
        return legal
    if s.phase == REMOVE:
        legal["remove"] = [{"x": x, "y": y} for x, y in rules.clay_stacks(s)]
        return legal
    if s.phase == DIG:
        legal["dig"] = [{"x": x, "y": y} for x, y in rules.dig_stacks(s)]
        return legal
    board = s.boards[seat]
    tiles = rules.placeable_tiles(s)
    legal["tiles"] = tiles
    if tiles:
        legal["place"] = [
            {
                "x": option.x,
                "y": option.y,
                "level": option.level,
                "open_corner": option.open_corner,
                "supports": list(option.supports),
                "singles": option.singles,
                "doubles": option.doubles,
                "exchanges": placement.exchanges_needed(option, s.turn.doubles),
            }
            for option in rules.affordable_options(s)
        ]
        if not legal["place"]:
            # §2.4: either no place lets a tile stand at all, or the seat cannot pay for any
            # (pillars, doubles to exchange, a belvedere for an open corner).
            legal["blocked"] = "pillars" if placement.options(board) else "room"
    legal["decorate"] = [
        {
            "kind": kind,
            "x": move["x"],
            "y": move["y"],
            "toward": move["toward"],
            "cells": [list(geometry.xy(c)) for c in cells],
        }
        for kind, cells in decorations.legal(board, s.turn.placed, s.supply)
        for move in [decorate_move(kind, tuple(geometry.xy(c) for c in cells))]
    ]
    if s.effect in (data.CHANGE_SYMBOL, data.ADD_SYMBOL) and not s.turn.symbol_used:
        legal["set_symbol"] = [
            {"x": c % geometry.SIZE, "y": c // geometry.SIZE, "symbol": symbol}
            for c, symbol in decorations.symbol_targets(board, s.turn.placed, s.effect)
        ]
    if s.turn.taken_placed:
        legal["end_turn"] = [{"taken": None}]
    else:
        legal["end_turn"] = [{"taken": "store"}, {"taken": "discard"}]
    return legal


def determinize(seen: dict[str, Any], seed: int) -> State:
    """Spec §5: a full state matching a view. The covered quarry tiles are the tiles of
    each material seen nowhere, shuffled into that material's covered layer; the
    face-down tokens and the never-drawn ones are the 14 tokens minus those revealed,
    shuffled. Both are sampled from `seed`."""
    players = int(seen["players"])
    rng = Rng.from_seed(seed)
    seen_tiles: set[str] = set(seen["removed"]) | set(seen["discarded"])
    for board in seen["boards"]:
        seen_tiles.update(t["tile"] for t in board["tiles"])
        if board["stored"] is not None:
            seen_tiles.add(board["stored"])
    if seen["turn"]["taken"] is not None:
        seen_tiles.add(seen["turn"]["taken"])
    for entry in seen["quarry"]:
        if entry["top"] is not None:
            seen_tiles.add(entry["top"]["tile"])
    unseen: dict[int, list[str]] = {}
    for layer, material_name in data.LAYER_MATERIAL.items():
        pool = [t for t in data.tiles_of(material_name) if t not in seen_tiles]
        shuffled, rng = rng.shuffle(pool)
        unseen[layer] = list(shuffled)
    stacks = []
    for entry in seen["quarry"]:
        height = int(entry["height"])
        stack = [unseen[layer].pop() for layer in range(1, height)]
        if entry["top"] is not None:
            stack.append(entry["top"]["tile"])
        stacks.append(tuple(stack))
    tokens = list(data.ROUND_TOKENS)
    for token in seen["revealed"]:
        tokens.remove(token)
    hidden, rng = rng.shuffle(tokens)
    left = int(seen["tokens_left"])
    raw_turn = seen["turn"]
    boards = tuple(state.board_from_json(b) for b in seen["boards"])
    over = seen["phase"] == OVER
    current = seen["current"]
    return State(
        players=players,
        flowers=tuple(seen["flowers"]),
        quarry=tuple(stacks),
        removed=tuple(seen["removed"]),
        discarded=tuple(seen["discarded"]),
        tokens=hidden[:left],
        unused_tokens=hidden[left:],
        revealed=tuple(seen["revealed"]),
        supply=state.Supply(**seen["supply"]),
        boards=boards,
        phase=seen["phase"],
        current=players - 1 if over or current is None else int(current),
        round=int(seen["round"]),
        removals_done=int(seen["removals"]["done"]),
        turn=Turn(
            taken=raw_turn["taken"],
            taken_placed=bool(raw_turn["taken_placed"]),
            placed=tuple(raw_turn["placed"]),
            doubles=int(raw_turn["doubles"]),
            symbol_used=bool(raw_turn["symbol_used"]),
        ),
    )
