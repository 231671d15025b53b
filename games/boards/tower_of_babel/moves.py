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


def hint_details(move: dict[str, Any], summary: dict[str, Any], names: list[str]) -> str:
    """What the move log's words leave out of a move, for a hint that must name every part
    of it: the cards of an offer, whose offers a builder takes, the cards exchanged."""
    kind = move.get("type")
    if kind == OFFER:
        return pgettext("tower of babel", "offer %(cards)s") % {"cards": offer_text(move)}
    if kind == ACCEPT:
        taken = [names[s] if 0 <= s < len(names) else str(s + 1) for s in move["offers"]]
        text = pgettext("tower of babel", "the offers of %(names)s") % {"names": ", ".join(taken)}
        if move["offers"] == []:
            text = pgettext("tower of babel", "no offer")
        jokers = {k: n for k, n in move.get("jokers", {}).items() if n}
        if jokers:
            text = pgettext("tower of babel", "%(offers)s, jokers for %(cards)s") % {
                "offers": text,
                "cards": cards_text(jokers),
            }
        return text
    if kind == CARD_EXCHANGE:
        return pgettext("tower of babel", "giving %(cards)s") % {"cards": cards_text(move["cards"])}
    return ""
