"""The boards a server process keeps drawn for its sockets stay within their bounds: the newest
of each view, and a count and a size of memory in all (games/live_patches.py, `KeptBoards`), the
oldest going first."""

from __future__ import annotations

import sys

from games.live_patches import BoardKey, KeptBoards, held_bytes

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


def view_key(game: int, revision: int, seat: int | None = None, language: str = "en") -> BoardKey:
    return (game, revision, "", seat, language)


def test_a_views_newer_revision_takes_the_place_of_the_older() -> None:
    """Only a view's newest board is the base of the next move's changes: an older one is not
    kept beside it, while other seats' and languages' views of the same game stay."""
    kept = KeptBoards(100, 100_000)
    kept.add({view_key(1, 0): "a", view_key(1, 0, seat=0): "b", view_key(1, 0, language="hu"): "c"})
    kept.add({view_key(1, 1): "d"})
    assert list(kept.boards) == [
        view_key(1, 0, seat=0),
        view_key(1, 0, language="hu"),
        view_key(1, 1),
    ]
    assert kept.held == sum(held_bytes(html) for html in kept.boards.values())


def test_an_older_revision_drawn_late_does_not_push_out_the_newer() -> None:
    kept = KeptBoards(100, 100_000)
    kept.add({view_key(1, 5): "new"})
    kept.add({view_key(1, 4): "old"})
    assert list(kept.boards) == [view_key(1, 5)] and kept.get(view_key(1, 5)) == "new"


def test_a_quiet_games_board_outlives_many_moves_of_other_games() -> None:
    """200 games of two views each fit in 512 boards: a game whose players think while the
    199 others move three times each (1,194 boards drawn) still has its board to send changes
    from. Kept by age alone, those boards would have pushed it out after 256 moves."""
    kept = KeptBoards(512, 10_000_000)
    kept.add({view_key(0, 1): "x", view_key(0, 1, seat=0): "x"})
    for revision in range(2, 5):
        for game in range(1, 200):
            kept.add({view_key(game, revision): "y", view_key(game, revision, seat=0): "y"})
    assert view_key(0, 1) in kept and view_key(0, 1, seat=0) in kept
    assert len(kept.boards) == 400
    kept.clear()
    kept.add({view_key(0, 0): "z"})  # the newest revisions were forgotten with the boards
    assert view_key(0, 0) in kept
