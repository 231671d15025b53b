"""Memory a worker's process hands back to the system after a task that grew it.

Python frees a search's objects when the search ends (games/bots/memo.py empties the bots'
caches), but the C allocator keeps the freed pages for the process's own later use, so a
process that ran one large search holds its size until it ends. After a task that left the
process `GROWTH_BYTES` larger than the last hand-back did, the process collects what is left in
reference cycles and asks glibc to return its free pages (`malloc_trim`); where there is no
glibc (macOS, musl) only the collection is done. A task that grew the process less (a bot's
ordinary turn, a notice) costs one read of /proc instead: a full collection walks every object
made since the freeze below, which in a worker that does not fork its tasks (a solo pool) is
most of Django's, some 25 ms each time; where /proc is missing, every task is followed by one. The
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
import os
from collections.abc import Callable

# Growth of the resident set since the last hand-back that earns the next one: more than an
# ordinary task's, far less than a search's (tens to hundreds of megabytes).
GROWTH_BYTES = 16 * 1024 * 1024


def _trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None


_malloc_trim = _trim()


_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
# The resident set just after the last hand-back (None: none yet, or unknown).
_resident_after: int | None = None


def resident_bytes() -> int | None:
    """This process's resident set now, or None where /proc does not tell it."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return None


def hand_back() -> None:
    """Collect cycles, then give the allocator's free pages back to the system."""
    gc.collect()
    if _malloc_trim is not None:
        _malloc_trim(0)


def hand_back_if_grown() -> bool:
    """`hand_back`, if the process grew by `GROWTH_BYTES` or more since it last did (or its
    size is unknown); True when it did."""
    global _resident_after
    now = resident_bytes()
    if now is not None and _resident_after is not None and now - _resident_after < GROWTH_BYTES:
        return False
    hand_back()
    _resident_after = resident_bytes()
    return True


def freeze_before_fork() -> None:
    """Keep what the worker holds now out of every later collection (before its pool forks)."""
    gc.collect()
    gc.freeze()
