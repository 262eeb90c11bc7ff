"""Which local sockets watch which game, and pushing each its own ``state`` after a commit.

Subscribed to the fan-out: on ``(game, version)`` it takes the snapshot from the cache (one shared
read when the cache is behind), and sends it to every socket that has not yet seen the version,
each payload built once per (seat, version the socket had) and only under the socket's send lock,
so two pushes racing for one socket never send a log entry twice (docs/decisions.md, *One outbox per socket*).  Sockets are
told in parallel; a slow socket delays only itself, and a socket that takes no frame for
``ws_send_timeout_seconds`` is closed.

A ``hello`` needs no database connection of its own (docs/decisions.md, *Shared greeting reads*): the snapshot comes from the
cache unless the fan-out has told of a newer version, the log from :class:`~app.realtime.reads.GameLogs`,
and whatever must be read is read once for every socket that asks at the same time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from dataclasses import dataclass

from fastapi import WebSocket

from app import i18n
from app.realtime import frames
from app.realtime.reads import BatchedCheck, GameLogs, LogRows, SharedReads, rows_between
from app.services.accounts import identity as accounts
from app.services.games import pipeline as games
from app.services.accounts.identity import Login
from app.services.games.cache import GameSnapshot
from app.services.context import Context
from app.fanout import Marker
from app.services.games.legal_forms import LegalForm
from app.services.games.views import log_entries, state_payload

log = logging.getLogger(__name__)


class Subscriber:
    """One open socket of this process: it watches ``game_id`` as ``seat`` (None: spectator) once it
    said ``hello``, and speaks for ``login`` (None: nobody logged in).  ``legal_form`` is how its
    ``state`` frames write ``legal``, as its last ``hello`` asked (``app/services/games/legal_forms.py``);
    ``language`` the one its error messages are written in (the handshake's cookie or
    ``Accept-Language``, :func:`app.i18n.connection_language`)."""

    def __init__(self, websocket: WebSocket, game_id: int, seat: int | None, invite_code: str | None = None,
                 account_id: int | None = None, login: Login | None = None) -> None:
        self.websocket = websocket
        self.game_id = game_id
        self.seat = seat
        self.login = login
        self.account_id = account_id if account_id is not None else (login.account_id if login else None)
        self.invite_code = invite_code
        self.language = i18n.connection_language(websocket)  # of the words in its error frames
        self.legal_form: LegalForm = "moves"
        self.version = -1  # the newest version this socket has been sent
        self.acked = -1  # the newest version an ack sent to this socket named: an older state is never sent after it
        self.send_lock = asyncio.Lock()
        self.closed_by_server = False  # whether the server sent the close frame (the socket metrics)
        # The pushes' outbox (Hub._queue_push): the newest push not yet written, the task that
        # writes them, and since when (event-loop time) its current frame has been going out.
        self.pending: _Push | None = None
        self.presence: bytes | None = None  # the newest presence frame not yet written
        self.wake = asyncio.Event()
        self.writer: asyncio.Task | None = None
        self.sending_since: float | None = None
        self.gone = False  # the socket closed (Hub.disconnected): no writer is started for it again

    async def send(self, frame: frames.ServerFrameModel | bytes) -> None:
        """Send one frame (already-encoded bytes, from :func:`frames.encode`, are sent as they are)."""
        data = frame if isinstance(frame, bytes) else frames.encode(frame)
        async with self.send_lock:
            await self.websocket.send_text(data.decode())

    async def close(self, code: int, reason: str | None = None) -> None:
        """Close the socket with ``code`` (the server closes every socket through here, so its end is
        counted as the server's in ``caravanserai_websocket_disconnects``); raises what the socket
        raises when it is closed already."""
        self.closed_by_server = True
        await self.websocket.close(code=code, reason=reason)


@dataclass(frozen=True)
class _Push:
    """A push waiting in a socket's outbox: ``snapshot`` with its log ``rows`` and the seats
    ``online``; ``force``: send it even if the socket has this version (the seats changed)."""

    snapshot: GameSnapshot
    rows: LogRows
    online: tuple[int, ...]
    force: bool


class Hub:
    """The local sockets, and the local subscribers of every game, fed by the fan-out.

    Presence (who has the game open) is what this process sees: with several processes a
    player connected elsewhere shows as offline here.
    """

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._send_timeout = ctx.settings.ws_send_timeout_seconds
        self._subscribers: dict[int, set[Subscriber]] = defaultdict(set)
        self._players: dict[int, set[Subscriber]] = defaultdict(set)  # the seated subscribers: presence is theirs
        self._sockets: set[Subscriber] = set()
        settings = ctx.settings
        # The greetings' and pushes' reads share at most half the pool (the fan-out's listener holds
        # one connection for good): a crowd of sockets waits in turn and leaves the rest to the moves.
        self.read_slots = asyncio.Semaphore(max(1, (settings.db_pool_size + settings.db_max_overflow - 1) // 2))
        self._reads = SharedReads(self.read_slots)
        self._logs = GameLogs()
        self._payloads: dict[int, tuple[GameSnapshot, dict[tuple, bytes]]] = {}
        self._catching_up: dict[int, asyncio.Task] = {}
        self.login_is_current = BatchedCheck(self._current_logins)
        ctx.fanout.subscribe(self._hear)

    # -- sockets and subscriptions ------------------------------------------------------------

    def connected(self, subscriber: Subscriber) -> None:
        """A socket was accepted (``hello`` or not: a logout closes it too)."""
        self._sockets.add(subscriber)

    async def disconnected(self, subscriber: Subscriber) -> None:
        """The socket closed: unsubscribe it, forget it, and end its writer (awaited, so no writer
        task outlives its socket: a push queued while it closed started one nothing cancelled)."""
        subscriber.gone = True
        self._sockets.discard(subscriber)
        await self.remove(subscriber)
        writer = subscriber.writer
        self._stop_writer(subscriber)
        if writer is not None:
            await asyncio.gather(writer, return_exceptions=True)

    def add(self, subscriber: Subscriber) -> None:
        """Start pushing ``subscriber``'s game to it (again after each ``hello``: its seat may have changed;
        counted once in the open sockets)."""
        watchers = self._subscribers[subscriber.game_id]
        if subscriber not in watchers:
            watchers.add(subscriber)
            self._ctx.metrics.open_sockets.inc()
        if subscriber.seat is not None:
            self._players[subscriber.game_id].add(subscriber)
        elif subscriber in self._players.get(subscriber.game_id, ()):
            self._players[subscriber.game_id].discard(subscriber)

    async def remove(self, subscriber: Subscriber) -> None:
        """Stop pushing to ``subscriber`` (idempotent); tells the others if its seat went offline."""
        watchers = self._subscribers.get(subscriber.game_id)
        if watchers is None or subscriber not in watchers:
            return
        self._stop_writer(subscriber)
        before = self._presence(subscriber.game_id)
        watchers.discard(subscriber)
        players = self._players.get(subscriber.game_id)
        if players is not None:
            players.discard(subscriber)
            if not players:
                del self._players[subscriber.game_id]
        self._ctx.metrics.open_sockets.dec()
        if not watchers:
            del self._subscribers[subscriber.game_id]
            self._payloads.pop(subscriber.game_id, None)
        elif self._presence(subscriber.game_id) != before:
            await self._broadcast_presence(subscriber.game_id)

    async def disconnect_account(self, account_id: int) -> int:
        """Close, with 4401, every local socket of ``account_id`` whose login session has ended (it
        logged out; a login made since keeps its sockets), greeted or not; returns how many."""
        logins = {s.login for s in self._sockets if s.login is not None and s.login.account_id == account_id}
        if not logins:
            return 0
        async with self._ctx.sessions() as session:  # a read of its own: it must see the logout just committed
            ended = await accounts.ended_logins(session, logins)
        return await self._close_logins(ended)

    async def close_game(self, game_id: int) -> int:
        """Close, with 4404, every local socket of ``game_id`` (an admin deleted the table); returns how many."""
        return await self._close([s for s in self._sockets if s.game_id == game_id], 4404, "table deleted")

    def watchers(self, game_id: int) -> list[Subscriber]:
        """Every local socket subscribed to ``game_id`` (greeted or not)."""
        return list(self._subscribers.get(game_id, ()))

    def greeted_seats(self) -> set[tuple[int, int]]:
        """The ``(game, seat)`` pairs with a greeted socket on this process (for ``app/services/attendance/presence.py``)."""
        return {(s.game_id, s.seat) for watchers in self._subscribers.values() for s in watchers
                if s.seat is not None and s.version >= 0}

    def count(self) -> int:
        """Open subscriptions in this process."""
        return sum(len(watchers) for watchers in self._subscribers.values())

    def online(self, game_id: int) -> list[int]:
        """The seats that have the game open on this process."""
        return sorted({s.seat for s in self._players.get(game_id, ()) if s.seat is not None and s.version >= 0})

    def spectators(self, game_id: int) -> int:
        """How many watch the game from no seat on this process: greeted seatless sockets, one per
        account (two tabs are one person), each socket without an account on its own."""
        return len({s.account_id if s.account_id is not None else id(s) for s in self._subscribers.get(game_id, ())
                    if s.seat is None and s.version >= 0})

    def _presence(self, game_id: int) -> tuple[list[int], int]:
        """What a ``presence`` frame tells: the online seats and the spectators."""
        return self.online(game_id), self.spectators(game_id)

    # -- shared reads -------------------------------------------------------------------------

    async def snapshot(self, game_id: int) -> GameSnapshot:
        """The game as sockets are greeted with it: the cached snapshot unless the fan-out told of a
        newer version, else one database read shared by everyone asking meanwhile.

        May lag by a notice that was lost between processes; :meth:`resync` sends the socket the
        newer version within ``resync_seconds``.  Raises ``AppError(not_found)`` for an unknown
        table or one whose game has not started.
        """
        snapshot = self._ctx.cache.current(game_id)
        if snapshot is not None:
            return snapshot
        return await self._load(game_id)

    async def _load(self, game_id: int) -> GameSnapshot:
        # The cache's epoch in the key: after a seating change nobody joins a read begun before it.
        key = ("snapshot", game_id, self._ctx.cache.epoch())
        return await self._reads.run(key, lambda: games.load_snapshot(self._ctx, game_id))

    async def _log_rows(self, snapshot: GameSnapshot) -> LogRows:
        rows = self._logs.rows(snapshot)
        if rows is not None:
            return rows
        game_id, version = snapshot.game_id, snapshot.version
        rows = await self._reads.run(("log", game_id, version), lambda: games.read_log_rows(self._ctx, game_id, 0, version))
        if [row_version for row_version, _ in rows] == list(range(1, version + 1)):
            self._logs.keep(game_id, rows)
        return rows

    async def _current_logins(self, logins: set[Login]) -> set[Login]:
        return logins - await self._ended_logins(logins)

    async def _ended_logins(self, logins: set[Login]) -> set[Login]:
        async with self.read_slots, self._ctx.sessions() as session:
            return await accounts.ended_logins(session, logins)

    # -- greeting -----------------------------------------------------------------------------

    async def send_state(self, subscriber: Subscriber, since: int, snapshot: GameSnapshot | None = None) -> None:
        """Send ``subscriber`` the current state (``snapshot`` if given) with the log entries after ``since``."""
        game_id = subscriber.game_id
        before = self._presence(game_id)
        snapshot = snapshot or await self.snapshot(game_id)
        if snapshot.version < since:
            # The socket has seen a newer version than this process has heard of (its notice from
            # another process is slow or lost): read the game now rather than send it back in time.
            snapshot = await self._reads.run(("snapshot-after", game_id, since),
                                             lambda: games.load_snapshot(self._ctx, game_id))
        rows = await self._log_rows(snapshot)
        async with subscriber.send_lock:
            subscriber.version = snapshot.version
            online = tuple(self.online(game_id))
            sent = await self._send(subscriber, self._payload(snapshot, subscriber.seat, since, rows, online,
                                                              subscriber.legal_form))
        if sent and self._presence(game_id) != before:
            await self._broadcast_presence(game_id)
        elif sent and before[1]:  # the state frame tells the seats online, not who watches
            subscriber.presence = frames.encode(frames.presence(*before))
            self._wake_writer(subscriber)
        # A move committed (here or on another process) while this socket was being greeted was
        # announced while it was still at -1: the news was noted (GameCache.heard), catch up now.
        newest = self._ctx.cache.newest_version(game_id)
        if sent and newest > subscriber.version:
            await self.on_version(game_id, newest)

    def _payload(self, snapshot: GameSnapshot, seat: int | None, since: int, rows: LogRows,
                 online: tuple[int, ...], legal_form: LegalForm) -> bytes:
        """The encoded ``state`` frame of ``snapshot`` for ``seat`` with the entries after ``since``
        and the seats ``online``, ``legal`` in ``legal_form``; built once per game, snapshot, seat,
        ``since``, presence and form."""
        key = (seat, min(max(since, 0), snapshot.version), online, legal_form)
        held = self._payloads.get(snapshot.game_id)
        if held is None or held[0] is not snapshot:
            held = (snapshot, {})
            if snapshot.game_id in self._subscribers:
                self._payloads[snapshot.game_id] = held
        payload = held[1].get(key)
        if payload is None:
            ruleset = self._ctx.registry.get(snapshot.ruleset)
            newer = rows_between(rows, key[1], snapshot.version)
            game = state_payload(ruleset, snapshot, seat, log_entries(newer, seat, snapshot.names), legal_form)
            payload = held[1][key] = frames.encode_state(game, list(online))
        return payload

    # -- pushing ------------------------------------------------------------------------------

    def _hear(self, game_id: int, version: int):
        """Fan-out listener: note the news at once (so a greeting that starts now knows of it), then
        push it: at once when the snapshot and log are in memory (the usual move), else as a
        coroutine the fan-out runs as a task."""
        if version == Marker.LOGGED_OUT:  # game_id is an account id here
            return self._quietly(self.disconnect_account(game_id), f"closing the sockets of account {game_id}")
        if version == Marker.TABLE_DELETED:
            self._ctx.cache.forget(game_id)
            return self._quietly(self.close_game(game_id), f"closing the sockets of deleted table {game_id}")
        if version >= 0:
            self._ctx.cache.heard(game_id, version)
        try:
            if self._push_from_memory(game_id, version):
                return None  # the usual move: no task at all
        except Exception:  # never into the committer's call; the task below tries again and logs
            log.exception("fan-out of game %s from memory failed", game_id)
        return self.on_version(game_id, version)

    async def on_version(self, game_id: int, version: int) -> None:
        """Push ``version`` of ``game_id`` to every local socket behind it; never raises.

        ``Marker.SEATING_CHANGED`` (the seats changed, not the game) resends the current state to all.
        """
        await self._quietly(self._push_version(game_id, version), f"fan-out of game {game_id}")

    def _behind(self, game_id: int, version: int) -> list[Subscriber]:
        """The greeted sockets of ``game_id`` to push ``version`` to (all of them for
        ``Marker.SEATING_CHANGED``).  Sockets still at -1 are being greeted by send_state, which
        catches up afterwards."""
        force = version == Marker.SEATING_CHANGED
        return [s for s in self._subscribers.get(game_id, ()) if s.version >= 0 and (force or s.version < version)]

    def _push_from_memory(self, game_id: int, version: int) -> bool:
        """Queue the pushes of ``version`` from the cached snapshot and the held log, without
        awaiting anything; ``False`` (nothing queued) when either must be read first."""
        watchers = self._behind(game_id, version)
        if not watchers:
            return True
        snapshot = self._ctx.cache.current(game_id)
        if snapshot is None or snapshot.version < version:
            return False
        rows = self._logs.rows(snapshot)
        if rows is None:
            return False
        self._queue_pushes(watchers, snapshot, rows, version == Marker.SEATING_CHANGED)
        return True

    async def _push_version(self, game_id: int, version: int) -> None:
        if self._push_from_memory(game_id, version):
            return
        watchers = self._behind(game_id, version)
        snapshot = self._ctx.cache.current(game_id)
        if snapshot is None or snapshot.version < version:
            snapshot = await self._load(game_id)
            if snapshot.version < version:  # joined a read that began before that commit: read again
                snapshot = await self._load(game_id)
        rows = await self._log_rows(snapshot)
        self._queue_pushes(watchers, snapshot, rows, version == Marker.SEATING_CHANGED)

    def _queue_pushes(self, watchers: list[Subscriber], snapshot: GameSnapshot, rows: LogRows, force: bool) -> None:
        online = tuple(self.online(snapshot.game_id))
        # ``watchers`` may have been chosen before a read: a socket removed meanwhile gets nothing.
        current = self._subscribers.get(snapshot.game_id, ())
        for subscriber in watchers:
            if subscriber in current:
                self._queue_push(subscriber, _Push(snapshot, rows, online, force))

    def _queue_push(self, subscriber: Subscriber, push: _Push) -> None:
        """Put ``push`` in ``subscriber``'s outbox, in place of an older one still waiting there, and
        wake its writer (started on the first push).  One long-lived writer per socket, not one task
        and one timer per frame: that was a fifth of the server's CPU at 500 games.  A
        slow socket holds up only its own writer; :meth:`watch_sends_forever` closes it."""
        waiting = subscriber.pending
        if waiting is None or waiting.snapshot.version <= push.snapshot.version:
            if waiting is not None and waiting.force and not push.force:
                push = _Push(push.snapshot, push.rows, push.online, True)
            subscriber.pending = push
        self._wake_writer(subscriber)

    def _wake_writer(self, subscriber: Subscriber) -> None:
        if subscriber.gone:
            return
        if subscriber.writer is None or subscriber.writer.done():
            subscriber.writer = asyncio.ensure_future(self._write_pushes(subscriber))
        else:
            subscriber.wake.set()

    async def _write_pushes(self, subscriber: Subscriber) -> None:
        """``subscriber``'s writer: send what its outbox holds (a presence frame, then the newest
        push) until it is removed."""
        while True:
            presence, push = subscriber.presence, subscriber.pending
            if presence is None and push is None:
                subscriber.wake.clear()
                await subscriber.wake.wait()
                continue
            subscriber.presence = subscriber.pending = None
            try:
                if presence is not None:
                    async with subscriber.send_lock:
                        await self._write(subscriber, presence)
                if push is not None:
                    await self._push(subscriber, push)
            except Exception:  # never let one frame end the writer
                log.exception("pushing game %s to a socket failed", subscriber.game_id)

    async def stop(self) -> None:
        """End every socket's writer and wait for them (at shutdown: no task is left pending when
        the event loop closes); no writer starts again."""
        everyone = self._sockets.union(*self._subscribers.values())
        writers = [s.writer for s in everyone if s.writer is not None]
        for subscriber in everyone:
            subscriber.gone = True
            self._stop_writer(subscriber)
        await asyncio.gather(*writers, return_exceptions=True)

    def _stop_writer(self, subscriber: Subscriber) -> None:
        subscriber.pending = subscriber.presence = None
        if subscriber.writer is not None:
            subscriber.writer.cancel()
            subscriber.writer = None

    async def _push(self, subscriber: Subscriber, push: _Push) -> None:
        snapshot = push.snapshot
        async with subscriber.send_lock:
            if subscriber.version > snapshot.version or (subscriber.version == snapshot.version and not push.force):
                return
            if snapshot.version < subscriber.acked:
                # Its own move was acknowledged at a newer version: this older state (late: a read, or
                # another process's news) would show the seat still to act.  The push of the acked
                # version follows, with the log from what this socket was last sent.
                return
            # Built here, under the lock, from what this socket was really sent last, so no log entry goes out twice.
            payload = self._payload(snapshot, subscriber.seat, subscriber.version, push.rows, push.online,
                                    subscriber.legal_form)
            subscriber.version = snapshot.version
            await self._write(subscriber, payload)

    @staticmethod
    async def _write(subscriber: Subscriber, payload: bytes) -> None:
        """Send ``payload`` under the caller's send lock, noting since when it is going out (the send
        watch closes a socket stuck here); a socket that is closing is left to its handler."""
        subscriber.sending_since = asyncio.get_running_loop().time()
        try:
            await subscriber.websocket.send_text(payload.decode())
        except Exception:  # the socket is closing; its handler removes it
            pass
        finally:
            subscriber.sending_since = None

    async def watch_sends_forever(self) -> None:
        """Close (1013) every socket whose push has been going out for over ``ws_send_timeout_seconds``
        (its peer stopped reading), checking every quarter of that time (at most every second), until
        cancelled.  The pushes carry no timer of their own (:meth:`_queue_push`)."""
        interval = min(1.0, self._send_timeout / 4)
        while True:
            await asyncio.sleep(interval)
            try:
                self.close_stuck_sends()
            except Exception:
                log.exception("checking for stuck sockets failed")

    def close_stuck_sends(self) -> list[Subscriber]:
        """One round of :meth:`watch_sends_forever`: stop the writers of the sockets stuck in a push for
        over ``ws_send_timeout_seconds`` and close those sockets; returns them."""
        now = asyncio.get_running_loop().time()
        stuck = [s for watchers in self._subscribers.values() for s in watchers
                 if s.sending_since is not None and now - s.sending_since > self._send_timeout]
        for subscriber in stuck:
            subscriber.sending_since = None
            self._stop_writer(subscriber)
            self._close_too_slow(subscriber)
        return stuck

    def _close_too_slow(self, subscriber: Subscriber) -> None:
        """Close (1013, in a task of its own, bounded by the send timeout) a socket that took no frame
        for ``ws_send_timeout_seconds``."""
        log.warning("closing a socket of game %s that took no frame for %s s", subscriber.game_id, self._send_timeout)
        asyncio.ensure_future(self._quietly(asyncio.wait_for(subscriber.close(1013, "too slow"), self._send_timeout),
                                            "closing a slow socket"))

    async def _send(self, subscriber: Subscriber, payload: bytes) -> bool:
        """Send under the caller's send lock; a socket that takes no frame for ``ws_send_timeout_seconds``
        (its peer stopped reading) is closed, so it holds up nobody.  Whether the frame went out."""
        try:
            async with asyncio.timeout(self._send_timeout):
                await subscriber.websocket.send_text(payload.decode())
            return True
        except TimeoutError:
            self._close_too_slow(subscriber)
        except Exception:  # the socket is closing; its handler removes it
            pass
        return False

    async def _broadcast_presence(self, game_id: int) -> None:
        """Queue the ``presence`` frame of ``game_id`` in every greeted socket's outbox (in place of
        one still waiting there): a socket whose peer stopped reading holds up no greeting."""
        frame = frames.encode(frames.presence(*self._presence(game_id)))
        for subscriber in self._subscribers.get(game_id, ()):
            if subscriber.version >= 0:
                subscriber.presence = frame
                self._wake_writer(subscriber)

    async def _close_logins(self, ended: set[Login]) -> int:
        if not ended:  # the usual resync: no need to hash every socket's login
            return 0
        return await self._close([s for s in self._sockets if s.login in ended], 4401, "logged out")

    async def _close(self, sockets: list[Subscriber], code: int, reason: str) -> int:
        for subscriber in sockets:
            try:
                await asyncio.wait_for(subscriber.close(code, reason), self._send_timeout)
            except Exception:  # already closing
                pass
        return len(sockets)

    @staticmethod
    async def _quietly(work, what: str) -> None:
        """Await ``work``; log (never raise) what goes wrong, so no task's exception goes unretrieved."""
        try:
            await work
        except Exception:
            log.exception("%s failed", what)

    # -- resync -------------------------------------------------------------------------------

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
        than the socket was told (one query for all watched games), and close the sockets whose
        login session has ended (one statement for all logins on PostgreSQL, ``accounts.ended_logins``:
        a logout's notice can be lost too).

        The pushes run as one task per game that this call does not wait for: a socket whose peer
        stopped reading must not hold up the other games.  A game whose last
        catch-up still runs is left to the next call.
        """
        logins = {s.login for s in self._sockets if s.login is not None}
        if logins:
            await self._close_logins(await self._ended_logins(logins))
        told = {game_id: min(s.version for s in watchers if s.version >= 0)
                for game_id, watchers in self._subscribers.items() if any(s.version >= 0 for s in watchers)}
        if not told:
            return
        for game_id, version in (await games.current_versions(self._ctx, list(told))).items():
            if version > told[game_id] and game_id not in self._catching_up:
                self._ctx.cache.heard(game_id, version)
                task = asyncio.ensure_future(self.on_version(game_id, version))
                self._catching_up[game_id] = task

                def caught_up(_done: object, game_id: int = game_id) -> None:
                    self._catching_up.pop(game_id, None)

                task.add_done_callback(caught_up)
