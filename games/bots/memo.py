"""The bots' per-process caches: bounded by entries, and released together after a search.

A game's bot knowledge keeps what a search asks for again and again (a position's best
turns, a board's estimate) in a `BoundedCache`. Within one search the same information set
comes back with each determinization, so the cache pays; from one search to the next (a
review's decisions, a hint, a bot's turn a minute later) the positions differ, and the
entries only hold memory: a cache entry keeps a whole board alive, and a worker that had
kept thousands held hundreds of megabytes (docs/benchmarks.md, "Memory after a club
evening"). So each cache forgets its oldest entries past `limit()` entries, and
`release()` empties every cache once a search has decided (`games.bots.choose_move`,
`advice.advise`). Memoised functions (`functools.lru_cache`) are registered with
`releasing` to be emptied too.

The limit is the site's `BOT_CACHE_ENTRIES` (games/apps.py sets it with `set_limit`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

DEFAULT_LIMIT = 1_024

_limit = DEFAULT_LIMIT
_caches: list[BoundedCache[Any]] = []
_functions: list[Any] = []


class BoundedCache[V]:
    """A mapping that keeps at most `limit()` entries, forgetting the least recently used."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: OrderedDict[Hashable, V] = OrderedDict()
        _caches.append(self)

    def get(self, key: Hashable) -> V | None:
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: Hashable, value: V) -> None:
        self.entries[key] = value
        self.entries.move_to_end(key)
        while len(self.entries) > _limit:
            self.entries.popitem(last=False)

    def clear(self) -> None:
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)


def releasing[F: Callable[..., Any]](function: F) -> F:
    """Register a memoised function (it has `cache_clear`) to be emptied by `release`."""
    _functions.append(function)
    return function


def release() -> None:
    """Empty every bot cache of this process (a search has decided)."""
    for cache in _caches:
        cache.clear()
    for function in _functions:
        function.cache_clear()


def limit() -> int:
    return _limit


def set_limit(entries: int) -> None:
    """Keep at most `entries` entries in each cache from now on (at least one)."""
    global _limit
    _limit = max(1, int(entries))
    for cache in _caches:
        while len(cache.entries) > _limit:
            cache.entries.popitem(last=False)
