"""Live boards for the game sockets of one server process (DESIGN.md principle 7).

A move is announced once per game (`broadcast.notify_game_changed`). In each server process
one hub listens for the games its sockets watch: it is the one member of the game's group
there, so an announcement crosses the channel layer once per process, not once per socket.
The hub reads the game once per announcement and renders the board once per move number,
viewpoint (each seat, the spectator) and language, and every socket of that viewpoint and
language gets that same text. The viewpoint is part of the key and each socket's own seat
is looked up from the game for each announcement, so no socket is ever sent another seat's
view (principle 4).

The hub belongs to an event loop (daphne has one; each async test has its own), and stops
when its last socket leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.models import Prefetch
from django.utils import translation

from accounts.sessions import SESSIONS_GROUP
from games import broadcast
from games.models import Game, Seat

logger = logging.getLogger(__name__)

# Boards and game reads kept for sockets whose announcement arrives a little later than the
# others'; older entries go first.
KEEP_BOARDS = 512
KEEP_READS = 256
# Group memberships are renewed this often: a layer forgets them after a day (channels-redis's
# group expiry), and a Redis restarted empty forgets them at once.
RENEW_GROUPS_SECONDS = 300.0


class Watcher(Protocol):
    """A game socket, as the hub sees it (games.consumers.GameConsumer)."""

    game_id: int
    user_id: int

    async def game_changed(self, event: dict[str, Any]) -> None: ...

    async def session_ended(self, event: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class Snapshot:
    """The game as one announcement found it: enough to render any viewpoint."""

    game: Game | None
    version: int  # the game's revision: moves and steps taken back (Game.revision)
    stamp: str
    positions: dict[int, int]  # member id -> seat position

    def position_of(self, user_id: int | None) -> int | None:
        return None if user_id is None else self.positions.get(user_id)


class Hub:
    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel = ""
        self.watchers: dict[int, set[Watcher]] = {}
        self.reads: OrderedDict[tuple[int, str], asyncio.Future[Snapshot]] = OrderedDict()
        self.boards: OrderedDict[tuple[Any, ...], asyncio.Future[str]] = OrderedDict()
        self.groups_lock = asyncio.Lock()
        self.tasks: list[asyncio.Task[None]] = []

    # --- sockets come and go ------------------------------------------------------------------

    async def join(self, watcher: Watcher) -> None:
        if not self.tasks:
            # The layer's usual prefix: channels-redis reads a process's channels through one
            # shared inbox, and a channel of another prefix would wait behind its sockets'.
            self.channel = await self.layer.new_channel()
            self.tasks = [
                asyncio.create_task(self._read()),
                asyncio.create_task(self._renew_groups()),
            ]
            # Members' sessions that end: their game sockets close (accounts/sessions).
            async with self.groups_lock:
                await self.layer.group_add(SESSIONS_GROUP, self.channel)
        first = watcher.game_id not in self.watchers
        self.watchers.setdefault(watcher.game_id, set()).add(watcher)
        if first:
            async with self.groups_lock:
                await self.layer.group_add(broadcast.group_name(watcher.game_id), self.channel)

    async def leave(self, watcher: Watcher) -> None:
        watching = self.watchers.get(watcher.game_id)
        if watching is None or watcher not in watching:
            return
        watching.discard(watcher)
        if not watching:
            del self.watchers[watcher.game_id]
            async with self.groups_lock:
                if watcher.game_id not in self.watchers:  # nobody came back meanwhile
                    await self.layer.group_discard(
                        broadcast.group_name(watcher.game_id), self.channel
                    )
        if not self.watchers:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(SESSIONS_GROUP, self.channel)
            self.stop()

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.tasks = []
        self.reads.clear()
        self.boards.clear()
        _hubs.pop(asyncio.get_running_loop(), None)

    # --- announcements ------------------------------------------------------------------------

    async def _read(self) -> None:
        while True:
            try:
                event = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("The live hub could not read from the channel layer")
                await self._recover()
                continue
            if event.get("type") == "game.changed":
                if isinstance(event.get("at"), dict):
                    event["at"]["receive"] = time.time()
                asyncio.create_task(self._deliver(event))
            elif event.get("type") == "session.ended":
                asyncio.create_task(self._end_sessions(event))

    async def _renew_groups(self) -> None:
        while True:
            await asyncio.sleep(RENEW_GROUPS_SECONDS)
            await self._add_groups()

    async def _add_groups(self) -> bool:
        """Join the hub's groups again; False when the layer does not answer."""
        try:
            async with self.groups_lock:
                await self.layer.group_add(SESSIONS_GROUP, self.channel)
                for game_id in list(self.watchers):
                    await self.layer.group_add(broadcast.group_name(game_id), self.channel)
        except Exception:
            return False
        return True

    async def _recover(self) -> None:
        """The layer is unreachable (Redis stopped or restarting). Once it answers again, join
        the groups again (a Redis restarted empty has forgotten them), then send each socket
        its game's current board: the moves made meanwhile were announced to nobody, and a
        page whose socket stayed open has no gap to notice until the next move."""
        while not await self._add_groups():
            await asyncio.sleep(1.0)
        for game_id in list(self.watchers):
            asyncio.create_task(self._catch_up(game_id))

    async def _catch_up(self, game_id: int) -> None:
        snapshot = await read_game(game_id)
        if snapshot.game is not None:
            event = {"type": "game.changed", "game": game_id, "version": snapshot.version}
            await self._deliver({**event, "event": "catch-up"})

    async def _deliver(self, event: dict[str, Any]) -> None:
        watchers = list(self.watchers.get(int(event.get("game", -1)), ()))
        results = await asyncio.gather(
            *(watcher.game_changed(event) for watcher in watchers), return_exceptions=True
        )
        for result in results:
            if isinstance(result, Exception):
                logger.error("A game socket failed to take a board", exc_info=result)

    async def _end_sessions(self, event: dict[str, Any]) -> None:
        members = [w for ws in self.watchers.values() for w in ws if w.user_id == event.get("user")]
        results = await asyncio.gather(
            *(watcher.session_ended(event) for watcher in members), return_exceptions=True
        )
        for result in results:
            if isinstance(result, Exception):
                logger.error("A game socket failed to check its session", exc_info=result)

    # --- one read per announcement, one render per view ---------------------------------------

    async def snapshot(self, game_id: int, event: dict[str, Any]) -> Snapshot:
        key = (game_id, f"{event.get('version')}:{event.get('event', '')}")
        future = self.reads.get(key)
        if future is None:
            future = asyncio.ensure_future(read_game(game_id))
            self.reads[key] = future
            while len(self.reads) > KEEP_READS:
                self.reads.popitem(last=False)
        return await asyncio.shield(future)

    async def board(self, snapshot: Snapshot, position: int | None, language: str) -> str:
        game = snapshot.game
        assert game is not None
        key = (game.pk, snapshot.version, snapshot.stamp, position, language)
        future = self.boards.get(key)
        if future is None:
            future = asyncio.ensure_future(render_board(game, position, language))
            self.boards[key] = future
            while len(self.boards) > KEEP_BOARDS:
                self.boards.popitem(last=False)
        try:
            return await asyncio.shield(future)
        except Exception:
            self.boards.pop(key, None)  # a failed render is not kept for the next socket
            raise


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The hub of the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(get_channel_layer())
    return found


@database_sync_to_async
def read_game(game_id: int) -> Snapshot:
    from games.rendering import board_stamp

    # Each render asks for the seats several times: this one query serves them all.
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    game = Game.objects.filter(pk=game_id).prefetch_related(seats).first()
    if game is None:
        return Snapshot(game=None, version=-1, stamp="", positions={})
    positions = {s.user_id: s.position for s in game.seats.all() if s.user_id is not None}
    return Snapshot(game=game, version=game.revision, stamp=board_stamp(game), positions=positions)


@database_sync_to_async
def render_board(game: Game, position: int | None, language: str) -> str:
    """The board partial for one viewpoint, from that seat's view only (principle 4)."""
    from games import rendering

    with translation.override(language):
        return rendering.board_html(game=game, seat=position)
