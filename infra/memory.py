"""Memory a worker's process hands back to the system after a task that grew it.

Python frees a search's objects when the search ends (games/bots/memo.py empties the bots'
caches), but the C allocator keeps the freed pages for the process's own later use, so a
process that ran one large search holds its size until it ends. After a task that left the
process `GROWTH_KIB` larger than the last hand-back did, the process collects what is left in
reference cycles and asks glibc to return its free pages (`malloc_trim`); where there is no
glibc (macOS, musl) only the collection is done. A task that grew the process less (a bot's
ordinary turn, a notice) costs one read of /proc instead: a full collection walks every object
made since the freeze below, which in a solo worker (the play processes) is all the worker
made after its start, about 5 ms a bot turn in `bench_live`. The
objects the worker imported before forking its pool are frozen first (`gc.freeze`): a
collection in a pool process then leaves them, and the pages they share with the worker, alone
(a collection that touched them would give each process its own copy).
`PLAY_MAX_MEMORY_PER_CHILD` and `HEAVY_MAX_MEMORY_PER_CHILD` (infra/workers.py) are the bound
beyond this: a process still holding more is replaced. The heavy worker's prefork pool does
that itself (Celery's `--max-memory-per-child`); a play process, a solo worker with no pool
process to replace, shuts down warm instead (`retire_if_over`) and its supervisor starts a
fresh one.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import resource
import sys
from collections.abc import Callable

logger = logging.getLogger(__name__)

# Growth of the resident set since the last hand-back that earns the next one: more than an
# ordinary task's, far less than a search's (tens to hundreds of megabytes).
GROWTH_KIB = 16 * 1024


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


# The resident set (KiB) just after the last hand-back; None: none yet.
_resident_after: int | None = None


def hand_back_if_grown() -> bool:
    """`hand_back`, if the process grew by `GROWTH_KIB` or more since it last did (or never
    did); True when it did."""
    global _resident_after
    if _resident_after is not None and resident_kib() - _resident_after < GROWTH_KIB:
        return False
    hand_back()
    _resident_after = resident_kib()
    return True


def freeze_before_fork() -> None:
    """Keep what the worker holds now out of every later collection (before its pool forks)."""
    gc.collect()
    gc.freeze()


class Retirement:
    """The resident memory (KiB) above which this worker process ends after a task; 0: never."""

    above = 0


def retire_above(kib: int) -> None:
    """From now on a task that leaves this process holding more than `kib` KiB ends it."""
    Retirement.above = kib


def resident_kib() -> int:
    """The memory this process holds now (its resident set, KiB). Without /proc (macOS) its
    peak, which is what the system reports there."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak // 1024 if sys.platform == "darwin" else peak
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def retire_if_over() -> None:
    """After a task (and `hand_back`): a worker holding more than its limit asks itself for a
    warm shutdown, as SIGTERM would. It takes no new task, gives the tasks it keeps for
    later back to the broker, and exits; its supervisor starts a fresh process."""
    if not Retirement.above:
        return
    held = resident_kib()
    if held <= Retirement.above:
        return
    logger.warning(
        "This worker holds %d KiB after its task, more than %d: it stops for a fresh one.",
        held,
        Retirement.above,
    )
    from celery.platforms import EX_OK
    from celery.worker import state

    state.should_stop = EX_OK
