"""The drawing of Tower of Babel: the drawing of the wonders, tables,
tracks, hands and offers from a seat's view, the move log in words and the rulebook section
of each step (docs/adding-a-game.md has the checklist).

Everything drawn comes from `ENGINE.view(state, seat)` (games/engines/tower_of_babel/view.py
documents it): another seat's hand or unrevealed offer is never in it, so it is never here.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, npgettext, pgettext

from games.boards import unmarked_seat
from games.boards.tower_of_babel import svg
from games.boards.tower_of_babel.moves import _needs
from games.boards.tower_of_babel.texts import (
    ABANDON,
    ACCEPT,
    ACTION_NAMES,
    BUILD,
    CARD_EXCHANGE,
    DOUBLE_TURN,
    DRAW_THREE,
    END_TURN,
    OFFER,
    PASS,
    PLAYER_COLOUR_NAMES,
    PLAYER_COLOURS,
    TYPE_COLOURS,
    TYPE_INK,
    TYPE_LETTERS,
    cards_text,
    offer_text,
    type_count,
    wonder_name,
)
from games.engines.tower_of_babel import data

# --- drawing ----------------------------------------------------------------------------------


def _move(move: dict[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"))


def disc_drawing(disc: dict[str, Any], radius: int = 16) -> dict[str, Any]:
    """A disc as one circle (single type) or two half circles (two-type disc), with numbers:
    a new dict each time (the board adds what the viewer may do with it), from a drawing kept
    per process by disc, size and language (a board draws some thirty discs, each named in
    words)."""
    needs = disc["needs"]
    key = tuple((name, needs[name]) for name in data.TYPES if needs.get(name))
    return dict(_disc_drawing(disc["id"], key, radius, get_language()))


@lru_cache(maxsize=1024)
def _disc_drawing(
    disc_id: int, needs: tuple[tuple[str, int], ...], radius: int, language: str | None
) -> dict[str, Any]:
    names = [name for name, _count in needs]
    halves = []
    if len(names) == 2:
        top, bottom = names
        halves = [
            {
                "d": f"M {-radius} 0 A {radius} {radius} 0 0 1 {radius} 0 Z",
                "fill": TYPE_COLOURS[top],
            },
            {
                "d": f"M {radius} 0 A {radius} {radius} 0 0 1 {-radius} 0 Z",
                "fill": TYPE_COLOURS[bottom],
            },
        ]
    box = radius + 2
    drawn = {
        "id": disc_id,
        "r": radius,
        "box": f"{-box} {-box} {2 * box} {2 * box}",
        "fill": TYPE_COLOURS[names[0]],
        "ink": TYPE_INK[names[0]] if len(names) == 1 else "#1d1d1d",
        "halves": halves,
        "numbers": "+".join(str(count) for _name, count in needs),
        "text": cards_text(dict(needs)),
        "types": " ".join(names),
    }
    drawn["svg"] = svg.disc_svg(drawn)
    return drawn


def wonder_parts(units: list[int], names: list[str]) -> dict[str, Any]:
    """Everyone's building parts on a wonder as bars, one row per player with parts."""
    rows: list[dict[str, Any]] = []
    for seat, count in enumerate(units):
        if count:
            rows.append(
                {
                    "seat": seat,
                    "units": count,
                    "y": 4 + 14 * len(rows),
                    "width": min(4 + 6 * count, 150),
                    "fill": PLAYER_COLOURS[seat],
                    "title": npgettext(
                        "tower of babel",
                        "%(name)s: %(count)s building part",
                        "%(name)s: %(count)s building parts",
                        count,
                    )
                    % {"name": names[seat], "count": count},
                }
            )
    return {"rows": rows, "height": 8 + 14 * max(len(rows), 1)}


@lru_cache(maxsize=64)
def scoring_table_svg(current: int | str, language: str | None) -> str:
    """The wonder scoring table as drawn: the same for every viewer of every game whose marker
    is on that row (the view's `scoring_row`), so kept by the row and the language."""
    return svg.table_svg(scoring_table(current))


