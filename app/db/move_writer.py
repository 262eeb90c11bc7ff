"""The move pipeline's one-statement commit on PostgreSQL (issue 9).

Committing a move through an ORM session costs five round trips (BEGIN, the row lock, INSERT
the move, UPDATE the snapshot, COMMIT) and about 3 ms of the server's CPU per move; this
module does the same in one prepared statement on a small asyncpg pool (about 0.15 ms): the
snapshot is updated only ``WHERE version = old``, and the move is inserted only if that update
happened, in one implicit transaction.  The other instances are told afterwards by the fan-out
(``app/fanout.py`` says why not inside this statement).

The same statement checks the mover against the database, not against what the calling process
last heard (issue 17, items 2 and 3): a person's move is written only while the seat row says they
play it themself and their login session has not ended; a bot's only while a bot plays the seat.
A leave, resign, return or logout committed by another process a moment earlier is therefore
never overtaken by a move that process's notice has not yet reached.

The services use it only when their cached snapshot says the move is for the current version;
when the database disagrees (another process moved first, the table stopped running) nothing is
written and they take the locking path in ``app/services/games.py``.

The state itself is written only at a checkpoint (issue 19): writing the whole state as JSON on
every move (5 KB and more, compressed again by TOAST on each update) was most of Postgres's work.
Between checkpoints ``state`` stays as it is and ``state_version`` names the version it belongs
to (the last version whose state was written, kept from the row or the one before this move);
``to_act`` holds the seats to act at the new version.  ``app/services/game_state.py`` rebuilds the
state at ``version`` from there.
"""

from __future__ import annotations

import asyncio
import logging
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


class DuplicateMoveId(Exception):
    """The client move id is already in this game's log (a retry, or a reuse for another move)."""


class PostgresMoveWriter:
    """Appends a move (and, at a checkpoint, the state) in one statement; see the module docstring.

    ``database_url`` is the SQLAlchemy URL of the app (``postgresql+asyncpg://...``);
    ``max_connections`` bounds this process's extra pool (opened lazily).
    """

    def __init__(self, database_url: str, max_connections: int = 10) -> None:
        self._dsn = libpq_url(database_url)
        self._max = max_connections
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()

    async def append(self, game_id: int, version: int, seat: int, state: dict[str, Any] | None, status: str,
                     move: dict[str, Any], events: list[dict[str, Any]], client_move_id: str,
                     account_id: int | None, session: int | None = None, key: str | None = "",
                     reversible: bool = False, to_act: list[int] | None = None) -> bool:
        """Commit ``move`` as version ``version`` of ``game_id`` with the new ``status`` and either
        the new ``state`` (a checkpoint) or, ``state`` None, the stored state kept as it is and
        ``to_act``, the seats to act at ``version`` (see the module docstring).

        ``account_id``, ``session`` and ``key`` name the person who moves and their login session
        (the epoch and the account key in their cookie); ``account_id`` None is the bot that plays
        ``seat``.  ``reversible``: whether the seat may take the move back (``Ruleset.is_reversible``,
        issue 20).

        Returns False (and writes nothing) when the game is not running at ``version - 1``, when
        ``seat`` is not (or no longer) played by that person in person, or by a bot, and when the
        person's session has ended.
        Raises :class:`DuplicateMoveId` (nothing written) when ``client_move_id`` is taken, and
        asyncpg's errors when the database fails (then the move may or may not be committed:
        the client's retry with the same id settles it).
        """
        pool = self._pool or await self._open()
        try:
            row = await pool.fetchrow(APPEND_MOVE, None if state is None else _json(state), version, status, game_id,
                                      seat, _json(move), _json(events), client_move_id, account_id, session, key,
                                      reversible, _json(to_act or []))
        except asyncpg.UniqueViolationError:
            raise DuplicateMoveId(client_move_id) from None
        return row is not None

    async def close(self) -> None:
        """Close the pool (waits up to 5 s for statements in flight, then terminates)."""
        if self._pool is None:
            return
        try:
            await asyncio.wait_for(self._pool.close(), 5.0)
        except (asyncio.TimeoutError, TimeoutError):
            log.warning("move writer pool did not close in 5 s; terminating it")
            self._pool.terminate()
        self._pool = None

    async def _open(self) -> asyncpg.Pool:
        async with self._opening:
            if self._pool is None:
                self._pool = await asyncpg.create_pool(self._dsn, min_size=1, max_size=self._max, reset=_keep_session)
        return self._pool


async def _keep_session(_connection: asyncpg.Connection) -> None:
    """The pool's reset between two uses of a connection: nothing to do.  The pool's default runs
    ``RESET ALL; UNLISTEN *; CLOSE ALL; ...`` after every statement, a round trip per move; this
    pool only ever runs :data:`APPEND_MOVE`, which leaves no session state behind (asyncpg still
    rolls back an open transaction itself)."""


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()
