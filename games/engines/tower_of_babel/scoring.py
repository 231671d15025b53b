"""Scoring (spec §2.6, §2.9, §2.10): wonder awards, and the scores with their breakdown.

During play the scores are the points on the score track: completed wonders and rejected
offers. A finished game adds the final scoring of §2.9: unfinished wonders on the light
row, the disc set bonus and the action cards held.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from games.engines.tower_of_babel import data
from games.engines.tower_of_babel.state import OVER, State

CATEGORIES = ("wonders", "rejected_offers", "unfinished_wonders", "disc_sets", "action_cards")


def wonder_awards(units: tuple[int, ...], row: tuple[int, int]) -> tuple[int, ...]:
    """§2.6: points per seat for one wonder, from each seat's units and the (first, second)
    values of the scoring row. Only seats with parts take part."""
    first, second = row
    awards = [0] * len(units)
    participants = [s for s, u in enumerate(units) if u > 0]
    if not participants:
        return tuple(awards)
    top = max(units[s] for s in participants)
    leaders = [s for s in participants if units[s] == top]
    for s in participants:
        awards[s] = data.OTHERS_POINTS
    if len(leaders) >= 2:
        # A tie for first: the tied players take the second value, nobody is second.
        for s in leaders:
            awards[s] = second
        return tuple(awards)
    awards[leaders[0]] = first
    rest = [s for s in participants if s != leaders[0]]
    if rest:
        runner_up = max(units[s] for s in rest)
        seconds = [s for s in rest if units[s] == runner_up]
        # A tie for second: the tied players score like everybody else (3).
        if len(seconds) == 1:
            awards[seconds[0]] = second
    return tuple(awards)


def set_bonus(count: int) -> int:
    return data.SET_BONUS[min(count, len(data.SET_BONUS) - 1)]


def disc_set_bonus(discs: tuple[int, ...] | list[int]) -> int:
    """§2.9 step 3 and A12: the bonus per type; each two-type disc goes to whichever of its
    two types gives the owner the most."""
    return _set_bonus_of(tuple(sorted(discs)))


@lru_cache(maxsize=8192)
def _set_bonus_of(discs: tuple[int, ...]) -> int:
    counts = [0, 0, 0, 0]
    choices = []
    for disc in discs:
        types = [k for k, n in enumerate(data.DISCS[disc]) if n]
        if len(types) == 1:
            counts[types[0]] += 1
        else:
            choices.append(types)
    best = 0
    for assignment in product(*choices):
        trial = list(counts)
        for k in assignment:
            trial[k] += 1
        best = max(best, sum(set_bonus(c) for c in trial))
    return best


def action_card_points(actions: tuple[str, ...], discs: int) -> int:
    """§2.9 step 4: 5 points cards, and the disc bonus card per disc held (A9)."""
    points = 0
    for kind in actions:
        if kind == data.FIVE_POINTS:
            points += data.FIVE_POINTS_VALUE
        elif kind == data.DISC_BONUS:
            points += data.DISC_BONUS_PER_DISC * discs
    return points


def breakdown(state: State) -> list[dict[str, int]]:
    over = state.phase == OVER
    unfinished = [0] * state.players
    if over:
        # §2.9 step 2: every unfinished wonder with parts scores on the light row.
        for discs, units in zip(state.wonders, state.units, strict=True):
            if discs:
                for seat, points in enumerate(wonder_awards(units, data.LIGHT_ROW)):
                    unfinished[seat] += points
    result = []
    for seat in range(state.players):
        result.append(
            {
                "wonders": state.wonder_points[seat],
                "rejected_offers": state.offer_points[seat],
                "unfinished_wonders": unfinished[seat],
                "disc_sets": disc_set_bonus(state.discs[seat]) if over else 0,
                "action_cards": (
                    action_card_points(state.actions[seat], len(state.discs[seat])) if over else 0
                ),
            }
        )
    return result


def scores(state: State) -> dict[str, Any]:
    parts = breakdown(state)
    totals = [sum(p.values()) for p in parts]
    # §2.10, A22: most points wins and tied players share the victory; the ranking keeps
    # tied seats in seat order.
    ranking = sorted(range(state.players), key=lambda s: (-totals[s], s))
    best = totals[ranking[0]]
    winners = [s for s in ranking if totals[s] == best]
    # §2.9 step 3: the disc set bonus counts the discs each seat collected (at the end only).
    over = state.phase == OVER
    measures = [{"disc_sets": {"discs": len(discs)}} if over else {} for discs in state.discs]
    return {
        "totals": totals,
        "breakdown": parts,
        "ranking": ranking,
        "winners": winners,
        "measures": measures,
    }
