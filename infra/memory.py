"""Memory a worker's pool process hands back to the system after each task.

Python frees a search's objects when the search ends (games/bots/memo.py empties the bots'
caches), but the C allocator keeps the freed pages for the process's own later use, so a
process that ran one large search holds its size until it ends. After each task the pool
process collects what is left in reference cycles and asks glibc to return its free pages
(`malloc_trim`); where there is no glibc (macOS, musl) only the collection is done. The
objects the worker imported before forking its pool are frozen first (`gc.freeze`): a
collection in a pool process then leaves them, and the pages they share with the worker, alone
(a collection that touched them would give each process its own copy).
`CELERY_WORKER_MAX_MEMORY_PER_CHILD` and its kind-specific settings (infra/workers.py) are the
bound beyond this: a process still holding more is replaced.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable


def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None


_malloc_trim = _trim()


def hand_back() -> None:
    """Collect cycles, then give the allocator's free pages back to the system."""
    gc.collect()
    if _malloc_trim is not None:
        _malloc_trim(0)


def freeze_before_fork() -> None:
    """Keep what the worker holds now out of every later collection (before its pool forks)."""
    gc.collect()
    gc.freeze()
