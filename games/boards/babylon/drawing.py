"""Drawing data for the Babylon board (`board`): the gardens (`gardens.py`), the quarry
(`quarry.py`), the marks of the last turn, and the choices of the seat to move as buttons:
where the tile in hand can be built (with its pillars and belvedere), the decorations, the
symbol changes, the ways to end the turn, and why nothing can be built when that is so."""

from __future__ import annotations

import functools
from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import npgettext, pgettext

from games.boards import unmarked_seat
from games.boards.babylon import quarry
from games.boards.babylon.gardens import (
    CELL,
    GRID,
    SIZE,
    compact,
    iso,
    iso_view,
    tile_card,
    top_view,
)
from games.boards.babylon.names import (
    CORNERS,
    DECORATE,
    DIG,
    EFFECTS,
    END_TURN,
    FLOWERS,
    PIECES,
    PLACE,
    REMOVE_CLAY,
    SET_SYMBOL,
    SYMBOL_OF,
    SYMBOLS,
    cell_name,
    points,
    tile_name,
)


def blocked_note(legal: dict[str, Any], singles: int) -> str | None:
    """Why no tile can be built in this build step, and what is left to do (None when a
    tile can be built or none is left to build)."""
    blocked = legal.get("blocked")
    if blocked is None:
        return None
    if blocked == "room":
        why = pgettext(
            "babylon", "No tile can be built: your garden has no place left where a tile can stand."
        )
    else:
        why = npgettext(
            "babylon",
            "No tile can be built: you have %(count)s single pillar, and every place where a "
            "tile can stand needs more (3 or 4 pillars; 2 single pillars buy a missing double).",
            "No tile can be built: you have %(count)s single pillars, and every place where a "
            "tile can stand needs more (3 or 4 pillars; 2 single pillars buy a missing double).",
            singles,
        ) % {"count": singles}
    if any(end["taken"] == "store" for end in legal["end_turn"]):
        then = pgettext(
            "babylon",
            "Store the tile you dug for a later turn, or discard it, and your turn ends.",
        )
    else:
        then = pgettext("babylon", "End your turn.")
    return f"{why} {then}"


def placements(view: dict[str, Any], legal: dict[str, Any]) -> list[dict[str, Any]]:
    """Every way a tile may stand (any tile of `legal["tiles"]`, any rotation): where, on
    which level, and what stands under each corner, with the pillars it uses.

    A mover's board lists a few hundred of these, and most of their words repeat: each text is
    translated once per board (a lookup in the active language costs about as much as the rest
    of a choice's label)."""
    tiles = legal["tiles"]
    if not tiles:
        return []
    corner_names = [str(c) for c in CORNERS]
    piece_names = {k: str(v) for k, v in PIECES.items()}
    support_text = pgettext("babylon", "%(corner)s: %(support)s")
    label_text = pgettext("babylon", "Level %(level)s at %(cell)s — %(corners)s — uses %(cost)s")
    short_text = pgettext("babylon", "Level %(level)s · %(held)s · %(cost)s")
    on_pillars = pgettext("babylon", "on 4 pillars")
    belvedere_text = pgettext("babylon", "belvedere: %(corner)s")

    @functools.cache
    def pillars(singles: int, doubles: int) -> str:
        cost = [
            npgettext("babylon", "%(count)s single", "%(count)s singles", singles)
            % {"count": singles}
        ]
        if doubles:
            cost.append(
                npgettext("babylon", "%(count)s double", "%(count)s doubles", doubles)
                % {"count": doubles}
            )
        return " + ".join(cost)

    @functools.cache
    def bought(exchanges: int) -> str:
        return npgettext(
            "babylon",
            " (%(count)s double bought with 2 singles)",
            " (%(count)s doubles bought with 2 singles each)",
            exchanges,
        ) % {"count": exchanges}

    options = []
    for index, option in enumerate(legal["place"]):
        x, y = option["x"], option["y"]
        corners = [
            support_text % {"corner": corner_names[k], "support": piece_names[support]}
            for k, support in enumerate(option["supports"])
        ]
        cost = pillars(option["singles"], option["doubles"])
        text = label_text % {
            "level": option["level"],
            "cell": cell_name(x, y),
            "corners": ", ".join(corners),
            "cost": cost,
        }
        if option["exchanges"]:
            text += bought(option["exchanges"])
        if option["open_corner"] is None:
            held = on_pillars
        else:
            held = belvedere_text % {"corner": corner_names[option["open_corner"]]}
        short = short_text % {"level": option["level"], "held": held, "cost": cost}
        move = {
            "type": PLACE,
            "tile": tiles[0],
            "x": x,
            "y": y,
            "rotation": 0,
            "level": option["level"],
            "open_corner": option["open_corner"],
        }
        ix, iy = iso(x, y, option["level"])
        options.append(
            {
                "index": index,
                "x": x,
                "y": y,
                "level": option["level"],
                "open": "" if option["open_corner"] is None else option["open_corner"],
                "label": text,
                "short": short,
                "move": compact(move),
                "top_x": x * CELL + 2,
                "top_y": y * CELL + 2,
                "iso_x": round(ix, 1),
                "iso_y": round(iy, 1),
            }
        )
    # The short words stand for the long ones on a phone: where two choices of one place
    # would read alike, both keep every corner.
    seen: dict[tuple[int, int, str], int] = {}
    for option in options:
        key = (option["x"], option["y"], option["short"])
        seen[key] = seen.get(key, 0) + 1
    for option in options:
        if seen[(option["x"], option["y"], option["short"])] > 1:
            option["short"] = option["label"]
    return options


