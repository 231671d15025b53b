"""The Celery app. Tasks are autodiscovered in every installed app's ``tasks.py``."""

from __future__ import annotations

import logging
import os

from celery import Celery
from celery.signals import task_postrun, worker_init, worker_ready
from kombu.transport import TRANSPORT_ALIASES

logger = logging.getLogger(__name__)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The embedded broker (infra/fs_transport.py), named in CELERY_BROKER_URL as clubfs://.
TRANSPORT_ALIASES["clubfs"] = "infra.fs_transport:Transport"

# DjangoTask gives every task ``delay_on_commit``/``apply_async_on_commit``, so a worker never
# reads a row before the transaction that wrote it has committed.
app = Celery("config", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _publish_from_own_loop(**kwargs: object) -> None:
    """A worker sends its live hints through one long-lived loop and connection
    (infra/announce.py); forked children inherit the choice and make their own loop."""
    from infra import announce, memory

    announce.publish_from_own_loop()
    memory.freeze_before_fork()


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


@task_postrun.connect
def _hand_back_memory(**kwargs: object) -> None:
    """A search's memory goes back to the system once its task is done (infra/memory.py)."""
    from infra import memory

    memory.hand_back_if_grown()
