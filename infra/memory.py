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
fresh one. Nor does a hand-back return what a search leaves in Python's small-object arenas
(an arena goes back only once every object in it is gone) or the supervisor's pages a play
process wrote to: once a play process has run no task for `PLAY_IDLE_SECONDS` and still holds
`GROWTH_KIB` more of its own than it started with, it shuts down warm for a fresh fork too
(`IdleRenewal`).

The ASGI server has no tasks to end: it serves pages and sockets all evening, its requests run
in threads, each of which can leave freed pages in an allocator arena of its own. It hands back
on a timer instead (`hand_back_when_quiet`): after a spell in which it used little CPU, and
only if it grew by `GROWTH_KIB` since it last did, so a busy server is never paused for a
collection.

For finding where the memory went, `report_on_signal` (off unless the environment names a
file in MEMORY_REPORT) makes SIGUSR2 append a report of what the process holds: its resident
set, the C allocator's pages in use and free, Python's small-object arenas and, when
tracemalloc runs (PYTHONTRACEMALLOC=N), the lines that allocated most. It reads counters only:
a census of the objects by type (walking `gc.get_objects()` and what each holds) was tried and
dropped, since from a signal handler it reaches objects still being built, and it crashed a
server and once grew a process to 22 GB (docs/benchmarks.md). `python -m tools.evening --report`
asks each of its processes for one after each evening.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType

logger = logging.getLogger(__name__)

# Growth of the resident set since the last hand-back that earns the next one: more than an
# ordinary task's, far less than a search's (tens to hundreds of megabytes).
GROWTH_KIB = 16 * 1024
_PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


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


def freeze_held() -> None:
    """Keep every object the process holds now out of every later collection: a worker's
    imports before its pool forks (so the children share their pages), and what the server
    made while starting (Django, the apps, the URL patterns: most of the objects it will ever
    hold), which a full collection in a server of the live benchmark walked, 60 to 90 ms each,
    about 6 % of its CPU (docs/benchmarks.md, "Seventh round: the servers")."""
    gc.collect()
    gc.freeze()


class Retirement:
    """The resident memory (KiB) above which this worker process ends after a task; 0: never."""

    above = 0


def retire_above(kib: int) -> None:
    """From now on a task that leaves this process holding more than `kib` KiB ends it."""
    Retirement.above = kib


class _Statm:
    """/proc/self/statm, opened once per process and read again from its start each time: a
    play process reads it after every task, and opening it each time cost 19 µs against 2
    (docs/benchmarks.md, "CPU per move (issue 37)", sixth round). A forked child opens its
    own (an inherited descriptor still reads its parent's)."""

    lock = threading.Lock()
    fd = -1
    pid = 0


def _statm() -> bytes:
    with _Statm.lock:
        if _Statm.pid != os.getpid():
            if _Statm.fd >= 0:
                os.close(_Statm.fd)  # this process's copy of its parent's
                _Statm.fd = -1
            _Statm.fd = os.open("/proc/self/statm", os.O_RDONLY)
            _Statm.pid = os.getpid()
        return os.pread(_Statm.fd, 256, 0)


def resident_kib() -> int:
    """The memory this process holds now (its resident set, KiB). Without /proc (macOS) its
    peak, which is what the system reports there."""
    try:
        pages = int(_statm().split()[1])
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak // 1024 if sys.platform == "darwin" else peak
    return pages * _PAGE_KIB


