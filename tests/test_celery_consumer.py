"""The worker's consumer puts back on the queue, after a broker outage, the tasks it held and
had not run (infra/celery_consumer.py), and not those it had already run and acknowledged."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from kombu.transport.virtual import QoS

from infra.celery_consumer import held_messages


def delivered(task: str) -> Any:
    return SimpleNamespace(
        _raw={"headers": {"task": task}},
        delivery_info={"exchange": "", "routing_key": "celery"},
    )


def test_a_task_run_and_acknowledged_is_not_held_for_the_next_connection() -> None:
    channel = SimpleNamespace(unacked_key="unacked", do_restore=False)
    channel.qos = QoS(channel, prefetch_count=4)
    consumer = SimpleNamespace(task_consumer=SimpleNamespace(channel=channel))
    channel.qos.append(delivered("games.tasks.resend_overdue_work"), "tag-1")
    channel.qos.append(delivered("games.tasks.play_bot_turn"), "tag-2")
    channel.qos.ack("tag-1")  # it ran; kombu forgets it at the next delivery

    held = held_messages(consumer)

    assert [(m.tag, m.payload["headers"]["task"]) for m in held] == [
        ("tag-2", "games.tasks.play_bot_turn")
    ]
