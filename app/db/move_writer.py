"""The move pipeline's one-statement commit on PostgreSQL.

Committing a move through an ORM session costs five round trips (BEGIN, the row lock, INSERT
the move, UPDATE the snapshot, COMMIT) and about 3 ms of the server's CPU per move; this
module does the same in one prepared statement on a small asyncpg pool (about 0.15 ms): the
snapshot is updated only ``WHERE version = old``, and the move is inserted only if that update
happened, in one implicit transaction.  The other instances are told afterwards by the fan-out
(``app/fanout.py`` says why not inside this statement).

The same statement checks the mover against the database, not against what the calling process
last heard (docs/decisions.md, *Checks at commit*): a person's move is written only while the seat row says they
play it themself and their login session has not ended; a bot's only while a bot plays the seat.
A leave, resign, return or logout committed by another process a moment earlier is therefore
never overtaken by a move that process's notice has not yet reached.

The services use it only when their cached snapshot says the move is for the current version;
when the database disagrees (another process moved first, the table stopped running) nothing is
written and they take the locking path in ``app/services/games/pipeline.py``.

The state itself is written only at a checkpoint: writing the whole state as JSON on
every move (5 KB and more, compressed again by TOAST on each update) was most of Postgres's work.
Between checkpoints ``state`` stays as it is and ``state_version`` names the version it belongs
to (the last version whose state was written, kept from the row or the one before this move);
``to_act`` holds the seats to act at the new version.  ``app/services/games/state.py`` rebuilds the
state at ``version`` from there.

Group commit (docs/decisions.md, *Group commit*): each process has one writer task.  A move handed to :meth:`append` waits
in a queue; while one batch commits, the moves that arrive meanwhile gather, and the next batch
commits up to ``max_batch`` of them, of as many games, in one statement (:data:`APPEND_MOVES`, the
same checks as :data:`APPEND_MOVE` row by row, its parameters as arrays), so one round trip and one
WAL flush serve them all.  Only after that statement returns (committed) is any of them answered:
nothing acknowledged is lost.  A batch holds at most one move per game (a second one waits for the
next batch, so a game's moves commit in order), and it locks its games' rows in the order of their
ids, so two processes' batches never wait on each other in a circle.  When a batch fails on a
unique violation (a move id already used, a move another process committed first) or a deadlock,
its moves are committed again one by one with :data:`APPEND_MOVE`, so each gets its own answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import orjson

from app.db.backup import libpq_url
from app.db.login_sessions import current_login_sql

log = logging.getLogger(__name__)

APPEND_MOVE = f"""
WITH bumped AS (
    UPDATE tables SET state = COALESCE($1::json, state),
        state_version = CASE WHEN $1::json IS NULL THEN COALESCE(state_version, $2 - 1) END,
        to_act = CASE WHEN $1::json IS NULL THEN $13::json END,
        version = $2, status = $3, updated_at = now()
    WHERE id = $4 AND version = $2 - 1 AND status = 'running'
      AND EXISTS (SELECT 1 FROM seats WHERE seats.table_id = $4 AND seats.seat = $5 AND CASE
          WHEN $9::integer IS NULL THEN seats.bot_level IS NOT NULL OR seats.takeover IS NOT NULL
          ELSE seats.account_id = $9 AND seats.takeover IS NULL END)
      AND ($9::integer IS NULL OR {current_login_sql("$9", "$10::integer", "$11::varchar")})
    RETURNING id),
logged AS (
    INSERT INTO moves (table_id, seq, seat, move, events, client_move_id, created_at, reversible)
    SELECT id, $2, $5, $6::json, $7::json, $8, now(), $12 FROM bumped
    RETURNING seq)
SELECT seq FROM logged
"""


# The same checks as APPEND_MOVE, for many games at once: row i of the arrays is one move.  The
# "locked" CTE takes the rows' locks in the order of their ids before anything is written (a
# CTE with FOR NO KEY UPDATE is never folded into the query; every row the UPDATE writes must have
# come out of it, so every lock this statement takes is taken there, in id order).
APPEND_MOVES = f"""
WITH batch AS (
    SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::text[], $5::varchar[], $6::text[],
                         $7::text[], $8::varchar[], $9::integer[], $10::integer[], $11::varchar[], $12::boolean[],
                         $13::text[])
        AS batch(table_id, version, seat, state, status, move, events, client_move_id, account_id, session,
                 key, reversible, to_act)),
locked AS MATERIALIZED (
    SELECT tables.id FROM tables WHERE tables.id = ANY($1::integer[]) ORDER BY tables.id FOR NO KEY UPDATE),
