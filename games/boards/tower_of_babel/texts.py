"""Tower of Babel on the site: what the pages say (the lobby entry, labels, messages,
rulebook sections, cards in words) and the colours of the cards and players."""

from __future__ import annotations

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
    OFFER: pgettext_lazy("tower of babel", "handed in a secret offer"),
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


# §2.9: the game ends when a build leaves no disc of some type on the board.
ENDED_WITHOUT = {
    "camel": pgettext_lazy(
        "tower of babel", "The game ended because no disc needing camels is left on the wonders."
    ),
    "crane": pgettext_lazy(
        "tower of babel", "The game ended because no disc needing cranes is left on the wonders."
    ),
    "ship": pgettext_lazy(
        "tower of babel", "The game ended because no disc needing ships is left on the wonders."
    ),
    "stonemason": pgettext_lazy(
        "tower of babel",
        "The game ended because no disc needing stonemasons is left on the wonders.",
    ),
}


def measure_text(key: str, measure: dict[str, int]) -> str | None:
    """The disc set bonus counts the discs a player collected (§2.9 step 3)."""
    if "discs" not in measure:
        return None
    discs = measure["discs"]
    return npgettext("tower of babel", "%(count)s disc", "%(count)s discs", discs) % {
        "count": discs
    }


def end_reason(view: dict[str, Any], names: list[str]) -> str | None:
    """Which type of disc ran out (a two-type disc counts for both of its types)."""
    if not view.get("is_over"):
        return None
    left = {
        kind for wonder in view["wonders"] for disc in wonder["discs"] for kind in disc["needs"]
    }
    gone = [kind for kind in data.TYPES if kind not in left]
    return " ".join(str(ENDED_WITHOUT[kind]) for kind in gone) or None
