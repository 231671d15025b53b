"""The Celery workers the site runs, in one place: `make run`, the tests and the benchmarks
start them from here.

    .venv/bin/python -m infra.workers play [--processes N] [--beat] [celery worker options]
    .venv/bin/python -m infra.workers heavy [celery worker options]

`play` consumes what a game in play waits for (bot turns, the end of a game, the rescues, game
nights, notices) with `PLAY_PROCESSES` processes (default 2; `--processes` overrides it), each
a Celery worker of its own with the solo pool (`play1@<host>`, `play2@<host>`, ...), beat (if
asked for) in the first. A prefork pool's parent hands each task to a child through a pipe
and keeps the bot turns' countdowns and acknowledgements itself; that hand-over cost about as
much CPU per move as the bot turn's own code (docs/benchmarks.md, "CPU per move (issue 37)").
So this command stays as a supervisor: it starts the processes, starts one again when it
exits (at once, or 5 s after its start if it ran less than that), passes SIGTERM and SIGINT on
to them as a warm shutdown (a second one as a cold shutdown) and exits once they have all
ended. A process that holds more than `PLAY_MAX_MEMORY_PER_CHILD` KiB resident after a task
shuts down warm, handing its held bot turns back to the broker, and is started afresh
(config/celery.py, `--retire-above`), and so is one that has run no task for
`PLAY_IDLE_SECONDS` and still holds 16 MB more of its own than when it started (`--renew-idle`,
infra/memory.py's `IdleRenewal`). On Linux the processes die with the supervisor, so a
supervisor killed outright leaves no worker behind.

`heavy` takes the searches members ask for (reviews, hints): one prefork worker with
`HEAVY_CONCURRENCY` processes (default 1) at a lower CPU priority (`HEAVY_NICE`, default 10),
so a review takes at most that share of the machine and a bot's turn never waits behind one
(config/settings.py routes each task to its queue). Its pool process is replaced by a fresh one
after a task that leaves it above `HEAVY_MAX_MEMORY_PER_CHILD` KiB resident (Celery's
`--max-memory-per-child`), and after every `HEAVY_MAX_TASKS_PER_CHILD` tasks (default 1:
each search in a fresh process). The command becomes that worker (exec).

The `play` command reads the settings for the processes' command lines, then becomes the
supervisor afresh (`supervise`, exec). The supervisor imports the site once (Django, the
Celery app and its tasks) and freezes it (`gc.freeze`), then forks each process, which runs
its Celery worker in the fork instead of starting Python anew: the processes share the pages of
what the supervisor imported, as a prefork pool's children share their parent's (two solo
processes each importing the site on its own held 53 MB more), and a process started again
is ready at once instead of after 1.5 s of imports. Where the import leaves a thread running
(a fork would copy it half-done) the processes start afresh instead.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType

BIN = Path(sys.executable).parent
PLAY = "play"
HEAVY = "heavy"
KINDS = (PLAY, HEAVY)
SUPERVISE = "supervise"  # what the `play` command becomes once it has read the settings
BEAT_OPTIONS = ("--beat", "-B")
# A play process that ran less than this is started again only this long after its last
# start, so one that cannot start does not spin.
RESTART_PAUSE = 5.0
# Modules a play process imports when its worker (and, in the first, beat) starts.
PRELOADED = (
    "celery.apps.beat",
    "celery.apps.worker",
    "celery.beat",
    "celery.bin.celery",
    "celery.concurrency.solo",
    "celery.worker.consumer.consumer",
    "celery.worker.strategy",
    "infra.redis_transport",
    "infra.celery_consumer",
    "infra.fs_transport",
)


def argv(kind: str, *extra: str, number: int = 1) -> list[str]:
    """The `celery worker` command line of a worker of `kind`; `extra` options follow. For
    `play`, that of process `number` (from 1) of the supervisor's; beat, if `extra` asks for
    it, runs in the first only."""
    if kind not in KINDS:
        raise ValueError(f"unknown worker kind {kind!r}")
    if kind == PLAY:
        name = f"{PLAY}{number}"
        if number != 1:
            extra = tuple(option for option in extra if option not in BEAT_OPTIONS)
    else:
        name = kind
    command = [str(BIN / "celery"), "-A", "config", "worker", "-Q", kind, "-n", f"{name}@%h"]
    limit = max_memory_per_child(kind)
    if kind == PLAY:
        command += ["--pool", "solo"]
        if limit > 0:
            command += ["--retire-above", str(limit)]
        if play_idle_seconds() > 0:
            command += ["--renew-idle", str(play_idle_seconds())]
        return [*command, *extra]
    command += ["--concurrency", str(heavy_concurrency())]
    if limit > 0:
        command += ["--max-memory-per-child", str(limit)]
    if heavy_max_tasks_per_child() > 0:
        command += ["--max-tasks-per-child", str(heavy_max_tasks_per_child())]
    return [*command, *extra]


def play_processes() -> int:
    from django.conf import settings

    _settings_ready()
    return int(settings.PLAY_PROCESSES)


def play_idle_seconds() -> int:
    from django.conf import settings

    _settings_ready()
    return int(settings.PLAY_IDLE_SECONDS)


def heavy_max_tasks_per_child() -> int:
    from django.conf import settings

    _settings_ready()
    return int(settings.HEAVY_MAX_TASKS_PER_CHILD)


def max_memory_per_child(kind: str) -> int:
    """KiB of resident memory after which a process of `kind` is replaced once its task is
    done (`PLAY_MAX_MEMORY_PER_CHILD`, `HEAVY_MAX_MEMORY_PER_CHILD`; 0: never)."""
    from django.conf import settings

    _settings_ready()
    name = "HEAVY_MAX_MEMORY_PER_CHILD" if kind == HEAVY else "PLAY_MAX_MEMORY_PER_CHILD"
    return int(getattr(settings, name))


def heavy_concurrency() -> int:
    from django.conf import settings

    _settings_ready()
    return int(settings.HEAVY_CONCURRENCY)


def heavy_nice() -> int:
    from django.conf import settings

    _settings_ready()
    return int(settings.HEAVY_NICE)


def _settings_ready() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def preload(command: list[str]) -> bool:
    """Import what every play process of `command` imports (Django, and the Celery app its
    `-A` names, found as Celery's command line finds it), then freeze it (infra/memory.py), so
    the processes forked from here share it; False where a thread is left running (no fork)."""
    _settings_ready()
    import django
    from celery.app.utils import find_app

    from infra import memory

    django.setup()
    app = find_app(command[command.index("-A") + 1])

    app.loader.import_default_modules()
    # What each process's worker and beat import on starting, shared from here too.
    for name in PRELOADED:
        importlib.import_module(name)
    memory.freeze_held()
    return threading.active_count() == 1


class Supervisor:
    """Keeps one process running for each command until told to stop. `forked`: the processes
    run their command in the fork (a `celery` command line, in the site `preload` imported)
    instead of executing it."""

    def __init__(self, commands: list[list[str]], forked: bool = False) -> None:
        self.commands = commands
        self.forked = forked
        self.running: dict[int, int] = {}  # pid -> index of its command
        self.started: dict[int, float] = {}  # index -> when its process last started
        self.stops = 0  # SIGTERM or SIGINT received so far

    def run(self) -> int:
        """Start every command, keep them running; returns once told to stop and all ended."""
        signal.signal(signal.SIGTERM, self.on_stop)
        signal.signal(signal.SIGINT, self.on_stop)
        for index in range(len(self.commands)):
            self.start(index)
        while self.running:
            pid, status = os.wait()
            index = self.running.pop(pid)
            if self.stops:
                continue
            code = os.waitstatus_to_exitcode(status)
            print(
                f"infra.workers: {PLAY} process {index + 1} (pid {pid}) exited with status "
                f"{code}; starting it again.",
                file=sys.stderr,
                flush=True,
            )
            self.start(index)
        return 0

    def start(self, index: int) -> None:
        """Start the command `index` in a new process. The signals that stop the supervisor are
        held back meanwhile, so a stop that comes now still reaches the new process."""
        stopping = {signal.SIGTERM, signal.SIGINT}
        signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
        try:
            if self.stops:
                return
            wait = self.started.get(index, -RESTART_PAUSE) + RESTART_PAUSE - time.monotonic()
            self.started[index] = time.monotonic() + max(0.0, wait)
            supervisor = os.getpid()
            pid = os.fork()
            if pid == 0:
                self.become(self.commands[index], supervisor, wait, stopping, self.forked)
            self.running[pid] = index
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stopping)

    @staticmethod
    def become(
        command: list[str],
        supervisor: int,
        wait: float,
        held: set[signal.Signals],
        forked: bool,
    ) -> None:
        """In the new process: after `wait` seconds, become `command`, or with `forked` run it
        here (never returns)."""
        status = 127
        try:
            for number in held:
                signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
            die_with(supervisor)
            if wait > 0:
                time.sleep(wait)
            if not forked:
                os.execv(command[0], command)
            from celery.bin.celery import main as celery

            sys.argv = command
            try:
                celery()
                status = 0
            except SystemExit as exit:
                status = exit.code if isinstance(exit.code, int) else 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)

    def on_stop(self, number: int, frame: FrameType | None) -> None:
        """The first stop asks each process for a warm shutdown (it finishes the task in hand
        and hands back what it holds), a second one for a cold shutdown, as Celery's own
        Ctrl-C and Ctrl-C again."""
        self.stops += 1
        forward = signal.SIGTERM if self.stops == 1 else signal.SIGQUIT
        for pid in self.running:
            with contextlib.suppress(ProcessLookupError):  # ended; os.wait() collects it
                os.kill(pid, forward)


def die_with(parent: int) -> None:
    """This process is killed when `parent` ends (Linux; elsewhere nothing is done)."""
    if sys.platform != "linux":
        return
    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:  # it ended before the line above
        os._exit(1)


def play_commands(extra: list[str]) -> list[list[str]]:
    """The play processes' commands: `--processes N` in `extra` overrides `PLAY_PROCESSES`."""
    processes = play_processes()
    if "--processes" in extra:
        at = extra.index("--processes")
        processes = int(extra[at + 1])
        extra = extra[:at] + extra[at + 2 :]
    return [argv(PLAY, *extra, number=n) for n in range(1, processes + 1)]


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in (*KINDS, SUPERVISE):
        sys.exit(f"usage: python -m infra.workers {{{','.join(KINDS)}}} [celery worker options]")
    kind = sys.argv[1]
    if kind == SUPERVISE:
        commands = json.loads(sys.argv[2])
        sys.exit(Supervisor(commands, forked=preload(commands[0])).run())
    if kind == PLAY:
        # The supervisor starts afresh with its commands (and imports the site for them).
        supervise = [sys.executable, "-m", "infra.workers", SUPERVISE]
        os.execv(sys.executable, [*supervise, json.dumps(play_commands(sys.argv[2:]))])
    command = argv(kind, *sys.argv[2:])
    # The worker and its children inherit the priority: reviews yield to play and pages.
    os.nice(heavy_nice())
    # The worker takes this process's place, so Ctrl-C and a supervisor's signals reach it.
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