bumped AS (
    UPDATE tables SET state = COALESCE(batch.state::json, tables.state),
        state_version = CASE WHEN batch.state IS NULL THEN COALESCE(tables.state_version, batch.version - 1) END,
        to_act = CASE WHEN batch.state IS NULL THEN batch.to_act::json END,
        version = batch.version, status = batch.status, updated_at = now()
    FROM batch JOIN locked ON locked.id = batch.table_id
    WHERE tables.id = batch.table_id AND tables.version = batch.version - 1 AND tables.status = 'running'
      AND EXISTS (SELECT 1 FROM seats WHERE seats.table_id = batch.table_id AND seats.seat = batch.seat AND CASE
          WHEN batch.account_id IS NULL THEN seats.bot_level IS NOT NULL OR seats.takeover IS NOT NULL
          ELSE seats.account_id = batch.account_id AND seats.takeover IS NULL END)
      AND (batch.account_id IS NULL
           OR {current_login_sql("batch.account_id", "batch.session", "batch.key")})
    RETURNING tables.id, batch.version, batch.seat, batch.move, batch.events, batch.client_move_id,
              batch.reversible),
logged AS (
    INSERT INTO moves (table_id, seq, seat, move, events, client_move_id, created_at, reversible)
    SELECT id, version, seat, move::json, events::json, client_move_id, now(), reversible FROM bumped
    RETURNING table_id)
SELECT table_id FROM logged
"""

MAX_BATCH = 256
"""The most moves one batch commits (the statement and the time its row locks are held stay small);
more wait for the next batch."""


class DuplicateMoveId(Exception):
    """The client move id is already in this game's log (a retry, or a reuse for another move)."""


@dataclass
class _Waiting:
    """One move handed to :meth:`PostgresMoveWriter.append`, waiting for its batch to commit; ``row``
    is its row of :data:`APPEND_MOVES` (the value of each array $1..$13) and ``answer`` is resolved
    after the commit."""

    game_id: int
    row: tuple[Any, ...]
    answer: asyncio.Future = field(repr=False)


