"""What the pages say about Akropolis: the lobby's entry and options, the labels of moves and
scoring categories, the engine's errors in words, the rulebook section of each step, why
the game ended, and the board's own lines (a tile's cost, a player's stones, the site's line)."""

from __future__ import annotations

from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.boards.akropolis.names import HEX_COLOURS, PLACE_TILE, TAKE_TILE
from games.catalog import GameInfo, GameOption

INFO = GameInfo(
    "akropolis",
    "Akropolis",
    "Jules Messaud",
    2022,
    2,
    4,
    gettext_lazy(
        "Build a city of hexagonal tiles in levels: houses, markets, barracks, temples "
        "and gardens score when their plazas multiply them."
    ),
    options=(
        GameOption(
            "variants",
            gettext_lazy("Variants"),
            choices=(
                ("houses", gettext_lazy("Houses variant")),
                ("markets", gettext_lazy("Markets variant")),
                ("barracks", gettext_lazy("Barracks variant")),
                ("temples", gettext_lazy("Temples variant")),
                ("gardens", gettext_lazy("Gardens variant")),
            ),
        ),
        GameOption("long_game", gettext_lazy("Long game (all tiles)")),
        GameOption(
            "lake_counts_as_edge", gettext_lazy("A lake counts as the city's edge for barracks")
        ),
        GameOption(
            "lake_is_enclosed_region",
            gettext_lazy("A lake counts as an enclosed region for gardens"),
        ),
    ),
)

# Scoring categories of the breakdown: label and colour in the final table and chart.
CATEGORIES = {
    "house": (gettext_lazy("Houses"), HEX_COLOURS["h"]),
    "market": (gettext_lazy("Markets"), HEX_COLOURS["m"]),
    "barracks": (gettext_lazy("Barracks"), HEX_COLOURS["b"]),
    "temple": (gettext_lazy("Temples"), HEX_COLOURS["t"]),
    "garden": (gettext_lazy("Gardens"), HEX_COLOURS["g"]),
    "stones": (gettext_lazy("Stones"), "#6d655c"),
}
MOVE_LABELS = {
    TAKE_TILE: gettext_lazy("took a tile"),
    PLACE_TILE: gettext_lazy("placed a tile"),
}
# Rulebook section (rulebooks/content/akropolis/book.json) of each step.
RULES_SECTIONS = {"take": "take-tile", "place": "place-tile", "over": "scoring"}


# What the engine's IllegalMove codes mean (games/engines/akropolis, spec §2.3 and §4).
MESSAGES = {
    "no_such_tile": gettext_lazy("The construction site has no such tile."),
    "unsupported": gettext_lazy(
        "A tile must lie flat: it cannot overhang an empty space or lie partly on the table "
        "and partly on the city."
    ),
    "mixed_heights": gettext_lazy(
        "A tile must lie flat: all three hexes under it must be at the same level."
    ),
    "not_touching": gettext_lazy("A tile laid on the table must share an edge with your city."),
    "single_tile_support": gettext_lazy(
        "A tile built on your city must rest on at least two different tiles."
    ),
}


def error_message(code: str, params: dict[str, Any]) -> str | None:
    """The member-facing text of one of the engine's IllegalMove codes, or None."""
    if code == "not_enough_stones" and "cost" in params:
        return _("That tile costs %(cost)s stones and you have %(stones)s.") % {
            "cost": params["cost"],
            "stones": params.get("stones", 0),
        }
    message = MESSAGES.get(code)
    return str(message) if message is not None else None


def rules_section(view: dict[str, Any]) -> str | None:
    return RULES_SECTIONS.get(view.get("phase", ""))


def measure_text(key: str, measure: dict[str, int]) -> str | None:
    """Spec §2.6: a colour scores its districts' value times its plazas' stars."""
    if "stars" not in measure:
        return None
    stars = measure["stars"]
    return ngettext(
        "districts %(value)s × %(stars)s plaza star",
        "districts %(value)s × %(stars)s plaza stars",
        stars,
    ) % {"value": measure["value"], "stars": stars}


def end_reason(view: dict[str, Any], names: list[str]) -> str | None:
    """Spec §2.5: the game ends when the site is down to one tile and no stack is left."""
    if not view.get("is_over"):
        return None
    return _(
        "The game ended because the construction site was down to its last tile and no "
        "stack was left to refill it."
    )


# The board's texts that its template's translation tags wrote: a spectator's board has a
# dozen, and each tag took a template render; the messages (and their translations) are the
# same. As the tags did, the translated text is the site's own and only the values put into it
# are escaped.


def cost_text(cost: int) -> SafeString:
    """What taking a site tile costs: "free", "1 stone", "3 stones"."""
    if not cost:
        return mark_safe(_("free"))
    return mark_safe(ngettext("%(cost)s stone", "%(cost)s stones", cost) % {"cost": cost})


def stones_text(stones: int) -> SafeString:
    words = ngettext("%(stones)s stone", "%(stones)s stones", stones)
    return mark_safe(words % {"stones": stones})


def site_meta(view: dict[str, Any], chief: str) -> SafeString:
    """The construction site's line: the round, the stacks left and the chief architect, one
    to a line of the partial as the template wrote them."""
    stacks = view["stacks_left"]
    parts = (
        _("Round %(round)s of %(total)s") % {"round": view["round"], "total": view["rounds_total"]},
        ngettext("%(stacks)s stack left", "%(stacks)s stacks left", stacks) % {"stacks": stacks},
        _("Chief architect: %(name)s") % {"name": conditional_escape(chief)},
    )
    return mark_safe(" ·\n      ".join(parts))
