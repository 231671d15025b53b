"""The boards a server process keeps drawn for its sockets stay within their bounds: a count
and a size in all (games/live.py, `KeptBoards`), the oldest going first."""

from __future__ import annotations

from games.live import BoardKey, KeptBoards


def key(n: int) -> BoardKey:
    return (n, 0, "", None, "en")


def kept_of(sizes: list[int], count: int, size: int) -> KeptBoards:
    kept = KeptBoards(count, size)
    for n, length in enumerate(sizes):
        kept.add({key(n): "x" * length})
    return kept


def test_kept_boards_never_hold_more_text_than_the_size() -> None:
    kept = kept_of([400] * 10, count=100, size=1_000)
    assert sum(len(html) for html in kept.boards.values()) <= 1_000
    assert [key[0] for key in kept.boards] == [8, 9]  # the newest two


def test_kept_boards_never_number_more_than_the_count() -> None:
    kept = kept_of([10] * 10, count=3, size=10_000)
    assert [key[0] for key in kept.boards] == [7, 8, 9]


def test_one_board_larger_than_the_size_is_not_kept() -> None:
    kept = kept_of([5_000], count=10, size=1_000)
    assert not kept.boards


def test_a_board_drawn_again_counts_once_in_the_size() -> None:
    kept = kept_of([400, 400], count=10, size=1_000)
    kept.add({key(0): "y" * 500, key(2): "z" * 100})
    assert kept.held == sum(len(html) for html in kept.boards.values()) == 1_000
    assert [key[0] for key in kept.boards] == [1, 0, 2]
    assert key(2) in kept and kept.get(key(0)) == "y" * 500
    kept.clear()
    assert kept.held == 0 and key(2) not in kept
