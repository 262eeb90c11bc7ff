"""Leadership: exactly one process at a time drives bots, clocks and notices (docs/decisions.md, *One leader*).

With several workers or instances on one PostgreSQL, every process hears every commit; if each
drove the bots, each would compute every bot move (twice the CPU, and "move id already used"
refusals when two processes' bots disagree).  So one process is the leader: the one holding a
session-level advisory lock (``pg_try_advisory_lock``) on a connection of its own, opened for
nothing else and kept for as long as the process lives.  The others try again every
``leader_retry_seconds``; when the leader dies (even by kill -9, which closes its connection, and
PostgreSQL then drops the lock) one of them takes over within a few seconds.  On SQLite there is
one process, and it is always the leader.

Services that act only on the leader (``BotDriver``, ``DeadlineWatcher``, later the notifier)
check :attr:`Leadership.is_leader` before they act, and register with :meth:`Leadership.on_gain`
to be told when this process becomes the leader: a new leader must pick up what its predecessor
left (every bot owed a move, every overdue deadline).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import asyncpg

from app.db.backup import libpq_url
from app.tasks import wind_down

log = logging.getLogger(__name__)

LOCK_KEY = 0x43617261_76616E  # "Caravan": the advisory lock's key, the same in every process of one database
Callback = Callable[[], Awaitable[None] | None]


class Leadership:
    """Whether this process is the leader, and the task that tries to become it or keeps it.

    ``database_url``: the app's SQLAlchemy URL; ``None`` (SQLite) makes this process the leader
    at :meth:`start`.  ``retry_seconds``: how often a follower tries the lock, and how often the
    leader checks that its lock connection is still alive (when it is not, the lock is gone too,
    so leadership is given up and tried for again).  A connection that closes under the leader
    ends its leadership at once (asyncpg's termination listener), without waiting for that check.
    """

    def __init__(self, database_url: str | None, retry_seconds: float = 3.0) -> None:
        self._dsn = libpq_url(database_url) if database_url else None
        self._retry = retry_seconds
        self._leader = False
        self._gain: list[Callback] = []
        self._loss: list[Callback] = []
        self._connection: asyncpg.Connection | None = None
        self._task: asyncio.Task | None = None
        self._told_loss: asyncio.Task | None = None  # the loss callbacks of a connection that ended
        self._stopping = asyncio.Event()

    @property
    def is_leader(self) -> bool:
        """True while this process holds the leadership (always on SQLite after :meth:`start`)."""
        return self._leader

    def on_gain(self, callback: Callback) -> None:
        """Call ``callback()`` (sync or async) each time this process becomes the leader, including
        at :meth:`start` when it does so at once.  Register before :meth:`start`."""
        self._gain.append(callback)

    def on_loss(self, callback: Callback) -> None:
        """Call ``callback()`` each time this process stops being the leader (its lock connection
        broke); what was under way may finish, nothing new should start."""
        self._loss.append(callback)

    async def start(self) -> None:
        """Try once now (so a lone process leads from its first request on), then keep trying, or
        keep watching the lock, in the background."""
        self._stopping = asyncio.Event()
        if self._dsn is None:
            await self._become(True)
            return
        await self._attempt()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Give up leadership: stop the task and close the lock's connection (which frees the lock)."""
        self._stopping.set()
        await wind_down([task for task in (self._task, self._told_loss) if task is not None])
        self._leader = False
        await self._close()

    async def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                await asyncio.wait_for(self._stopping.wait(), self._retry)
                return
            except TimeoutError:
                pass
            await self._attempt()

    async def _attempt(self) -> None:
        """One step: a follower tries the lock; the leader checks its connection still holds it."""
        if self._connection is not None and self._connection.is_closed():
            # The lock ended with its connection: a new connection would not hold it.
            self._connection = None
            if self._leader:
                await self._become(False)
        try:
            if self._connection is None:
                self._connection = await asyncpg.connect(self._dsn, timeout=10)
                self._connection.add_termination_listener(self._connection_ended)
            if self._leader:
                await asyncio.wait_for(self._connection.fetchval("SELECT 1"), 10)
                return
            if await asyncio.wait_for(self._connection.fetchval("SELECT pg_try_advisory_lock($1)", LOCK_KEY), 10):
                await self._become(True)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database went away: whatever we held is gone with the connection
            log.warning("leadership: lock connection failed (%s); trying again in %s s", exc, self._retry)
            await self._close()
            if self._leader:
                await self._become(False)

    def _connection_ended(self, connection: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy, /) -> None:
        """The lock connection closed under us (the database restarted or cut it): the lock went
        with it, so the leadership ends now, not at the next check ``retry_seconds`` later, when
        another process may already have taken the lock and two would lead at once."""
        if connection is not self._connection:
            return  # one we closed ourselves, or an older one
        self._connection = None
        if self._leader:
            self._leader = False  # at once: nothing new starts on this process from here
            self._told_loss = asyncio.get_running_loop().create_task(self._become(False))

    async def _become(self, leader: bool) -> None:
        self._leader = leader
        log.info("this process %s the leader (bots, clocks, notices)", "is now" if leader else "is no longer")
        for callback in self._gain if leader else self._loss:
            try:
                outcome = callback()
                if asyncio.iscoroutine(outcome):
                    await outcome
            except Exception:
                log.exception("leadership callback failed")

    async def _close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            try:
                await asyncio.wait_for(connection.close(), 5)
            except Exception:
                connection.terminate()
