"""Scoring (spec §2.6, §2.7, §4.5). Works on any state, so it doubles as a running score."""

from __future__ import annotations

from typing import Any

from games.engines.akropolis import data
from games.engines.akropolis.hexes import NEIGHBOURS, WIDTH
from games.engines.akropolis.state import City, Options, State


def scores(state: State) -> dict[str, Any]:
    cities = [
        city_scoring(city, state.options, stones)
        for city, stones in zip(state.cities, state.stones, strict=True)
    ]
    breakdown = [points for points, _ in cities]
    totals = [sum(parts.values()) for parts in breakdown]
    # §2.6: most points, then most stones; A14: a full tie is a shared victory, and
    # otherwise tied seats keep seat order in the ranking.
    ranking = sorted(range(state.players), key=lambda s: (-totals[s], -state.stones[s], s))
    best = ranking[0]
    winners = [
        s for s in ranking if totals[s] == totals[best] and state.stones[s] == state.stones[best]
    ]
    return {
        "totals": totals,
        "breakdown": breakdown,
        "ranking": ranking,
        "winners": winners,
        # §2.6: each colour's points are its districts' value times its plazas' stars.
        "measures": [measured for _, measured in cities],
    }


def city_scoring(
    city: City, options: Options, stones: int
) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """(points per category, and per colour the value and the stars they multiply)."""
    if city.scoring is None or city.scoring[0] != options:
        object.__setattr__(city, "scoring", (options, *_values_and_stars(city, options)))
    assert city.scoring is not None
    _, values, stars = city.scoring
    result = {name: values[code] * stars[code] for code, name in data.COLOURS.items()}
    result["stones"] = stones
    measured = {
        name: {"value": values[code], "stars": stars[code]} for code, name in data.COLOURS.items()
    }
    return result, measured


def _values_and_stars(city: City, options: Options) -> tuple[dict[str, int], dict[str, int]]:
    """Per colour code, the value of the city's districts and the stars of its plazas."""
    top = city.top()
    enclosed = enclosed_empty(top.keys())
    lakes = _lakes(top, enclosed, options)
    variants = {data.VARIANTS[v] for v in options.variants}
    stars = dict.fromkeys(data.COLOURS, 0)
    for code, _level in top.values():
        if code in data.PLAZA_STARS:
            stars[code.lower()] += data.PLAZA_STARS[code]
    values = {
        "h": _house_value(top, "h" in variants),
        "m": _market_value(top, "m" in variants),
        "b": _barracks_value(top, enclosed, options, "b" in variants),
        "t": _temple_value(top, "t" in variants),
        "g": _garden_value(top, lakes, "g" in variants),
    }
    return values, stars


def enclosed_empty(occupied: Any) -> set[int]:
    """Spec §4.5: empty positions that the open area outside the city cannot reach."""
    if not occupied:
        return set()
    qs = [p // WIDTH for p in occupied]
    rs = [p % WIDTH for p in occupied]
    q_lo, q_hi, r_lo, r_hi = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = q_lo * WIDTH + r_lo
    reached = {start}
    todo = [start]
    while todo:
        pos = todo.pop()
        for d in NEIGHBOURS:
            n = pos + d
            if n in reached or n in occupied:
                continue
            if q_lo <= n // WIDTH <= q_hi and r_lo <= n % WIDTH <= r_hi:
                reached.add(n)
                todo.append(n)
    return {
        q * WIDTH + r
        for q in range(q_lo, q_hi + 1)
        for r in range(r_lo, r_hi + 1)
        if q * WIDTH + r not in occupied and q * WIDTH + r not in reached
    }


def _lakes(top: dict[int, tuple[str, int]], enclosed: set[int], options: Options) -> set[int]:
    # A5: by default a lake is one empty position with six occupied neighbours.
    if options.lake_is_enclosed_region:
        return enclosed
    return {p for p in enclosed if all(p + d in top for d in NEIGHBOURS)}


def _house_value(top: dict[int, tuple[str, int]], doubled: bool) -> int:
    # §2.6 and A3: only the group with the most hexes scores; ties go to the higher value.
    houses = {p: level for p, (code, level) in top.items() if code == "h"}
    best = (0, 0)
    seen: set[int] = set()
    for start in houses:
        if start in seen:
            continue
        seen.add(start)
        todo, size, value = [start], 0, 0
        while todo:
            pos = todo.pop()
            size += 1
            value += houses[pos]
            for d in NEIGHBOURS:
                n = pos + d
                if n in houses and n not in seen:
                    seen.add(n)
                    todo.append(n)
        best = max(best, (size, value))
    value = best[1]
    # §2.7 houses variant, A18: threshold on the value before stars.
    if doubled and value >= data.HOUSES_VARIANT_MIN_VALUE:
        return 2 * value
    return value


def _codes_around(top: dict[int, tuple[str, int]], pos: int) -> list[str]:
    return [top[pos + d][0] for d in NEIGHBOURS if pos + d in top]


def _market_value(top: dict[int, tuple[str, int]], doubled: bool) -> int:
    total = 0
    for pos, (code, level) in top.items():
        if code != "m":
            continue
        around = _codes_around(top, pos)
        if "m" in around:
            continue
        total += 2 * level if doubled and "M" in around else level
    return total


def _barracks_value(
    top: dict[int, tuple[str, int]], enclosed: set[int], options: Options, doubled: bool
) -> int:
    total = 0
    for pos, (code, level) in top.items():
        if code != "b":
            continue
        empty = [pos + d for d in NEIGHBOURS if pos + d not in top]
        # A4/A6: by default only empty positions open to the outside make an edge.
        if not options.lake_counts_as_edge:
            empty = [p for p in empty if p not in enclosed]
        if not empty:
            continue
        if doubled and len(empty) >= data.BARRACKS_VARIANT_MIN_EMPTY:
            total += 2 * level
        else:
            total += level
    return total


def _temple_value(top: dict[int, tuple[str, int]], doubled: bool) -> int:
    total = 0
    for pos, (code, level) in top.items():
        if code == "t" and all(pos + d in top for d in NEIGHBOURS):
            total += 2 * level if doubled and level >= 2 else level
    return total


def _garden_value(top: dict[int, tuple[str, int]], lakes: set[int], doubled: bool) -> int:
    total = 0
    for pos, (code, level) in top.items():
        if code == "g":
            by_lake = doubled and any(pos + d in lakes for d in NEIGHBOURS)
            total += 2 * level if by_lake else level
    return total
