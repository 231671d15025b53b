"""Final scoring (spec §2.11) and the winner (§2.12).

Only point tiles score. A series kind scores its running total, a complete series starting
over; a person scores 3, or its higher value beside a complete related series; the guard
scores 3 per gate; each missing tile is 5 points.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from games.engines.hanging_gardens import data
from games.engines.hanging_gardens.state import State

CATEGORIES = (*data.SERIES_KINDS, *data.PERSON_KINDS, "missing")


def series_points(kind: str, count: int) -> int:
    """Spec §2.11: `(n div L) * v[L] + v[n mod L]` for n tiles of a series of length L."""
    values = data.SERIES_VALUES[kind]
    complete, rest = divmod(count, len(values))
    return complete * values[-1] + (values[rest - 1] if rest else 0)


def person_points(person: str, counts: Counter[str]) -> int:
    if person == data.GUARD:
        return data.GUARD_PER_GATE * counts[data.GATE]
    kind, alone, complete = data.PERSONS[person]
    # §7.12: the higher value once, with at least one complete related series.
    return complete if counts[kind] >= len(data.SERIES_VALUES[kind]) else alone


def breakdown(tiles: Iterable[str], missing: int) -> dict[str, int]:
    """Points per category for one player's tiles (every category present, 0 if unused)."""
    counts = Counter(tiles)
    parts = {kind: series_points(kind, counts[kind]) for kind in data.SERIES_KINDS}
    for person in data.PERSON_KINDS:
        parts[person] = person_points(person, counts) if counts[person] else 0
    parts["missing"] = data.MISSING_TILE_POINTS * missing
    return parts


def measures(tiles: Iterable[str], missing: int) -> dict[str, dict[str, int]]:
    """What the counted categories counted (§2.11): the tiles of each series kind, the gates
    a guard scores, and the missing tiles."""
    counts = Counter(tiles)
    result = {kind: {"tiles": counts[kind]} for kind in data.SERIES_KINDS}
    if counts[data.GUARD]:
        result[data.GUARD] = {"gates": counts[data.GATE]}
    result["missing"] = {"tiles": missing}
    return result


def rank(totals: list[int], tile_counts: list[int]) -> tuple[list[int], list[int]]:
    """(ranking, winners): most points, then most tiles (§2.12); a tie on both is shared,
    and tied seats keep seat order in the ranking."""
    ranking = sorted(range(len(totals)), key=lambda s: (-totals[s], -tile_counts[s], s))
    best = ranking[0]
    winners = [
        s for s in ranking if totals[s] == totals[best] and tile_counts[s] == tile_counts[best]
    ]
    return ranking, winners


def scores(state: State) -> dict[str, Any]:
    """Every tile counts, hidden ones included (§2.11: all tiles are revealed)."""
    held = [o + h for o, h in zip(state.open_tiles, state.hidden_tiles, strict=True)]
    parts = [breakdown(tiles, m) for tiles, m in zip(held, state.missing, strict=True)]
    totals = [sum(p.values()) for p in parts]
    ranking, winners = rank(totals, [len(t) for t in held])
    return {
        "totals": totals,
        "breakdown": parts,
        "ranking": ranking,
        "winners": winners,
        "tiles": [len(t) for t in held],
        "measures": [measures(t, m) for t, m in zip(held, state.missing, strict=True)],
    }
