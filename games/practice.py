"""What a finished practice game shows (games/services/practice.py starts one): the member's
result next to what the review estimated at the decision practised, in plain words."""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format

from games.models import PRACTICE_OPTION


def signed(points: float) -> str:
    """Points ahead (+) or behind (−), in the reader's number format: "+3.5", "−2", "0"."""
    if abs(points) < 0.05:
        return "0"
    sign = "+" if points > 0 else "\u2212"
    size = round(abs(points), 1)
    return sign + number_format(size, decimal_pos=0 if size == int(size) else 1)


def outcome(game: Any, scores: dict[str, Any], position: int | None) -> dict[str, Any] | None:
    """For the member's own board of a finished practice game: their score and their final
    score difference (own score minus the best other's, as the review counts it), the
    review's estimates for the move made and for the best move at the decision, and which of
    them the member reached. None for any other game or viewer."""
    start = game.options.get(PRACTICE_OPTION) if isinstance(game.options, dict) else None
    if start is None or position is None or int(start["seat"]) != position:
        return None
    totals = [int(t) for t in scores["totals"]]
    others = [t for seat, t in enumerate(totals) if seat != position]
    difference = totals[position] - max(others) if others else totals[position]
    value, best = float(start["value"]), float(start["best_value"])
    if difference >= best:
        reached = "best"
    elif difference > value:
        reached = "made"
    else:
        reached = "below"
    return {
        "game": start.get("game"),
        "number": start.get("number"),
        "score": totals[position],
        "difference": signed(difference),
        "value": signed(value),
        "best_value": signed(best),
        "same": abs(best - value) < 0.05,
        "reached": reached,
    }
