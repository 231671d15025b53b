"""One object for each running event loop.

A server process runs its sockets on one event loop, but the tests start a loop for each
async test, and an object holding tasks or futures of one loop must not be used from another.
`PerLoop` makes the object on first use in a loop and lets it go with its loop.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable


class PerLoop[T]:
    """`per_loop()` is the running loop's object, made by `factory` on first use."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self.factory = factory
        self.by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self) -> T:
        loop = asyncio.get_running_loop()
        found = self.by_loop.get(loop)
        if found is None:
            found = self.by_loop[loop] = self.factory()
        return found

    def forget(self) -> None:
        """The running loop's object is dropped: the next call makes a new one."""
        self.by_loop.pop(asyncio.get_running_loop(), None)
