"""The live sockets: a game's board, and the lobby's hint. Read-only pipes (moves arrive as
HTTP posts, never over a socket).

A game socket receives the board for its own seat (principle 4), rendered once per move,
viewpoint and language for all the sockets of its process that share them (games/live),
and every message carries the game's revision (`Game.revision`) in `data-version`
(principle 7).
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.broadcast import user_group
from accounts.sessions import SessionBound, signs_in
from games import broadcast, live
from games.models import Game, OpenPage, Review
from games.services.notices import PAGE_RENEW_SECONDS
from infra import timing
from infra.loops import PerLoop

logger = logging.getLogger(__name__)

# Swapped into the waiting room's empty #room-signal; the room then reloads itself over HTTP.
ROOM_SIGNAL = '<div id="room-signal" data-version="{revision}"></div>'
# The review's progress on the replay page (games/views/reviews.py): the line is the same for
# every member (a finished game's review is open data), so nothing seat-bound travels here.
REVIEW_PROGRESS = "games/_review_progress.html"
# The same for the lobby's lists.
LOBBY_SIGNAL = '<div id="lobby-signal"></div>'


class GameConsumer(SessionBound, AsyncWebsocketConsumer):
    # No channel of its own: the process's hub hears the game's announcements for all its
    # sockets (games/live). An alias that is not configured gives no layer (Channels'
    # get_channel_layer), so the socket does not keep a reader on the layer per connection.
    channel_layer_alias = "games-live-no-layer"

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        user = self.scope.get("user")
        # The same rule as the game pages (login_required): members only, seated or watching.
        if user is None or not user.is_authenticated or not await self.game_exists():
            await self.close()
            return
        self.user_id = int(user.pk)
        # Closed when this session ends (accounts/sessions): the hub passes the word on.
        self.remember_session(self.user_id)
        self.page_key = uuid.uuid4().hex
        self.language = self.language_of(user)
        # The newest move number this socket has sent: an older announcement arriving late
        # would only repeat a board the browser already has.
        self.sent_revision, self.sent_stamp = -1, ""
        # The key of the board sent last (games/live): the base of an incremental update.
        self.sent_board: live.BoardKey | None = None
        # The waiting room of an open game only needs a hint to fetch itself again.
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.room = query.get("page") == ["room"]
        # The replay of a game under review only needs the review's progress line.
        self.review = query.get("page") == ["review"]
        # A member with a page of the game open is not sent "your turn" (games/services/notices).
        await self.page_opened(user.pk)
        self.page_open = True
        page_renewals().add(self)
        # The process's hub hears the game's announcements for all its sockets (games/live).
        # Joined before the socket is accepted, so no move made after that can be missed; a
        # board that comes before the acceptance is dropped (the page fetches one on opening).
        self.accepted = False
        self.hub = live.hub()
        await self.hub.join(self)
        await self.accept()
        self.accepted = True

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "hub"):
            await self.hub.leave(self)
        if getattr(self, "page_open", False):
            page_renewals().discard(self)
            await self.page_closed()

    @database_sync_to_async
    def page_opened(self, user_id: int) -> None:
        OpenPage.objects.update_or_create(
            channel=self.page_key,
            defaults={"game_id": self.game_id, "user_id": user_id, "seen_at": timezone.now()},
        )

    @database_sync_to_async
    def page_closed(self) -> None:
        OpenPage.objects.filter(channel=self.page_key).delete()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Browsers have nothing to say here (one write path: HTTP posts); ignore it."""

    @property
    def takes_boards(self) -> bool:
        return not (self.room or self.review)

    def wants(self, snapshot: live.Snapshot) -> bool:
        """Whether `snapshot` is a board this socket has not sent: not older than the last one,
        and not the same board found by a second announcement."""
        if not self.accepted or snapshot.revision < self.sent_revision:
            return False
        return (snapshot.revision, snapshot.stamp) != (self.sent_revision, self.sent_stamp)

    @property
    def sent_key(self) -> live.BoardKey | None:
        return self.sent_board

    async def send_board(
        self,
        snapshot: live.Snapshot,
        html: str,
        event: dict[str, Any],
        patch: live.Patch | None = None,
    ) -> None:
        """Called by the hub with the board of this socket's view (its seat is looked up from
        the game for each announcement: a member who joins an open seat becomes that seat),
        and the changes to it from the board this socket sent last, if the hub made them
        (games/board_patches): those go instead of the whole board, and the page applies them
        only to that board."""
        # Another announcement may have sent a newer board meanwhile.
        if not self.wants(snapshot):
            return
        key = snapshot.key_for(self.user_id, self.language)
        if patch is not None and patch.base == self.sent_board and patch.base[3:] == key[3:]:
            html = patch.message
        self.sent_revision, self.sent_stamp = snapshot.revision, snapshot.stamp
        self.sent_board = key
        if settings.LIVE_TRACE:
            html += timing.trace_comment(event, "send")
        await self.send(text_data=html)

    async def game_changed(self, event: dict[str, Any]) -> None:
        """Called by the hub for each announcement, on the sockets that take no board."""
        if not self.accepted:
            return
        if self.room:
            await self.send(text_data=ROOM_SIGNAL.format(revision=int(event.get("version", 0))))
        elif self.review:
            await self.send(text_data=await self.review_progress())

    @database_sync_to_async
    def review_progress(self) -> str:
        """The replay's progress line, as the page would render it now, in its language."""
        game = Game.objects.get(pk=self.game_id)
        review = Review.objects.filter(game_id=self.game_id).first()
        with translation.override(self.language):
            return render_to_string(REVIEW_PROGRESS, {"game": game, "review": review})

    @database_sync_to_async
    def game_exists(self) -> bool:
        return Game.objects.filter(pk=self.game_id).exists()

    def language_of(self, user: Any) -> str:
        if user is not None and user.is_authenticated and user.language:
            return str(user.language)
        cookie = self.scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
        return cookie if cookie in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


