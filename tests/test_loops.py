"""`infra.loops.PerLoop`: one object per running event loop, never shared between loops."""

from __future__ import annotations

import asyncio

from infra.loops import PerLoop


def test_one_object_for_each_loop_made_on_first_use() -> None:
    made: list[object] = []
    per_loop = PerLoop(lambda: made.append(object()) or made[-1])

    async def twice() -> tuple[object, object]:
        return per_loop(), per_loop()

    first, again = asyncio.run(twice())
    other, _ = asyncio.run(twice())

    assert first is again
    assert other is not first
    assert len(made) == 2


def test_forget_drops_the_running_loops_object_only() -> None:
    per_loop = PerLoop(object)

    async def forgotten() -> bool:
        before = per_loop()
        per_loop.forget()
        return per_loop() is not before

    assert asyncio.run(forgotten())


def test_a_finished_loop_does_not_keep_its_object() -> None:
    per_loop = PerLoop(object)

    async def use() -> None:
        per_loop()

    loop = asyncio.new_event_loop()
    loop.run_until_complete(use())
    assert len(per_loop.by_loop) == 1
    loop.close()
    del loop
    assert len(per_loop.by_loop) == 0
