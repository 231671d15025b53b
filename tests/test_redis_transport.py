"""The broker's Redis transport (infra/redis_transport.py): a channel makes one Redis client
for the commands it sends, not one per command, and a message published, taken and
acknowledged leaves nothing behind among the unacknowledged. On a redis-server of the
test's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from kombu import Connection, Exchange, Queue
from kombu.transport import resolve_transport

from config.celery import app
from infra import redis_transport
from tests.test_redis import OwnRedis

MESSAGES = 20


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[str]:
    own = OwnRedis(tmp_path)
    own.start()
    try:
        yield own.url
    finally:
        own.stop()


def clients_made(monkeypatch: pytest.MonkeyPatch) -> list[redis.Redis]:
    """Every Redis client made from now on, in the order made."""
    made: list[redis.Redis] = []
    real_init = redis.Redis.__init__

    def counting_init(self: redis.Redis, *args: object, **kwargs: object) -> None:
        made.append(self)
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(redis.Redis, "__init__", counting_init)
    return made


def test_the_sites_broker_urls_name_the_transport(broker: str) -> None:
    assert app is not None  # config.celery names the transport for redis:// and rediss://
    with Connection(broker) as connection:
        assert isinstance(connection.default_channel, redis_transport.Channel)
    assert resolve_transport("rediss") is redis_transport.Transport


def test_messages_published_taken_and_acknowledged_share_one_client(
    broker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    queue = Queue("transport-test", Exchange("transport-test"), "transport-test")
    with Connection(broker) as connection:
        channel = connection.default_channel
        producer = connection.Producer(channel)
        producer.publish(
            {"n": -1}, exchange=queue.exchange, routing_key="transport-test", declare=[queue]
        )
        made = clients_made(monkeypatch)
        received: list[int] = []
        for n in range(MESSAGES):
            producer.publish({"n": n}, exchange=queue.exchange, routing_key="transport-test")
        for _ in range(MESSAGES + 1):
            message = queue(channel).get()
            assert message is not None
            received.append(message.payload["n"])
            message.ack()
        # Published, each taken (its place among the unacknowledged) and acknowledged: 60
        # commands or pipelines, with one client made for the first of them (none where the
        # warm-up publish already made it).
        assert len(made) <= 1
        assert received == [-1, *range(MESSAGES)]
        check = redis.Redis.from_url(broker)
        assert check.zcard(channel.unacked_index_key) == 0
        assert check.hlen(channel.unacked_key) == 0


def test_a_channel_that_dropped_its_pool_makes_a_client_of_the_new_one(broker: str) -> None:
    queue = Queue("transport-test", Exchange("transport-test"), "transport-test")
    with Connection(broker) as connection:
        channel = connection.default_channel
        producer = connection.Producer(channel)
        producer.publish(
            {"n": 1}, exchange=queue.exchange, routing_key="transport-test", declare=[queue]
        )
        first = channel._create_client()
        old_pool = channel.pool
        channel._disconnect_pools()  # as kombu does when the broker is lost
        producer.publish({"n": 2}, exchange=queue.exchange, routing_key="transport-test")
        second = channel._create_client()
        assert second is not first
        assert second.connection_pool is channel.pool is not old_pool
        assert [queue(channel).get(no_ack=True).payload["n"] for _ in range(2)] == [1, 2]
