"""Chat lines and rematch news for the local sockets of each game: a fan-out listener beside the hub.

The fan-out carries only ``(game, version)``; a chat post publishes ``Marker.CHAT_POSTED`` and a new
rematch ``Marker.REMATCH_STARTED`` for the game, and this listener reads what is new from the database
(so it works the same when the post was made on another process).

Each socket has a chat cursor: the newest message id it has been sent.  It starts at the newest
message when the socket first says ``hello`` (the page reads the history over REST after that),
and only moves forward, under the socket's send lock, so two posts heard at once are neither lost
nor sent twice.  Spectators get ``chat`` frames only where the table lets spectators chat, and
nobody gets the lines of a player they blocked.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Coroutine
from typing import Any

from sqlalchemy import select

from app.db.models import Table
from app.fanout import Marker
from app.realtime import frames
from app.realtime.hub import Hub, Subscriber
from app.realtime.reads import SharedReads
from app.services.tables import chat
from app.services.accounts import friends
from app.services.context import Context

log = logging.getLogger(__name__)


class TableNotices:
    """Pushes ``chat`` and ``rematch`` frames to the sockets of ``hub`` (``greet`` each at ``hello``)."""

    def __init__(self, ctx: Context, hub: Hub) -> None:
        self._ctx = ctx
        self._hub = hub
        self._chat_seen: weakref.WeakKeyDictionary[Subscriber, int] = weakref.WeakKeyDictionary()
        self._rematch_told: weakref.WeakSet[Subscriber] = weakref.WeakSet()
        self._reads = SharedReads(hub.read_slots)
        self._recent_news: dict[int, tuple[float, tuple[int, int | None] | None]] = {}  # game -> (read at, news)
        ctx.fanout.subscribe(self.on_version)

    async def greet(self, subscriber: Subscriber) -> None:
        """Start the socket's chat cursor (first ``hello`` only); tell it of a rematch that already started.

        One read per game serves every socket greeted meanwhile (docs/decisions.md, *Shared greeting reads*)."""
        latest, rematch_id = await self._news(subscriber.game_id)
        self._chat_seen.setdefault(subscriber, latest)
        if rematch_id is not None:
            await self._tell_rematch(subscriber, rematch_id)

    async def _news(self, game_id: int) -> tuple[int, int | None]:
        """``(newest chat message id, rematch id)`` of the game: read once for every socket greeted
        meanwhile, then kept until the game's next chat or rematch notice, or ``resync_seconds`` (a
        notice from another process may be lost; then a greeting is at most that late)."""
        held = self._recent_news.get(game_id)
        if held is not None and held[1] is not None and time.monotonic() - held[0] < self._ctx.settings.resync_seconds:
            return held[1]
        stamp = time.monotonic()
        news = await self._reads.run(game_id, lambda: self._read_news(game_id))
        held = self._recent_news.get(game_id)
        if held is None or held[0] < stamp:  # kept unless a notice came after this read began
            self._recent_news[game_id] = (stamp, news)
            while len(self._recent_news) > 4096:
                self._recent_news.pop(next(iter(self._recent_news)))
        return news

    async def _read_news(self, game_id: int) -> tuple[int, int | None]:
        async with self._ctx.sessions() as session:
            latest = await chat.latest_message_id(session, game_id)
            rematch_id = await session.scalar(select(Table.rematch_id).where(Table.id == game_id))
        return latest, rematch_id

    def on_version(self, game_id: int, version: int) -> Coroutine[Any, Any, None] | None:
        """Fan-out listener: act on ``Marker.CHAT_POSTED``, ``Marker.CHAT_REMOVED`` and
        ``Marker.REMATCH_STARTED`` (a coroutine the fan-out runs as a task), ignore game versions
        (``None``: no task for every move)."""
        if version not in (Marker.CHAT_POSTED, Marker.REMATCH_STARTED, Marker.CHAT_REMOVED):
            return None
        return self._on_news(game_id, version)

    async def _on_news(self, game_id: int, version: int) -> None:
        if version in (Marker.CHAT_POSTED, Marker.REMATCH_STARTED):
            self._recent_news[game_id] = (time.monotonic(), None)  # stale; and so is any read begun before
        try:
            if version == Marker.CHAT_POSTED:
                await self._push_chat(game_id)
            elif version == Marker.REMATCH_STARTED:
                await self._push_rematch(game_id)
            elif version == Marker.CHAT_REMOVED:
                await self._push_chat_removed(game_id)
        except Exception:
            log.exception("could not push the news of game %s (%s)", game_id, version)

    async def _push_chat(self, game_id: int) -> None:
        watchers = [s for s in self._hub.watchers(game_id) if s in self._chat_seen]
        if not watchers:
            return
        oldest = min(self._chat_seen[s] for s in watchers)
        async with self._ctx.sessions() as session:
            spectators, messages = await chat.messages_after(session, game_id, oldest)
            readers = {s.account_id for s in watchers if s.account_id is not None}
            blocked = await friends.blocked_by(session, readers) if messages else {}
        if messages:
            await asyncio.gather(*(self._send_chat(s, messages, spectators, set() if s.account_id is None
                                                   else blocked.get(s.account_id, set()))
                                   for s in watchers))

    async def _send_chat(self, subscriber: Subscriber, messages: list[dict], spectators: bool,
                         blocked: set[int]) -> None:
        may_read = subscriber.seat is not None or spectators
        async with subscriber.send_lock:
            for message in messages:
                if message["id"] <= self._chat_seen.get(subscriber, 0):
                    continue
                self._chat_seen[subscriber] = message["id"]
                if may_read and message["account_id"] not in blocked:
                    await _send(subscriber, frames.encode(frames.chat(message)))

    async def _push_chat_removed(self, game_id: int) -> None:
        watchers = [s for s in self._hub.watchers(game_id) if s in self._chat_seen]
        if not watchers:
            return
        async with self._ctx.sessions() as session:
            spectators = bool(await session.scalar(select(Table.chat_spectators).where(Table.id == game_id)))
        frame = frames.encode(frames.chat_removed())
        readers = [s for s in watchers if s.seat is not None or spectators]

        async def tell(subscriber: Subscriber) -> None:
            async with subscriber.send_lock:
                await _send(subscriber, frame)

        await asyncio.gather(*(tell(s) for s in readers))

    async def _push_rematch(self, game_id: int) -> None:
        watchers = [s for s in self._hub.watchers(game_id) if s in self._chat_seen and s not in self._rematch_told]
        if not watchers:
            return
        async with self._ctx.sessions() as session:
            rematch_id = await session.scalar(select(Table.rematch_id).where(Table.id == game_id))
        if rematch_id is not None:
            await asyncio.gather(*(self._tell_rematch(s, rematch_id) for s in watchers))

    async def _tell_rematch(self, subscriber: Subscriber, rematch_id: int) -> None:
        async with subscriber.send_lock:
            if subscriber in self._rematch_told:
                return
            self._rematch_told.add(subscriber)
            await _send(subscriber, frames.encode(frames.rematch(rematch_id)))


async def _send(subscriber: Subscriber, frame: bytes) -> None:
    """Send one encoded frame; the caller holds the socket's send lock."""
    try:
        await subscriber.websocket.send_text(frame.decode())
    except Exception:  # the socket is closing; its handler removes it
        pass
