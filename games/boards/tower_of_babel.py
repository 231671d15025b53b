"""Tower of Babel on the site: the lobby's options, the drawing of the wonders, tables,
tracks, hands and offers from a seat's view, the move log in words and the rulebook section
of each step (games/README.md has the checklist).

Everything drawn comes from `ENGINE.view(state, seat)` (games/engines/tower_of_babel/view.py
documents it): another seat's hand or unrevealed offer is never in it, so it is never here.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.catalog import GameInfo, GameOption
from games.engines.tower_of_babel import data

# Every text of this board has the message context "tower of babel" (written out in each
# call, so that makemessages finds it): a short word here ("end", "complete") is translated
# for this game and never collides with the same word elsewhere.

INFO = GameInfo(
    "tower-of-babel",
    "Tower of Babel",
    "Reiner Knizia",
    2005,
    3,
    5,
    gettext_lazy(
        "Build the wonders of the ancient world together, trading secret simultaneous "
        "offers of building cards.",
    ),
    options=(
        GameOption(
            "two_type_discs", pgettext_lazy("tower of babel", "Variant: two-type building discs")
        ),
        GameOption("no_action_cards", pgettext_lazy("tower of babel", "Play without action cards")),
    ),
)

PASS, BUILD, OFFER, ACCEPT, ABANDON = "pass", "build", "offer", "accept", "abandon"
DOUBLE_TURN, END_TURN, CARD_EXCHANGE, DRAW_THREE = (
    "double_turn",
    "end_turn",
    "card_exchange",
    "draw_three",
)
MOVE_LABELS = {
    PASS: pgettext_lazy("tower of babel", "drew a card instead of building"),
    BUILD: pgettext_lazy("tower of babel", "picked a disc"),
    OFFER: pgettext_lazy("tower of babel", "handed in a secret bid"),
    ACCEPT: pgettext_lazy("tower of babel", "built"),
    ABANDON: pgettext_lazy("tower of babel", "gave up the build"),
    DOUBLE_TURN: pgettext_lazy("tower of babel", "played Double turn"),
    END_TURN: pgettext_lazy("tower of babel", "ended the turn"),
    CARD_EXCHANGE: pgettext_lazy("tower of babel", "exchanged cards"),
    DRAW_THREE: pgettext_lazy("tower of babel", "played Draw three"),
}
# Rulebook section (rulebooks/content/tower-of-babel/book.json) of each step.
RULES_SECTIONS = {
    "turn": "turn",
    "offers": "build-offers",
    "resolve": "build-choose-offers",
    "double_turn": "action-cards",
    "over": "final-scoring",
}
CATEGORIES = {
    "wonders": (pgettext_lazy("tower of babel", "Wonders"), "#b5651d"),
    "rejected_offers": (pgettext_lazy("tower of babel", "Offers not taken"), "#4a78b5"),
    "unfinished_wonders": (pgettext_lazy("tower of babel", "Unfinished wonders"), "#c9a063"),
    "disc_sets": (pgettext_lazy("tower of babel", "Disc sets"), "#7e57a8"),
    "action_cards": (pgettext_lazy("tower of babel", "Action cards"), "#3f8f5a"),
}
WONDER_NAMES = {
    1: pgettext_lazy("tower of babel", "Pyramids of Giza"),
    2: pgettext_lazy("tower of babel", "Hanging Gardens of Semiramis"),
    3: pgettext_lazy("tower of babel", "Temple of Artemis"),
    4: pgettext_lazy("tower of babel", "Statue of Zeus"),
    5: pgettext_lazy("tower of babel", "Mausoleum of Halicarnassus"),
    6: pgettext_lazy("tower of babel", "Colossus of Rhodes"),
    7: pgettext_lazy("tower of babel", "Lighthouse of Alexandria"),
    8: pgettext_lazy("tower of babel", "Tower of Babel"),
}
ACTION_NAMES = {
    data.CARD_EXCHANGE: pgettext_lazy("tower of babel", "Card exchange"),
    data.JOKER: pgettext_lazy("tower of babel", "Joker"),
    data.DISC_BONUS: pgettext_lazy("tower of babel", "Disc bonus"),
    data.OFFER_BONUS: pgettext_lazy("tower of babel", "Offer bonus"),
    data.DRAW_THREE: pgettext_lazy("tower of babel", "Draw three"),
    data.DOUBLE_TURN: pgettext_lazy("tower of babel", "Double turn"),
    data.FIVE_POINTS: pgettext_lazy("tower of babel", "5 points"),
}
# Card and disc colours (spec §3.5: white, brown, purple, grey; which is which is cosmetic).
TYPE_COLOURS = {"camel": "#a0652d", "crane": "#7e57a8", "ship": "#f4f1ea", "stonemason": "#8a8f96"}
TYPE_INK = {"camel": "#ffffff", "crane": "#ffffff", "ship": "#1d1d1d", "stonemason": "#ffffff"}
TYPE_LETTERS = {
    "camel": pgettext_lazy("tower of babel", "Camel"),
    "crane": pgettext_lazy("tower of babel", "Crane"),
    "ship": pgettext_lazy("tower of babel", "Ship"),
    "stonemason": pgettext_lazy("tower of babel", "Stonemason"),
}
PLAYER_COLOURS = ("#d0312d", "#e8b923", "#3a9a48", "#2f6fbd", "#4d4d4d")
PLAYER_COLOUR_NAMES = (
    pgettext_lazy("tower of babel", "red"),
    pgettext_lazy("tower of babel", "yellow"),
    pgettext_lazy("tower of babel", "green"),
    pgettext_lazy("tower of babel", "blue"),
    pgettext_lazy("tower of babel", "black"),
)

MESSAGES = {
    "no_such_wonder": pgettext_lazy("tower of babel", "There is no such wonder."),
    "no_such_disc": pgettext_lazy("tower of babel", "That disc is no longer on this wonder."),
    "wrong_type": pgettext_lazy("tower of babel", "Offer only cards of the types the disc needs."),
    "offer_too_large": pgettext_lazy(
        "tower of babel", "An offer holds at most the disc's number of each type."
    ),
    "not_in_hand": pgettext_lazy("tower of babel", "You do not hold those cards."),
    "offer_needs_cards": pgettext_lazy(
        "tower of babel",
        "The trading card or the offer bonus card can only go with building cards.",
    ),
    "no_action_card": pgettext_lazy("tower of babel", "You do not hold that action card."),
    "two_trading_cards": pgettext_lazy(
        "tower of babel", "You can take at most one offer with a trading card."
    ),
    "too_many_cards": pgettext_lazy(
        "tower of babel", "The offers you chose hold more cards than the disc needs."
    ),
    "no_such_offer": pgettext_lazy("tower of babel", "That player made no offer."),
    "joker_does_not_fit": pgettext_lazy(
        "tower of babel", "A joker stands for exactly two missing cards."
    ),
    "cannot_complete": pgettext_lazy(
        "tower of babel", "Your hand cannot complete the disc with these offers."
    ),
    "exchange_size": pgettext_lazy("tower of babel", "A card exchange trades one to five cards."),
}


def error_message(code: str, params: dict[str, Any]) -> str | None:
    """The member-facing text of one of the engine's IllegalMove codes, or None."""
    message = MESSAGES.get(code)
    return str(message) if message is not None else None


