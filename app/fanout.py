"""Fan-out: "game G is at version V", published after commit, heard by every app instance.

Knows nothing of sockets or games (docs/architecture.md): it carries two numbers, a game id and its
version, or one of the negative :class:`Marker` versions (a seating change, a chat line, a rematch,
a deleted table or chat message; an account that logged out, whose id then stands in the first
place).  Two implementations of one interface:

* :class:`LocalFanout`: in-process only (SQLite: one instance).
* :class:`PostgresFanout`: also tells the other instances on the database, through ``NOTIFY``
  on a channel they all ``LISTEN`` to on a dedicated asyncpg connection.

Local listeners are told at once, after the commit.  The news for other instances is queued and
sent by one task, as many commits as have gathered in one ``NOTIFY`` statement.  Why not
``pg_notify`` inside each move's own transaction: Postgres serialises the commits of every
transaction that notified (a database-wide lock, held through the commit's WAL flush), which
halved the move statements a database could commit per second and doubled their CPU cost
(0.21 against 0.11 ms; ``bench/results``).  What the queue gives up, a notice lost when the
process dies between a commit and the next send, is made good by the hub's resync poll
(``Hub.resync_forever``), which also covers a listening connection that dropped.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from enum import IntEnum

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tasks import wind_down

Listener = Callable[[int, int], Awaitable[None] | None]
CHANNEL = "caravanserai_games"
MAX_PAYLOAD = 7900
"""Bytes per notification (Postgres allows 8000)."""
log = logging.getLogger(__name__)


class Marker(IntEnum):
    """The news the fan-out carries in place of a game version: every marker is negative, so it is
    never taken for a version (game versions start at 0).  Listeners compare by name, never by order.
    """

    SEATING_CHANGED = -1
    """With a game id: the seats changed, not the game (a take-over, a return, someone found away);
    listeners refresh their cached seats and resend the state."""
    CHAT_POSTED = -2
    """With a game id: a chat message was posted at the table; listeners read what is new."""
    REMATCH_STARTED = -3
    """With a game id: this finished game has a rematch now; listeners read ``tables.rematch_id``."""
    LOGGED_OUT = -4
    """With an account id: the account logged out (its sessions ended); every process closes its sockets."""
    TABLE_DELETED = -5
    """With a table id: an admin deleted the table; every process forgets it and closes its sockets."""
    CHAT_REMOVED = -6
    """With a table id: an admin deleted a chat message there; open pages are told (``chat_removed``)
    to read the chat again."""


def game_changed(version: int) -> bool:
    """Whether news of ``version`` may change what the game's players are to do: a new version, or
    :attr:`Marker.SEATING_CHANGED` (the other markers are chat, rematch, logout and deletion news)."""
    return version >= 0 or version == Marker.SEATING_CHANGED


class LocalFanout:
    """In-process fan-out: ``publish`` calls every listener of this process."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._pending: set[asyncio.Task] = set()  # async listeners' tasks still running
        self.origin = secrets.token_hex(4)  # this process, in the notifications it sends

    def subscribe(self, listener: Listener, first: bool = False) -> None:
        """Call ``listener(game_id, version)`` for every publication (sync or async callable), after
        the listeners subscribed before it, or before them all when ``first``."""
        if first:
            self._listeners.insert(0, listener)
        else:
            self._listeners.append(listener)

    async def start(self) -> None:
        """Nothing to start in-process."""

    async def stop(self) -> None:
        """Let the async listeners' tasks still running finish (then cancel the late ones), so none
        outlives the database engine (``app.tasks.wind_down``)."""
        await wind_down(self._pending)

    async def publish(self, game_id: int, version: int) -> None:
        """Tell every instance that ``game_id`` reached ``version`` (call after commit)."""
        self.committed(game_id, version)

    def committed(self, game_id: int, version: int) -> None:
        """:meth:`publish` for callers that must not wait: this process's listeners are called now."""
        self._deliver(game_id, version)

    def _deliver(self, game_id: int, version: int) -> None:
        for listener in self._listeners:
            outcome = listener(game_id, version)
            if asyncio.iscoroutine(outcome):
                task = asyncio.ensure_future(outcome)
                self._pending.add(task)  # also keeps the task from being garbage-collected mid-way
                task.add_done_callback(self._settled)

    def _settled(self, task: asyncio.Task) -> None:
        """A listener's task ended: forget it, and log what it raised (listeners catch their own
        errors; one that does not must not end as "Task exception was never retrieved")."""
        self._pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a fan-out listener failed", exc_info=task.exception())


def encode_batch(origin: str, news: list[tuple[int, int]]) -> list[str]:
    """Notification payloads for ``news`` (``(game_id, version)`` pairs), each at most
    :data:`MAX_PAYLOAD` bytes: ``"<origin>;<game>:<version>,<game>:<version>,..."``.

    Only the newest version of a game is kept (listeners catch up from the log); the negative
    marker versions (seating changed, chat, rematch) are kept apart, each once.
    """
    newest: dict[int, int] = {}
    markers: dict[tuple[int, int], None] = {}
    for game_id, version in news:
        if version < 0:
            markers[(game_id, version)] = None
        elif version > newest.get(game_id, -1):
            newest[game_id] = version
    items = [f"{game_id}:{version}" for game_id, version in [*newest.items(), *markers]]
    payloads: list[str] = []
    current: list[str] = []
    size = len(origin) + 1
    for item in items:
        if current and size + len(item) + 1 > MAX_PAYLOAD:
            payloads.append(f"{origin};{','.join(current)}")
            current, size = [], len(origin) + 1
        current.append(item)
        size += len(item) + 1
    if current:
        payloads.append(f"{origin};{','.join(current)}")
    return payloads


