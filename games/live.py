"""Live boards for the game sockets of one server process (DESIGN.md principle 7).

A move is announced once per game (`broadcast.notify_game_changed`). In each server process
one hub listens for the games its sockets watch: it is the one member of the game's group
there, so an announcement crosses the channel layer once per process, not once per socket.
The hub reads the game once per announcement and renders the board once per move number,
viewpoint (each seat, the spectator) and language, and every socket of that viewpoint and
language gets that same text. The viewpoint is part of the key and each socket's own seat
is looked up from the game for each announcement, so no socket is ever sent another seat's
view (principle 4).

The order is the short path measured by `manage.py bench_live`: the read and every render
are one call to the hub's thread (games/live_threads.py, where announcements of a game whose
read is still waiting join it), and only then are the sends made, together. (Each
socket reading and rendering for itself, awaiting shared results, cost one thread hop more
and let hundreds of sends hold the loop while a render waited for it.)

A socket whose last board the hub still keeps is sent only what changed since that board
(games/live_patches.py, games/board_patches.py), made once per pair of boards.

The hub belongs to an event loop (the server has one; each async test has its own), and
stops when its last socket leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Container, Coroutine, Hashable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.utils import translation

from accounts.sessions import SESSIONS_GROUP
from games import broadcast, live_reads
from games.live_patches import BoardKey, KeptBoards, Patch, changes_from, patch_base
from games.live_threads import HubThread, Reading
from games.models import Game, Move
from infra import timing

logger = logging.getLogger(__name__)

# Boards kept for a second announcement of the same board (results stored, a seat handed to a
# bot) and for sockets that join meanwhile; older entries go first, once there are more than
# this many or they hold more than `settings.LIVE_BOARDS_KEPT_BYTES` of memory in all.
KEEP_BOARDS = 512
# Group memberships are renewed this often: a layer forgets them after a day (channels-redis's
# group expiry), and a Redis restarted empty forgets them at once.
RENEW_GROUPS_SECONDS = 300.0
# The hub's thread keeps its database connection from one announcement to the next while they
# keep coming, and hands it back to the pool once none came for this long (and when the hub
# stops): taken from the pool for each announcement, a connection cost its check (a round
# trip) and its set-up again, about a quarter of the read.
KEEP_CONNECTION_SECONDS = 2.0


class Watcher(Protocol):
    """A game socket, as the hub sees it (games.consumers.GameConsumer)."""

    game_id: int
    user_id: int
    language: str
    # False for a socket that wants a signal instead of the board (the waiting room, the
    # review's progress): the hub passes it the announcement (`game_changed`).
    takes_boards: bool

    def wants(self, snapshot: Snapshot) -> bool:
        """Whether the board `snapshot` found is newer than the one this socket has."""
        ...

    # The board this socket sent last (None: none yet), for an incremental update from it.
    @property
    def sent_key(self) -> BoardKey | None: ...

    async def send_board(
        self, snapshot: Snapshot, html: str, event: dict[str, Any], patch: Patch | None = None
    ) -> None: ...

    async def game_changed(self, event: dict[str, Any]) -> None: ...

    async def session_ended(self, event: dict[str, Any]) -> None: ...


@dataclass(frozen=True)
class Snapshot:
    """The game as one announcement found it: enough to render any viewpoint."""

    game: Game | None
    revision: int  # moves and steps taken back (Game.revision)
    stamp: str
    positions: dict[int, int]  # member id -> seat position

    def position_of(self, user_id: int | None) -> int | None:
        return None if user_id is None else self.positions.get(user_id)

    def key_for(self, user_id: int | None, language: str) -> BoardKey:
        """Which drawn board a member reading `language` gets: their seat's view (looked up
        for each announcement: a member who joins an open seat becomes that seat)."""
        assert self.game is not None
        return (self.game.pk, self.revision, self.stamp, self.position_of(user_id), language)


# A read and drawing of the hub: the game found, the boards drawn, when the read ended, and the
# incremental updates made.
ReadResult = tuple[Snapshot, dict[BoardKey, str], float, dict[tuple[BoardKey, BoardKey], str]]


class Hub:
    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel = ""
        self.watchers: dict[int, set[Watcher]] = {}
        self.boards = KeptBoards(KEEP_BOARDS, settings.LIVE_BOARDS_KEPT_BYTES)
        self.groups_lock = asyncio.Lock()
        self.tasks: list[asyncio.Task[None]] = []
        # Each game's read waiting for a hub thread, which its next announcements join.
        self.readings: dict[int, Reading[ReadResult]] = {}
        # When the hub's thread last read a game (time.monotonic; 0: its connection is back in
        # the pool), for `_hand_back_when_quiet`.
        self.last_read = 0.0

    # --- sockets come and go ------------------------------------------------------------------

    async def join(self, watcher: Watcher) -> None:
        if not self.tasks:
            # The layer's usual prefix: channels-redis reads a process's channels through one
            # shared inbox, and a channel of another prefix would wait behind its sockets'.
            self.channel = await self.layer.new_channel()
            self.tasks = [
                asyncio.create_task(self._read()),
                asyncio.create_task(self._renew_groups()),
                asyncio.create_task(self._hand_back_when_quiet()),
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
            await hub_thread.hand_back()

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.tasks = []
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
                timing.stamp(event, "receive")
                asyncio.create_task(self._deliver(event))
            elif event.get("type") == "session.ended":
                asyncio.create_task(self._end_sessions(event))

    async def _hand_back_when_quiet(self) -> None:
        try:
            while True:
                await asyncio.sleep(KEEP_CONNECTION_SECONDS)
                if self.last_read and time.monotonic() - self.last_read >= KEEP_CONNECTION_SECONDS:
                    self.last_read = 0.0  # nothing kept until the next read
                    await hub_thread.hand_back()
        finally:
            # The hub stopped, or its event loop ended with sockets still open (a test's): the
            # thread's connection goes back all the same, or it would hold the database open.
            hub_thread.hand_back_later()

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
        snapshot = await database_sync_to_async(read_game)(game_id)
        if snapshot.game is not None:
            event = {"type": "game.changed", "game": game_id, "version": snapshot.revision}
            await self._deliver({**event, "event": "catch-up"})

    async def _deliver(self, event: dict[str, Any]) -> None:
        """One read, one render per view the sockets need, then every socket's send. Done in
        that order, the sends do not hold the loop while the read or a render waits for it."""
        game_id = int(event.get("game", -1))
        watchers = list(self.watchers.get(game_id, ()))
        signals = [w.game_changed(event) for w in watchers if not w.takes_boards]
        boards = [w for w in watchers if w.takes_boards]
        sends = []
        try:
            if boards:
                sends = await self._boards_for(game_id, event, boards)
        except Exception:
            logger.exception("The board of game %s could not be read or drawn", game_id)
        results = await asyncio.gather(*signals, *sends, return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                logger.error("A game socket failed to take a board", exc_info=result)

    async def _boards_for(
        self, game_id: int, event: dict[str, Any], watchers: list[Watcher]
    ) -> list[Coroutine[Any, Any, None]]:
        """Each socket's send of its view of the board: the game is read and every view the
        sockets need is drawn in one call to the hub's thread (one hop there and back, one
        connection from the pool), views drawn before for this board coming from `boards`."""
        wanted = {(w.user_id, w.language) for w in watchers}
        # The boards the sockets have now, which the new ones may be sent as changes to.
        bases = {}
        for watcher in watchers:
            sent = watcher.sent_key
            if sent is not None and sent[0] == game_id and sent not in bases:
                old = self.boards.get(sent)
                if old is not None:
                    bases[sent] = old
        self.last_read = time.monotonic()
        reading = self.readings.get(game_id)
        if reading is not None and reading.join(wanted, bases):
            found = await asyncio.shield(reading.result)
        else:
            reading = self.readings[game_id] = Reading(wanted, bases)
            try:
                found = await hub_thread.run(game_id, reading, self.boards)
            finally:
                if self.readings.get(game_id) is reading:
                    del self.readings[game_id]
        snapshot, drawn, read_at, patches = found
        if settings.LIVE_TRACE:
            timing.stamp(event, "read", read_at)
            timing.stamp(event, "render")
        if snapshot.game is None:
            return []
        sends = []
        for watcher in watchers:
            key = snapshot.key_for(watcher.user_id, watcher.language)
            html = drawn[key] if key in drawn else self.boards.get(key)
            if html is not None and watcher.wants(snapshot):
                base = patch_base(watcher.sent_key, key)
                message = None if base is None else patches.get((base, key))
                patch = None if message is None or base is None else Patch(base, message)
                sends.append(watcher.send_board(snapshot, html, event, patch))
        self.boards.add(drawn)
        return sends

    async def _end_sessions(self, event: dict[str, Any]) -> None:
        members = [w for ws in self.watchers.values() for w in ws if w.user_id == event.get("user")]
        results = await asyncio.gather(
            *(watcher.session_ended(event) for watcher in members), return_exceptions=True
        )
        for result in results:
            if isinstance(result, Exception):
                logger.error("A game socket failed to check its session", exc_info=result)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """The hub of the running event loop (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub(get_channel_layer())
    return found


def read_game(game_id: int) -> Snapshot:
    from games.rendering import board_stamp

    # Each render asks for the seats several times: this one statement serves them all.
    game = live_reads.game_with_seats(game_id)
    if game is None:
        return Snapshot(game=None, revision=-1, stamp="", positions={})
    positions = {s.user_id: s.position for s in game.seats.all() if s.user_id is not None}
    return Snapshot(game=game, revision=game.revision, stamp=board_stamp(game), positions=positions)


def render_board(
    game: Game, position: int | None, language: str, recent: list[Move] | None = None
) -> str:
    """The board partial for one viewpoint, from that seat's view only (principle 4);
    `recent`: the log's last rows, when the caller read them for several viewpoints."""
    from games import rendering

    with translation.override(language):
        return rendering.board_html(game=game, seat=position, recent=recent)


class SharedBoards:
    """Boards of this process being drawn or just drawn, each drawn once: whoever asks first
    draws it, and whoever asks for the same board meanwhile waits for that drawing instead of
    drawing it again. The move post's answer is the mover's own view of the board the move
    made, which the hub draws for the mover's socket at the same moment (principle 7: once per
    move, viewpoint and language); the two share one drawing."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._boards: OrderedDict[Hashable, Future[str]] = OrderedDict()

    def draw(self, key: Hashable, draw: Callable[[], str]) -> str:
        with self._lock:
            board = self._boards.get(key)
            mine = board is None
            if board is None:
                board = self._boards[key] = Future()
                while len(self._boards) > self.keep:
                    self._boards.popitem(last=False)
            else:
                self._boards.move_to_end(key)
        if not mine:
            try:
                return board.result(timeout=DRAW_WAIT_SECONDS)
            except Exception:
                return draw()  # its drawing failed or hangs: draw it here
        try:
            html = draw()
        except BaseException as exc:
            with self._lock:
                if self._boards.get(key) is board:
                    del self._boards[key]
            board.set_exception(exc)
            raise
        board.set_result(html)
        return html


# Boards of this process drawn lately; a move makes one or a few, drawn within milliseconds.
KEEP_SHARED_BOARDS = 64
# How long a board waits for another thread's drawing of it before drawing it itself.
DRAW_WAIT_SECONDS = 10.0
_shared_boards = SharedBoards(KEEP_SHARED_BOARDS)


def shared_board(
    game: Game,
    position: int | None,
    language: str,
    stamp: str | None = None,
    recent: Callable[[], list[Move]] | None = None,
) -> str:
    """`render_board`, drawn once in this process for the game as it is now (its revision,
    stamp and last save: a game whose moves were rolled back and made again differs in the
    last) and the viewpoint and language. `stamp` is the game's `board_stamp`, if the caller
    has it already (the hub's snapshot); `recent` gives the log's last rows, read at most once
    for all the boards the caller draws."""
    from games.rendering import board_stamp

    if stamp is None:
        stamp = board_stamp(game)
    key = (game.pk, game.revision, stamp, game.updated_at, position, language)

    def draw() -> str:
        return render_board(game, position, language, None if recent is None else recent())

    return _shared_boards.draw(key, draw)


def read_and_draw_now(
    game_id: int,
    wanted: set[tuple[int, str]],
    drawn_before: Container[BoardKey],
    bases: Mapping[BoardKey, str] | None = None,
) -> ReadResult:
    """The game as it is now, the boards of the views (member, language) in `wanted` that
    `drawn_before` lacks, when the read ended, and the incremental updates from the boards of
    `bases` (the sockets' last boards) to the new boards of their views, where one is worth
    sending (`changes_from`). A view that fails to draw is left out (its sockets get the next
    board, or fetch it over HTTP) and the others are still drawn. The thread's connection is
    kept for the next call (`HubThread.hand_back` gives it back), unless the call failed."""
    from games.rendering import RECENT_MOVES

    done = False
    try:
        try:
            snapshot = read_game(game_id)
        except DatabaseError:
            # The connection kept since the last call died (PostgreSQL restarted): once more,
            # on a connection the pool checks first.
            close_old_connections()
            snapshot = read_game(game_id)
        read_at = time.time()
        drawn: dict[BoardKey, str] = {}
        game = snapshot.game
        if game is None:
            return snapshot, drawn, read_at, {}
        # The log's last moves: read once for every viewpoint drawn here (each tells them in
        # its own language), and only if one is drawn.
        recent = functools.cache(functools.partial(live_reads.last_moves, game, RECENT_MOVES))
        for user_id, language in wanted:
            key = snapshot.key_for(user_id, language)
            if key in drawn or key in drawn_before:
                continue
            try:
                drawn[key] = shared_board(game, key[3], language, snapshot.stamp, recent)
            except Exception:
                logger.exception(
                    "Game %s: the board for seat %s could not be drawn", game_id, key[3]
                )
        keys = {snapshot.key_for(user_id, language) for user_id, language in wanted}
        found = snapshot, drawn, read_at, changes_from(bases or {}, keys, drawn)
        done = True
        return found
    finally:
        if not done:
            close_old_connections()


# The hub's reads and renders have a thread of their own (games/live_threads.py). Channels runs
# every other database call of the sockets (opening, the minute's renewal, closing) on one shared
# thread, and a board waiting behind a hundred sockets' renewals arrived a quarter of a second
# late.
hub_thread: HubThread[ReadResult] = HubThread(read_and_draw_now)
