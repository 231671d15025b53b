"""Tournament pairing and standings, pure Python (no Django, no clock, no global random).

A member is any hashable id (the site uses registration ids); a bot seat is `BOT` (None): a
placeholder that completes a table, plays for the table's result and is never ranked.

Swiss (`pair_swiss`): the members in standing order fill the tables top down; a member whose
table would hold someone they met before is passed over for the next member in the order
who brings fewer repeats, and then swaps of two members between tables are made while one
lowers the number of repeated meetings, so every round is swap-optimal: no exchange of two
members between two of its tables makes fewer members meet again; and no exchange that adds no
repeat would seat a better-placed member at a higher table. A round of at most `EXACT_UP_TO`
members (a small club's tournament) is searched whole instead: it has the fewest repeats any
seating of it can have, and of those seatings the one closest to the standings (the greatest
sum of table number times standing position, which the exchanges above also raise).

Round robin (`round_robin`): groups of table size squared (q members, q = table size): a
group plays q + 1 rounds of q tables, the parallel classes of the affine plane of order q
(2, 3, 4, 5 are all prime powers), so every pair in a group meets exactly once. A last group
that is not full keeps its seats as bots; a table of bots only is not played.

A round never has a table of bots only, and in Swiss fewer bots than the table size; bots sit
at the tables lowest in the standings, at most one more at any table than at another.

Tournament points (`table_points`): at a table of n seats, first place gets n - 1 points, the
next n - 2, ... the last 0; a shared place shares the points of the places it covers.
Standings (`standings`) order by, in turn: tournament points, the sum of one's game scores,
the tournament points of one's opponents (Buchholz: every member one sat with, once per
meeting, bots left out), and then the order of entry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any

BOT = None

Member = Hashable
Table = list  # of Member | None

TIEBREAKS = ("points", "score", "opponents")

# Rounds of at most this many members are paired by a whole search (`_pair_exactly`): 12
# members at tables of 2 have 10,395 seatings, the most of any size up to 12.
EXACT_UP_TO = 12


def pair_key(a: Member, b: Member) -> frozenset:
    return frozenset((a, b))


def meetings(rounds: Iterable[Sequence[Sequence[Member | None]]]) -> Counter:
    """How often each pair of members sat at one table, over the rounds given."""
    met: Counter = Counter()
    for tables in rounds:
        for table in tables:
            members = [m for m in table if m is not BOT]
            for a, b in combinations(members, 2):
                met[pair_key(a, b)] += 1
    return met


def capacities(members: int, table_size: int) -> list[int]:
    """Members per table, top table first: full tables, and the bots (fewer than a table)
    spread over the lowest tables."""
    if members < 1 or table_size < 2:
        raise ValueError("a round needs a member and tables of two seats or more")
    tables = -(-members // table_size)
    caps = [table_size] * tables
    for i in range(tables * table_size - members):
        caps[tables - 1 - i % tables] -= 1
    return caps


def _cost(member: Member, others: Iterable[Member], met: Mapping[frozenset, int]) -> int:
    return sum(met.get(pair_key(member, o), 0) for o in others)


def _by_member(met: Mapping[frozenset, int]) -> dict[Member, dict[Member, int]]:
    """The meetings as member -> {other member: times met}, quicker to look up."""
    adj: dict[Member, dict[Member, int]] = {}
    for pair, count in met.items():
        if len(pair) == 2:
            a, b = pair
            adj.setdefault(a, {})[b] = count
            adj.setdefault(b, {})[a] = count
    return adj


def _cost_in(member: Member, others: Iterable[Member], adj: dict) -> int:
    row = adj.get(member)
    return sum(row.get(o, 0) for o in others) if row else 0


def pair_swiss(
    order: Sequence[Member], table_size: int, met: Mapping[frozenset, int]
) -> list[Table]:
    """One Swiss round: tables of `table_size` seats (bots completing the lowest ones), from
    the members in standing order, best first; `met` counts the meetings so far."""
    if len(set(order)) != len(order):
        raise ValueError("a member is listed twice")
    caps = capacities(len(order), table_size)
    if met and len(order) <= EXACT_UP_TO:
        tables = _pair_exactly(order, caps, met)
        return [t + [BOT] * (table_size - len(t)) for t in tables]
    left = list(order)
    tables = []
    for cap in caps:
        table = [left.pop(0)]
        while len(table) < cap:
            # The next member in the order who brings the fewest repeats. Looking only a few
            # tables' worth ahead keeps members near their standing.
            window = left[: table_size * 3]
            best = min(range(len(window)), key=lambda i: (_cost(window[i], table, met), i))
            table.append(left.pop(best))
        tables.append(table)
    _improve_by_swaps(tables, met, {m: i for i, m in enumerate(order)})
    return [t + [BOT] * (table_size - len(t)) for t in tables]


def _pair_exactly(
    order: Sequence[Member], caps: list[int], met: Mapping[frozenset, int]
) -> list[list[Member]]:
    """Every seating of `order` at tables of `caps` members: the fewest repeats, then the
    greatest sum of table number times standing position, then the first found (the search
    takes members in standing order). A branch is left once it repeats more than the best."""
    adj = _by_member(met)
    # From `tail` on every table has one size: those tables are searched in one order (the
    # first member left opens the next) and then put in the order closest to the standings.
    tail = next(t for t in range(len(caps)) if all(c == caps[t] for c in caps[t:]))
    best: list[Any] = [None, None]  # (repeats, -closeness), tables

    def closest(tables: list[list[int]]) -> tuple[int, list[list[int]]]:
        ordered = tables[:tail] + sorted(tables[tail:], key=sum)
        return sum(t * sum(table) for t, table in enumerate(ordered)), ordered

    def seat(left: list[int], t: int, tables: list[list[int]], repeats: int) -> None:
        if best[0] is not None and repeats > best[0][0]:
            return
        if t == len(caps):
            near, ordered = closest(tables)
            if best[0] is None or (repeats, -near) < best[0]:
                best[0], best[1] = (repeats, -near), ordered
            return
        head = left[:1] if t >= tail else []
        for rest in combinations(left[len(head) :], caps[t] - len(head)):
            table = [*head, *rest]
            cost = sum(adj.get(order[a], {}).get(order[b], 0) for a, b in combinations(table, 2))
            taken = set(table)
            tables.append(table)
            seat([i for i in left if i not in taken], t + 1, tables, repeats + cost)
            tables.pop()

    seat(list(range(len(order))), 0, [], 0)
    return [[order[i] for i in table] for table in best[1]]


def _improve_by_swaps(tables: list[list[Member]], met: Mapping[frozenset, int], rank: dict) -> None:
    """Exchange two members of two tables while an exchange lowers the repeats; then, while an
    exchange that adds none moves a better-placed member to a higher table, make it; and again,
    until neither finds one. (Each first kind lowers the repeats, each second kind raises the
    sum of table number times standing position at the same repeats: it ends.)"""
    if not met:
        return
    # A pair of tables is looked at again only once one of them has changed.
    adj = _by_member(met)
    versions = [0] * len(tables)
    seen: dict[tuple[str, int, int], tuple[int, int]] = {}
    changed = True
    while changed:
        changed = False
        for step in (_best_swap, _move_up):
            for ti, tj in combinations(range(len(tables)), 2):
                if seen.get((step.__name__, ti, tj)) == (versions[ti], versions[tj]):
                    continue
                while step(tables[ti], tables[tj], adj, rank):
                    versions[ti] += 1
                    versions[tj] += 1
                    changed = True
                seen[(step.__name__, ti, tj)] = (versions[ti], versions[tj])


def _gains(a_table: list[Member], b_table: list[Member], adj: dict) -> Any:
    """(gain in repeats, index in a_table, index in b_table) of every exchange."""
    own_a = [_cost_in(a, a_table, adj) for a in a_table]
    own_b = [_cost_in(b, b_table, adj) for b in b_table]
    a_at_b = [_cost_in(a, b_table, adj) for a in a_table]
    b_at_a = [_cost_in(b, a_table, adj) for b in b_table]
    for ia, a in enumerate(a_table):
        for ib, b in enumerate(b_table):
            ab = adj.get(a, {}).get(b, 0)
            yield own_a[ia] + own_b[ib] - (a_at_b[ia] - ab) - (b_at_a[ib] - ab), ia, ib


def _best_swap(a_table: list[Member], b_table: list[Member], adj: dict, rank: dict) -> bool:
    """Make the exchange between two tables that lowers the repeats most (of those, the one
    between members closest in the standings); False if none lowers them."""
    best, where = (0, 0), None
    for gain, ia, ib in _gains(a_table, b_table, adj):
        key = (gain, -abs(rank[a_table[ia]] - rank[b_table[ib]]))
        if gain > 0 and key > best:
            best, where = key, (ia, ib)
    if where is None:
        return False
    ia, ib = where
    a_table[ia], b_table[ib] = b_table[ib], a_table[ia]
    return True


def _move_up(high: list[Member], low: list[Member], adj: dict, rank: dict) -> bool:
    """Exchange a member of the lower table placed better than one of the higher table, if
    that adds no repeat."""
    for gain, ih, il in _gains(high, low, adj):
        if gain == 0 and rank[low[il]] < rank[high[ih]]:
            high[ih], low[il] = low[il], high[ih]
            return True
    return False


def round_repeats(tables: Sequence[Sequence[Member | None]], met: Mapping[frozenset, int]) -> int:
    """Meetings at these tables of pairs that had met before (each earlier meeting counts)."""
    total = 0
    for table in tables:
        members = [m for m in table if m is not BOT]
        total += sum(met.get(pair_key(a, b), 0) for a, b in combinations(members, 2))
    return total


# --- round robin ------------------------------------------------------------------------------


def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of the field with q elements (q = 2, 3, 4, 5)."""
    if q == 4:
        # GF(4) = {0, 1, x, x + 1} as bits; x * x = x + 1.
        add = [[a ^ b for b in range(4)] for a in range(4)]
        mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
        return add, mul
    if q not in (2, 3, 5):
        raise ValueError("round robin tables seat 2 to 5")
    return (
        [[(a + b) % q for b in range(q)] for a in range(q)],
        [[(a * b) % q for b in range(q)] for a in range(q)],
    )