def decode_batch(payload: str) -> tuple[str, list[tuple[int, int]]]:
    """``(origin, [(game_id, version), ...])`` of a payload made by :func:`encode_batch`.

    Raises ``ValueError`` for anything else.
    """
    origin, separator, body = payload.partition(";")
    if not separator or not body:
        raise ValueError(f"not a fan-out payload: {payload[:80]!r}")
    news = []
    for item in body.split(","):
        game_id, colon, version = item.partition(":")
        if not colon:
            raise ValueError(f"not a fan-out item: {item[:80]!r}")
        news.append((int(game_id), int(version)))
    return origin, news


class PostgresFanout(LocalFanout):
    """Fan-out across processes through Postgres ``LISTEN``/``NOTIFY`` on :data:`CHANNEL`.

    Payloads are :func:`encode_batch`'s; ``origin`` names the sending process, whose own
    listeners were told already, so it drops its own echo.  If the listening connection drops it
    is re-opened; what it missed meanwhile reaches sockets through the hub's resync poll.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__()
        self._engine = engine
        self._listen_task: asyncio.Task | None = None
        self._send_task: asyncio.Task | None = None
        self._outbox: list[tuple[int, int]] = []
        self._wakeup = asyncio.Event()
        self._stopping = False
        self._listening = None  # the listening asyncpg connection while it is open: it sends too

    async def start(self) -> None:
        """Open the listening connection and the sender in the background."""
        self._listen_task = asyncio.create_task(self._listen_forever())
        self._send_task = asyncio.create_task(self._send_forever())

    async def stop(self) -> None:
        """Send what is queued (graceful shutdown loses no notice), then close the listener."""
        self._stopping = True
        self._wakeup.set()
        if self._send_task:
            await wind_down([self._send_task])
        if self._listen_task:
            self._listen_task.cancel()
            try:
                await self._listen_task
            except asyncio.CancelledError:
                pass
        await super().stop()

    def committed(self, game_id: int, version: int) -> None:
        """Tell local listeners now; queue the news for the other instances."""
        self._deliver(game_id, version)
        self._outbox.append((game_id, version))
        self._wakeup.set()

    async def _send_forever(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            news, self._outbox = self._outbox, []
            if news:
                await self._send(news)
            if self._stopping and not self._outbox:
                return

    async def _send(self, news: list[tuple[int, int]]) -> None:
        """One ``NOTIFY`` statement for ``news``: on the listening connection while it is open (one
        round trip, no pooled connection: a busy server sends several batches per move it could
        otherwise commit), else on a pooled one; three tries, then the resync poll makes up for it."""
        payloads = encode_batch(self.origin, news)
        for attempt in range(3):
            try:
                listening = self._listening
                if listening is not None and not listening.is_closed():
                    await listening.execute(f"SELECT pg_notify('{CHANNEL}', payload) FROM unnest($1::text[]) AS payload",
                                            payloads)
                    return
                async with self._engine.connect() as connection:
                    await connection.execute(text("SELECT pg_notify(:channel, payload) FROM unnest(CAST(:payloads AS "
                                                  "text[])) AS payload"), {"channel": CHANNEL, "payloads": payloads})
                    await connection.commit()
                return
            except Exception:
                log.exception("fan-out could not notify the other instances (attempt %s of 3)", attempt + 1)
                if self._stopping:
                    return
                await asyncio.sleep(0.5 * (attempt + 1))
        # given up: the other instances' resync poll brings their sockets up to date

    async def _listen_forever(self) -> None:
        while True:
            try:
                async with self._engine.connect() as connection:
                    raw = await connection.get_raw_connection()
                    driver_connection = raw.driver_connection
                    if driver_connection is None:
                        raise RuntimeError("the pooled connection has no asyncpg connection under it")
                    await driver_connection.add_listener(CHANNEL, self._on_notification)
                    self._listening = driver_connection
                    try:
                        while not driver_connection.is_closed():
                            await asyncio.sleep(1.0)
                    finally:
                        self._listening = None
                        if not driver_connection.is_closed():
                            await driver_connection.remove_listener(CHANNEL, self._on_notification)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database went away: try again shortly
                log.exception("fan-out listener lost its connection; retrying")
                await asyncio.sleep(1.0)

    def _on_notification(self, _connection, _pid, _channel, payload: str) -> None:
        try:
            origin, news = decode_batch(payload)
        except ValueError:
            log.warning("ignoring malformed fan-out payload %r", payload[:200])
            return
        if origin == self.origin:
            return  # our own commits: their listeners were told by committed()
        for game_id, version in news:
            self._deliver(game_id, version)


def make_fanout(engine: AsyncEngine, is_sqlite: bool) -> LocalFanout:
    """The fan-out that fits the database: in-process for SQLite, LISTEN/NOTIFY for Postgres."""
    return LocalFanout() if is_sqlite else PostgresFanout(engine)