def rules_section(view: dict[str, Any]) -> str | None:
    return RULES_SECTIONS.get(view.get("phase", ""))


# --- cards in words ----------------------------------------------------------------------------


def type_count(name: str, count: int) -> str:
    if name == "camel":
        return npgettext("tower of babel", "%(count)s camel", "%(count)s camels", count) % {
            "count": count
        }
    if name == "crane":
        return npgettext("tower of babel", "%(count)s crane", "%(count)s cranes", count) % {
            "count": count
        }
    if name == "ship":
        return npgettext("tower of babel", "%(count)s ship", "%(count)s ships", count) % {
            "count": count
        }
    return npgettext("tower of babel", "%(count)s stonemason", "%(count)s stonemasons", count) % {
        "count": count
    }


def cards_text(cards: dict[str, int]) -> str:
    """{"camel": 2, "stonemason": 3} -> "2 camels + 3 stonemasons"; {} -> "no cards"."""
    parts = [type_count(name, cards[name]) for name in data.TYPES if cards.get(name)]
    return " + ".join(parts) if parts else pgettext("tower of babel", "no cards")


def offer_text(offer: dict[str, Any]) -> str:
    text = cards_text(offer["cards"])
    if offer["trading_card"]:
        text = pgettext("tower of babel", "%(cards)s + trading card") % {"cards": text}
    if offer["offer_bonus"]:
        text = pgettext("tower of babel", "%(cards)s + offer bonus") % {"cards": text}
    return text


def wonder_name(wonder: int) -> str:
    return str(WONDER_NAMES.get(wonder, wonder))


# --- what a move did, in data and in words ----------------------------------------------------


def summarize(
    before: dict[str, Any], seat: int, move: dict[str, Any], after: dict[str, Any]
) -> dict[str, Any]:
    """The public facts of a move, from the spectator's views before and after it: never
    the cards of an offer before every offer is revealed."""
    kind = move["type"]
    if kind == BUILD:
        return {"wonder": move["wonder"], "disc": move["disc"], "needs": _needs(move["disc"])}
    if kind == OFFER:
        build = after.get("build")
        if build is not None and build["revealed"]:
            return {"revealed": True, "offers": build["offers"]}
        return {"revealed": False}
    if kind in (ACCEPT, ABANDON):
        build = before["build"]
        offers = [o for o in build["offers"] if o is not None and o["cards"]]
        summary: dict[str, Any] = {
            "wonder": build["wonder"],
            "disc": build["disc"],
            "needs": build["needs"],
            "bids": len(offers),
        }
        if kind == ACCEPT:
            last = after["last_build"] or {}
            summary.update(
                {
                    "accepted": move["offers"],
                    "jokers": sum(move["jokers"].values()),
                    "taker": last.get("taker"),
                    "completed": bool(last.get("awards")),
                    "game_over": bool(after["is_over"]),
                }
            )
        return summary
    if kind == CARD_EXCHANGE:
        return {"count": sum(move["cards"].values())}
    return {}


