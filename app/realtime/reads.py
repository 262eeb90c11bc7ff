"""Reads the sockets of one process share, so a burst of them costs the database almost nothing.

Before these tools, 2,000 spectators arriving within a minute each took several pooled connections
for their ``hello`` (session, seat, snapshot, log, chat cursor), the pool ran dry, and sockets
were dropped.  Three tools make a greeting cheap:

* :class:`SharedReads`: one read per key among everyone who asks while it runs (a "single flight").
* :class:`BatchedCheck`: yes/no look-ups of many keys gathered into one query (login sessions).
* :class:`GameLogs`: the whole log of each watched game as raw rows, kept in memory and extended
  by each move's own rows, so a ``hello since=0`` reads nothing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

from app.services.games.cache import GameSnapshot

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
LogRows = list[tuple[int, list[dict[str, Any]]]]


class SharedReads:
    """Runs ``read()`` once per key while it is in flight; every caller of that key gets its result
    (or its exception).  A caller cancelled while waiting does not cancel the read for the others.

    ``slots`` bounds how many reads run at once (each takes a pooled connection): the others wait
    here, for as long as it takes, rather than in the pool, whose wait times out after 10 s and
    whose connections the moves and requests need too.
    """

    def __init__(self, slots: asyncio.Semaphore | None = None) -> None:
        self._flights: dict[Hashable, asyncio.Future] = {}
        self._slots = slots

    async def run(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        """The result of the read of ``key`` in flight, or of a new one started now."""
        flight = self._flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(self._in_a_slot(read))
            self._flights[key] = flight
            flight.add_done_callback(lambda done: self._landed(key, done))
        return await asyncio.shield(flight)

    async def _in_a_slot(self, read: Callable[[], Awaitable[T]]) -> T:
        if self._slots is None:
            return await read()
        async with self._slots:
            return await read()

    def _landed(self, key: Hashable, flight: asyncio.Future) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        if not flight.cancelled():
            flight.exception()  # marks it retrieved; the waiters raise it themselves


class BatchedCheck(Generic[K]):
    """``await check(key)`` -> bool, where ``passing(keys)`` answers many keys in one read.

    Keys asked for while a read runs wait for the next one, so every answer comes from a read that
    started after the question was asked (a logout committed before it is always seen).
    """

    def __init__(self, passing: Callable[[set[K]], Awaitable[set[K]]]) -> None:
        self._passing = passing
        self._waiting: dict[K, list[asyncio.Future]] = {}
        self._reader: asyncio.Task | None = None

    async def __call__(self, key: K) -> bool:
        future = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append(future)
        if self._reader is None:
            self._reader = asyncio.create_task(self._read_while_asked())
        return await future

    async def _read_while_asked(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, {}
                try:
                    passed = await self._passing(set(batch))
                except Exception as exc:  # every asker raises it
                    for futures in batch.values():
                        for future in futures:
                            if not future.done():
                                future.set_exception(exc)
                    continue
                for key, futures in batch.items():
                    for future in futures:
                        if not future.done():
                            future.set_result(key in passed)
        finally:
            self._reader = None


def rows_between(rows: LogRows, since: int, version: int) -> LogRows:
    """The rows of ``rows`` (``(version, events)`` in ascending, distinct versions from 1) with
    ``since < version' <= version``: a slice when row ``i`` is version ``i + 1`` up to ``version``
    (a whole log, as :class:`GameLogs` holds it), else a scan."""
    if len(rows) >= version and (version == 0 or rows[version - 1][0] == version):
        return rows[since:version]  # distinct ascending versions from 1 whose v-th is v: row i is version i + 1
    return [row for row in rows if since < row[0] <= version]


class GameLogs:
    """The raw log rows ``(version, events)`` of versions 1..v of recently watched games.

    A game's moves have the versions 1, 2, ... without a gap, so row ``i`` is version ``i + 1`` and
    the rows after version ``since`` are ``rows[since:]``.  At most ``max_rows`` rows are kept over
    all games; the least recently used games go first.  The events are unredacted: they leave only
    through ``views.log_entries``.
    """

    def __init__(self, max_rows: int = 200_000) -> None:
        self._logs: OrderedDict[int, LogRows] = OrderedDict()
        self._rows = 0
        self._max_rows = max_rows

    def rows(self, snapshot: GameSnapshot) -> LogRows | None:
        """The held rows of versions 1..``snapshot.version`` at least (perhaps newer ones too: read
        them with :func:`rows_between`), if held or if the snapshot's own rows (``recent``) complete
        the held ones; else ``None``.  The list is the held one, not a copy: never change it."""
        held = self._logs.get(snapshot.game_id)
        if held is None:
            return None
        self._logs.move_to_end(snapshot.game_id)
        if len(held) >= snapshot.version:
            return held  # rows after snapshot.version too: readers take rows_between(rows, since, version)
        newer = [row for row in snapshot.recent if row[0] > len(held)]
        if [version for version, _ in newer] != list(range(len(held) + 1, snapshot.version + 1)):
            return None
        # In place, not a copy (a copy per move made a game's log cost O(moves^2)): every reader
        # reads only rows up to its snapshot's version, which appending leaves as they were.
        held.extend(newer)
        self._rows += len(newer)
        self._trim()
        return held

    def keep(self, game_id: int, rows: LogRows) -> None:
        """Hold ``rows`` (versions 1..len(rows)) as ``game_id``'s log, unless a longer one is held."""
        held = self._logs.get(game_id)
        if held is not None:
            if len(held) >= len(rows):
                return
            self._rows -= len(held)
        self._logs[game_id] = list(rows)
        self._logs.move_to_end(game_id)
        self._rows += len(rows)
        self._trim()

    def _trim(self) -> None:
        while self._rows > self._max_rows and len(self._logs) > 1:
            _, dropped = self._logs.popitem(last=False)
            self._rows -= len(dropped)
