"""Tower of Babel on the site (docs/adding-a-game.md, "Adding a game"): `texts` says what the pages
say (the lobby entry, labels, messages, rulebook sections, cards in words), `moves` what a
move did in data and in words, `drawing` turns a seat's view into the wonders, tables,
tracks, hands and offers. Another seat's hand or unrevealed offer is never in a view, so it
is never here.
"""

from games.boards.tower_of_babel.drawing import board
from games.boards.tower_of_babel.moves import advise, describe, summarize
from games.boards.tower_of_babel.texts import (
    CATEGORIES,
    INFO,
    MESSAGES,
    MOVE_LABELS,
    RULES_SECTIONS,
    end_reason,
    error_message,
    measure_text,
    rules_section,
)

__all__ = [
    "CATEGORIES",
    "INFO",
    "MESSAGES",
    "MOVE_LABELS",
    "RULES_SECTIONS",
    "advise",
    "board",
    "describe",
    "end_reason",
    "error_message",
    "measure_text",
    "rules_section",
    "summarize",
]
