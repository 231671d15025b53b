"""Akropolis on the site (docs/adding-a-game.md, "Adding a game"): `texts` says what the pages
say (the lobby entry, labels, messages, rulebook sections), `moves` what a move did in data and
in words, `drawing` turns a seat's view into the cities, the construction site and the
placement choices, `names` names the districts and plazas.
"""

from games.boards.akropolis.drawing import board
from games.boards.akropolis.moves import advise, describe, summarize
from games.boards.akropolis.texts import (
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
