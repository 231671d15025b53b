"""Babylon on the site.

For now only what the pages say about the game: it is listed with its rules until its engine
and its drawing are here (games/README.md lists what a playable game provides).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.catalog import GameInfo

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
)
