"""Replays: a game rebuilt at any version by folding its stored moves over ``setup``.

A fold of a long game costs real time (a 1,800-move Nomadi game: about 0.3 s), and anyone may ask
for replays of public games, so each process keeps the states it folded to (moves never change
once committed, so a folded state never goes stale) and starts the next fold from the nearest one:
stepping through a game with the slider costs one ``apply`` a step.  A move taken back stays in
the log, followed by its undo row, which puts back the state before it (``move_log.py``).  The fold itself runs in a
worker thread, so a long one does not hold up every other game on the process.
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
from app.services.games.cache import ReplayCache
from app.services.context import Context
from app.services.games.move_log import undone_seq

CHECKPOINT_EVERY = 50
"""A fold also keeps every state at a multiple of this version."""


async def state_at(ctx: Context, replays: ReplayCache, game_id: int, version: int,
                   session: AsyncSession | None = None) -> dict[str, Any]:
    """``game_id`` rebuilt at ``version`` (``0 <= version <=`` its latest version, checked by the caller).

    An undo row (``move_log.py``) puts back the state before the move it takes back.  Reads
    through ``session`` when given (the undo, inside its own transaction), else a session of its
    own, closed before the fold.  The returned state may be shared with later callers: read it,
    never change it.
    """
    if session is None:
        async with ctx.sessions() as own:
            fold = await _read_fold(ctx, replays, game_id, version, own)
    else:
        fold = await _read_fold(ctx, replays, game_id, version, session)
    ruleset, first, moves, needed, known = fold
    if not moves:
        return first
    kept = await asyncio.to_thread(_fold, ruleset, first, moves, needed, known)
    for seq, state in kept:  # kept here, on the event loop: the cache is not shared with the thread
        replays.keep(game_id, seq, state)
    return kept[-1][1]


async def _read_fold(ctx: Context, replays: ReplayCache, game_id: int, version: int, session: AsyncSession):
    """What a fold to ``version`` starts from: ``(ruleset, first state, rows after it, versions the
    undo rows put back, the states of those among them from before the first state)``."""
    start = replays.nearest(game_id, version)
    after = start[0] if start else 0
    table = (await session.execute(select(Table).where(Table.id == game_id))).scalar_one()
    rows: Result[int, int, str, dict[str, Any]] = await session.execute(
        select(Move.seq, Move.seat, Move.kind, Move.move)
        .where(Move.table_id == game_id, Move.seq > after, Move.seq <= version).order_by(Move.seq))
    moves = rows.all()
    ruleset = ctx.registry.get(table.ruleset)
    if start is None:
        assert table.seed is not None  # a game with a version to rebuild has started, so has its seed
        first = ruleset.setup(table.seat_count, ruleset.parse_options(table.options), table.seed)
        replays.keep(game_id, 0, first)
    else:
        first = start[1]
    needed = {undone_seq(raw) - 1 for _, _, kind, raw in moves if kind == UNDO_KIND}
    known = {earlier: await state_at(ctx, replays, game_id, earlier, session) for earlier in sorted(needed)
             if earlier < after}
    if after in needed:
        known[after] = first
    return ruleset, first, moves, needed, known


def _fold(ruleset: Ruleset, state: dict[str, Any], moves: Sequence[Row[int, int, str, dict[str, Any]]],
          needed: set[int], known: dict[int, dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Apply ``moves`` (``(seq, seat, kind, wire move)`` rows) in order, an undo row putting back
    ``known[undone - 1]``; the versions in ``needed`` are noted in ``known`` on the way.  Returns
    the states to keep, the last one last."""
    kept = []
    for seq, seat, kind, raw in moves:
        if kind == UNDO_KIND:
            state = known[undone_seq(raw) - 1]
        else:
            state, _ = ruleset.apply(state, seat, ruleset.parse_move(raw))  # apply never changes its input
        if seq in needed:
            known[seq] = state
        if seq % CHECKPOINT_EVERY == 0 and seq != moves[-1][0]:
            kept.append((seq, state))
    kept.append((moves[-1][0], state))
    return kept
