"""Names of Akropolis's things on the site: the move types, and the districts and plazas with
their colours (spec §3.3) in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

TAKE_TILE, PLACE_TILE = "take_tile", "place_tile"

# Spec §3.3 colours of the districts; a plaza uses its district's colour.
HEX_COLOURS = {
    "q": "#a59d93",
    "h": "#3f76c6",
    "m": "#e4b22b",
    "b": "#c7483c",
    "t": "#7e52ab",
    "g": "#4f9a49",
}
HEX_LABELS = {
    "quarry": gettext_lazy("Quarry"),
    "house": gettext_lazy("House"),
    "market": gettext_lazy("Market"),
    "barracks": gettext_lazy("Barracks"),
    "temple": gettext_lazy("Temple"),
    "garden": gettext_lazy("Garden"),
    "house_plaza": gettext_lazy("House plaza"),
    "market_plaza": gettext_lazy("Market plaza"),
    "barracks_plaza": gettext_lazy("Barracks plaza"),
    "temple_plaza": gettext_lazy("Temple plaza"),
    "garden_plaza": gettext_lazy("Garden plaza"),
}