def private_kib() -> int:
    """The memory this process holds alone (KiB): its resident pages less those it still shares
    with its parent and siblings (a forked worker's copies of the imports it wrote to count
    here, not in `resident_kib`'s growth). Without /proc/self/smaps_rollup, `resident_kib`.
    Reading it costs a few milliseconds, so it is read when idle, not after each task."""
    held = 0
    try:
        with open("/proc/self/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    held += int(line.split()[1])
    except OSError:
        return resident_kib()
    return held


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
    _stop_warm()


def _stop_warm() -> None:
    from celery.platforms import EX_OK
    from celery.worker import state

    state.should_stop = EX_OK


# --- a play process: a fresh one after an idle spell --------------------------------------------


class IdleRenewal:
    """Once a solo worker has run no task for `period` seconds after running some, `step`
    hands back what it grew, and if the process still holds `GROWTH_KIB` more memory of its
    own (`private_kib`) than when it started, asks for a warm shutdown: its supervisor forks a
    fresh one (infra/workers.py). What a hand-back cannot return stays with a process until it
    ends: Python's small-object arenas, each kept whole while one object in it lives, and the
    pages of the imports it shares with its supervisor, copied once written to. Idle, no
    task is cut short and no bot's plan for the rest of its turn is lost (its next step comes
    a second after the last one, never `period` later). `started` and `ended` are called
    around each task (config/celery.py)."""

    def __init__(self, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.period, self.clock = period, clock
        self.fresh = private_kib()
        self.running = 0
        self.ended: float | None = None  # when the last task ended; None: none since a step
        self.retiring = False

    def started(self) -> None:
        self.running += 1

    def finished(self) -> None:
        self.running = max(0, self.running - 1)
        self.ended = self.clock()

    def step(self) -> bool:
        """True when this call asked the worker to stop for a fresh one."""
        ended = self.ended
        if self.retiring or self.running or ended is None or self.clock() - ended < self.period:
            return False
        self.ended = None
        hand_back()
        held = private_kib()
        if held - self.fresh < GROWTH_KIB:
            return False
        logger.warning(
            "This worker, idle, holds %d KiB of its own against %d when it started: it stops "
            "for a fresh one.",
            held,
            self.fresh,
        )
        self.retiring = True
        _stop_warm()
        return True


class Renewal:
    """This process's `IdleRenewal` (None: not renewed when idle), and the idle seconds asked
    for it (`renew_when_idle`)."""

    idle_seconds = 0.0
    watch: IdleRenewal | None = None


def renew_when_idle(period: float) -> None:
    """From the worker's start, `start_renewal` renews this worker after `period` idle
    seconds (0: never)."""
    Renewal.idle_seconds = period


def start_renewal() -> threading.Thread | None:
    """Start the thread that runs `IdleRenewal` (once a worker is ready, so its baseline is a
    fresh process's and beat, if forked from it, is already started)."""
    period = Renewal.idle_seconds
    if period <= 0 or Renewal.watch is not None:
        return None
    watch = Renewal.watch = IdleRenewal(period)
    return _every(min(period, 5.0), watch.step, "idle-renewal", until=lambda: watch.retiring)


def task_started() -> None:
    if Renewal.watch is not None:
        Renewal.watch.started()


def task_finished() -> None:
    if Renewal.watch is not None:
        Renewal.watch.finished()


# --- the server: a hand-back after a quiet spell ------------------------------------------------

# The share of one core below which a spell counts as quiet: a server with sockets open and
# no moves uses well under 1 % (their pings); one drawing boards or answering pages, more.
QUIET_SHARE = 0.05


class QuietHandBack:
    """`hand_back_if_grown` after each quiet spell: `step` is called once a period and hands
    back only when the process used less than QUIET_SHARE of a core since the last call."""

    def __init__(
        self,
        cpu: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cpu, self.clock = cpu, clock
        self.cpu_before, self.before = cpu(), clock()

    def step(self) -> bool:
        """True when this call handed memory back."""
        used, now = self.cpu(), self.clock()
        quiet = used - self.cpu_before < QUIET_SHARE * (now - self.before)
        self.cpu_before, self.before = used, now
        return quiet and hand_back_if_grown()


_quiet_watch: threading.Thread | None = None


def hand_back_when_quiet(period: float) -> threading.Thread | None:
    """Start, once per process, a thread that every `period` seconds (0: never) hands the
    process's free memory back if it was quiet meanwhile and has grown (`QuietHandBack`)."""
    global _quiet_watch
    if period <= 0 or _quiet_watch is not None:
        return _quiet_watch
    _quiet_watch = _every(period, QuietHandBack().step, "quiet-hand-back")
    return _quiet_watch


def _every(
    period: float, step: Callable[[], object], name: str, until: Callable[[], bool] = lambda: False
) -> threading.Thread:
    """Start a daemon thread calling `step` every `period` seconds until `until()`; a step
    that fails is logged and the next one comes as usual."""

    def run() -> None:
        while not until():
            time.sleep(period)
            try:
                step()
            except Exception:
                logger.exception("The %s step failed", name)

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


# --- where the memory went --------------------------------------------------------------------


class _MallInfo2(ctypes.Structure):
    # glibc's struct mallinfo2 (2.33+), all size_t.
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            *("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks"),
            *("fsmblks", "uordblks", "fordblks", "keepcost"),
        )
    ]


def allocator_kib() -> tuple[int, int] | None:
    """The C allocator's bytes in use and free but kept (KiB), over all its arenas; None
    without glibc 2.33. Python's own small-object arenas are not in it."""
    name = ctypes.util.find_library("c")
    try:
        mallinfo2 = ctypes.CDLL(name).mallinfo2 if name else None
    except (OSError, AttributeError):
        mallinfo2 = None
    if mallinfo2 is None:
        return None
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return (info.uordblks + info.hblkhd) // 1024, info.fordblks // 1024


def small_object_arenas() -> list[str]:
    """Python's own allocator (objects up to 512 bytes): its arenas' bytes, and the bytes in
    them used and free. An arena goes back to the system only once all of it is free, so
    free bytes here are what a collection cannot return. CPython prints these on the C
    stderr alone (`sys._debugmallocstats`), so they are caught there."""
    import tempfile

    with tempfile.TemporaryFile() as caught:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(caught.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        text = caught.read().decode(errors="replace")
    # The first "Total" is the arenas' bytes (the second, the map of arenas).
    text = text.split("arena map counts")[0]
    wanted = ("# arenas allocated current", "# bytes in allocated", "# bytes in available", "Total")
    return [f"small objects: {line}" for line in text.splitlines() if line.startswith(wanted)]


def report() -> str:
    """What this process holds now, in words (see the module's docstring)."""
    lines = [f"== pid {os.getpid()} at {time.strftime('%H:%M:%S')}: resident {resident_kib()} KiB"]
    allocator = allocator_kib()
    if allocator is not None:
        lines.append(f"C allocator: {allocator[0]} KiB in use, {allocator[1]} KiB free but kept")
    lines.append(f"threads: {threading.active_count()}; frozen objects: {gc.get_freeze_count()}")
    lines += small_object_arenas()
    import tracemalloc

    if tracemalloc.is_tracing():
        traced, peak = tracemalloc.get_traced_memory()
        lines.append(f"tracemalloc: {traced // 1024} KiB traced, peak {peak // 1024} KiB")
        for stat in tracemalloc.take_snapshot().statistics("lineno")[:25]:
            lines.append(f"{stat.size / 1024:12.1f} KiB {stat.count:9d} {stat.traceback}")
    return "\n".join(lines) + "\n"


def report_on_signal() -> bool:
    """With MEMORY_REPORT naming a file, SIGUSR2 appends `report()` to it; True when set up.
    Called in the main thread of the server and of each worker; off in production."""
    path = os.environ.get("MEMORY_REPORT", "")
    if not path:
        return False

    def write(signum: int, frame: FrameType | None) -> None:
        text = report()
        with open(path, "a") as out:
            out.write(text)

    signal.signal(signal.SIGUSR2, write)
    return True
