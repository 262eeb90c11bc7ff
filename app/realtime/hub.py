"""Which local sockets watch which game, and pushing each its own ``state`` after a commit.

Subscribed to the fan-out: on ``(game, version)`` it loads the snapshot once (cache first),
builds one payload per distinct viewer seat, and sends it to every socket of that seat that
has not yet seen the version.  Sockets are told in parallel; a slow socket delays only itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any

import orjson
from fastapi import WebSocket

from app.realtime import frames
from app.services import games
from app.services.accounts import LOGGED_OUT
from app.services.context import Context
from app.services.takeover import SEATING_CHANGED
from app.services.views import encode, log_entries, state_payload

log = logging.getLogger(__name__)


class Subscriber:
    """One open socket watching one game as ``seat`` (None: spectator)."""

    def __init__(self, websocket: WebSocket, game_id: int, seat: int | None, invite_code: str | None = None,
                 account_id: int | None = None) -> None:
        self.websocket = websocket
        self.game_id = game_id
        self.seat = seat
        self.account_id = account_id
        self.invite_code = invite_code
        self.version = -1  # the newest version this socket has been sent
        self.send_lock = asyncio.Lock()

    async def send(self, frame: dict[str, Any] | bytes) -> None:
        """Send one JSON frame (already-encoded bytes are sent as text)."""
        data = frame if isinstance(frame, bytes) else orjson.dumps(frame)
        async with self.send_lock:
            await self.websocket.send_text(data.decode())


class Hub:
    """The local subscribers of every game, fed by the fan-out.

    Presence (who has the game open) is what this process sees: with several processes a
    player connected elsewhere shows as offline here (noted in issue 6's note).
    """

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._subscribers: dict[int, set[Subscriber]] = defaultdict(set)
        ctx.fanout.subscribe(self.on_version)

    def add(self, subscriber: Subscriber) -> None:
        """Start pushing ``subscriber``'s game to it (again at each hello: counted once)."""
        watchers = self._subscribers[subscriber.game_id]
        if subscriber not in watchers:
            watchers.add(subscriber)
            self._ctx.metrics.open_sockets.inc()

    async def remove(self, subscriber: Subscriber) -> None:
        """Stop pushing to ``subscriber`` (idempotent); tells the others if its seat went offline."""
        watchers = self._subscribers.get(subscriber.game_id)
        if watchers is None or subscriber not in watchers:
            return
        before = self.online(subscriber.game_id)
        watchers.discard(subscriber)
        self._ctx.metrics.open_sockets.dec()
        if not watchers:
            del self._subscribers[subscriber.game_id]
        elif self.online(subscriber.game_id) != before:
            await self._broadcast_presence(subscriber.game_id)

    async def disconnect_account(self, account_id: int) -> int:
        """Close every local socket of ``account_id`` (it logged out), code 4401; returns how many.
        Their handlers remove them as usual."""
        sockets = [s for watchers in self._subscribers.values() for s in watchers if s.account_id == account_id]
        for subscriber in sockets:
            try:
                await subscriber.websocket.close(code=4401, reason="logged out")
            except Exception:  # already closing
                pass
        return len(sockets)

    def watchers(self, game_id: int) -> list[Subscriber]:
        """Every local socket subscribed to ``game_id`` (greeted or not)."""
        return list(self._subscribers.get(game_id, ()))

    def count(self) -> int:
        """Open subscriptions in this process."""
        return sum(len(watchers) for watchers in self._subscribers.values())

    def online(self, game_id: int) -> list[int]:
        """The seats that have the game open on this process."""
        return sorted({s.seat for s in self._subscribers.get(game_id, ()) if s.seat is not None and s.version >= 0})

    async def send_state(self, subscriber: Subscriber, since: int) -> None:
        """Send ``subscriber`` the current state with the log entries after ``since``."""
        game_id = subscriber.game_id
        before = self.online(game_id)
        snapshot = await games.load_snapshot(self._ctx, game_id)
        ruleset = self._ctx.registry.get(snapshot.ruleset)
        entries = await games.read_log(self._ctx, game_id, since, subscriber.seat, snapshot.names,
                                       until=snapshot.version)
        async with subscriber.send_lock:
            subscriber.version = snapshot.version
            payload = self._encode(ruleset, snapshot, subscriber.seat, entries)
            await subscriber.websocket.send_text(payload.decode())
        if self.online(game_id) != before:
            await self._broadcast_presence(game_id)
        # A move committed (here or on another process) while this socket was being greeted was
        # announced while it was still at -1: catch up from the database, not only this process's cache.
        latest = await games.load_snapshot(self._ctx, game_id)
        if latest.version > subscriber.version:
            await self.on_version(game_id, latest.version)

    async def resync_forever(self, interval_seconds: float) -> None:
        """Every ``interval_seconds``, :meth:`resync` (until cancelled): the fan-out's notices between
        processes can be lost (see ``app/fanout.py``), a socket must not wait for the next move."""
        while True:
            await asyncio.sleep(interval_seconds)
            try:
                await self.resync()
            except Exception:
                log.exception("resync of the watched games failed")

    async def resync(self) -> None:
        """Push the current state to every greeted socket whose game is further on in the database
        than the socket was told (one query for all watched games)."""
        told = {game_id: min(s.version for s in watchers if s.version >= 0)
                for game_id, watchers in self._subscribers.items() if any(s.version >= 0 for s in watchers)}
        if not told:
            return
        for game_id, version in (await games.current_versions(self._ctx, list(told))).items():
            if version > told[game_id]:
                await self.on_version(game_id, version)

    async def on_version(self, game_id: int, version: int) -> None:
        """Fan-out listener: push ``version`` of ``game_id`` to every local socket behind it.

        ``SEATING_CHANGED`` (the seats changed, not the game) resends the current state to all;
        ``LOGGED_OUT`` closes the sockets of the account ``game_id`` names.
        """
        if version == LOGGED_OUT:  # game_id is an account id here
            await self.disconnect_account(game_id)
            return
        force = version == SEATING_CHANGED
        # Sockets still at -1 are being greeted by send_state, which catches up afterwards.
        watchers = [s for s in self._subscribers.get(game_id, ()) if s.version >= 0 and (force or s.version < version)]
        if not watchers:
            return
        snapshot = self._ctx.cache.get(game_id)
        if snapshot is None or snapshot.version != version:  # another process moved, or a seating change
            try:
                snapshot = await games.load_snapshot(self._ctx, game_id)
            except Exception:
                log.exception("could not load game %s for fan-out", game_id)
                return
        ruleset = self._ctx.registry.get(snapshot.ruleset)
        oldest = min(s.version for s in watchers)
        known = {row_version for row_version, _ in snapshot.recent}
        if set(range(oldest + 1, snapshot.version + 1)) <= known:
            rows = list(snapshot.recent)  # the usual case: everyone is one move behind, no database read
        else:
            rows = await games.read_log_rows(self._ctx, game_id, oldest, snapshot.version)
        payloads: dict[tuple[int | None, int], bytes] = {}
        sends = []
        for subscriber in watchers:
            key = (subscriber.seat, subscriber.version)
            if key not in payloads:
                newer = [(seq, events) for seq, events in rows if seq > subscriber.version]
                entries = log_entries(newer, subscriber.seat, snapshot.names)
                payloads[key] = self._encode(ruleset, snapshot, subscriber.seat, entries)
            sends.append(self._push(subscriber, snapshot.version, payloads[key], force))
        await asyncio.gather(*sends)

    def _encode(self, ruleset, snapshot, seat: int | None, entries: list[dict[str, Any]]) -> bytes:
        payload = state_payload(ruleset, snapshot, seat, entries)
        payload["online"] = self.online(snapshot.game_id)
        return encode(payload)

    async def _broadcast_presence(self, game_id: int) -> None:
        frame = orjson.dumps(frames.presence(self.online(game_id)))
        await asyncio.gather(*(self._send_raw(s, frame) for s in self._subscribers.get(game_id, ()) if s.version >= 0))

    async def _send_raw(self, subscriber: Subscriber, frame: bytes) -> None:
        async with subscriber.send_lock:
            try:
                await subscriber.websocket.send_text(frame.decode())
            except Exception:  # the socket is closing; its handler removes it
                pass

    async def _push(self, subscriber: Subscriber, version: int, payload: bytes, force: bool = False) -> None:
        async with subscriber.send_lock:
            if subscriber.version > version or (subscriber.version == version and not force):
                return
            subscriber.version = version
            try:
                await subscriber.websocket.send_text(payload.decode())
            except Exception:  # the socket is closing; its handler removes it
                pass
