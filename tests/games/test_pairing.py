"""Tournament pairing and standings (games/pairing.py): pure, no database."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.pairing import (
    BOT,
    Seat,
    capacities,
    meetings,
    pair_key,
    pair_swiss,
    round_repeats,
    round_robin,
    standings,
    table_points,
)

members_st = st.integers(min_value=2, max_value=80)
size_st = st.integers(min_value=2, max_value=5)


def play(tables: list[list], rng: random.Random) -> list[list[Seat]]:
    """Random results: a game score per seat, ranks from the scores (equal scores share)."""
    played = []
    for table in tables:
        scores = [rng.randint(0, 6) for _ in table]
        ranks = [1 + sum(o > s for o in scores) for s in scores]
        played.append([Seat(m, r, s) for m, r, s in zip(table, ranks, scores, strict=True)])
    return played


def swiss_tournament(n: int, k: int, rounds: int, seed: int) -> tuple[list, list]:
    rng = random.Random(seed)
    entries = list(range(n))
    schedule: list[list[list]] = []
    played: list[list[Seat]] = []
    orders = []
    for _ in range(rounds):
        order = [row.member for row in standings(entries, played)]
        tables = pair_swiss(order, k, meetings(schedule))
        orders.append(order)
        schedule.append(tables)
        played += play(tables, rng)
    return schedule, orders


def assert_round_is_well_formed(tables: list[list], n: int, k: int) -> None:
    seated = [m for t in tables for m in t if m is not BOT]
    assert sorted(seated) == list(range(n)), "every member is seated once"
    assert all(len(t) == k for t in tables)
    bots = sum(t.count(BOT) for t in tables)
    assert bots == len(tables) * k - n
    assert bots < k, "bots only complete tables"
    assert all(any(m is not BOT for m in t) for t in tables), "never a table of bots only"


@settings(max_examples=40, deadline=None)
@given(members_st, size_st, st.integers(1, 5), st.integers(0, 10**6))
def test_swiss_seats_every_member_once_and_bots_only_complete_tables(n, k, rounds, seed) -> None:
    schedule, _ = swiss_tournament(n, k, rounds, seed)
    for tables in schedule:
        assert_round_is_well_formed(tables, n, k)


@settings(max_examples=40, deadline=None)
@given(members_st, size_st, st.integers(2, 5), st.integers(0, 10**6))
def test_swiss_round_is_swap_optimal_for_repeats(n, k, rounds, seed) -> None:
    """No exchange of two members between two tables would make fewer members meet again."""
    schedule, _ = swiss_tournament(n, k, rounds, seed)
    for r, tables in enumerate(schedule):
        met = meetings(schedule[:r])
        repeats = round_repeats(tables, met)
        for ti, tj in combinations(range(len(tables)), 2):
            for ia, a in enumerate(tables[ti]):
                for ib, b in enumerate(tables[tj]):
                    if a is BOT or b is BOT:
                        continue
                    swapped = [list(t) for t in tables]
                    swapped[ti][ia], swapped[tj][ib] = b, a
                    assert round_repeats(swapped, met) >= repeats


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), size_st, st.integers(0, 10**6))
def test_swiss_second_round_has_no_repeat_when_there_are_as_many_tables_as_seats(
    t, k, seed
) -> None:
    """The lower bound is 0 here: with t >= k full tables, each new table can take one member
    of k different first-round tables."""
    t = max(t, k)
    schedule, _ = swiss_tournament(t * k, k, 2, seed)
    assert round_repeats(schedule[1], meetings(schedule[:1])) == 0


def seatings(members: list, caps: list[int]):
    """Every way to seat `members` at tables of `caps` members, by brute force."""
    if not caps:
        yield []
        return
    for table in combinations(members, caps[0]):
        rest = [m for m in members if m not in table]
        for others in seatings(rest, caps[1:]):
            yield [list(table), *others]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.integers(2, 4), st.integers(2, 4), st.integers(0, 10**6))
def test_a_small_swiss_round_repeats_no_more_than_some_seating_must(n, k, rounds, seed) -> None:
    """Members meet again only as often as the round forces: no seating of the round's members
    at its tables has fewer repeats (all seatings tried, for rounds of up to 9 members); and
    none at the same repeats seats a better-placed member at a higher table."""
    schedule, orders = swiss_tournament(n, k, rounds, seed)
    assert round_repeats(schedule[0], {}) == 0
    caps = capacities(n, k)
    for r, (tables, order) in enumerate(zip(schedule, orders, strict=True)):
        met = meetings(schedule[:r])
        fewest = min(round_repeats(s, met) for s in seatings(list(range(n)), caps))
        assert round_repeats(tables, met) == fewest
        rank = {m: i for i, m in enumerate(order)}
        members = [[m for m in t if m is not BOT] for t in tables]
        for hi, lo in combinations(range(len(members)), 2):
            for a in members[hi]:
                for b in members[lo]:
                    if rank[b] < rank[a]:
                        swapped = [list(t) for t in members]
                        swapped[hi][swapped[hi].index(a)] = b
                        swapped[lo][swapped[lo].index(b)] = a
                        assert round_repeats(swapped, met) > fewest


@settings(max_examples=40, deadline=None)
@given(members_st, size_st, st.integers(1, 5), st.integers(0, 10**6))
def test_swiss_pairs_adjacent_members_in_the_standings_unless_that_repeats(
    n, k, rounds, seed
) -> None:
    schedule, orders = swiss_tournament(n, k, rounds, seed)
    for r, (tables, order) in enumerate(zip(schedule, orders, strict=True)):
        met = meetings(schedule[:r])
        caps = capacities(n, k)
        slices, i = [], 0
        for cap in caps:
            slices.append(order[i : i + cap])
            i += cap
        if round_repeats(slices, met) == 0:
            assert [[m for m in t if m is not BOT] for t in tables] == slices


@settings(max_examples=40, deadline=None)
@given(members_st, size_st)
def test_round_robin_meets_every_pair_in_a_group_exactly_once(n, k) -> None:
    schedule = round_robin(list(range(n)), k)
    assert len(schedule) == k + 1
    for tables in schedule:
        seated = [m for t in tables for m in t if m is not BOT]
        assert sorted(seated) == list(range(n))
        assert all(len(t) == k and any(m is not BOT for m in t) for t in tables)
    met = meetings(schedule)
    group = k * k
    for a, b in combinations(range(n), 2):
        expected = 1 if a // group == b // group else 0
        assert met.get(pair_key(a, b), 0) == expected


def test_swiss_first_round_fills_tables_in_standing_order_with_bots_at_the_bottom() -> None:
    tables = pair_swiss(["a", "b", "c", "d", "e"], 3, {})
    assert tables == [["a", "b", "c"], ["d", "e", BOT]]


def test_swiss_passes_over_a_member_met_before() -> None:
    met = {pair_key("a", "b"): 1, pair_key("c", "d"): 1}
    tables = pair_swiss(["a", "b", "c", "d"], 2, met)
    assert tables == [["a", "c"], ["b", "d"]]


def test_table_points_by_place_with_shared_places_split() -> None:
    assert table_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert table_points([2, 1, 1]) == [0, Fraction(3, 2), Fraction(3, 2)]
    assert table_points([1, 2, 2, 2]) == [3, 1, 1, 1]


def test_standings_break_ties_by_game_score_then_opponents_points() -> None:
    # Round 1: table A (a 1st 30, b 2nd 20, c 3rd 10), table B (d 1st 25, e 2nd 24, bot 3rd).
    # Round 2: table (a 1st 40, d 2nd 12, e 3rd 11), table (b 1st 30, c 2nd 28, bot 3rd 5).
    played = [
        [Seat("a", 1, 30), Seat("b", 2, 20), Seat("c", 3, 10)],
        [Seat("d", 1, 25), Seat("e", 2, 24), Seat(BOT, 3, 3)],
        [Seat("a", 1, 40), Seat("d", 2, 12), Seat("e", 3, 11)],
        [Seat("b", 1, 30), Seat("c", 2, 28), Seat(BOT, 3, 5)],
    ]
    rows = standings(["a", "b", "c", "d", "e"], played)
    # Points: a 2+2=4, b 1+2=3, d 2+1=3, c 0+1=1, e 1+0=1.
    # b and d tie on 3 points: game score b 50, d 37, so b before d.
    # c and e tie on 1 point and on score (38 and 35? c 10+28=38, e 24+11=35): c first.
    assert [(r.member, r.points) for r in rows] == [
        ("a", 4),
        ("b", 3),
        ("d", 3),
        ("c", 1),
        ("e", 1),
    ]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5]


def test_standings_opponents_points_decide_when_points_and_score_tie() -> None:
    # x and y each win once with 10; x's opponent p ends with 1 point, y's opponent q with 0.
    played = [
        [Seat("x", 1, 10), Seat("p", 2, 5)],
        [Seat("y", 1, 10), Seat("q", 2, 5)],
        [Seat("p", 1, 1), Seat(BOT, 2, 0)],
        [Seat("q", 2, 1), Seat(BOT, 1, 2)],
    ]
    rows = standings(["y", "x", "p", "q"], played)
    assert [r.member for r in rows][:2] == ["x", "y"]
    assert rows[0].opponents == 1 and rows[1].opponents == 0


def test_members_equal_on_every_tiebreak_share_a_place_and_a_late_entry_starts_at_zero() -> None:
    played = [[Seat("a", 1, 7), Seat("b", 1, 7)]]
    rows = standings(["a", "b", "late"], played)
    assert [(r.member, r.place, r.points) for r in rows] == [
        ("a", 1, Fraction(1, 2)),
        ("b", 1, Fraction(1, 2)),
        ("late", 3, 0),
    ]


@settings(max_examples=40, deadline=None)
@given(members_st, size_st, st.integers(2, 5), st.integers(0, 10**6))
def test_swiss_seats_a_better_placed_member_higher_unless_that_adds_a_repeat(
    n, k, rounds, seed
) -> None:
    schedule, orders = swiss_tournament(n, k, rounds, seed)
    for r, (tables, order) in enumerate(zip(schedule, orders, strict=True)):
        met = meetings(schedule[:r])
        repeats = round_repeats(tables, met)
        position = {m: i for i, m in enumerate(order)}
        for hi, lo in combinations(range(len(tables)), 2):
            for ih, high in enumerate(tables[hi]):
                for il, low in enumerate(tables[lo]):
                    if high is BOT or low is BOT or position[low] > position[high]:
                        continue
                    swapped = [list(t) for t in tables]
                    swapped[hi][ih], swapped[lo][il] = low, high
                    assert round_repeats(swapped, met) > repeats
