"""The review's chart: each seat's estimated final score difference over the game, as SVG
drawing data with axes, move numbers, a zero line, a legend and the costliest decisions
marked and linked, and the same data as rows of a table for screen readers.

Numbers in SVG attributes are written with a point in every language (a Hungarian or Polish
decimal comma would break the drawing); the numbers a reader reads (tick labels, the table)
are in the reader's format."""

from __future__ import annotations

import math
from typing import Any

from django.utils.formats import number_format

WIDTH = 640
PLOT_HEIGHT = 220
# Room for the value labels (left), the move numbers and the axis title (below).
LEFT, RIGHT, TOP, BELOW = 64, 16, 14, 46
LEGEND_ROW = 22
# Each seat's line is told apart by its dash pattern and marker shape, not only its colour.
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 5")
MARKERS = ("●", "■", "▲", "◆", "✕")


def svg_number(value: float) -> str:
    """A coordinate for an SVG attribute: one decimal, always with a point."""
    return f"{value:.1f}"


def nice_step(span: float, count: int) -> float:
    """A step of 1, 2 or 5 times a power of ten that cuts `span` into about `count` parts."""
    raw = max(span, 1e-9) / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    return next(f * power for f in (1, 2, 5, 10) if raw <= f * power)


def value_chart(
    decisions: list[dict[str, Any]],
    names: list[str],
    costliest: list[dict[str, Any]],
    link_query: str = "",
) -> dict[str, Any]:
    """The drawing data; `costliest` are the decisions to mark (each a decision of
    `decisions`), linked to `?move=N` plus `link_query`."""
    if not decisions:
        return {}
    last = max(d["number"] for d in decisions)
    values = [d["value"] for d in decisions]
    y_step = nice_step(max(max(values), 0.0) - min(min(values), 0.0) or 1.0, 5)
    top = math.ceil(max(max(values), 0.0) / y_step) * y_step or y_step
    bottom = math.floor(min(min(values), 0.0) / y_step) * y_step
    right = WIDTH - RIGHT
    plot_bottom = TOP + PLOT_HEIGHT

    def x(number: float) -> float:
        return LEFT + (right - LEFT) * (number - 1) / max(last - 1, 1)

    def y(value: float) -> float:
        return TOP + PLOT_HEIGHT * (top - value) / (top - bottom)

    decimals = 0 if y_step >= 1 else 1
    y_ticks = []
    steps = round((top - bottom) / y_step)
    for k in range(steps + 1):
        value = bottom + k * y_step
        y_ticks.append(
            {"y": svg_number(y(value)), "label": number_format(value, decimals, use_l10n=True)}
        )
    x_step = max(1, int(nice_step(last, 8)))
    x_numbers = sorted({1, *range(x_step, last + 1, x_step)})
    x_ticks = [{"x": svg_number(x(n)), "label": str(n)} for n in x_numbers]
    lines = []
    for seat, name in enumerate(names):
        own = [d for d in decisions if d["seat"] == seat]
        if not own:
            continue
        points = [(svg_number(x(d["number"])), svg_number(y(d["value"]))) for d in own]
        lines.append(
            {
                "seat": seat,
                "name": name,
                "points": " ".join(f"{px},{py}" for px, py in points),
                "dash": DASHES[seat % len(DASHES)],
                "marker": MARKERS[seat % len(MARKERS)],
                "dots": points,
            }
        )
    marked = [
        {
            "number": d["number"],
            "x": svg_number(x(d["number"])),
            "y": svg_number(y(d["value"])),
            "href": f"?move={d['number']}{link_query}",
            "name": names[d["seat"]],
            "cost": d["cost"],
        }
        for d in costliest
    ]
    legend_top = plot_bottom + BELOW
    legend = [
        {
            **line,
            "y": svg_number(legend_top + LEGEND_ROW * (k + 0.5)),
            "text_y": svg_number(legend_top + LEGEND_ROW * (k + 0.5) + 4),
        }
        for k, line in enumerate(lines)
    ]
    costly_row = legend_top + LEGEND_ROW * (len(lines) + 0.5)
    return {
        "width": WIDTH,
        "height": svg_number(legend_top + LEGEND_ROW * (len(lines) + 1) + 4),
        "left": svg_number(LEFT),
        "right": svg_number(right),
        "top": svg_number(TOP),
        "plot_bottom": svg_number(plot_bottom),
        "zero_y": svg_number(y(0.0)),
        "y_ticks": y_ticks,
        "x_ticks": x_ticks,
        "tick_label_x": svg_number(LEFT - 6),
        "x_label_y": svg_number(plot_bottom + 16),
        "x_title_y": svg_number(plot_bottom + 36),
        "x_title_x": svg_number((LEFT + right) / 2),
        "y_title_x": svg_number(14),
        "y_title_y": svg_number(TOP + PLOT_HEIGHT / 2),
        "lines": lines,
        "legend": legend,
        "costly": marked,
        "costly_legend_y": svg_number(costly_row),
        "legend_line_end": svg_number(LEFT + 28),
        "legend_marker_x": svg_number(LEFT + 14),
        "legend_text_x": svg_number(LEFT + 36),
        "costly_legend_text_y": svg_number(costly_row + 4),
        "rows": [
            {
                "number": d["number"],
                "name": names[d["seat"]],
                "value": d["value"],
                "cost": d["cost"],
                "costly": any(c["number"] == d["number"] for c in costliest),
            }
            for d in decisions
        ],
    }
