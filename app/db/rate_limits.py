"""Where rate limits are counted (docs/decisions.md, *Shared rate limits*): the database, memory, or Redis.

The ``limits`` library counts; it has storages for memory and Redis but none for a SQL database,
so :class:`DatabaseStorage` is one: a row per key in ``rate_limits``, counted with one atomic
upsert (``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``), so every worker and every instance on
the same database shares each count exactly.  It serves the fixed-window strategy
(``FixedWindowRateLimiter``): a key's window opens at its first request and lasts the limit's
period; the next request after that opens a new one.

:func:`rate_limit_storage` picks the store from ``CARAVANSERAI_RATE_LIMIT_STORAGE``: by default
the database on PostgreSQL (several workers, maybe several instances) and memory on SQLite (one
process, where memory is exact and costs no write).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from limits.aio.storage import MemoryStorage, Storage
from limits.storage import storage_from_string
from sqlalchemy import Float, bindparam, case, delete, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import RateLimitCounter
from app.tasks import wind_down

log = logging.getLogger(__name__)
SWEEP_SECONDS = 60.0
REDIS_KEY_PREFIX = "caravanserai"


class DatabaseStorage(Storage):
    """A ``limits`` storage in the ``rate_limits`` table, for the fixed-window strategy.

    ``clock()``: seconds since the Unix epoch (injected by tests).  The instances of a site share
    the expiry times they write, so their clocks should agree (NTP) to well under a window.
    Each call takes one pooled connection in autocommit mode: one statement, no transaction.
    Raises SQLAlchemy errors (``base_exceptions``) when the database fails.
    """

    STORAGE_SCHEME = None  # made with the app's engine (rate_limit_storage), not from a URL

    def __init__(self, engine: AsyncEngine, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self._engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._clock = clock
        self._upsert = _counting_upsert(postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert)
        self._sweeper: asyncio.Task | None = None
        self._stop = asyncio.Event()

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` more hits of ``key``; the key's hits in its window after this one.
        A key whose window has ended starts a new one of ``expiry`` seconds."""
        now = self._clock()
        async with self._engine.connect() as connection:
            result = await connection.execute(self._upsert, {"key": key, "amount": amount, "now": now,
                                                             "expires_at": now + expiry})
            return result.scalar_one()

    async def get(self, key: str) -> int:
        """The hits of ``key`` in its current window (0 when it has none)."""
        counter = RateLimitCounter.__table__.c
        async with self._engine.connect() as connection:
            hits = await connection.scalar(
                select(counter.hits).where(counter.key == key, counter.expires_at > self._clock()))
        return hits or 0

    async def get_expiry(self, key: str) -> float:
        """When ``key``'s window ends (epoch seconds; now when it has none)."""
        counter = RateLimitCounter.__table__.c
        now = self._clock()
        async with self._engine.connect() as connection:
            expires_at = await connection.scalar(
                select(counter.expires_at).where(counter.key == key, counter.expires_at > now))
        return expires_at or now

    async def check(self) -> bool:
        """Whether the database answers."""
        try:
            async with self._engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    async def reset(self) -> int:
        """Forget every count; how many keys there were."""
        async with self._engine.connect() as connection:
            return (await connection.execute(delete(RateLimitCounter))).rowcount

    async def clear(self, key: str) -> None:
        """Forget ``key``'s count."""
        async with self._engine.connect() as connection:
            await connection.execute(delete(RateLimitCounter).where(RateLimitCounter.key == key))

    async def delete_expired(self) -> int:
        """Delete the rows whose window has ended; how many.  (A later request of such a key would
        reuse its row, but most callers never come back.)"""
        async with self._engine.connect() as connection:
            result = await connection.execute(delete(RateLimitCounter).where(RateLimitCounter.expires_at <= self._clock()))
        return result.rowcount

    def start_sweeping(self, interval_seconds: float = SWEEP_SECONDS) -> None:
        """Run :meth:`delete_expired` every ``interval_seconds`` until :meth:`stop_sweeping`."""
        self._sweeper = asyncio.create_task(self._sweep(interval_seconds))

    async def stop_sweeping(self) -> None:
        """End the sweep; a sweep under way finishes first (``app.tasks.wind_down``)."""
        self._stop.set()
        if self._sweeper is not None:
            await wind_down([self._sweeper])

    async def _sweep(self, interval_seconds: float) -> None:
        while True:
            try:
                await asyncio.wait_for(self._stop.wait(), interval_seconds)
                return
            except TimeoutError:
                pass
            try:
                await self.delete_expired()
            except SQLAlchemyError as exc:  # a busy or restarting database: the next sweep catches up
                log.warning("could not delete expired rate-limit counters: %s", exc)


def _counting_upsert(insert):
    """The statement of :meth:`DatabaseStorage.incr` for the dialect's ``insert``, built once:
    ``amount`` more hits of ``key``, or a new window until ``expires_at`` when the row's has ended
    by ``now``; returns the hits.  One statement, so concurrent hits of one key queue on its row."""
    counter = RateLimitCounter.__table__.c
    upsert = insert(RateLimitCounter.__table__).values(
        key=bindparam("key"), hits=bindparam("amount"), expires_at=bindparam("expires_at", type_=Float))
    window_over = counter.expires_at <= bindparam("now", type_=Float)
    return upsert.on_conflict_do_update(
        index_elements=[counter.key],
        set_={"hits": case((window_over, upsert.excluded.hits), else_=counter.hits + upsert.excluded.hits),
              "expires_at": case((window_over, upsert.excluded.expires_at), else_=counter.expires_at)},
    ).returning(counter.hits)


def rate_limit_storage(setting: str, engine: AsyncEngine) -> Storage:
    """The store ``CARAVANSERAI_RATE_LIMIT_STORAGE`` names (``Settings.rate_limit_storage``):
    ``memory``, ``database``, a ``redis://``/``rediss://``/``redis+unix://`` URL (the ``limits``
    library's Redis storage, with the ``redis`` extra installed), or empty: the database on
    PostgreSQL, memory on SQLite."""
    if setting == "memory" or (not setting and engine.dialect.name == "sqlite"):
        return MemoryStorage()
    if setting in ("", "database"):
        return DatabaseStorage(engine)
    # redis-py (the ``redis`` extra), not limits' default client: one well-kept client, the one Redis makes.
    storage = storage_from_string(f"async+{setting}", implementation="redispy", key_prefix=REDIS_KEY_PREFIX)
    if not isinstance(storage, Storage):  # an ``async+`` URL always names an asyncio storage
        raise ValueError(f"{setting!r} names no asyncio storage")
    return storage
