"""The boards a server process keeps drawn for its sockets stay within their bounds: a count
and a size in all (games/live.py, `keep_boards`), the oldest going first."""

from __future__ import annotations

from collections import OrderedDict

from games.live import BoardKey, keep_boards


def boards(sizes: list[int]) -> OrderedDict[BoardKey, str]:
    return OrderedDict(((n, 0, "", None, "en"), "x" * size) for n, size in enumerate(sizes))


def test_kept_boards_never_hold_more_text_than_the_size() -> None:
    kept = boards([400] * 10)
    keep_boards(kept, count=100, size=1_000)
    assert sum(len(html) for html in kept.values()) <= 1_000
    assert [key[0] for key in kept] == [8, 9]  # the newest two


def test_kept_boards_never_number_more_than_the_count() -> None:
    kept = boards([10] * 10)
    keep_boards(kept, count=3, size=10_000)
    assert [key[0] for key in kept] == [7, 8, 9]


def test_one_board_larger_than_the_size_is_not_kept() -> None:
    kept = boards([5_000])
    keep_boards(kept, count=10, size=1_000)
    assert not kept
