"""The Celery workers the site runs, in one place: `make run`, the tests and the benchmarks
start them from here.

    .venv/bin/python -m infra.workers play [celery worker options]
    .venv/bin/python -m infra.workers heavy [celery worker options]

`play` consumes what a game in play waits for (bot turns, the end of a game, the rescues, game
nights, notices); `heavy` the searches members ask for (reviews, hints), with
`HEAVY_CONCURRENCY` processes (default 1) at a lower CPU priority (`HEAVY_NICE`, default 10),
so a review takes at most that share of the machine and a bot's turn never waits behind one
(config/settings.py routes each task to its queue). A pool process that holds more than
`PLAY_MAX_MEMORY_PER_CHILD` / `HEAVY_MAX_MEMORY_PER_CHILD` KiB after a task is replaced by a
fresh one (Celery's `--max-memory-per-child`); the heavy worker's after every
`HEAVY_MAX_TASKS_PER_CHILD` tasks (default 1: each search in a fresh process).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
PLAY = "play"
HEAVY = "heavy"
KINDS = (PLAY, HEAVY)


def argv(kind: str, *extra: str) -> list[str]:
    """The `celery worker` command line of a worker of `kind`; `extra` options follow."""
    if kind not in KINDS:
        raise ValueError(f"unknown worker kind {kind!r}")
    command = [str(BIN / "celery"), "-A", "config", "worker", "-Q", kind, "-n", f"{kind}@%h"]
    if kind == HEAVY:
        command += ["--concurrency", str(heavy_concurrency())]
    limit = max_memory_per_child(kind)
    if limit > 0:
        command += ["--max-memory-per-child", str(limit)]
    if kind == HEAVY and heavy_max_tasks_per_child() > 0:
        command += ["--max-tasks-per-child", str(heavy_max_tasks_per_child())]
    return [*command, *extra]


def heavy_max_tasks_per_child() -> int:
    from django.conf import settings

    _settings_ready()
    return int(settings.HEAVY_MAX_TASKS_PER_CHILD)


def max_memory_per_child(kind: str) -> int:
    """KiB of resident memory after which a pool process of `kind` is replaced once its task
    is done (`PLAY_MAX_MEMORY_PER_CHILD`, `HEAVY_MAX_MEMORY_PER_CHILD`; 0: never)."""
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


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in KINDS:
        sys.exit(f"usage: python -m infra.workers {{{','.join(KINDS)}}} [celery worker options]")
    kind = sys.argv[1]
    command = argv(kind, *sys.argv[2:])
    if kind == HEAVY:
        # The worker and its children inherit the priority: reviews yield to play and pages.
        os.nice(heavy_nice())
    # The worker takes this process's place, so Ctrl-C and a supervisor's signals reach it.
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
