"""Fan-out: "game G is at version V", published after commit, heard by every app instance.

Knows nothing of sockets or games (ARCHITECTURE.md).  Two implementations of one interface:

* :class:`LocalFanout`: in-process only (SQLite: one instance).
* :class:`PostgresFanout`: also ``NOTIFY``s a channel and ``LISTEN``s to it on a dedicated
  asyncpg connection, so instances on one database hear each other.  Local listeners are told
  at once; the echo of our own notification is dropped: it can arrive before the committing
  task has put the new snapshot in the cache, and listeners would then read the database.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tasks import wind_down

Listener = Callable[[int, int], Awaitable[None] | None]
CHANNEL = "caravanserai_games"
log = logging.getLogger(__name__)


class LocalFanout:
    """In-process fan-out: ``publish`` calls every listener of this process."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._pending: set[asyncio.Task] = set()  # async listeners' tasks still running
        self.origin = secrets.token_hex(4)  # this process, in the payloads it sends

    def payload(self, game_id: int, version: int) -> str:
        """The notification text for ``game_id`` at ``version`` sent by this process:
        ``"<game_id>:<version>:<origin>"``."""
        return f"{game_id}:{version}:{self.origin}"

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(game_id, version)`` for every publication (sync or async callable)."""
        self._listeners.append(listener)

    async def start(self) -> None:
        """Nothing to start in-process."""

    async def stop(self) -> None:
        """Let the async listeners' tasks still running finish (then cancel the late ones), so none
        outlives the database engine (``app.tasks.wind_down``)."""
        await wind_down(self._pending)

    async def publish(self, game_id: int, version: int) -> None:
        """Tell this process's listeners that ``game_id`` reached ``version`` (call after commit)."""
        self._deliver(game_id, version)

    async def notify_in(self, connection, game_id: int, version: int) -> None:
        """Queue the news for other processes inside the caller's transaction (sent at its commit).

        In-process: nothing to do; call :meth:`deliver_local` after the commit.
        """

    def deliver_local(self, game_id: int, version: int) -> None:
        """Tell this process's listeners, after a commit whose :meth:`notify_in` told the others."""
        self._deliver(game_id, version)

    def _deliver(self, game_id: int, version: int) -> None:
        for listener in self._listeners:
            outcome = listener(game_id, version)
            if asyncio.iscoroutine(outcome):
                task = asyncio.ensure_future(outcome)
                self._pending.add(task)  # also keeps the task from being garbage-collected mid-way
                task.add_done_callback(self._pending.discard)


class PostgresFanout(LocalFanout):
    """Fan-out across processes through Postgres ``LISTEN``/``NOTIFY`` on :data:`CHANNEL`.

    Payload: ``"<game_id>:<version>:<origin>"`` (:meth:`payload`; ``origin`` names the sending
    process, whose own listeners were told already).  If the listening connection drops it is re-opened,
    and listeners are told nothing they could miss: sockets resynchronise on their next frame
    (clients re-send ``hello`` after a reconnect).
    """

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__()
        self._engine = engine
        self._listen_task: asyncio.Task | None = None
        self._connection = None

    async def start(self) -> None:
        """Open the listening connection in the background."""
        self._listen_task = asyncio.create_task(self._listen_forever())

    async def stop(self) -> None:
        """Close the listening connection."""
        if self._listen_task:
            self._listen_task.cancel()
            try:
                await self._listen_task
            except asyncio.CancelledError:
                pass
        await super().stop()

    async def publish(self, game_id: int, version: int) -> None:
        """Tell local listeners now and every other instance through ``NOTIFY``."""
        self._deliver(game_id, version)
        async with self._engine.connect() as connection:
            await connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                                     {"channel": CHANNEL, "payload": self.payload(game_id, version)})
            await connection.commit()

    async def notify_in(self, connection, game_id: int, version: int) -> None:
        """``pg_notify`` inside the caller's transaction: Postgres delivers it at commit, never before,
        and it costs no connection of its own."""
        await connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                                 {"channel": CHANNEL, "payload": self.payload(game_id, version)})

    async def _listen_forever(self) -> None:
        while True:
            try:
                async with self._engine.connect() as connection:
                    raw = await connection.get_raw_connection()
                    driver_connection = raw.driver_connection
                    await driver_connection.add_listener(CHANNEL, self._on_notification)
                    try:
                        while not driver_connection.is_closed():
                            await asyncio.sleep(1.0)
                    finally:
                        if not driver_connection.is_closed():
                            await driver_connection.remove_listener(CHANNEL, self._on_notification)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database went away: try again shortly
                log.exception("fan-out listener lost its connection; retrying")
                await asyncio.sleep(1.0)

    def _on_notification(self, _connection, _pid, _channel, payload: str) -> None:
        game_id, _, rest = payload.partition(":")
        version, _, origin = rest.partition(":")
        if origin == self.origin:
            return  # our own commit: its listeners were told by deliver_local or publish
        try:
            self._deliver(int(game_id), int(version))
        except ValueError:
            log.warning("ignoring malformed fan-out payload %r", payload)


def make_fanout(engine: AsyncEngine, is_sqlite: bool) -> LocalFanout:
    """The fan-out that fits the database: in-process for SQLite, LISTEN/NOTIFY for Postgres."""
    return LocalFanout() if is_sqlite else PostgresFanout(engine)
