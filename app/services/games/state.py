"""A game's state at its current version, whatever its row holds (docs/decisions.md, *State checkpoints*).

On PostgreSQL the usual move (``app/db/move_writer.py``) writes the state only when the new
version is a multiple of :data:`CHECKPOINT_EVERY`; in between, ``tables.state`` is the state at
``tables.state_version`` (a checkpoint) and the moves after it are in ``moves``.  Every other
writer (the start, a rematch, the locking path of ``games.py``, which also ends games, an undo)
writes the whole state and sets ``state_version`` null, so a finished game's row holds its final
state.  :func:`state_now` is the one way to read a started game's state from its row.

Why 16: the fast path saves Postgres the write of the state on 15 moves of 16 (of the upper
bound, 94%; 32 would give 97%), while a fold from a checkpoint, needed only when no process holds
the game (a restart, another instance, a cache eviction), applies at most 15 moves: about 7 ms in
the slowest ruleset (Nomadi, 0.3 to 0.5 ms an ``apply``), against 15 ms for 32.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Result, Row
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import UNDO_KIND, Move, Table
from app.rulesets.base import Ruleset
from app.services.games import replays
from app.services.context import Context

CHECKPOINT_EVERY = 16
"""The usual move writes the state when its new version is a multiple of this (see above)."""


def is_checkpoint(version: int) -> bool:
    """Whether the usual move that makes ``version`` writes the state."""
    return version % CHECKPOINT_EVERY == 0


async def state_now(ctx: Context, session: AsyncSession, table: Table) -> dict[str, Any] | None:
    """The state of ``table`` at ``table.version`` (None: the game has not started).

    The row's own state when it is current; else this process's cached snapshot at that version;
    else a fold of the moves after the newest of the row's checkpoint, the cached snapshot and a
    kept replay state (each not above ``version``), kept for the next reader.  An undo row among
    them (an undo writes the whole state, so none should be) or a gap leaves the fold to
    ``replays.state_at``, which folds from ``setup``.  The returned state may be shared: read it, never change it.
    """
    if table.state is None or table.state_version is None:
        return table.state
    version = table.version
    cached = ctx.cache.get(table.id)
    if cached is not None and cached.version == version:
        return cached.state
    after, state = table.state_version, table.state
    if cached is not None and after < cached.version < version:
        after, state = cached.version, cached.state
    kept = ctx.replays.nearest(table.id, version)
    if kept is not None and kept[0] > after:
        after, state = kept
    if after == version:
        return state
    rows: Result[int, int, str, dict[str, Any]] = await session.execute(
        select(Move.seq, Move.seat, Move.kind, Move.move)
        .where(Move.table_id == table.id, Move.seq > after, Move.seq <= version).order_by(Move.seq))
    moves = rows.all()
    gapless = [seq for seq, *_ in moves] == list(range(after + 1, version + 1))
    if not gapless or any(kind == UNDO_KIND for _, _, kind, _ in moves):
        return await replays.state_at(ctx, ctx.replays, table.id, version, session)
    state = await asyncio.to_thread(_fold, ctx.registry.get(table.ruleset), state, moves)
    ctx.replays.keep(table.id, version, state)
    return state


def _fold(ruleset: Ruleset, state: dict[str, Any],
          moves: Sequence[Row[int, int, str, dict[str, Any]]]) -> dict[str, Any]:
    """``state`` with ``moves`` (``(seq, seat, kind, wire move)`` rows, none an undo) applied in order."""
    for _, seat, _, raw in moves:
        state, _ = ruleset.apply(state, seat, ruleset.parse_move(raw))  # apply never changes its input
    return state