class PostgresMoveWriter:
    """Appends moves (and, at a checkpoint, the state) in batches of one statement each; see the
    module docstring.

    ``database_url`` is the SQLAlchemy URL of the app (``postgresql+asyncpg://...``);
    ``max_connections`` bounds this process's extra pool (opened lazily); ``max_batch`` bounds the
    moves one batch commits; ``on_batch(size)`` is called with the number of moves of every
    statement that commits moves (1 for a move alone or for each of a failed batch's moves retried
    one by one), before any of them is answered (the metric ``caravanserai_move_batch_size``).
    """

    def __init__(self, database_url: str, max_connections: int = 1, max_batch: int = MAX_BATCH,
                 on_batch: Callable[[int], None] | None = None) -> None:
        self._dsn = libpq_url(database_url)
        self._max = max_connections
        self._max_batch = max_batch
        self.on_batch = on_batch
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()
        self._waiting: deque[_Waiting] = deque()
        self._arrived = asyncio.Event()
        self._writer: asyncio.Task | None = None
        self._in_flight = False  # a batch is being committed

    async def append(self, game_id: int, version: int, seat: int, state: dict[str, Any] | None, status: str,
                     move: dict[str, Any], events: list[dict[str, Any]], client_move_id: str,
                     account_id: int | None, session: int | None = None, key: str | None = "",
                     reversible: bool = False, to_act: list[int] | None = None) -> bool:
        """Commit ``move`` as version ``version`` of ``game_id`` with the new ``status`` and either
        the new ``state`` (a checkpoint) or, ``state`` None, the stored state kept as it is and
        ``to_act``, the seats to act at ``version`` (see the module docstring).  Returns once the
        batch that holds the move has committed (or written nothing for it).

        ``account_id``, ``session`` and ``key`` name the person who moves and their login session
        (the epoch and the account key in their cookie); ``account_id`` None is the bot that plays
        ``seat``.  ``reversible``: whether the seat may take the move back (``Ruleset.is_reversible``).

        Returns False (and writes nothing) when the game is not running at ``version - 1``, when
        ``seat`` is not (or no longer) played by that person in person, or by a bot, and when the
        person's session has ended.
        Raises :class:`DuplicateMoveId` (nothing written) when ``client_move_id`` is taken, and
        asyncpg's errors when the database fails (then the move may or may not be committed:
        the client's retry with the same id settles it).
        """
        row = (game_id, version, seat, None if state is None else _json(state), status, _json(move), _json(events),
               client_move_id, account_id, session, key, reversible, _json(to_act or []))
        waiting = _Waiting(game_id, row, asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        self._arrived.set()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_forever(), name="move writer")
        return await waiting.answer

    async def close(self) -> None:
        """Let the writer commit the moves already handed to it, then stop it and close the pool
        (waits up to 5 s for each, then cancels the writer / terminates the pool)."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            try:
                await asyncio.wait_for(self._drained(), 5.0)
            except (asyncio.TimeoutError, TimeoutError):
                log.warning("move writer did not commit its queue in 5 s; stopping it")
            writer.cancel()
            await asyncio.gather(writer, return_exceptions=True)
            self._fail_all(ConnectionError("the move writer stopped"))
        if self._pool is None:
            return
        try:
            await asyncio.wait_for(self._pool.close(), 5.0)
        except (asyncio.TimeoutError, TimeoutError):
            log.warning("move writer pool did not close in 5 s; terminating it")
            self._pool.terminate()
        self._pool = None

    async def _drained(self) -> None:
        while self._waiting or self._in_flight:
            await asyncio.sleep(0.01)

    async def _write_forever(self) -> None:
        """The writer task: one batch at a time, for as long as moves arrive."""
        while True:
            await self._arrived.wait()
            self._arrived.clear()
            while self._waiting:
                batch = self._next_batch()
                if not batch:
                    continue
                self._in_flight = True
                try:
                    await self._commit(batch)
                except Exception as exc:  # a bug: answer what is left of the batch, keep writing the others
                    log.exception("the move writer failed on a batch of %d moves", len(batch))
                    for waiting in batch:
                        _answer(waiting, exception=exc)
                finally:
                    self._in_flight = False

    def _next_batch(self) -> list[_Waiting]:
        """Up to ``max_batch`` waiting moves, the first of each game (the rest keep their order for
        the next batch); moves whose caller stopped waiting are dropped unwritten."""
        batch: list[_Waiting] = []
        games: set[int] = set()
        later: deque[_Waiting] = deque()
        while self._waiting and len(batch) < self._max_batch:
            waiting = self._waiting.popleft()
            if waiting.answer.done():  # cancelled: nobody will be told, so nothing is written
                continue
            if waiting.game_id in games:
                later.append(waiting)
            else:
                games.add(waiting.game_id)
                batch.append(waiting)
        later.extend(self._waiting)
        self._waiting = later
        return batch

    async def _commit(self, batch: list[_Waiting]) -> None:
        """Commit ``batch`` in one statement and answer each move (see the module docstring)."""
        if len(batch) == 1:
            await self._commit_alone(batch[0])
            return
        try:
            pool = self._pool or await self._open()
            rows = await pool.fetch(APPEND_MOVES, *(list(column) for column in zip(*(each.row for each in batch))))
        except (asyncpg.UniqueViolationError, asyncpg.DeadlockDetectedError) as exc:
            log.info("a batch of %d moves failed (%s); committing them one by one", len(batch), type(exc).__name__)
            for waiting in batch:
                await self._commit_alone(waiting)
            return
        except BaseException as exc:  # the database failed (or the writer is stopped): each move may or may not be in
            for waiting in batch:
                _answer(waiting, exception=exc if isinstance(exc, Exception) else ConnectionError(repr(exc)))
            if not isinstance(exc, Exception):
                raise
            return
        self._observe(len(batch))
        written = {row["table_id"] for row in rows}
        for waiting in batch:
            _answer(waiting, result=waiting.game_id in written)

    async def _commit_alone(self, waiting: _Waiting) -> None:
        try:
            pool = self._pool or await self._open()
            row = await pool.fetchrow(APPEND_MOVE, *_single_parameters(waiting.row))
        except asyncpg.UniqueViolationError:
            _answer(waiting, exception=DuplicateMoveId(waiting.row[7]))
            return
        except BaseException as exc:
            _answer(waiting, exception=exc if isinstance(exc, Exception) else ConnectionError(repr(exc)))
            if not isinstance(exc, Exception):
                raise
            return
        self._observe(1)
        _answer(waiting, result=row is not None)

    def _observe(self, size: int) -> None:
        if self.on_batch is not None:
            self.on_batch(size)

    def _fail_all(self, exc: Exception) -> None:
        while self._waiting:
            _answer(self._waiting.popleft(), exception=exc)

    async def _open(self) -> asyncpg.Pool:
        async with self._opening:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(self._dsn, min_size=1, max_size=self._max, reset=_keep_session)
        return self._pool


def _single_parameters(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """:data:`APPEND_MOVE`'s parameters ($1 state, $2 version, $3 status, $4 game...) from a batch row."""
    game_id, version, seat, state, status, move, events, client_move_id, account_id, session, key, reversible, \
        to_act = row
    return (state, version, status, game_id, seat, move, events, client_move_id, account_id, session, key,
            reversible, to_act)


def _answer(waiting: _Waiting, result: bool | None = None, exception: Exception | None = None) -> None:
    """Tell the move's caller, unless it stopped waiting."""
    if waiting.answer.done():
        return
    if exception is not None:
        waiting.answer.set_exception(exception)
    else:
        waiting.answer.set_result(result)


async def _keep_session(_connection: asyncpg.Connection) -> None:
    """The pool's reset between two uses of a connection: nothing to do.  The pool's default runs
    ``RESET ALL; UNLISTEN *; CLOSE ALL; ...`` after every statement, a round trip per move; this
    pool only ever runs :data:`APPEND_MOVE` and :data:`APPEND_MOVES`, which leave no session state behind (asyncpg still
    rolls back an open transaction itself)."""


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()
