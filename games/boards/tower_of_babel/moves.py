"""What a move of Tower of Babel did, in data (stored with the move, never an offer's cards
before they are revealed) and in words."""

from __future__ import annotations

from typing import Any

from django.utils.translation import npgettext, pgettext

from games.boards.tower_of_babel.texts import (
    ABANDON,
    ACCEPT,
    BUILD,
    CARD_EXCHANGE,
    DOUBLE_TURN,
    DRAW_THREE,
    END_TURN,
    MOVE_LABELS,
    OFFER,
    PASS,
    cards_text,
    offer_text,
    wonder_name,
)
from games.engines.tower_of_babel import data

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
                "tower of babel", "%(name)s handed in the last secret offer; all offers are shown"
            ) % {"name": name}
        return pgettext("tower of babel", "%(name)s handed in a secret offer") % {"name": name}
    if move_type == ACCEPT and "wonder" in summary:
        taken = len(summary.get("accepted", []))
        text = npgettext(
            "tower of babel",
            "%(name)s built %(cards)s at the %(wonder)s, taking %(count)s offer",
            "%(name)s built %(cards)s at the %(wonder)s, taking %(count)s offers",
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


def _seat_list(names: list[str], seats: list[int]) -> str:
    found = [names[s] if 0 <= s < len(names) else str(s + 1) for s in seats]
    if len(found) == 1:
        return found[0]
    return pgettext("tower of babel", "%(items)s and %(last)s") % {
        "items": ", ".join(found[:-1]),
        "last": found[-1],
    }


def advise(names: list[str], move_type: str, move: dict[str, Any], summary: dict[str, Any]) -> str:
    """What to do, addressed to the player: which disc, which cards to offer, whose offers to
    take and how many jokers, so moves differing only in one of them read differently."""
    if move_type == PASS:
        return pgettext("tower of babel", "Do not build; draw a card")
    if move_type == BUILD and "wonder" in summary:
        return pgettext("tower of babel", "Pick the disc of %(cards)s at the %(wonder)s") % {
            "cards": cards_text(summary["needs"]),
            "wonder": wonder_name(summary["wonder"]),
        }
    if move_type == OFFER:
        if not move.get("cards"):
            return pgettext("tower of babel", "Offer nothing")
        return pgettext("tower of babel", "Offer %(offer)s") % {"offer": offer_text(move)}
    if move_type == ACCEPT and "wonder" in summary:
        values = {
            "cards": cards_text(summary["needs"]),
            "wonder": wonder_name(summary["wonder"]),
        }
        if move["offers"]:
            values["players"] = _seat_list(names, list(move["offers"]))
            text = pgettext(
                "tower of babel",
                "Build %(cards)s at the %(wonder)s, taking the offers of %(players)s",
            )
        else:
            text = pgettext(
                "tower of babel", "Build %(cards)s at the %(wonder)s from your own hand"
            )
        text %= values
        jokers = sum(move["jokers"].values())
        if jokers:
            text = npgettext(
                "tower of babel",
                "%(text)s, with %(count)s joker",
                "%(text)s, with %(count)s jokers",
                jokers,
            ) % {"text": text, "count": jokers}
        return text
    if move_type == ABANDON and "wonder" in summary:
        return pgettext("tower of babel", "Give up building %(cards)s at the %(wonder)s") % {
            "cards": cards_text(summary["needs"]),
            "wonder": wonder_name(summary["wonder"]),
        }
    if move_type == CARD_EXCHANGE:
        return pgettext("tower of babel", "Exchange %(cards)s") % {
            "cards": cards_text(move["cards"])
        }
    if move_type == DOUBLE_TURN:
        return pgettext("tower of babel", "Play Double turn")
    if move_type == END_TURN:
        return pgettext("tower of babel", "End the turn")
    if move_type == DRAW_THREE:
        return pgettext("tower of babel", "Play Draw three")
    label = MOVE_LABELS.get(move_type)
    return str(label) if label is not None else move_type
