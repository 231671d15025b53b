"""The worker's broker consumer, made to ride out a Redis outage (docs/operations.md, "Several
servers and workers").

Celery reconnects by itself when the broker goes away (`broker_connection_retry`, with no limit
on the attempts in settings), but two things went wrong with Redis when the worker held a task
waiting for its countdown (a bot's move, `BOT_MOVE_DELAY`):

- Closing the lost connection tries to put the held message back on the queue, in Redis, which
  is gone; kombu's Redis transport then fails with an AttributeError (`_connparams` reads the
  address of a transport already taken apart), which Celery does not expect there and treats as
  unrecoverable: the worker exited.
- After reconnecting, the worker has forgotten the messages it held (their delivery tags belong
  to the old connection), and Redis keeps them aside as unacknowledged until its visibility
  timeout (an hour) has passed: the bot waited that long.

This consumer logs the first and carries on with the reconnection, and puts the messages it
held back on their queue as soon as the broker answers again: from its own memory (a Redis that
restarted empty has lost them) and removed from Redis's unacknowledged set (so that they are
not delivered a second time an hour later). A late delivery is harmless anyway: each task
checks the move number it expects (games/tasks.py). Any other transport is left as Celery has it.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.consumer import Consumer

logger = logging.getLogger(__name__)


class HeldMessage:
    def __init__(self, tag: str, payload: dict[str, Any], exchange: str, routing_key: str):
        self.tag, self.payload = tag, payload
        self.exchange, self.routing_key = exchange, routing_key


def held_messages(consumer: Consumer) -> list[HeldMessage]:
    """The messages the consumer's channel has received and not acknowledged (Redis only).
    kombu forgets an acknowledged message lazily: it stays among the delivered ones, marked
    dirty, until the next delivery, and is no longer held (a task that ran must not run again
    after the broker returns)."""
    task_consumer = getattr(consumer, "task_consumer", None)
    channel = getattr(task_consumer, "channel", None)
    if channel is None or not hasattr(channel, "unacked_key"):  # not kombu's Redis channel
        return []
    held = []
    acknowledged = set(channel.qos._dirty)
    for tag, message in list(channel.qos._delivered.items()):
        if tag in acknowledged:
            continue
        delivery = message.delivery_info
        held.append(HeldMessage(tag, message._raw, delivery["exchange"], delivery["routing_key"]))
    return held


class RecoveringConsumer(Consumer):
    held: list[HeldMessage] = []

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        held = held_messages(self)
        if held:
            self.held = held
        try:
            super().on_connection_error_after_connected(exc)
        except Exception:
            # The lost connection could not be closed cleanly; it is dropped (super() has
            # already let go of it) and the consumer reconnects as after any connection loss.
            logger.warning("Could not close the lost broker connection", exc_info=True)

    def connect(self) -> Any:
        connection = super().connect()
        if self.held:
            self.restore_held(connection)
        return connection

    def restore_held(self, connection: Any) -> None:
        channel = connection.default_channel
        if not hasattr(channel, "unacked_key"):
            return
        with channel.conn_or_acquire() as client:
            pipe = client.pipeline()
            for message in self.held:
                pipe.zrem(channel.unacked_index_key, message.tag)
                pipe.hdel(channel.unacked_key, message.tag)
                channel._do_restore_message(
                    message.payload, message.exchange, message.routing_key, pipe, leftmost=True
                )
            # One transaction: if the broker goes away again meanwhile, nothing has changed
            # and the messages are still held for the next connection.
            pipe.execute()
        logger.warning("Requeued %d message(s) held when the broker went away", len(self.held))
        self.held = []
