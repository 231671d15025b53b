"""Tower of Babel on the site.

For now only what the pages say about the game: it is listed with its rules until its engine
and its drawing are here (games/README.md lists what a playable game provides).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.catalog import GameInfo

INFO = GameInfo(
    "tower-of-babel",
    "Tower of Babel",
    "Reiner Knizia",
    2005,
    3,
    5,
    gettext_lazy(
        "Build the wonders of the ancient world together, trading secret simultaneous "
        "offers of building cards."
    ),
)
