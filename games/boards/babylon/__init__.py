"""Babylon on the site (docs/adding-a-game.md, "Adding a game"): `texts` says what the pages say
(the lobby entry, labels, messages, rulebook sections), `moves` what a move did in data and in
words, `drawing` turns a seat's view into the gardens in 3D and from above, `quarry` draws the
quarry, `choices` the buttons of the seat to move, `names` names tiles, fields and symbols.
"""

from games.boards.babylon.drawing import board
from games.boards.babylon.moves import advise, describe, summarize
from games.boards.babylon.texts import (
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
