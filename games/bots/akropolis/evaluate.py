"""How good an Akropolis position is for one seat, for the bots (`games/bots/`).

`evaluate(state, seat)` is the seat's estimated final score minus the best estimate
among the other seats, in points. The estimate is the running score of spec §2.6 plus,
while turns remain, some credit for what is likely to pay later: districts waiting
for a plaza of their colour, plazas waiting for districts, and stones (which buy the
better tiles of the site). That credit shrinks to nothing as the game ends.

This is a heuristic, not the rules: to stay fast it treats only single empty positions
with six occupied neighbours as enclosed (spec §4.5 also encloses larger holes), and
final results always come from `ENGINE.scores`. Cities are immutable and shared between
states, so each city's estimate is cached by identity.

Two optional helpers serve the whole-turn search of `games/bots/turn_mcts.py`:
`information_key` (what a seat can see, to share work between determinizations) and
`turns` (a seat's best complete turns with their `evaluate` values, computed by
updating the city's score near each placement instead of rescoring whole states).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from games.bots import memo
from games.engines.akropolis import data, hexes, placement
from games.engines.akropolis.hexes import NEIGHBOURS
from games.engines.akropolis.state import PLACE, TAKE, City, Options, State

# Points that make a clear lead; MCTS squashes evaluations with it.
SCALE = 12.0
# The post-game review marks a decision that cost this many points (estimated) as a small,
# then a large loss (games/bots/advice.py).
REVIEW_THRESHOLDS = (2.0, 6.0)

# The whole-turn search (games/bots/turn_mcts.py) reads every turn of the bot's (fewer than
# a thousand), so that each tile it may take is weighed with its best placement: the best
# dozen turns by value are often placements of one tile.
SEARCH = {"spread": 1_000}

# Future credit per unit, at the start of the game (scaled down as turns run out).
DISTRICT_WITHOUT_PLAZA = 0.8  # per level of a qualifying district whose colour has no star
PLAZA_WITHOUT_DISTRICT = 1.5  # per star of a colour with no qualifying district yet
STONE = 0.5  # on top of the point each stone already scores

# Each entry keeps a city alive: bounded and released after each search (games/bots/memo.py).
_cache: memo.BoundedCache[tuple[City, tuple[int, ...], tuple[int, ...]]] = memo.BoundedCache()

# What each placement of a tile's hexes makes of a city (`_Placements.after`), by the city's
# content, the options and the hexes: one search ranks the same city with the same tile in
# many positions (an opponent's reply after each of the bot's placements of one tile), and
# each determinization builds its cities anew, so they are not shared by identity.
Placed = tuple[tuple[int, ...], tuple[int, ...], int]
_placed: memo.BoundedCache[tuple[Placed, ...]] = memo.BoundedCache()


def evaluate(state: State, seat: int) -> float:
    left = _progress_left(state)
    estimates = [
        _estimate(city, state.options, stones, left)
        for city, stones in zip(state.cities, state.stones, strict=True)
    ]
    others = [e for s, e in enumerate(estimates) if s != seat]
    return estimates[seat] - (max(others) if others else 0.0)


def _progress_left(state: State) -> float:
    """Share of the game's turns still to be played, from 1 at the start to 0 at the end."""
    per_round = state.players + 1
    left = len(state.site) - 1 + (1 if state.phase == PLACE else 0)
    left += len(state.stacks) * per_round
    total = state.turns_played + left
    return max(left, 0) / total if total else 0.0


def _estimate(city: City, options: Options, stones: int, left: float) -> float:
    values, stars = _city_values(city, options)
    return _combine(values, stars, stones, left)


def _combine(values: tuple[int, ...], stars: tuple[int, ...], stones: int, left: float) -> float:
    """Running score plus the future credit, from a city's per-colour values and stars."""
    score = float(stones)
    credit = STONE * stones
    for value, star in zip(values, stars, strict=True):
        score += value * star
        if star == 0:
            credit += DISTRICT_WITHOUT_PLAZA * value
        elif value == 0:
            credit += PLAZA_WITHOUT_DISTRICT * star
    return score + left * credit