def _needs(disc: int) -> dict[str, int]:
    return {data.TYPES[k]: n for k, n in enumerate(data.DISCS[disc]) if n}


def describe(name: str, move_type: str, summary: dict[str, Any]) -> str:
    """One line of the move log: "Alice built 5 ships at the Tower of Babel"."""
    if move_type == PASS:
        return pgettext("tower of babel", "%(name)s did not build and drew a card") % {"name": name}
    if move_type == BUILD and "wonder" in summary:
        return pgettext(
            "tower of babel", "%(name)s picked the disc of %(cards)s at the %(wonder)s"
        ) % {
            "name": name,
            "cards": cards_text(summary["needs"]),
            "wonder": wonder_name(summary["wonder"]),
        }
    if move_type == OFFER:
        if summary.get("revealed"):
            return pgettext(
                "tower of babel", "%(name)s handed in the last secret bid; all bids are shown"
            ) % {"name": name}
        return pgettext("tower of babel", "%(name)s handed in a secret bid") % {"name": name}
    if move_type == ACCEPT and "wonder" in summary:
        taken = len(summary.get("accepted", []))
        text = npgettext(
            "tower of babel",
            "%(name)s built %(cards)s at the %(wonder)s, taking %(count)s bid",
            "%(name)s built %(cards)s at the %(wonder)s, taking %(count)s bids",
            taken,
        ) % {
            "name": name,
            "cards": cards_text(summary["needs"]),
            "wonder": wonder_name(summary["wonder"]),
            "count": taken,
        }
        if summary.get("completed"):
            text = pgettext("tower of babel", "%(text)s; the wonder is complete") % {"text": text}
        return text
    if move_type == ABANDON and "wonder" in summary:
        return pgettext(
            "tower of babel", "%(name)s gave up building %(cards)s at the %(wonder)s"
        ) % {
            "name": name,
            "cards": cards_text(summary["needs"]),
            "wonder": wonder_name(summary["wonder"]),
        }
    if move_type == CARD_EXCHANGE and "count" in summary:
        return npgettext(
            "tower of babel",
            "%(name)s exchanged %(count)s card",
            "%(name)s exchanged %(count)s cards",
            summary["count"],
        ) % {"name": name, "count": summary["count"]}
    label = MOVE_LABELS.get(move_type)
    return f"{name} {label}" if label is not None else name


# --- drawing ----------------------------------------------------------------------------------


def _move(move: dict[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"))


def disc_drawing(disc: dict[str, Any], radius: int = 16) -> dict[str, Any]:
    """A disc as one circle (single type) or two half circles (two-type disc), with numbers."""
    needs = disc["needs"]
    names = [n for n in data.TYPES if needs.get(n)]
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
    return {
        "id": disc["id"],
        "r": radius,
        "box": f"{-box} {-box} {2 * box} {2 * box}",
        "fill": TYPE_COLOURS[names[0]],
        "ink": TYPE_INK[names[0]] if len(names) == 1 else "#1d1d1d",
        "halves": halves,
        "numbers": "+".join(str(needs[n]) for n in names),
        "text": cards_text(needs),
        "types": " ".join(names),
    }


def wonder_parts(units: list[int], names: list[str]) -> dict[str, Any]:
    """Everyone's building parts on a wonder as bars, one row per player with parts."""
    rows = []
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


def scoring_table(view: dict[str, Any]) -> dict[str, Any]:
    """The wonder scoring table with its marker (spec §3.3): rows 1-7 and the light row."""
    current = view["scoring_row"]
    rows = []
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
            "ink": TYPE_INK[name],
        }
        for name in data.TYPES
    ]


def _last_other(recent: list[dict[str, Any]], viewer: int | None) -> dict[str, Any] | None:
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
        rows.append(
            {
                "seat": seat,
                "name": names[seat],
                "fill": PLAYER_COLOURS[seat],
                "status": status,
                "text": text,
                "size": sum(offer["cards"].values()) if status == "shown" and offer else 0,
                "trading": bool(status == "shown" and offer and offer["trading_card"]),
            }
        )
    return rows


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
            discs.append(drawn)
        wonders.append(
            {
                "id": wonder["id"],
                "name": wonder_name(wonder["id"]),
                "complete": wonder["complete"],
                "discs": discs,
                "empty_slots": list(range(data.DISCS_PER_WONDER - len(discs))),
                "parts": wonder_parts(wonder["units"], names),
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
    result: dict[str, Any] = {
        "phase": phase,
        "wonders": wonders,
        "players": players,
        "table": scoring_table(view),
        "track": score_track(totals, names),
        "columns": turn_order(view, names),
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
                    "text": offer_text(o) if o["cards"] else pgettext("tower of babel", "nothing"),
                    "taken": s in last_build["accepted"],
                }
                for s, o in enumerate(last_build["offers"])
                if o is not None
            ],
        }
    return result