def stands_html(options: list[dict[str, Any]]) -> SafeString:
    """The choices of `placements` as the form's radio buttons, written here rather than by
    the template: a mover's board holds a few hundred, and the template engine took most of
    the board's drawing to write them one tag at a time. Numbers are Python's own (never
    localised); the texts and the move go through `escape` (the standard library's, which
    Django's wraps), as the template's autoescape did."""
    parts = []
    for n, p in enumerate(options):
        required = "" if n else " required"
        parts.append(
            f'<label class="bab-stand" data-x="{p["x"]}" data-y="{p["y"]}"'
            f' data-level="{p["level"]}" data-open="{p["open"]}" data-top-x="{p["top_x"]}"'
            f' data-top-y="{p["top_y"]}" data-iso-x="{p["iso_x"]}" data-iso-y="{p["iso_y"]}">'
            f'<input type="radio" name="move" value="{escape(p["move"])}"{required}>'
            f' <span class="bab-stand-long">{escape(p["label"])}</span>'
            f'<span class="bab-stand-short">{escape(p["short"])}</span></label>'
        )
    return mark_safe("".join(parts))


def decorations(legal: dict[str, Any], board: dict[str, Any]) -> list[dict[str, Any]]:
    surface = board["surface"]
    found = []
    for option in legal["decorate"]:
        cells = option["cells"]
        at = [[x, y, surface[y * SIZE + x]] for x, y in cells]
        kind = option["kind"]
        worth = points(kind, at)
        values = {
            "decoration": SYMBOLS[SYMBOL_OF[kind]],
            "cells": "–".join(cell_name(x, y) for x, y in cells),
            "points": worth,
        }
        move = {"type": DECORATE, **{k: option[k] for k in ("kind", "x", "y", "toward")}}
        found.append(
            {
                "kind": kind,
                "cells": " ".join(f"{x},{y}" for x, y in cells),
                "move": compact(move),
                "label": npgettext(
                    "babylon",
                    "%(decoration)s on %(cells)s (%(points)s point)",
                    "%(decoration)s on %(cells)s (%(points)s points)",
                    worth,
                )
                % values,
            }
        )
    return found


def symbol_choices(legal: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "move": compact({"type": SET_SYMBOL, "x": o["x"], "y": o["y"], "symbol": o["symbol"]}),
            "label": pgettext("babylon", "%(cell)s: %(symbol)s")
            % {"cell": cell_name(o["x"], o["y"]), "symbol": SYMBOLS[o["symbol"]]},
        }
        for o in legal["set_symbol"]
    ]


