"""The Hanging Gardens on the site (docs/adding-a-game.md, "Adding a game"): `texts` says what the
pages say (the lobby entry, labels, messages, rulebook sections), `moves` what a move did in
data and in words, `drawing` turns a seat's view into the gardens, the display and the tiles,
`names` names the cards, places and groups.
"""

from games.boards.hanging_gardens.drawing import board
from games.boards.hanging_gardens.moves import advise, describe, summarize
from games.boards.hanging_gardens.texts import (
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
