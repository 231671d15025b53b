"""The parts of The Hanging Gardens' board written here as SVG and HTML text rather than by the
templates: the squares of gardens and cards, the places a card may go, and the list of
placements. A mover's board holds hundreds of them (every place of every card in every
rotation, each with its label), and the template engine took most of the board's drawing to
write them one tag at a time.

Numbers are Python's own (never localised); every text a member or a translation may have
written goes through `escape`, as the template's autoescape did.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def squares_svg(squares: Iterable[dict[str, Any]]) -> SafeString:
    """Squares (`drawing.square`), each a group with its title, its colour and the motif's
    symbol; a line of their own, as the template they replace wrote them."""
    parts = []
    for s in squares:
        last = " hg-last" if s.get("last") else ""
        symbol = f'<path class="hg-symbol" d="{s["symbol"]}"/>' if s["symbol"] else ""
        parts.append(
            f'<g class="hg-square hg-{s["kind"]}{last}"><title>{escape(s["title"])}</title>'
            f'<rect x="{s["x"]}" y="{s["y"]}" width="{s["size"]}" height="{s["size"]}"'
            f' fill="{s["fill"]}"/>{symbol}</g>'
        )
    parts.append("\n")
    return mark_safe("".join(parts))


def last_outlines_svg(squares: Iterable[dict[str, Any]]) -> SafeString:
    """An outline round each square the last turn built on, drawn over the garden."""
    return mark_safe(
        "".join(
            f'<rect class="hg-last-outline" x="{s["x"]}" y="{s["y"]}" width="{s["size"]}"'
            f' height="{s["size"]}"/>'
            for s in squares
            if s["last"]
        )
    )


def places_svg(places: Iterable[dict[str, Any]]) -> SafeString:
    """The places a card in one rotation may go: a square to point at each, named in words."""
    return mark_safe(
        "".join(
            f'<rect class="hg-spot" x="{p["x"]}" y="{p["y"]}" width="28" height="28"'
            f' data-x="{p["gx"]}" data-y="{p["gy"]}" data-roving-item tabindex="-1"'
            f' role="button" aria-label="{escape(p["label"])}"/>'
            for p in places
        )
    )


def placement_options(label: str, options: Iterable[dict[str, Any]]) -> SafeString:
    """The list's choices of one card: each placement as the move it posts."""
    card = escape(label)
    return mark_safe(
        "".join(
            f'<option value="{escape(o["value"])}" data-key="{escape(o["key"])}">'
            f"{card}, {escape(o['label'])}</option>"
            for o in options
        )
    )
