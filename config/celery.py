"""The Celery app. Tasks are autodiscovered in every installed app's ``tasks.py``."""

from __future__ import annotations

import logging
import os
from typing import Any

import click
from celery import Celery, bootsteps
from celery.signals import task_postrun, task_prerun, worker_init, worker_ready
from celery.worker import WorkController
from kombu.transport import TRANSPORT_ALIASES

logger = logging.getLogger(__name__)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The embedded broker (infra/fs_transport.py), named in CELERY_BROKER_URL as clubfs://.
TRANSPORT_ALIASES["clubfs"] = "infra.fs_transport:Transport"
# Redis as kombu has it, with one client kept per channel (infra/redis_transport.py).
TRANSPORT_ALIASES["redis"] = TRANSPORT_ALIASES["rediss"] = "infra.redis_transport:Transport"


class SiteCelery(Celery):
    """A Celery app that reads Django's `CELERY_*` settings from a dict copied from them when
    it first reads its configuration. Celery looks up several settings for every task sent and
    run, each under two names (`CELERY_TASK_ACKS_LATE`, then `task_acks_late`) in each of its
    maps before its defaults; read through Django's settings object, every name it lacks
    raised and caught an AttributeError: 14.5 µs for a setting left at Celery's default and
    3.6 for one the site sets, against 4.5 and 2.9 from the copy (docs/benchmarks.md, "CPU per
    move (issue 37)", sixth round).
    Its source stays `django.conf:settings`, which Celery's worker knows not to warn about
    (its `CELERY_` names look like Celery 3's). Celery already read Django's settings object
    as it was then (unwrapped, so `override_settings` never reached it); a test changes
    Celery's settings (`app.conf`) itself."""

    def prepare_config(self, c: Any) -> dict[str, Any]:
        prefix = f"{self.namespace}_" if self.namespace else ""
        source = super().prepare_config(c)
        return {name: source[name] for name in source if name.startswith(prefix)}


# DjangoTask gives every task ``delay_on_commit``/``apply_async_on_commit``, so a worker never
# reads a row before the transaction that wrote it has committed.
app = SiteCelery("config", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class RetireAbove(bootsteps.Step):
    """`celery worker --pool solo --retire-above KIB --renew-idle SECONDS`: a worker left
    holding more than KIB after a task, or grown and then idle for SECONDS, shuts down warm
    (infra/memory.py), for its supervisor to start a fresh one (infra/workers.py, the play
    processes). Celery's `--max-memory-per-child` does the first for a prefork pool's
    processes only."""

    def __init__(
        self, parent: WorkController, retire_above: int = 0, renew_idle: float = 0, **kwargs: Any
    ) -> None:
        if not retire_above and not renew_idle:
            return
        from celery.concurrency.solo import TaskPool as SoloPool

        if not issubclass(parent.pool_cls, SoloPool):
            raise click.UsageError(
                "--retire-above and --renew-idle are for the solo pool: prefork has "
                "--max-memory-per-child"
            )
        from infra import memory

        memory.retire_above(retire_above)
        memory.renew_when_idle(renew_idle)


app.user_options["worker"].add(
    click.Option(
        ["--retire-above"],
        type=int,
        default=0,
        help="KiB resident after a task above which a solo worker shuts down warm (0: never).",
    )
)
app.user_options["worker"].add(
    click.Option(
        ["--renew-idle"],
        type=float,
        default=0,
        help="Idle seconds after which a solo worker that grew shuts down warm (0: never).",
    )
)
app.steps["worker"].add(RetireAbove)


@worker_init.connect
def _publish_from_own_loop(**kwargs: object) -> None:
    """A worker sends its live hints through one long-lived loop and connection
    (infra/announce.py); forked children inherit the choice and make their own loop. Where
    MEMORY_REPORT is set, SIGUSR2 asks for a report of its memory (infra/memory.py)."""
    from infra import announce, memory

    announce.publish_from_own_loop()
    memory.report_on_signal()
    memory.freeze_held()


@worker_ready.connect
def _resend_overdue_work(**kwargs: object) -> None:
    """A worker killed in the middle of a bot's turn (SIGKILL, out of memory) leaves that turn,
    and the turns it was keeping until their delay passed, unplayed until the beat's rescue, a
    minute or two later. Each worker that starts asks for them at once, each to be played
    when due (games.tasks.resend_overdue_work); the version check makes a second copy of a
    turn harmless."""
    try:
        app.send_task("games.tasks.resend_overdue_work", ignore_result=True)
    except Exception:
        logger.exception("Could not ask for the overdue bot turns")


@worker_ready.connect
def _renew_when_idle(**kwargs: object) -> None:
    """A play process started with `--renew-idle` watches for an idle spell from now on, its
    size now being a fresh process's (infra/memory.py, `IdleRenewal`)."""
    from infra import memory

    memory.start_renewal()


@task_prerun.connect
def _count_task(**kwargs: object) -> None:
    """A task running is not an idle spell (infra/memory.py, `IdleRenewal`)."""
    from infra import memory

    memory.task_started()


@task_postrun.connect
def _hand_back_memory(**kwargs: object) -> None:
    """A search's memory goes back to the system once its task is done, and a play process
    still holding too much stops for a fresh one (infra/memory.py)."""
    from infra import memory

    memory.hand_back_if_grown()
    memory.retire_if_over()
    memory.task_finished()