def _city_values(city: City, options: Options) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per colour (house, market, barracks, temple, garden): qualifying value and stars."""
    key = (id(city), options)
    hit = _cache.get(key)
    if hit is not None and hit[0] is city:
        return hit[1], hit[2]
    values, stars = _score_parts(city, options)
    _cache.put(key, (city, values, stars))
    return values, stars


def _score_parts(city: City, options: Options) -> tuple[tuple[int, ...], tuple[int, ...]]:
    top = {pos: (stack[-1][0], len(stack)) for pos, stack in city.stacks.items()}
    variants = {data.VARIANTS[v] for v in options.variants}
    stars = dict.fromkeys("hmbtg", 0)
    by_colour: dict[str, list[int]] = {c: [] for c in "hmbtg"}
    for pos, (code, _level) in top.items():
        if code in data.PLAZA_STARS:
            stars[code.lower()] += data.PLAZA_STARS[code]
        elif code in by_colour:
            by_colour[code].append(pos)
    values = (
        _houses(top, by_colour["h"], "h" in variants),
        _markets(top, by_colour["m"], "m" in variants),
        _barracks(top, by_colour["b"], "b" in variants, options.lake_counts_as_edge),
        _temples(top, by_colour["t"], "t" in variants),
        _gardens(top, by_colour["g"], "g" in variants),
    )
    return values, tuple(stars[c] for c in "hmbtg")


def _houses(top: dict[int, tuple[str, int]], houses: list[int], doubled: bool) -> int:
    # §2.6, A3: the group with the most hexes, ties to the higher value.
    members = set(houses)
    seen: set[int] = set()
    best = (0, 0)
    for start in houses:
        if start in seen:
            continue
        seen.add(start)
        todo, size, value = [start], 0, 0
        while todo:
            pos = todo.pop()
            size += 1
            value += top[pos][1]
            for d in NEIGHBOURS:
                n = pos + d
                if n in members and n not in seen:
                    seen.add(n)
                    todo.append(n)
        best = max(best, (size, value))
    value = best[1]
    return 2 * value if doubled and value >= data.HOUSES_VARIANT_MIN_VALUE else value


def _markets(top: dict[int, tuple[str, int]], markets: list[int], doubled: bool) -> int:
    return sum(_market(top, pos, doubled) for pos in markets)


def _market(top: dict[int, tuple[str, int]], pos: int, doubled: bool) -> int:
    around = [top[pos + d][0] for d in NEIGHBOURS if pos + d in top]
    if "m" in around:
        return 0
    level = top[pos][1]
    return 2 * level if doubled and "M" in around else level


def _is_lake(top: dict[int, tuple[str, int]], pos: int) -> bool:
    return pos not in top and all(pos + d in top for d in NEIGHBOURS)


def _barracks(
    top: dict[int, tuple[str, int]], barracks: list[int], doubled: bool, lakes_count: bool
) -> int:
    return sum(_barrack(top, pos, doubled, lakes_count) for pos in barracks)


def _barrack(top: dict[int, tuple[str, int]], pos: int, doubled: bool, lakes_count: bool) -> int:
    # A4/A6: lakes make no edge unless the host's option says they do.
    empty = [pos + d for d in NEIGHBOURS if pos + d not in top]
    edge = empty if lakes_count else [p for p in empty if not _is_lake(top, p)]
    if not edge:
        return 0
    level = top[pos][1]
    return 2 * level if doubled and len(edge) >= data.BARRACKS_VARIANT_MIN_EMPTY else level


def _temples(top: dict[int, tuple[str, int]], temples: list[int], doubled: bool) -> int:
    return sum(_temple(top, pos, doubled) for pos in temples)


def _temple(top: dict[int, tuple[str, int]], pos: int, doubled: bool) -> int:
    if not all(pos + d in top for d in NEIGHBOURS):
        return 0
    level = top[pos][1]
    return 2 * level if doubled and level >= 2 else level


def _gardens(top: dict[int, tuple[str, int]], gardens: list[int], doubled: bool) -> int:
    return sum(_garden(top, pos, doubled) for pos in gardens)


def _garden(top: dict[int, tuple[str, int]], pos: int, doubled: bool) -> int:
    level = top[pos][1]
    by_lake = doubled and any(_is_lake(top, pos + d) for d in NEIGHBOURS)
    return 2 * level if by_lake else level


# Colour order of the value and star tuples.
_COLOURS = "hmbtg"
_COLOUR_INDEX = {c: i for i, c in enumerate(_COLOURS)}


def _regions(k: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Offsets from the anchor of the positions a placement with rotation k can affect:
    its own three and their neighbours ("near"), and one ring further out ("far")."""
    own = set(hexes.targets(0, k))
    near = own | {p + d for p in own for d in NEIGHBOURS}
    far = {p + d for p in near for d in NEIGHBOURS} - near
    return tuple(sorted(near)), tuple(sorted(far))


