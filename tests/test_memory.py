"""What a server process does with memory it no longer uses, and the report of what it holds
(infra/memory.py); the workers' hand-back after a task is in test_queues.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from infra import memory

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """A process's CPU seconds and the wall clock, moved by hand."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.now = 0.0

    def spell(self, seconds: float, busy: float) -> None:
        """`seconds` pass, with the process busy for `busy` of them."""
        self.now += seconds
        self.cpu += busy


class Process:
    """The process's resident size (KiB), moved by hand, and the sizes at which it handed
    memory back."""

    def __init__(self) -> None:
        self.resident = 100 * 1024
        self.handed_back: list[int] = []


@pytest.fixture
def process(monkeypatch: pytest.MonkeyPatch) -> Process:
    """A process of 100 MiB that has handed memory back once, at that size."""
    proc = Process()
    monkeypatch.setattr(memory, "resident_kib", lambda: proc.resident)
    monkeypatch.setattr(memory, "hand_back", lambda: proc.handed_back.append(proc.resident))
    monkeypatch.setattr(memory, "_resident_after", proc.resident)
    return proc


def watch_of(clock: Clock) -> memory.QuietHandBack:
    return memory.QuietHandBack(cpu=lambda: clock.cpu, clock=lambda: clock.now)


def test_a_quiet_server_hands_back_what_it_grew(process: Process) -> None:
    clock = Clock()
    watch = watch_of(clock)
    process.resident += 40 * 1024  # an evening's boards, pages and sockets
    clock.spell(30, busy=0.1)
    assert watch.step()
    assert process.handed_back == [140 * 1024]


def test_a_busy_server_is_not_paused_for_a_collection(process: Process) -> None:
    clock = Clock()
    watch = watch_of(clock)
    process.resident += 40 * 1024
    clock.spell(30, busy=6.0)  # a fifth of a core: boards drawn for the sockets
    assert not watch.step()
    clock.spell(30, busy=0.3)  # then the quiet after the evening
    assert watch.step()
    assert len(process.handed_back) == 1


def test_a_quiet_server_that_did_not_grow_does_nothing(process: Process) -> None:
    clock = Clock()
    watch = watch_of(clock)
    process.resident += memory.GROWTH_KIB // 2  # a few pages and sessions
    clock.spell(30, busy=0.0)
    assert not watch.step()
    clock.spell(30, busy=0.0)
    assert not watch.step()
    assert process.handed_back == []