def end_choices(legal: dict[str, Any], view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    stored = view["boards"][seat]["stored"]
    labels = {
        None: pgettext("babylon", "End the turn"),
        "discard": pgettext("babylon", "Discard the dug tile and end the turn"),
        "store": pgettext("babylon", "Store the dug tile and end the turn")
        if stored is None
        else pgettext("babylon", "Store the dug tile (discarding %(tile)s) and end the turn")
        % {"tile": tile_name(stored)},
    }
    return [
        {
            "move": compact({"type": END_TURN, "taken": o["taken"]}),
            "label": labels[o["taken"]],
            "taken": o["taken"] or "",
        }
        for o in legal["end_turn"]
    ]


def last_turn(recent: list[dict[str, Any]], viewer: int | None) -> dict[str, Any] | None:
    """The moves of the last turn played by another seat (for a spectator, by anyone), or of
    the viewer's own turn when it holds the last move (`boards.unmarked_seat`)."""
    viewer = unmarked_seat(recent, viewer)
    index = next((i for i in range(len(recent) - 1, -1, -1) if recent[i]["seat"] != viewer), None)
    if index is None:
        return None
    seat = recent[index]["seat"]
    moves: list[dict[str, Any]] = []
    while index >= 0 and recent[index]["seat"] == seat:
        moves.insert(0, recent[index])
        if recent[index]["type"] in (DIG, REMOVE_CLAY):
            break
        index -= 1
    marks: dict[str, Any] = {"seat": seat, "tiles": set(), "stack": None}
    for move in moves:
        summary = move["summary"]
        if move["type"] == PLACE and "x" in summary:
            marks["tiles"].add((summary["x"], summary["y"]))
        elif move["type"] in (DIG, REMOVE_CLAY) and "x" in summary:
            marks["stack"] = (summary["x"], summary["y"])
    marks["texts"] = [m["text"] for m in moves]
    return marks


def board(view: dict[str, Any], names: list[str], recent: list[dict[str, Any]]) -> dict[str, Any]:
    seat = view["seat"]
    legal = view["legal"]
    marks = last_turn(recent, seat)
    order = list(range(view["players"]))
    if seat is not None:
        order.remove(seat)
        order.insert(0, seat)
    gardens = []
    for position in order:
        garden = view["boards"][position]
        marked = marks["tiles"] if marks is not None and marks["seat"] == position else set()
        tiles = garden["tiles"]
        gardens.append(
            {
                "seat": position,
                "name": names[position],
                "is_mine": position == seat,
                "is_current": position == view["current"],
                "flower": str(FLOWERS[view["flowers"][position]][0]),
                "colour": FLOWERS[view["flowers"][position]][1],
                "top": top_view(garden, marked),
                "iso": iso_view(garden),
                "marked": bool(marked),
                "stored": tile_card(garden["stored"]),
                "singles": garden["singles"],
                "tiles": len(tiles),
                "highest": max([t["level"] for t in tiles] + [0]),
                "points": view["scores"]["totals"][position],
                "notches": garden["visible_notches"],
            }
        )
    turn = view["turn"]
    mine = seat is not None and seat == view["current"] and view["phase"] == "build"
    stands = placements(view, legal) if mine else []
    hand = []
    if mine:
        if "taken" in legal["tiles"]:
            hand.append(tile_card(turn["taken"], "taken"))
        if "stored" in legal["tiles"]:
            hand.append(tile_card(view["boards"][seat]["stored"], "stored"))
    effect = view["effect"]
    return {
        "phase": view["phase"],
        "round": view["round"],
        "rounds_total": view["rounds_total"],
        "tokens_left": view["tokens_left"],
        "effect": str(EFFECTS[effect]),
        "effect_key": effect,
        "revealed": len(view["revealed"]),
        "supply": view["supply"],
        "quarry": quarry.quarry(view, legal, marks["stack"] if marks else None),
        "legend": quarry.legend(),
        "removed": [tile_name(t) for t in view["removed"]],
        "discarded": len(view["discarded"]),
        "gardens": gardens,
        "taken": tile_card(turn["taken"]) if view["phase"] == "build" else None,
        "taken_placed": turn["taken_placed"],
        "pool_doubles": turn["doubles"],
        "hand": [t for t in hand if t is not None],
        "placements": stands,
        "stands": stands_html(stands),
        "decorations": decorations(legal, view["boards"][seat]) if mine else [],
        "symbols": symbol_choices(legal) if mine else [],
        "ends": end_choices(legal, view, seat) if mine else [],
        "blocked": blocked_note(legal, view["boards"][seat]["singles"]) if mine else None,
        "grid": GRID,
        "cell": CELL,
        # The newest step first, as the turn bar's "Last move" reads, then the rest of that
        # turn in the order played.
        "last_turn": None
        if marks is None
        else {
            "name": names[marks["seat"]],
            "latest": marks["texts"][-1],
            "earlier": marks["texts"][:-1],
        },
    }