_NEAR, _FAR = zip(*(_regions(k) for k in range(6)), strict=True)


class _Placements:
    """Values and stars of one city after each of its candidate placements.

    A placement changes the visible hexes at its three positions only, so the
    qualification of a market, temple, barracks or garden can change only near them:
    markets and temples look at their neighbours, and barracks and gardens also at
    lakes, which a new tile can close one position further out. Those are recomputed;
    the rest of the city keeps its contributions. House groups are global and are
    rebuilt. The results equal `_score_parts` of the placed city.
    """

    def __init__(self, city: City, options: Options) -> None:
        self.stacks = city.stacks
        self.top = city.top()
        self.variants = {data.VARIANTS[v] for v in options.variants}
        self.lakes_count = options.lake_counts_as_edge
        self.local = {pos: self._local(self.top, pos) for pos in self.top}
        values = [0] * len(_COLOURS)
        for colour, value in self.local.values():
            values[colour] += value
        self.houses = [pos for pos, (code, _) in self.top.items() if code == "h"]
        values[0] = _houses(self.top, self.houses, "h" in self.variants)
        self.values = values
        stars = [0] * len(_COLOURS)
        for code, _ in self.top.values():
            if code in data.PLAZA_STARS:
                stars[_COLOUR_INDEX[code.lower()]] += data.PLAZA_STARS[code]
        self.stars = stars

    def _local(self, top: dict[int, tuple[str, int]], pos: int) -> tuple[int, int]:
        """(colour index, value) of the district at `pos`; houses and others count 0."""
        code = top[pos][0]
        if code == "m":
            return 1, _market(top, pos, "m" in self.variants)
        if code == "b":
            return 2, _barrack(top, pos, "b" in self.variants, self.lakes_count)
        if code == "t":
            return 3, _temple(top, pos, "t" in self.variants)
        if code == "g":
            return 4, _garden(top, pos, "g" in self.variants)
        return 0, 0

    def after(
        self, codes: str, anchor: int, k: int
    ) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """Values, stars and quarries covered when a tile of `codes` goes at (anchor, k)."""
        targets = hexes.targets(anchor, k)
        level = len(self.stacks.get(anchor, ())) + 1
        top = self.top.copy()
        stars = self.stars.copy()
        quarries = 0
        for pos, code in zip(targets, codes, strict=True):
            below = top.get(pos)
            if below is not None:
                if below[0] == data.QUARRY:
                    quarries += 1
                elif below[0] in data.PLAZA_STARS:
                    stars[_COLOUR_INDEX[below[0].lower()]] -= data.PLAZA_STARS[below[0]]
            if code in data.PLAZA_STARS:
                stars[_COLOUR_INDEX[code.lower()]] += data.PLAZA_STARS[code]
            top[pos] = (code, level)
        values = self.values.copy()
        for offset in _NEAR[k]:
            self._swap(values, top, anchor + offset)
        for offset in _FAR[k]:
            # Only lakes reach this far, and only barracks and gardens look at lakes.
            pos = anchor + offset
            if pos in top and top[pos][0] in "bg":
                self._swap(values, top, pos)
        houses = [p for p in self.houses if p not in targets]
        houses += [p for p, code in zip(targets, codes, strict=True) if code == "h"]
        values[0] = _houses(top, houses, "h" in self.variants)
        return tuple(values), tuple(stars), quarries

    def _swap(self, values: list[int], top: dict[int, tuple[str, int]], pos: int) -> None:
        old = self.local.get(pos)
        if old is not None:
            values[old[0]] -= old[1]
        if pos in top:
            colour, value = self._local(top, pos)
            values[colour] += value