def test_an_idle_server_returns_the_pages_its_threads_freed(tmp_path: Path) -> None:
    """The real thing, in a process of its own (the watch lives as long as its process): a
    thread, as the server answers a request, makes some 60 MB of blocks in its allocator arena
    and drops them; with nothing else to do, the process gives the pages back."""
    if not Path("/proc/self/statm").exists() or memory._malloc_trim is None:
        pytest.skip("needs /proc and glibc")
    script = textwrap.dedent(
        """
        import threading, time
        from infra import memory

        def request():
            blocks = [bytearray(1000) for _ in range(60_000)]
            del blocks[:-1]
            time.sleep(60)  # the thread, its arena and the newest block stay

        before = memory.resident_kib()
        threading.Thread(target=request, daemon=True).start()
        time.sleep(1)
        grown = memory.resident_kib()
        memory.hand_back_when_quiet(0.5)
        for _ in range(100):
            time.sleep(0.2)
            if memory.resident_kib() < grown - memory.GROWTH_KIB:
                break
        print(before, grown, memory.resident_kib())
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    before, grown, after = (int(word) for word in run.stdout.split())
    assert grown - before >= 50 * 1024
    assert after < grown - 40 * 1024


def test_the_report_gives_the_free_pages_the_allocator_keeps() -> None:
    """Blocks made and dropped (all but the newest, which holds the heap's top) stay with the
    allocator as free pages: the report counts them."""
    if memory.allocator_kib() is None:
        pytest.skip("needs glibc 2.33")
    memory.hand_back()
    blocks = [bytearray(1000) for _ in range(60_000)]  # some 60 MB, each block from malloc
    newest = blocks[-1]
    del blocks
    text = memory.report()
    assert text.startswith(f"== pid {os.getpid()} ")
    line = next(line for line in text.splitlines() if line.startswith("C allocator: "))
    assert int(line.split()[-5]) >= 50 * 1024  # "..., N KiB free but kept"
    assert len(newest) == 1000


def test_the_report_names_the_lines_that_allocated_most_when_traced() -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        boards = ["<svg>" + "x" * 2000 + str(n) for n in range(5_000)]  # some 10 MB
        text = memory.report()
    finally:
        tracemalloc.stop()
    assert "tracemalloc: " in text
    assert f"{Path(__file__).name}:" in text
    assert len(boards) == 5_000


def test_a_report_is_written_on_sigusr2_only_where_asked_for(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    before = signal.getsignal(signal.SIGUSR2)
    try:
        monkeypatch.delenv("MEMORY_REPORT", raising=False)
        assert not memory.report_on_signal()
        assert signal.getsignal(signal.SIGUSR2) is before
        path = tmp_path / "report.txt"
        monkeypatch.setenv("MEMORY_REPORT", str(path))
        assert memory.report_on_signal()
        os.kill(os.getpid(), signal.SIGUSR2)
        os.kill(os.getpid(), signal.SIGUSR2)
        assert path.read_text().count(f"== pid {os.getpid()} ") == 2
    finally:
        signal.signal(signal.SIGUSR2, before)


# --- a play process renewed after an idle spell ------------------------------------------------


class Worker:
    """A play process's own memory (KiB), moved by hand, and its hand-backs."""

    def __init__(self) -> None:
        self.private = 20 * 1024
        self.handed_back = 0


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> Worker:
    from celery.worker import state

    proc = Worker()
    monkeypatch.setattr(memory, "private_kib", lambda: proc.private)

    def hand_back() -> None:
        proc.handed_back += 1

    monkeypatch.setattr(memory, "hand_back", hand_back)
    monkeypatch.setattr(state, "should_stop", None)
    return proc


def renewal_of(clock: Clock) -> memory.IdleRenewal:
    return memory.IdleRenewal(30, clock=lambda: clock.now)


def test_a_grown_play_process_is_renewed_once_idle(worker: Worker) -> None:
    from celery.worker import state

    clock = Clock()
    watch = renewal_of(clock)
    watch.started()
    worker.private += 40 * 1024  # a hard bot's searches, in arenas no hand-back returns
    watch.finished()
    clock.spell(29, busy=0)
    assert not watch.step()
    assert state.should_stop is None
    clock.spell(2, busy=0)
    assert watch.step()
    assert worker.handed_back == 1
    assert state.should_stop is not None and state.should_stop is not False


def test_no_play_process_is_renewed_during_a_task_or_soon_after_one(worker: Worker) -> None:
    from celery.worker import state

    clock = Clock()
    watch = renewal_of(clock)
    worker.private += 40 * 1024
    assert not watch.step()  # no task yet: a fresh process's first minutes
    watch.started()
    clock.spell(120, busy=120)  # a long task
    assert not watch.step()
    watch.finished()
    clock.spell(10, busy=0)
    watch.started()  # the bot's next step, a second after its last
    clock.spell(25, busy=1)
    watch.finished()
    clock.spell(25, busy=0)
    assert not watch.step()
    assert worker.handed_back == 0
    assert state.should_stop is None


def test_an_idle_play_process_that_handed_its_growth_back_is_kept(worker: Worker) -> None:
    from celery.worker import state

    clock = Clock()
    watch = renewal_of(clock)
    watch.started()
    worker.private += memory.GROWTH_KIB // 2  # what a greedy bot's turns leave
    watch.finished()
    clock.spell(40, busy=0)
    assert not watch.step()
    assert worker.handed_back == 1
    clock.spell(40, busy=0)
    assert not watch.step()  # nothing ran since: nothing to look at
    assert worker.handed_back == 1
    assert state.should_stop is None


def test_a_play_process_whose_search_left_its_arenas_full_of_holes_asks_to_be_renewed() -> None:
    """The real thing, in a process of its own: objects a search made and mostly dropped leave
    Python's arenas in use (one object kept keeps its whole pool), which neither a collection nor
    `malloc_trim` returns; idle, the process asks its worker for a warm shutdown."""
    if not Path("/proc/self/smaps_rollup").exists():
        pytest.skip("needs /proc/self/smaps_rollup")
    script = textwrap.dedent(
        """
        import time
        from celery.worker import state
        from infra import memory

        watch = memory.IdleRenewal(0.5)
        watch.started()
        made = [str(n) * 3 for n in range(600_000)]  # some 40 MB of small strings
        kept = made[::64]
        del made
        watch.finished()
        soon = watch.step()
        time.sleep(0.6)
        renewed = watch.step()
        print(soon, renewed, state.should_stop, memory.private_kib() - watch.fresh, len(kept))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    soon, renewed, should_stop, grown, kept = run.stdout.split()
    assert (soon, renewed) == ("False", "True")
    assert should_stop == "0"  # celery.platforms.EX_OK: a warm shutdown
    assert int(grown) >= memory.GROWTH_KIB
    assert kept == str(600_000 // 64)


def test_a_watch_step_that_fails_is_logged_and_the_watch_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The idle renewal's and the quiet hand-back's threads outlive a failed step (a /proc
    read refused, say), and the renewal's stops once its worker is retiring."""
    import threading

    steps: list[int] = []
    done = threading.Event()

    def step() -> None:
        steps.append(len(steps))
        if len(steps) == 1:
            raise OSError("smaps_rollup unreadable")
        if len(steps) == 3:
            done.set()

    with caplog.at_level("ERROR", logger="infra.memory"):
        thread = memory._every(0.01, step, "test-watch", until=done.is_set)
        thread.join(timeout=5)

    assert not thread.is_alive()
    assert steps == [0, 1, 2]
    assert "The test-watch step failed" in caplog.text


def test_the_resident_set_read_is_the_reading_process_own_before_and_after_a_fork() -> None:
    """`resident_kib` keeps /proc/self/statm open: each read is the memory as it is now, and a
    forked child (a play process) reads its own, not its parent's through the inherited file.
    In a process of its own: this one has threads, which a fork should not copy."""
    script = textwrap.dedent(
        """
        import os
        from infra import memory

        size = 64 * 1024 * 1024
        before = memory.resident_kib()
        block = bytearray(size)  # zero-filled: every page touched
        grown = memory.resident_kib()
        del block
        parent = memory.resident_kib()
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child grows by twice the block and says what it read
            more = bytearray(2 * size)
            os.write(writer, str(memory.resident_kib()).encode())
            os._exit(0)
        os.close(writer)
        child = int(os.read(reader, 100))
        os.waitpid(pid, 0)
        print(before, grown, parent, child, memory.resident_kib())
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    before, grown, parent, child, after = map(int, run.stdout.split())
    size_kib = 64 * 1024
    assert grown >= before + size_kib * 9 // 10
    assert child >= 2 * size_kib * 9 // 10
    assert child >= parent + size_kib  # its parent's file would say about `parent`
    assert after < parent + size_kib


def test_the_server_keeps_what_it_made_at_start_out_of_later_collections() -> None:
    """A full collection walks every object the collector tracks: the ASGI app, once made,
    leaves what its start made (Django, the apps, their modules) out of them, so that only
    what the server made since is walked."""
    script = textwrap.dedent(
        """
        import gc
        import config.asgi
        print(gc.get_freeze_count(), len(gc.get_objects()))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    frozen, walked = (int(word) for word in run.stdout.split()[-2:])
    assert frozen > 10 * walked
