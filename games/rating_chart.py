"""A member's rating in one game, drawn: the profile's chart (games/_rating_chart.html).

The chart explains itself: a caption, a value axis with round values, a date axis,
and each rated game a point that takes the focus (a tap focuses it too) and then shows, in
the band above the plot, the game, its date, the member's place and the rating after it.
Every number in the SVG is a plain int (DESIGN: SVG numbers are never localized); the words
are made here once per point, since a chart has up to CHART_POINTS of them and a template tag
per point adds up. One game draws nothing: the template says it in a sentence.
"""

from __future__ import annotations

from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

# The drawing area in SVG units; the picture scales to its box. The band above the plot
# holds the focused point's words.
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 480, 210, 48, 16, 40, 28
# Round steps for the value axis, and how many values it shows at least.
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MIN_TICKS = 3


def value_ticks(low: int, high: int) -> list[int]:
    """Round values from at or below `low` to at or above `high`: the largest step that still
    gives MIN_TICKS values or more."""
    for step in reversed(STEPS):
        first, last = (low // step) * step, -(-high // step) * step
        if (last - first) // step + 1 >= MIN_TICKS:
            return list(range(first, last + 1, step))
    return list(range((low // 5) * 5, -(-high // 5) * 5 + 1, 5))


def signed(change: int) -> str:
    return f"+{change}" if change >= 0 else f"-{-change}"


def rating_chart(points: list[dict[str, Any]]) -> dict[str, Any]:
    """`points`, oldest first: game_id, date, rating (after), before, place, players."""
    for point in points:
        point["day"] = formats.date_format(timezone.localtime(point["date"]), "SHORT_DATE_FORMAT")
        point["change"] = signed(point["rating"] - point["before"])
        point["label"] = _(
            "Game #%(number)s, %(date)s: placed %(place)s of %(players)s, "
            "rating %(rating)s (%(change)s)"
        ) % {
            "number": point["game_id"],
            "date": point["day"],
            "place": point["place"],
            "players": point["players"],
            "rating": point["rating"],
            "change": point["change"],
        }
    chart: dict[str, Any] = {
        "points": points,
        "first": points[0]["rating"],
        "last": points[-1]["rating"],
        "single": len(points) == 1,
    }
    if len(points) == 1:
        return chart
    values = [p["rating"] for p in points]
    ticks = value_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    step = (right - LEFT) / (len(points) - 1)

    def y_of(value: int) -> int:
        return bottom - round((value - low) * (bottom - TOP) / (high - low))

    for i, point in enumerate(points):
        point["x"], point["y"] = LEFT + round(i * step), y_of(point["rating"])
    # The first, the middle and the last game's dates (two when there are only two games).
    dated = sorted({0, (len(points) - 1) // 2, len(points) - 1}) if len(points) > 2 else [0, 1]
    chart.update(
        {
            "width": WIDTH,
            "height": HEIGHT,
            "left": LEFT,
            "right": right,
            "top": TOP,
            "bottom": bottom,
            "readout_y": TOP - 16,
            "values": [{"value": v, "y": y_of(v)} for v in ticks],
            "dates": [
                {"day": points[i]["day"], "x": points[i]["x"], "anchor": anchor(i, len(points))}
                for i in dated
            ],
            "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        }
    )
    return chart


def anchor(index: int, count: int) -> str:
    """A date label's alignment: the first starts at its point, the last ends at it."""
    if index == 0:
        return "start"
    return "end" if index == count - 1 else "middle"
