"""The Hanging Gardens on the site: what the pages say (the lobby entry, labels, messages,
rulebook sections) and the colours and symbols of the motifs."""

from __future__ import annotations

import json
from functools import lru_cache, partial
from typing import Any

from django.utils.translation import get_language, gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.catalog import GameInfo
from games.engines.hanging_gardens import data

# Moves go into forms as compact JSON: a board lists hundreds of placements.
compact = partial(json.dumps, separators=(",", ":"))

INFO = GameInfo(
    "hanging-gardens",
    "The Hanging Gardens",
    "Din Li",
    2008,
    2,
    4,
    gettext_lazy(
        "Lay overlapping garden cards, build temples on the largest groups of one motif "
        "and collect point tiles."
    ),
)

CELL = 28
BUILDING = "."
MOTIFS = {
    "T": ("terrace", pgettext_lazy("hanging gardens", "Terrace"), "#c4553b"),
    "P": ("park", pgettext_lazy("hanging gardens", "Park"), "#4f9a49"),
    "A": ("arcade", pgettext_lazy("hanging gardens", "Arcade"), "#d9a62a"),
    "F": ("fountain", pgettext_lazy("hanging gardens", "Fountain"), "#3f7fc1"),
}
BUILDING_FILL = "#efe5cf"
# Temples in each seat's colour, drawn with a light outline so they stand out on any motif.
SEAT_COLOURS = ("#7a1f5c", "#1d3f7a", "#222222", "#f4f4f4")

TILE_KINDS = {
    "queen": (pgettext_lazy("hanging gardens", "Queen"), "#b03a8c"),
    "king": (pgettext_lazy("hanging gardens", "King"), "#6a48a8"),
    "tiger": (pgettext_lazy("hanging gardens", "Tiger"), "#d9731c"),
    "garden": (pgettext_lazy("hanging gardens", "Garden"), "#3c8d3c"),
    "statue": (pgettext_lazy("hanging gardens", "Statue"), "#7d7d7d"),
    "chalice": (pgettext_lazy("hanging gardens", "Chalice"), "#b8921c"),
    "gate": (pgettext_lazy("hanging gardens", "Gate"), "#6b4f2a"),
    "animal_handler": (pgettext_lazy("hanging gardens", "Animal handler"), "#a85a1c"),
    "gardener": (pgettext_lazy("hanging gardens", "Gardener"), "#2e6e2e"),
    "sculptor": (pgettext_lazy("hanging gardens", "Sculptor"), "#5d5d5d"),
    "priest": (pgettext_lazy("hanging gardens", "Priest"), "#8c6d12"),
    "guard": (pgettext_lazy("hanging gardens", "Guard"), "#4d3920"),
}


def printed_values(kind: str) -> str:
    """What a point tile shows (spec §3.4, §3.5): a series' running totals, a person's two
    values. The numbers, assumed ones included, come from the engine's data module."""
    if kind in data.SERIES_VALUES:
        return " · ".join(str(v) for v in data.SERIES_VALUES[kind])
    if kind in data.PERSONS:
        _, alone, complete = data.PERSONS[kind]
        return f"{alone} / {complete}"
    return f"{data.GUARD_PER_GATE} × {TILE_KINDS[data.GATE][0]}"


CATEGORIES = {
    **{kind: (label, colour) for kind, (label, colour) in TILE_KINDS.items()},
    "missing": (pgettext_lazy("hanging gardens", "Missing tiles"), "#9a9a9a"),
}

PLACE_CARD, DISCARD_CARD = "place_card", "discard_card"
PLACE_TEMPLE, MOVE_TEMPLE, SKIP_SCORING = "place_temple", "move_temple", "skip_scoring"
TAKE_TILE = "take_tile"
MOVE_LABELS = {
    PLACE_CARD: pgettext_lazy("hanging gardens", "placed a building card"),
    DISCARD_CARD: pgettext_lazy("hanging gardens", "discarded a building card"),
    PLACE_TEMPLE: pgettext_lazy("hanging gardens", "built a temple"),
    MOVE_TEMPLE: pgettext_lazy("hanging gardens", "moved a temple"),
    SKIP_SCORING: pgettext_lazy("hanging gardens", "did not score"),
    TAKE_TILE: pgettext_lazy("hanging gardens", "took a point tile"),
}
# Rulebook sections (rulebooks/content/hanging-gardens/book.json) of each step.
RULES_SECTIONS = {
    "place": "building",
    "temple": "groups",
    "tile": "groups",
    "over": "series-scoring",
}