def scoring_table(current: int | str) -> dict[str, Any]:
    """The wonder scoring table with its marker on row `current` (spec §3.3): rows 1-7 and
    the light row."""
    rows: list[dict[str, Any]] = []
    for i, (first, second) in enumerate(data.WONDER_ROWS):
        rows.append({"label": str(i + 1), "first": first, "second": second, "y": 18 + 16 * i})
    rows.append(
        {
            "label": pgettext("tower of babel", "end"),
            "first": data.LIGHT_ROW[0],
            "second": data.LIGHT_ROW[1],
            "y": 18 + 16 * len(data.WONDER_ROWS),
            "light": True,
        }
    )
    for row in rows:
        row["current"] = (row.get("light") and current == "light") or row["label"] == str(current)
        row["text_y"] = row["y"] + 12
    return {"rows": rows, "others": data.OTHERS_POINTS, "height": 22 + 16 * len(rows)}


def score_track(totals: list[int], names: list[str]) -> dict[str, Any]:
    """The score track as a line from 0 with every player's marker on it."""
    top = max([*totals, 60])
    top = (top // 20 + 1) * 20
    width = 300
    ticks = [{"x": 10 + round(width * v / top), "label": v} for v in range(0, top + 1, 20)]
    markers = []
    for seat, total in enumerate(totals):
        markers.append(
            {
                "seat": seat,
                "x": 10 + round(width * total / top),
                "y": 14 + 10 * seat,
                "fill": PLAYER_COLOURS[seat],
                "total": total,
                "title": pgettext("tower of babel", "%(name)s: %(points)s points")
                % {"name": names[seat], "points": total},
            }
        )
    return {
        "ticks": ticks,
        "markers": markers,
        "height": 30 + 10 * len(totals),
        "width": width + 20,
    }


def turn_order(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The turn-order track, highest space first (the lowest column is the active player)."""
    spaces = []
    for place, seat in enumerate(view["columns"]):
        spaces.append(
            {
                "seat": seat,
                "place": place + 1,
                "name": names[seat],
                "fill": PLAYER_COLOURS[seat],
                "active": place == 0,
                "y": 4 + 22 * (len(view["columns"]) - 1 - place),
            }
        )
    return {"spaces": spaces, "height": 4 + 22 * len(spaces)}


def hand_groups(cards: dict[str, int] | None) -> list[dict[str, Any]]:
    if cards is None:
        return []
    return [
        {
            "type": name,
            "label": str(TYPE_LETTERS[name]),
            "count": cards.get(name, 0),
            "fill": TYPE_COLOURS[name],
            "card": svg.card_svg(TYPE_COLOURS[name]),
            "ink": TYPE_INK[name],
        }
        for name in data.TYPES
    ]


def _last_other(recent: list[dict[str, Any]], viewer: int | None) -> dict[str, Any] | None:
    """The last move of another seat, or the viewer's own when it is the last of all."""
    viewer = unmarked_seat(recent, viewer)
    others = [m for m in recent if m["seat"] != viewer]
    return others[-1] if others else None


def offers_panel(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    build = view["build"]
    rows = []
    for seat in range(view["players"]):
        if seat == view["active"]:
            continue
        offer = build["offers"][seat]
        if not build["offered"][seat]:
            status, text = "waiting", pgettext("tower of babel", "still choosing")
        elif offer is not None and "hidden" in offer:
            status, text = "hidden", pgettext("tower of babel", "has made a secret offer")
        elif offer is not None and not offer["cards"]:
            status, text = "none", pgettext("tower of babel", "offers nothing")
        else:
            status, text = "shown", offer_text(offer) if offer is not None else ""
        size = sum(offer["cards"].values()) if status == "shown" and offer else 0
        trading = bool(status == "shown" and offer and offer["trading_card"])
        rows.append(
            {
                "seat": seat,
                "name": names[seat],
                "fill": PLAYER_COLOURS[seat],
                "swatch": svg.swatch_svg(PLAYER_COLOURS[seat]),
                "status": status,
                "text": text,
                "size": size,
                "trading": trading,
                "if_taken": if_taken(names[seat], size, trading) if size else "",
            }
        )
    return rows


def if_taken(name: str, size: int, trading: bool) -> str:
    """What taking one offer gives its player (spec §2.4 step 4): with the trading card the
    disc, and the active player places the parts; without it, the parts are the player's."""
    if trading:
        return pgettext(
            "tower of babel",
            "if you take it, the disc goes to %(name)s, and you place the building parts",
        ) % {"name": name}
    return npgettext(
        "tower of babel",
        "if you take it, %(name)s places %(count)s building part on the wonder",
        "if you take it, %(name)s places %(count)s building parts on the wonder",
        size,
    ) % {"name": name, "count": size}


def offer_form(view: dict[str, Any]) -> dict[str, Any]:
    """Every legal offer as an option, and what the pickers need (types, caps, cards)."""
    needs = view["build"]["needs"]
    hand = view["hand"] or {}
    options = []
    for move in view["legal"]:
        if move["type"] != OFFER:
            continue
        label = offer_text(move) if move["cards"] else pgettext("tower of babel", "Offer nothing")
        options.append({"value": _move(move), "label": label, **_offer_keys(move)})
    types = [
        {
            "type": name,
            "label": type_count(name, needs[name]),
            "name": str(TYPE_LETTERS[name]),
            "max": min(needs[name], hand.get(name, 0)),
            "fill": TYPE_COLOURS[name],
            "card": svg.card_svg(TYPE_COLOURS[name]),
        }
        for name in data.TYPES
        if needs.get(name)
    ]
    has_bonus = any(o["bonus"] for o in options)
    return {"options": options, "types": types, "has_bonus": has_bonus}


def _offer_keys(move: dict[str, Any]) -> dict[str, Any]:
    return {
        "counts": " ".join(str(move["cards"].get(n, 0)) for n in data.TYPES),
        "trading": move["trading_card"],
        "bonus": move["offer_bonus"],
    }


def accept_form(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Every legal choice of offers (with jokers) as an option, worded with what it costs."""
    build = view["build"]
    needs = build["needs"]
    options = []
    for move in view["legal"]:
        if move["type"] != ACCEPT:
            continue
        taken = [0, 0, 0, 0]
        for seat in move["offers"]:
            for name, count in build["offers"][seat]["cards"].items():
                taken[data.TYPE_INDEX[name]] += count
        own = {
            name: needs.get(name, 0) - taken[k] - 2 * move["jokers"].get(name, 0)
            for k, name in enumerate(data.TYPES)
        }
        who = ", ".join(names[s] for s in move["offers"]) or pgettext("tower of babel", "nobody")
        label = pgettext(
            "tower of babel", "Take the offers of: %(who)s; add %(own)s from your hand"
        ) % {
            "who": who,
            "own": cards_text({k: v for k, v in own.items() if v}),
        }
        jokers = sum(move["jokers"].values())
        if jokers:
            label = npgettext(
                "tower of babel",
                "%(label)s and %(count)s joker",
                "%(label)s and %(count)s jokers",
                jokers,
            ) % {"label": label, "count": jokers}
        swapped = [s for s in move["offers"] if build["offers"][s]["trading_card"]]
        if swapped:
            label = pgettext("tower of babel", "%(label)s; the disc goes to %(name)s") % {
                "label": label,
                "name": names[swapped[0]],
            }
        else:
            label = pgettext("tower of babel", "%(label)s; you get the disc") % {"label": label}
        options.append(
            {
                "value": _move(move),
                "label": label,
                "seats": " ".join(str(s) for s in move["offers"]),
                "jokers": jokers,
            }
        )
    return {
        "options": options,
        "needs": cards_text(needs),
        "total": sum(needs.values()),
        "abandon": _move({"type": ABANDON}),
        "jokers": (view["actions"] or []).count(data.JOKER),
        "can_abandon": {"type": ABANDON} in view["legal"],
    }


def action_forms(view: dict[str, Any]) -> dict[str, Any]:
    exchanges = [
        {"value": _move(m), "label": cards_text(m["cards"])}
        for m in view["legal"]
        if m["type"] == CARD_EXCHANGE
    ]
    return {
        "exchanges": exchanges,
        "draw_three": _move({"type": DRAW_THREE})
        if {"type": DRAW_THREE} in view["legal"]
        else None,
    }


def board(view: dict[str, Any], names: list[str], recent: list[dict[str, Any]]) -> dict[str, Any]:
    seat = view["seat"]
    phase = view["phase"]
    legal = view["legal"]
    last = _last_other(recent, seat)
    marked_wonder = (last or {}).get("summary", {}).get("wonder") if last else None
    buildable = {(m["wonder"], m["disc"]) for m in legal if m["type"] == BUILD}
    build = view["build"]
    wonders = []
    for wonder in view["wonders"]:
        discs = []
        for disc in wonder["discs"]:
            drawn = disc_drawing(disc)
            drawn["can_build"] = (wonder["id"], disc["id"]) in buildable
            drawn["move"] = _move({"type": BUILD, "wonder": wonder["id"], "disc": disc["id"]})
            drawn["chosen"] = build is not None and build["disc"] == disc["id"]
            drawn["span"] = svg.disc_span(drawn)
            discs.append(drawn)
        parts = wonder_parts(wonder["units"], names)
        wonders.append(
            {
                "id": wonder["id"],
                "name": wonder_name(wonder["id"]),
                "complete": wonder["complete"],
                "discs": discs,
                "empty_slots": list(range(data.DISCS_PER_WONDER - len(discs))),
                "parts": parts,
                "parts_svg": svg.parts_svg(parts, wonder["complete"]),
                "marked": marked_wonder == wonder["id"],
                "building": build is not None and build["wonder"] == wonder["id"],
            }
        )
    totals = view["scores"]["totals"]
    players = []
    for s in range(view["players"]):
        players.append(
            {
                "seat": s,
                "name": names[s],
                "fill": PLAYER_COLOURS[s],
                "colour": str(PLAYER_COLOUR_NAMES[s]),
                "is_mine": s == seat,
                "is_active": s == view["active"] and not view["is_over"],
                "total": totals[s],
                "hand_size": view["hand_sizes"][s],
                "actions": view["action_counts"][s],
                "trading_card": view["trading_cards"][s],
                "discs": [disc_drawing(d, radius=9) for d in view["discs"][s]],
                "last": last is not None and last["seat"] == s,
                "revealed_actions": [str(ACTION_NAMES[k]) for k in view["all_actions"][s]]
                if view["all_actions"]
                else [],
            }
        )
    mine = {
        "hand": hand_groups(view["hand"]),
        "actions": [{"kind": k, "label": str(ACTION_NAMES[k])} for k in view["actions"] or []],
    }
    track, columns = score_track(totals, names), turn_order(view, names)
    # The drawing data stay beside the text drawn from them (the templates they replaced read
    # them: tests/games/test_tower_of_babel_svg.py).
    result: dict[str, Any] = {
        "phase": phase,
        "wonders": wonders,
        "players": players,
        "players_html": svg.players_html(players),
        "table": scoring_table(view["scoring_row"]),
        "table_svg": scoring_table_svg(view["scoring_row"], get_language()),
        "track": track,
        "track_svg": svg.track_svg(track),
        "columns": columns,
        "columns_svg": svg.columns_svg(columns),
        "mine": mine,
        "deck_size": view["deck_size"],
        "action_deck_size": view["action_deck_size"],
        "active_name": names[view["active"]],
        "build": None,
        "offer_form": None,
        "accept_form": None,
        "actions_form": action_forms(view),
        "pass_move": _move({"type": PASS}) if {"type": PASS} in legal else None,
        "double_turn": {"type": DOUBLE_TURN} in legal,
        "double_turn_move": _move({"type": DOUBLE_TURN}),
        "end_turn_move": _move({"type": END_TURN}),
    }
    if build is not None:
        disc = disc_drawing({"id": build["disc"], "needs": build["needs"]}, radius=20)
        result["build"] = {
            "wonder": wonder_name(build["wonder"]),
            "disc": disc,
            "needs": cards_text(build["needs"]),
            "revealed": build["revealed"],
            "offers": offers_panel(view, names),
        }
        for row in result["build"]["offers"]:
            row["last"] = last is not None and last["type"] == OFFER and last["seat"] == row["seat"]
        if any(m["type"] == OFFER for m in legal):
            result["offer_form"] = offer_form(view)
        if any(m["type"] in (ACCEPT, ABANDON) for m in legal):
            result["accept_form"] = accept_form(view, names)
    last_build = view["last_build"]
    if last_build is not None and build is None:
        result["last_build"] = {
            "name": names[last_build["seat"]],
            "wonder": wonder_name(last_build["wonder"]),
            "needs": cards_text(_needs(last_build["disc"])),
            "taker": names[last_build["taker"]] if last_build["taker"] is not None else None,
            "offers": [
                {
                    "name": names[s],
                    "fill": PLAYER_COLOURS[s],
                    "swatch": svg.swatch_svg(PLAYER_COLOURS[s]),
                    "text": offer_text(o) if o["cards"] else pgettext("tower of babel", "nothing"),
                    "taken": s in last_build["accepted"],
                    # The offers the last move took (a hint's or the review's alternative).
                    "last": s in last_build["accepted"]
                    and last is not None
                    and last["type"] == ACCEPT,
                }
                for s, o in enumerate(last_build["offers"])
                if o is not None
            ],
        }
    return result
