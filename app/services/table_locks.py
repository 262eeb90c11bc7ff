"""The per-table lock of one process, and the proof of holding it.

Moves and every change of who plays a seat or whether a game runs (a join, a leave, a start, a
bot seated, a take-over or a return, an account deleted, an admin closing or deleting a table)
queue on one lock per table.  On PostgreSQL the row locks would serialise them anyway; on SQLite,
where rows cannot be locked, this lock is what keeps a move from being checked against seats that
change before it commits.

Held by structure: the functions that make such changes take a :class:`TableHold`, and only
:meth:`TableLocks.hold` makes one, inside the lock; :meth:`TableHold.check` refuses a hold that is
not (or no longer) inside its lock.  Timestamps a single compare-and-set statement writes (when a
person was last seen, connected, marked away) take no lock: they never decide who may move.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableHold:
    """This process holds table ``table_id``'s lock (made only by :meth:`TableLocks.hold`)."""

    table_id: int
    _lock: asyncio.Lock = field(repr=False, compare=False)

    def check(self) -> int:
        """``table_id``, once it is sure the lock is still held; raises ``RuntimeError`` otherwise
        (a hold kept past its ``async with``: a bug, never a user's error)."""
        if not self._lock.locked():
            raise RuntimeError(f"table {self.table_id} is changed outside its lock")
        return self.table_id


class TableLocks:
    """One ``asyncio.Lock`` per table in this process, created on first use and dropped when unused."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock of table ``table_id`` (for the move pipeline, which changes no seat)."""
        lock = self._locks.get(table_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[table_id] = lock
        return lock

    @asynccontextmanager
    async def hold(self, table_id: int) -> AsyncIterator[TableHold]:
        """``async with locks.hold(table_id) as held:`` the table's lock, and the proof to pass to
        the functions that change its seats or status."""
        lock = self.lock(table_id)
        async with lock:
            yield TableHold(table_id, lock)