def affine_rounds(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of the affine plane of order q over points 0..q*q-1 (point
    x * q + y): every class splits the points into q lines of q, and every two points share
    exactly one line."""
    add, mul = _field(q)
    rounds = [[[x * q + y for y in range(q)] for x in range(q)]]  # the lines x = c
    for m in range(q):
        rounds.append(
            [
                [x * q + y for x in range(q) for y in range(q) if y == add[mul[m][x]][c]]
                for c in range(q)
            ]
        )
    return rounds


def round_robin(members: Sequence[Member], table_size: int) -> list[list[Table]]:
    """Every round of a round robin: groups of table_size**2 members in the order given, each
    table a line of the group's affine plane."""
    if len(set(members)) != len(members):
        raise ValueError("a member is listed twice")
    group = table_size * table_size
    plane = affine_rounds(table_size)
    schedule: list[list[Table]] = [[] for _ in plane]
    for start in range(0, len(members), group):
        points = list(members[start : start + group])
        points += [BOT] * (group - len(points))
        for r, lines in enumerate(plane):
            for line in lines:
                table = [points[p] for p in line]
                if any(m is not BOT for m in table):
                    # Members first: the seats of the game are the members' and then bots'.
                    schedule[r].append(
                        [m for m in table if m is not BOT] + [BOT] * table.count(BOT)
                    )
    return schedule


# --- points and standings ---------------------------------------------------------------------


def table_points(ranks: Sequence[int]) -> list[Fraction]:
    """Tournament points of each seat from its game rank (1 = first; equal ranks share a
    place): n - 1 for first ... 0 for last, shared places splitting their points."""
    n = len(ranks)
    order = sorted(range(n), key=lambda s: ranks[s])
    points = [Fraction(0)] * n
    i = 0
    while i < n:
        j = i
        while j < n and ranks[order[j]] == ranks[order[i]]:
            j += 1
        share = Fraction(sum(n - 1 - p for p in range(i, j)), j - i)
        for k in range(i, j):
            points[order[k]] = share
        i = j
    return points


# Seats and standings keep the caller's type of member: the site's are registration ids.
@dataclass(frozen=True)
class Seat[M: Hashable]:
    member: M | None  # None: a bot
    rank: int
    score: int


@dataclass
class Standing[M: Hashable]:
    member: M
    points: Fraction = Fraction(0)
    score: int = 0
    opponents: Fraction = Fraction(0)
    played: int = 0
    place: int = 0
    met: list[M] = field(default_factory=list)


def standings[M: Hashable](
    entries: Sequence[M], played: Iterable[Sequence[Seat[M]]]
) -> list[Standing[M]]:
    """The standings after the tables played (each a list of `Seat`), best first, in the
    order of TIEBREAKS; `entries` in order of entry, every member to rank (a late entry
    starts at 0). Members equal on every tiebreak share a place."""
    rows = {m: Standing(m) for m in entries}
    for table in played:
        points = table_points([s.rank for s in table])
        members = [s.member for s in table if s.member is not BOT]
        for seat, p in zip(table, points, strict=True):
            row = rows.get(seat.member) if seat.member is not BOT else None
            if row is None:
                continue
            row.points += p
            row.score += seat.score
            row.played += 1
            row.met.extend(m for m in members if m != seat.member)
    for row in rows.values():
        row.opponents = sum((rows[m].points for m in row.met if m in rows), Fraction(0))
    position = {m: i for i, m in enumerate(entries)}
    ranked = sorted(rows.values(), key=lambda r: (*_key(r), position[r.member]))
    for i, row in enumerate(ranked):
        same = i and _key(ranked[i - 1]) == _key(row)
        row.place = ranked[i - 1].place if same else i + 1
    return ranked


def _key(row: Standing[Any]) -> tuple:
    return (-row.points, -row.score, -row.opponents)