MESSAGES = {
    "too_far": pgettext_lazy("hanging gardens", "That is too far from your garden for any card."),
    "motif_on_table": pgettext_lazy(
        "hanging gardens",
        "A motif must lie on a building space or another motif, never on the table.",
    ),
    "covers_temple": pgettext_lazy("hanging gardens", "A card may not cover a temple."),
    "no_such_card": pgettext_lazy("hanging gardens", "That card is not in the display."),
    "must_place": pgettext_lazy(
        "hanging gardens", "A card of the display fits your garden, so you must place one."
    ),
    "no_temple_left": pgettext_lazy(
        "hanging gardens", "All five of your temples are out: move one from a smallest group."
    ),
    "temples_left": pgettext_lazy(
        "hanging gardens",
        "You still have a temple in your supply; temples move only when all five are out.",
    ),
    "not_eligible": pgettext_lazy(
        "hanging gardens",
        "A temple goes on a group of 3 or more squares without a temple that touches the card "
        "you just placed.",
    ),
    "no_temple_there": pgettext_lazy("hanging gardens", "You have no temple on that square."),
    "not_smallest": pgettext_lazy("hanging gardens", "Only a temple on a smallest group may move."),
    "column_not_allowed": pgettext_lazy(
        "hanging gardens", "Your group is too small for that column of point tiles."
    ),
    "empty_slot": pgettext_lazy("hanging gardens", "There is no point tile there."),
}


def error_message(code: str, params: dict[str, Any]) -> str | None:
    """The member-facing text of one of the engine's IllegalMove codes, or None."""
    message = MESSAGES.get(code)
    return str(message) if message is not None else None


def rules_section(view: dict[str, Any]) -> str | None:
    phase = view.get("phase", "")
    current = view.get("current")
    # §2.8: with all five temples out, scoring moves one.
    if phase == "temple" and current is not None and not view["gardens"][current]["temples_left"]:
        return "moving-temples"
    return RULES_SECTIONS.get(phase)


def card_label(card: int) -> str:
    return f"H{card:02d}"


def motif_name(square: str) -> str:
    """A square's motif in words ("Terrace", "Building space"). Kept per process by square and
    language: a board names every square of its gardens and cards."""
    return _motif_name(square, get_language())


@lru_cache(maxsize=64)
def _motif_name(square: str, language: str | None) -> str:
    return (
        str(MOTIFS[square][1])
        if square in MOTIFS
        else pgettext("hanging gardens", "Building space")
    )


def tile_name(kind: str) -> str:
    return str(TILE_KINDS[kind][0]) if kind in TILE_KINDS else kind


def measure_text(key: str, measure: dict[str, int]) -> str | None:
    """What a category counted (spec §2.11): tiles of a series, a guard's gates, missing
    tiles."""
    if "gates" in measure:
        gates = measure["gates"]
        return npgettext("hanging gardens", "%(count)s gate", "%(count)s gates", gates) % {
            "count": gates
        }
    if "tiles" not in measure:
        return None
    tiles = measure["tiles"]
    if key == "missing":
        return npgettext(
            "hanging gardens", "%(count)s tile missing", "%(count)s tiles missing", tiles
        ) % {"count": tiles}
    return npgettext("hanging gardens", "%(count)s tile", "%(count)s tiles", tiles) % {
        "count": tiles
    }


def end_reason(view: dict[str, Any], names: list[str]) -> str | None:
    """Spec §2.10: the game ends at the end of a round once the building deck or the
    face-down point tiles are used up."""
    if not view.get("is_over"):
        return None
    if not view["supply_count"] and not view["deck_count"]:
        return pgettext(
            "hanging gardens",
            "The game ended because both the building deck and the face-down point tiles "
            "were used up.",
        )
    if not view["supply_count"]:
        return pgettext(
            "hanging gardens",
            "The game ended because the face-down point tiles ran out; the round was "
            "played to its end.",
        )
    return pgettext("hanging gardens", "The game ended because the building deck was used up.")
