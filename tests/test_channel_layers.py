"""The site's Redis channel layer (infra/channel_layers.py) hands every message over in order
with one Redis command per message received, and a receive cancelled while it waits leaves it
working. On a redis-server of the test's own, whose command counts are the test's alone."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis

from infra.channel_layers import RedisChannelLayer
from tests.test_redis import OwnRedis

pytestmark = pytest.mark.slow

# What channels-redis's receive sends besides the blocking pop: its backup queue's script,
# copy and removal.
BACKUP_COMMANDS = {"eval", "evalsha", "zadd", "zpopmin"}


@pytest.fixture
async def layer(tmp_path: Path) -> AsyncIterator[tuple[RedisChannelLayer, redis.Redis]]:
    own = OwnRedis(tmp_path)
    own.start()
    layer = RedisChannelLayer(hosts=[own.url], prefix="layer-test")
    try:
        yield layer, redis.Redis.from_url(own.url)
    finally:
        await layer.close_pools()
        own.stop()


def commands_called(client: redis.Redis) -> dict[str, int]:
    stats = client.info("commandstats")
    return {name.removeprefix("cmdstat_"): value["calls"] for name, value in stats.items()}


async def test_messages_are_handed_over_in_order_with_one_command_each(layer) -> None:
    channel_layer, client = layer
    channel = await channel_layer.new_channel()
    await channel_layer.group_add("game-1", channel)
    for number in range(20):
        await channel_layer.group_send("game-1", {"type": "game.changed", "version": number})
    client.config_resetstat()
    got = [(await channel_layer.receive(channel))["version"] for _ in range(20)]
    await asyncio.sleep(0.1)  # channels-redis cleans its backup queue after the hand-over
    assert got == list(range(20))
    called = commands_called(client)
    assert called.get("bzpopmin") == 20
    assert not BACKUP_COMMANDS & called.keys()


async def test_a_receive_cancelled_while_it_waits_leaves_the_layer_working(layer) -> None:
    channel_layer, _ = layer
    channel = await channel_layer.new_channel()
    waiting = asyncio.create_task(channel_layer.receive(channel))
    await asyncio.sleep(0.2)
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting
    await channel_layer.send(channel, {"type": "game.changed", "version": 7})
    received = await asyncio.wait_for(channel_layer.receive(channel), timeout=5)
    assert received["version"] == 7


async def test_a_group_message_reaches_each_member_with_its_script_sent_by_digest(layer) -> None:
    """A group's message: its members read in one pipeline with the drop of expired ones, then
    one script, sent by its digest (EVALSHA) rather than whole, adds it to each member's queue."""
    channel_layer, client = layer
    first, second, outsider = [await channel_layer.new_channel() for _ in range(3)]
    for channel in (first, second):
        await channel_layer.group_add("game-1", channel)
    await channel_layer.group_send("game-1", {"type": "game.changed", "version": 0})
    client.config_resetstat()
    for number in range(1, 11):
        await channel_layer.group_send("game-1", {"type": "game.changed", "version": number})
    called = commands_called(client)
    assert called.get("evalsha") == 10
    assert "eval" not in called
    assert called.get("zrange") == 10
    for channel in (first, second):
        got = [(await channel_layer.receive(channel))["version"] for _ in range(11)]
        assert got == list(range(11))
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(channel_layer.receive(outsider), timeout=0.5)


async def test_a_group_message_skips_a_member_whose_queue_is_full(tmp_path: Path) -> None:
    own = OwnRedis(tmp_path)
    own.start()
    channel_layer = RedisChannelLayer(hosts=[own.url], prefix="layer-test", capacity=3)
    try:
        await channel_layer.group_add("game-1", "full-channel")
        await channel_layer.group_add("game-1", "other-channel")
        for number in range(5):
            await channel_layer.group_send("game-1", {"type": "game.changed", "version": number})
        got = [(await channel_layer.receive("full-channel"))["version"] for _ in range(3)]
        assert got == [0, 1, 2]
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(channel_layer.receive("full-channel"), timeout=0.5)
    finally:
        await channel_layer.close_pools()
        own.stop()