class _Placed:
    """`_Placements.after` of every legal placement (`codes`, sorted) of a tile's hexes in
    one city, shared through `_placed` by every city of the same content; the placements'
    scoring is set up only for a city and hexes not seen before."""

    def __init__(self, city: City, options: Options, codes: tuple[int, ...]) -> None:
        self.city = city
        self.options = options
        self.codes = codes
        self.content = (frozenset(city.stacks.items()), options)
        self.placements: _Placements | None = None

    def of(self, hex_codes: str) -> tuple[Placed, ...]:
        key = (self.content, hex_codes)
        found = _placed.get(key)
        if found is None:
            if self.placements is None:
                self.placements = _Placements(self.city, self.options)
            after = self.placements.after
            # Many placements leave the same values; one tuple of each is kept.
            alike: dict[Placed, Placed] = {}
            found = tuple(
                alike.setdefault(placed, placed)
                for placed in (after(hex_codes, code >> 3, code & 7) for code in self.codes)
            )
            _placed.put(key, found)
        return found


def information_key(state: State, seat: int) -> Hashable:
    """Equal for states that differ only in the face-down stacks (spec §5: everything
    else is public), which is all a seat cannot see; bots cache their work by it."""
    return (
        state.phase,
        state.current,
        state.chief,
        state.round,
        state.site,
        state.taken,
        state.stones,
        len(state.stacks),
        tuple(frozenset(city.stacks.items()) for city in state.cities),
    )


def turns(state: State, seat: int, limit: int) -> list[tuple[float, list[dict[str, Any]]]]:
    """The `limit` best complete turns of `seat`, best first, as (value, moves).

    Each value is exactly `evaluate` of the position after the turn, but computed
    without building whole states: only the seat's city and stones change during its
    turn, so the other seats' estimates are shared by every candidate. A turn from the
    take phase is a take move and a place move; from the place phase, a place move.
    """
    if state.phase not in (TAKE, PLACE) or seat != state.current:
        return []
    city = state.cities[seat]
    codes = placement.legal_placements(city)
    per_round = state.players + 1
    left_now = len(state.site) - 1 + (1 if state.phase == PLACE else 0)
    left_now += len(state.stacks) * per_round
    total = state.turns_played + left_now
    # The turn being chosen is played, so one turn fewer remains after it (a refill
    # moves turns from the stacks to the site and leaves this count unchanged).
    left = max(left_now - 1, 0) / total if total else 0.0
    others = [
        _estimate(c, state.options, stones, left)
        for s, (c, stones) in enumerate(zip(state.cities, state.stones, strict=True))
        if s != seat
    ]
    best_other = max(others) if others else 0.0
    choices: list[tuple[int | None, int]]
    if state.phase == TAKE:
        choices = [(i, state.site[i]) for i in range(min(len(state.site), state.stones[seat] + 1))]
    else:
        assert state.taken is not None
        choices = [(None, state.taken)]
    scored: list[tuple[float, int, int | None, int]] = []
    order = 0
    placed = _Placed(city, state.options, codes)
    for index, tile in choices:
        stones = state.stones[seat] - (index or 0)
        for code, (values, stars, quarries) in zip(
            codes, placed.of(data.TILES[tile][1]), strict=True
        ):
            value = _combine(values, stars, stones + quarries, left) - best_other
            scored.append((-value, order, index, code))
            order += 1
    scored.sort()
    result = []
    for negative, _, index, code in scored[:limit]:
        q, r, k = placement.decode(code)
        moves = [] if index is None else [{"type": "take_tile", "index": index}]
        moves.append({"type": "place_tile", "q": q, "r": r, "rotation": k})
        result.append((-negative, moves))
    return result
