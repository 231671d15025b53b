"""The Hanging Gardens in words: a card by its motifs, a place by where it lies in
the garden, a group by its motif and size. The move log, the choices and the screen-reader
labels all use these, so nobody reads grid coordinates or card numbers.

Rows and columns are counted from the top left square of the garden as it is before the move
(1 is the top row, the left column); a card that reaches past the garden lies on its edge.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from django.utils.translation import get_language, npgettext, pgettext

BUILDING = "."
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 of the garden's squares, inclusive


def motif_count(motif: str, count: int) -> str:
    forms = {
        "T": ("%(count)s terrace", "%(count)s terraces"),
        "P": ("%(count)s park", "%(count)s parks"),
        "A": ("%(count)s arcade", "%(count)s arcades"),
        "F": ("%(count)s fountain", "%(count)s fountains"),
    }
    one, many = forms[motif]
    return npgettext("hanging gardens", one, many, count) % {"count": count}


def listing(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return pgettext("hanging gardens", "%(items)s and %(last)s") % {
        "items": ", ".join(parts[:-1]),
        "last": parts[-1],
    }


def card_words(motifs: dict[str, int]) -> str:
    """ "a card with 2 terraces and 1 fountain", from the motifs the card shows."""
    parts = [motif_count(m, motifs[m]) for m in "TPAF" if motifs.get(m)]
    if not parts:
        return pgettext("hanging gardens", "a card of building spaces only")
    return pgettext("hanging gardens", "a card with %(motifs)s") % {"motifs": listing(parts)}


def card_motifs(rows: list[str]) -> dict[str, int]:
    """{motif: count} of a card in the engine's row notation (building spaces left out)."""
    counts = Counter(square for row in rows for square in row)
    return {m: counts[m] for m in "TPAF" if counts[m]}


def garden_box(cells: Any) -> Box:
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), min(ys), max(xs), max(ys)


def _span(first: int, last: int, kind: str) -> str:
    if first == last:
        one = {
            "row": pgettext("hanging gardens", "row %(number)s"),
            "column": pgettext("hanging gardens", "column %(number)s"),
        }
        return one[kind] % {"number": first}
    many = {
        "row": pgettext("hanging gardens", "rows %(first)s–%(last)s"),
        "column": pgettext("hanging gardens", "columns %(first)s–%(last)s"),
    }
    return many[kind] % {"first": first, "last": last}


def _side(low: int, high: int, box_low: int, box_high: int) -> str:
    """Where a span lies along one axis: "before", "after", "across" or "inside"."""
    before, after = low < box_low, high > box_high
    if before and after:
        return "across"
    return "before" if before else "after" if after else "inside"


def _axis(low: int, high: int, box_low: int, box_high: int, kind: str) -> str:
    """The rows (or columns) of the garden a card covers, and how far it reaches past them:
    "rows 2–3 and 1 row below"."""
    text = _span(max(low, box_low) - box_low + 1, min(high, box_high) - box_low + 1, kind)
    past = {
        ("row", "before"): (
            "%(span)s and %(count)s row above",
            "%(span)s and %(count)s rows above",
        ),
        ("row", "after"): ("%(span)s and %(count)s row below", "%(span)s and %(count)s rows below"),
        ("column", "before"): (
            "%(span)s and %(count)s column to the left",
            "%(span)s and %(count)s columns to the left",
        ),
        ("column", "after"): (
            "%(span)s and %(count)s column to the right",
            "%(span)s and %(count)s columns to the right",
        ),
    }
    for side, count in (("before", box_low - low), ("after", high - box_high)):
        if count > 0:
            one, many = past[(kind, side)]
            text = npgettext("hanging gardens", one, many, count) % {"span": text, "count": count}
    return text


def place_words(box: Box, x: int, y: int, width: int, height: int) -> str:
    """Where a card of `width` × `height` squares with its top left square at (x, y) lies:
    "on the right edge: rows 1–2, column 4 and 1 column to the right"; every place of a card
    in one rotation reads differently."""
    return _place_words(get_language(), box, x, y, width, height)


@functools.lru_cache(maxsize=8192)
def _place_words(language: str | None, box: Box, x: int, y: int, width: int, height: int) -> str:
    """`place_words` in `language` (the active one, which `pgettext` reads), kept: a mover's
    board names each legal place twice (its square to point at and its choice in the list),
    and the same places again on the next board, each name a dozen lookups of translations."""
    x0, y0, x1, y1 = box
    across = _side(x, x + width - 1, x0, x1)
    down = _side(y, y + height - 1, y0, y1)
    values = {
        "rows": _axis(y, y + height - 1, y0, y1, "row"),
        "columns": _axis(x, x + width - 1, x0, x1, "column"),
    }
    corners = {
        ("before", "before"): pgettext(
            "hanging gardens", "at the top left corner: %(rows)s, %(columns)s"
        ),
        ("after", "before"): pgettext(
            "hanging gardens", "at the top right corner: %(rows)s, %(columns)s"
        ),
        ("before", "after"): pgettext(
            "hanging gardens", "at the bottom left corner: %(rows)s, %(columns)s"
        ),
        ("after", "after"): pgettext(
            "hanging gardens", "at the bottom right corner: %(rows)s, %(columns)s"
        ),
    }
    sides = {
        "before": pgettext("hanging gardens", "on the left edge: %(rows)s, %(columns)s"),
        "after": pgettext("hanging gardens", "on the right edge: %(rows)s, %(columns)s"),
    }
    ends = {
        "before": pgettext("hanging gardens", "on the top edge: %(rows)s, %(columns)s"),
        "after": pgettext("hanging gardens", "on the bottom edge: %(rows)s, %(columns)s"),
    }
    if (across, down) in corners:
        text = corners[(across, down)]
    elif across in sides:
        text = sides[across]
    elif down in ends:
        text = ends[down]
    else:
        text = pgettext("hanging gardens", "over %(rows)s, %(columns)s")
    return text % values


def square_words(box: Box, x: int, y: int) -> str:
    """ "row 2, column 3" of the garden."""
    return pgettext("hanging gardens", "row %(row)s, column %(column)s") % {
        "row": y - box[1] + 1,
        "column": x - box[0] + 1,
    }


def group_words(motif: str, size: int) -> str:
    """ "the group of 5 parks"."""
    forms = {
        "T": ("the group of %(count)s terrace", "the group of %(count)s terraces"),
        "P": ("the group of %(count)s park", "the group of %(count)s parks"),
        "A": ("the group of %(count)s arcade", "the group of %(count)s arcades"),
        "F": ("the group of %(count)s fountain", "the group of %(count)s fountains"),
    }
    if motif not in forms:
        return pgettext("hanging gardens", "a building space")
    one, many = forms[motif]
    return npgettext("hanging gardens", one, many, size) % {"count": size}
