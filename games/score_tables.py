"""The score table and chart of a game's board, from the engine's scores in a seat's view:
rows per seat in ranking order, one column per scoring category, each category's points in
words where the rule scores a measure. `rendering.board_context` puts them in the board."""

from __future__ import annotations

import functools
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import boards, ratings

DEFAULT_COLOUR = "#999999"


# --- scores -----------------------------------------------------------------------------------


def category(slug: str, key: str) -> tuple[str, str]:
    """A category's label (in the active language) and colour."""
    return _category(get_language(), slug, key)


# The table is drawn for every viewpoint of every move, and its labels and cells were dozens
# of translations a board: each is kept per language (the catalogues do not change while the
# process runs), by all it depends on.
@functools.lru_cache(maxsize=512)
def _category(language: str | None, slug: str, key: str) -> tuple[str, str]:
    board = boards.get(slug)
    categories = board.CATEGORIES if board is not None else {}
    label, colour = categories.get(key, (None, DEFAULT_COLOUR))
    return (str(label) if label is not None else key.replace("_", " ").capitalize(), colour)


def score_cell(slug: str, key: str, points: int, measure: dict[str, int] | None) -> str:
    """A category's points, with what they counted where the rule scores a measure (the
    engine's scores["measures"], put in words by the game's board module): "6 (level 3)"."""
    return _score_cell(get_language(), slug, key, points, tuple(measure.items()) if measure else ())


@functools.lru_cache(maxsize=4096)
def _score_cell(
    language: str | None, slug: str, key: str, points: int, measured: tuple[tuple[str, int], ...]
) -> str:
    measure = dict(measured)
    board = boards.get(slug)
    words = None
    # A measure of nothing ("0 (0 tiles)") would only add noise.
    if measure and any(measure.values()) and board is not None:
        words = board.measure_text(key, measure)
    if not words:
        return str(points)
    return _("%(points)s (%(measure)s)") % {"points": points, "measure": words}


def score_table(
    scores: dict[str, Any],
    names: list[str],
    results: list[Any] | None = None,
    *,
    slug: str = "",
    seats: list[Any] | None = None,
) -> dict[str, Any]:
    """Rows per seat in ranking order, one column per scoring category.

    Once the end-of-game task has stored the results, their ranks decide the order and the
    winners (a seat that resigned ranks last whatever its bot scored), and each row shows the
    rating change; before that, the engine's ranking. A seat that resigned, or that a bot
    finished after a timeout, says so.
    """
    breakdown = scores.get("breakdown") or []
    measures = scores.get("measures") or []
    keys: list[str] = []
    for parts in breakdown:
        keys.extend(k for k in parts if k not in keys)
    if results:
        by_seat = {r.seat: r for r in results}
        order = [(r.rank, r.seat) for r in sorted(results, key=lambda r: (r.rank, r.seat))]
        winners = {r.seat for r in results if r.rank == 1}
    else:
        by_seat = {}
        ranking = scores.get("ranking") or list(range(len(names)))
        order = list(enumerate(ranking, start=1))
        winners = set(scores.get("winners", []))
    seat_rows = {s.position: s for s in seats or []}
    rows = []
    for place, seat in order:
        parts = breakdown[seat] if seat < len(breakdown) else {}
        measured = measures[seat] if seat < len(measures) else {}
        result = by_seat.get(seat)
        rated = result is not None and result.rating_after is not None
        row_seat = seat_rows.get(seat)
        resigned = bool(row_seat is not None and row_seat.resigned)
        rows.append(
            {
                "seat": seat,
                "place": place,
                "name": names[seat],
                "values": [parts.get(k, 0) for k in keys],
                "cells": [score_cell(slug, k, parts.get(k, 0), measured.get(k)) for k in keys],
                "total": scores["totals"][seat],
                "winner": seat in winners,
                "resigned": resigned,
                "timed_out": bool(row_seat is not None and row_seat.bot_took_over and not resigned),
                "bot": bool(row_seat is not None and row_seat.is_bot),
                # Where the name leads (games/templatetags/club_tags.name_link): the member's
                # profile, or the bot level's standing; an imported game's names lead nowhere.
                "username": (
                    row_seat.user.username
                    if row_seat is not None and row_seat.user_id and not row_seat.label
                    else ""
                ),
                "bot_level": (
                    row_seat.bot_level
                    if row_seat is not None and row_seat.user_id is None and not row_seat.label
                    else ""
                ),
                "rating": _rating(result) if rated else None,
            }
        )
    categories = [category(slug, k) for k in keys]
    return {
        "columns": [label for label, _colour in categories],
        "colours": [colour for _label, colour in categories],
        "keys": keys,
        "rows": rows,
        # The categories as rows under the standings, so that rank, name, total and rating
        # come first at any width; each says that its numbers are points.
        "categories": [
            _category_row(key, _heading(get_language(), label), i, rows)
            for i, (key, (label, _colour)) in enumerate(zip(keys, categories, strict=True))
        ],
        "rated": any(row["rating"] for row in rows),
    }


@functools.lru_cache(maxsize=512)
def _heading(language: str | None, label: str) -> str:
    return _("%(category)s (points)") % {"category": label}


def _category_row(key: str, heading: str, index: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A category's row under the standings, its cells in the standings' order; `html` is the
    table row, written here rather than by the template's loops: every board shows one per
    category (seven in Akropolis), and they were most of the score partial's time."""
    cells = [row["cells"][index] for row in rows]
    return {"key": key, "heading": heading, "cells": cells, "html": _row_html(key, heading, *cells)}


@functools.lru_cache(maxsize=4096)
def _row_html(key: str, heading: str, *cells: str) -> str:
    return format_html(
        '<tr data-category="{}"><th scope="row">{}</th>{}</tr>',
        key,
        heading,
        format_html_join("", "<td>{}</td>", ((cell,) for cell in cells)),
    )


def _rating(result: Any) -> dict[str, int]:
    before = ratings.display(result.rating_before)
    after = ratings.display(result.rating_after)
    return {"before": before, "after": after, "change": after - before}


def score_chart(table: dict[str, Any]) -> dict[str, Any]:
    """A stacked bar per seat, one segment per category (the end-of-game picture)."""
    bar_height, gap, label_width, width = 26, 12, 110, 320
    biggest = max([sum(max(v, 0) for v in row["values"]) for row in table["rows"]] + [1])
    bars = []
    for i, row in enumerate(table["rows"]):
        y = i * (bar_height + gap)
        x = float(label_width)
        segments = []
        for label, colour, value in zip(
            table["columns"], table["colours"], row["values"], strict=True
        ):
            if value <= 0:
                continue
            w = value / biggest * width
            segments.append(
                {
                    "x": round(x, 1),
                    "width": round(w, 1),
                    "value": value,
                    "label": label,
                    "fill": colour,
                }
            )
            x += w
        bars.append(
            {
                "y": y,
                "text_y": y + bar_height * 0.7,
                "name": row["name"],
                "total": row["total"],
                "end": round(x + 6, 1),
                "segments": segments,
            }
        )
    # The legend is laid out in HTML (templates/games/_scores.html), where labels of any
    # length, in any language, wrap instead of overprinting each other.
    legend = [
        {"label": label, "fill": colour}
        for label, colour in zip(table["columns"], table["colours"], strict=True)
    ]
    height = len(bars) * (bar_height + gap)
    return {
        "bars": bars,
        "bar_height": bar_height,
        "legend": legend,
        "width": label_width + width + 50,
        "height": max(height - gap, bar_height),
    }
