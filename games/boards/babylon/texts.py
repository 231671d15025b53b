"""What the pages say about Babylon: the lobby's entry and option, the labels of moves and
scoring categories, the engine's errors in words, the rulebook section of each step, what a
category's points counted and why the game ended."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy, npgettext, pgettext, pgettext_lazy

from games.boards.babylon.names import DECORATE, DIG, END_TURN, PLACE, REMOVE_CLAY, SET_SYMBOL
from games.catalog import GameInfo, GameOption

INFO = GameInfo(
    "babylon",
    "Babylon",
    "Olivier Grégoire",
    2024,
    2,
    4,
    gettext_lazy(
        "Raise the hanging gardens of Babylon in three dimensions: quarry stone, set "
        "pillars and lay terrace tiles on top of them."
    ),
    options=(
        GameOption(
            "flowers",
            pgettext_lazy("babylon", "Flower of seat 1's board"),
            one=True,
            default=pgettext_lazy("babylon", "Orange (then pink, blue, white: the usual order)"),
            choices=(
                ("orange", pgettext_lazy("babylon", "Orange flower")),
                ("pink", pgettext_lazy("babylon", "Pink flower")),
                ("blue", pgettext_lazy("babylon", "Blue flower")),
                ("white", pgettext_lazy("babylon", "White flower")),
            ),
        ),
    ),
)


CATEGORIES = {
    "height": (pgettext_lazy("babylon", "Highest level"), "#7b5b3a"),
    "statues": (pgettext_lazy("babylon", "Statues"), "#8a8a8a"),
    "fountains": (pgettext_lazy("babylon", "Fountains"), "#3f7fc1"),
    "bridges": (pgettext_lazy("babylon", "Bridges"), "#a0522d"),
    "stairs": (pgettext_lazy("babylon", "Stairs"), "#d9a62a"),
    "decoration_sets": (pgettext_lazy("babylon", "Decoration sets"), "#6a48a8"),
    "flower_sets": (pgettext_lazy("babylon", "Flower sets"), "#e06aa3"),
    "belvederes": (pgettext_lazy("babylon", "Belvederes"), "#4f9a49"),
}


MOVE_LABELS = {
    REMOVE_CLAY: pgettext_lazy("babylon", "removed a clay tile"),
    DIG: pgettext_lazy("babylon", "dug a tile"),
    PLACE: pgettext_lazy("babylon", "built a terrace"),
    DECORATE: pgettext_lazy("babylon", "built a decoration"),
    SET_SYMBOL: pgettext_lazy("babylon", "changed a symbol"),
    END_TURN: pgettext_lazy("babylon", "ended the turn"),
}
# Rulebook sections (rulebooks/content/babylon/book.json) of each step.


RULES_SECTIONS = {"remove": "setup", "dig": "dig", "over": "scoring"}


MESSAGES = {
    "empty_stack": pgettext_lazy("babylon", "That quarry stack is empty."),
    "not_clay": pgettext_lazy("babylon", "Only clay tiles may be removed before the game."),
    "tile_unavailable": pgettext_lazy("babylon", "That tile cannot be built this turn."),
    "cannot_place": pgettext_lazy(
        "babylon",
        "The tile cannot stand there: it needs 3 or 4 pillars on empty visible fields, one "
        "level at a time, and may not lie exactly on another tile.",
    ),
    "no_belvedere": pgettext_lazy("babylon", "No belvedere is left for a tile on 3 pillars."),
    "not_enough_pillars": pgettext_lazy("babylon", "You do not have the pillars for this."),
    "cannot_decorate": pgettext_lazy("babylon", "That decoration cannot be built there."),
    "no_symbol_effect": pgettext_lazy("babylon", "This round's token changes no symbol."),
    "symbol_used": pgettext_lazy("babylon", "You have already changed a symbol this turn."),
    "cannot_set_symbol": pgettext_lazy(
        "babylon", "Only a visible, empty field of a tile built this turn can change."
    ),
    "store_or_discard": pgettext_lazy("babylon", "Store or discard the tile you dug first."),
    "nothing_to_store": pgettext_lazy("babylon", "The tile you dug is already built."),
}


def error_message(code: str, params: dict[str, Any]) -> str | None:
    message = MESSAGES.get(code)
    return str(message) if message is not None else None


def rules_section(view: dict[str, Any]) -> str | None:
    phase = view.get("phase", "")
    if phase == "build":
        return "build-decorations" if view["turn"]["placed"] else "build-terraces"
    return RULES_SECTIONS.get(phase)


def measure_text(key: str, measure: dict[str, int]) -> str | None:
    """What a category's points counted (the engine's scores["measures"]): "level 3"."""
    if key == "height":
        return pgettext("babylon", "level %(level)s") % {"level": measure["level"]}
    if key in ("decoration_sets", "flower_sets"):
        sets = measure["sets"]
        return npgettext("babylon", "%(count)s set", "%(count)s sets", sets) % {"count": sets}
    return None


def end_reason(view: dict[str, Any], names: list[str]) -> str | None:
    """§2.9: the game ends after its last round."""
    if not view.get("is_over"):
        return None
    return pgettext("babylon", "The game ended because all %(rounds)s rounds were played.") % {
        "rounds": view["rounds_total"]
    }
