"""The Hanging Gardens on the site.

For now only what the pages say about the game: it is listed with its rules until its engine
and its drawing are here (games/README.md lists what a playable game provides).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.catalog import GameInfo

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
