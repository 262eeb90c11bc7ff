"""The objects the services share for the app's lifetime (built in the lifespan, no globals)."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.move_writer import PostgresMoveWriter
from app.fanout import LocalFanout, Marker
from app.metrics import Metrics
from app.rulesets.registry import Registry
from app.services.games.cache import GameCache, ReplayCache
from app.services.table_locks import TableHold, TableLocks


@dataclass
class Context:
    """Settings, database, rulesets, fan-out and the in-process cache of latest game states.

    ``move_writer`` is the one-statement move commit of PostgreSQL, grouped over many games (group
    commit; None on SQLite).

    Building it makes the cache the fan-out's first listener: news of a seating change (a join, a
    take-over, a return) drops the game's cached snapshot before any other listener (the hub's
    pushes, the bot driver) reads it, so nobody is told, or moved for, from seats that changed.
    """

    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    registry: Registry
    fanout: LocalFanout
    cache: GameCache = field(default_factory=lambda: GameCache())
    replays: ReplayCache = field(default_factory=lambda: ReplayCache())
    metrics: Metrics = field(default_factory=Metrics)
    move_writer: PostgresMoveWriter | None = None
    locks: TableLocks = field(default_factory=TableLocks)

    def __post_init__(self) -> None:
        self.fanout.subscribe(self._forget_changed_seats, first=True)

    def _forget_changed_seats(self, game_id: int, version: int) -> None:
        if version == Marker.SEATING_CHANGED:
            self.cache.forget(game_id)

    def game_lock(self, game_id: int) -> asyncio.Lock:
        """One lock per table in this process: moves and seat changes of one table queue here,
        not in the database (see ``app/services/table_locks.py``)."""
        return self.locks.lock(game_id)

    def hold_table(self, table_id: int) -> AbstractAsyncContextManager[TableHold]:
        """``async with ctx.hold_table(table_id) as held:`` the table's lock and its proof
        (:meth:`TableLocks.hold`), for the functions that change seats or a game's status."""
        return self.locks.hold(table_id)