# Pages renewed by one statement: at most this many in each (SQLite's bound on a statement's
# parameters is 999 in older versions).
RENEW_AT_ONCE = 500


class PageRenewals:
    """The open pages of one event loop's game sockets, renewed together every
    `PAGE_RENEW_SECONDS`: one UPDATE for all of them, and each session looked up once however
    many sockets it opened (one call to the database thread for all). Renewed one socket at a
    time, a page cost three statements and about 4 ms of the server's CPU a minute: 0.4 to
    1.0 ms a move in `bench_live`'s 200 sockets (docs/benchmarks.md, "Fifth round"). A socket
    whose session no longer signs its member in (ended while its message was lost, Redis
    away) closes here."""

    def __init__(self) -> None:
        self.sockets: set[GameConsumer] = set()
        self.task: asyncio.Task[None] | None = None

    def add(self, socket: GameConsumer) -> None:
        self.sockets.add(socket)
        if self.task is None:
            self.task = asyncio.create_task(self._renew())

    def discard(self, socket: GameConsumer) -> None:
        self.sockets.discard(socket)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None
            page_renewals.forget()

    async def _renew(self) -> None:
        # The first renewal comes after a random part of the period: the processes of a server
        # started together would otherwise renew together every minute.
        await asyncio.sleep(PAGE_RENEW_SECONDS * random.uniform(0.5, 1.0))
        while True:
            sockets = list(self.sockets)
            try:
                ended = await database_sync_to_async(renew_pages)(sockets)
                await asyncio.gather(*(socket.close() for socket in ended), return_exceptions=True)
            except Exception:  # a database hiccup: tried again next time
                logger.exception("Renewing %d open pages failed", len(sockets))
            await asyncio.sleep(PAGE_RENEW_SECONDS)


def renew_pages(sockets: list[GameConsumer]) -> list[GameConsumer]:
    """Marks the sockets' pages as still open; returns the sockets whose session no longer
    signs their member in, as a page's request would find it."""
    now = timezone.now()
    keys = [socket.page_key for socket in sockets]
    for start in range(0, len(keys), RENEW_AT_ONCE):
        OpenPage.objects.filter(channel__in=keys[start : start + RENEW_AT_ONCE]).update(seen_at=now)
    signed_in: dict[tuple[str | None, int], bool] = {}
    ended = []
    for socket in sockets:
        user_id = socket.session_user_id
        if user_id is None:
            ended.append(socket)
            continue
        who = (socket.session_key, user_id)
        if who not in signed_in:
            signed_in[who] = signs_in(*who)
        if not signed_in[who]:
            ended.append(socket)
    return ended


# The page renewals of the running event loop.
page_renewals = PerLoop(PageRenewals)


class LobbyConsumer(SessionBound, AsyncWebsocketConsumer):
    """The lobby's socket: a hint that the open games changed; the page fetches its lists over
    HTTP (each member sees their own), so nothing a member may not see travels here."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        self.group = self.group_name()
        # The member's group tells when the session ends (accounts/sessions).
        self.member_group = user_group(user.pk)
        self.remember_session(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.member_group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.member_group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Browsers have nothing to say here; ignore it."""

    def group_name(self) -> str:
        return broadcast.LOBBY_GROUP

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=LOBBY_SIGNAL)

    async def page_changed(self, event: dict[str, Any]) -> None:
        """This socket's tournament or game night changed (the consumers below)."""
        await self.send(text_data=LOBBY_SIGNAL)

    # The member's group also carries the member's notifications (accounts/broadcast), which
    # the badge's own socket shows. Channels closes a socket on a message it has no handler
    # for, and a lobby change announced before the page reconnected would be lost: these
    # messages are heard and left to that socket.
    async def notification_created(self, event: dict[str, Any]) -> None:
        """The badge's socket (accounts/consumers) shows it."""

    async def notifications_read(self, event: dict[str, Any]) -> None:
        """The badge's socket (accounts/consumers) shows it."""


class TournamentConsumer(LobbyConsumer):
    """A tournament page's socket: the same hint as the lobby's, sent only when this
    tournament changes (broadcast.notify_page_changed), so a change elsewhere in the club
    makes no open tournament page fetch its live part."""

    def group_name(self) -> str:
        return broadcast.tournament_group(int(self.scope["url_route"]["kwargs"]["tournament_id"]))


class NightConsumer(LobbyConsumer):
    """A game night page's socket: the hint only when this night changes."""

    def group_name(self) -> str:
        return broadcast.night_group(int(self.scope["url_route"]["kwargs"]["night_id"]))
