"""The boards a server process keeps drawn for its sockets stay within their bounds: a count
and a size of memory in all (games/live.py, `KeptBoards`), the oldest going first."""

from __future__ import annotations

import sys

from games.live import BoardKey, KeptBoards, held_bytes

# What Python adds to any string's characters (its header): the size of the empty one.
HEADER = sys.getsizeof("")


def key(n: int) -> BoardKey:
    return (n, 0, "", None, "en")


def kept_of(sizes: list[int], count: int, size: int) -> KeptBoards:
    kept = KeptBoards(count, size)
    for n, length in enumerate(sizes):
        kept.add({key(n): "x" * length})
    return kept


def test_a_board_is_counted_at_what_its_text_takes_in_memory() -> None:
    # PEP 393: a string of ASCII is kept at a byte a character; one character past U+00FF
    # (Hungarian ő, U+0151; an en dash, U+2013) and every character takes two.
    assert held_bytes("x" * 1_000) == HEADER + 1_000
    assert held_bytes("x" * 999 + "ő") - held_bytes("x" * 999 + "o") >= 999
    assert held_bytes("–" * 1_000) > 2 * 1_000


def test_kept_boards_never_hold_more_memory_than_the_size() -> None:
    kept = kept_of([400] * 10, count=100, size=1_000)
    assert sum(held_bytes(html) for html in kept.boards.values()) <= 1_000
    assert [key[0] for key in kept.boards] == [8, 9]  # the newest two


def test_a_hungarian_board_takes_twice_the_room_of_an_english_one() -> None:
    """Two boards of 400 characters fit in 1,000 bytes in English; in Hungarian, with an ő in
    each, only one does."""
    kept = KeptBoards(100, 1_000)
    for n in range(3):
        kept.add({key(n): "ő" + "x" * 399})
    assert [key[0] for key in kept.boards] == [2]
    assert kept.held == held_bytes("ő" + "x" * 399) <= 1_000


def test_kept_boards_never_number_more_than_the_count() -> None:
    kept = kept_of([10] * 10, count=3, size=10_000)
    assert [key[0] for key in kept.boards] == [7, 8, 9]


def test_one_board_larger_than_the_size_is_not_kept() -> None:
    kept = kept_of([5_000], count=10, size=1_000)
    assert not kept.boards


def test_a_board_drawn_again_counts_once_in_the_size() -> None:
    kept = kept_of([400, 400], count=10, size=2_000)
    kept.add({key(0): "y" * 500, key(2): "z" * 100})
    assert kept.held == sum(held_bytes(html) for html in kept.boards.values())
    assert kept.held == 3 * HEADER + 400 + 500 + 100
    assert [key[0] for key in kept.boards] == [1, 0, 2]
    assert key(2) in kept and kept.get(key(0)) == "y" * 500
    kept.clear()
    assert kept.held == 0 and key(2) not in kept
